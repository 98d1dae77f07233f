/** The KeyEvent codes `input keyevent` accepts by name (with or without the KEYCODE_ prefix). */
export const KEYCODES: Readonly<Record<string, number>> = {
  UNKNOWN: 0, SOFT_LEFT: 1, SOFT_RIGHT: 2, HOME: 3, BACK: 4, CALL: 5, ENDCALL: 6,
  '0': 7, '1': 8, '2': 9, '3': 10, '4': 11, '5': 12, '6': 13, '7': 14, '8': 15, '9': 16,
  STAR: 17, POUND: 18, DPAD_UP: 19, DPAD_DOWN: 20, DPAD_LEFT: 21, DPAD_RIGHT: 22, DPAD_CENTER: 23,
  VOLUME_UP: 24, VOLUME_DOWN: 25, POWER: 26, CAMERA: 27, CLEAR: 28,
  A: 29, B: 30, C: 31, D: 32, E: 33, F: 34, G: 35, H: 36, I: 37, J: 38, K: 39, L: 40, M: 41, N: 42, O: 43,
  P: 44, Q: 45, R: 46, S: 47, T: 48, U: 49, V: 50, W: 51, X: 52, Y: 53, Z: 54,
  COMMA: 55, PERIOD: 56, ALT_LEFT: 57, ALT_RIGHT: 58, SHIFT_LEFT: 59, SHIFT_RIGHT: 60, TAB: 61, SPACE: 62,
  SYM: 63, EXPLORER: 64, ENVELOPE: 65, ENTER: 66, DEL: 67, GRAVE: 68, MINUS: 69, EQUALS: 70,
  LEFT_BRACKET: 71, RIGHT_BRACKET: 72, BACKSLASH: 73, SEMICOLON: 74, APOSTROPHE: 75, SLASH: 76, AT: 77,
  NUM: 78, HEADSETHOOK: 79, FOCUS: 80, PLUS: 81, MENU: 82, NOTIFICATION: 83, SEARCH: 84,
  MEDIA_PLAY_PAUSE: 85, MEDIA_STOP: 86, MEDIA_NEXT: 87, MEDIA_PREVIOUS: 88, PAGE_UP: 92, PAGE_DOWN: 93,
  ESCAPE: 111, FORWARD_DEL: 112, MOVE_HOME: 122, MOVE_END: 123, VOLUME_MUTE: 164, APP_SWITCH: 187,
  SLEEP: 223, WAKEUP: 224, ASSIST: 219, BRIGHTNESS_DOWN: 220, BRIGHTNESS_UP: 221,
};

export const KEY = { HOME: 3, BACK: 4, POWER: 26, TAB: 61, ENTER: 66, DEL: 67, MENU: 82, SLEEP: 223, WAKEUP: 224, FORWARD_DEL: 112, SPACE: 62 } as const;

/** KeyEvent.keyCodeFromString: a name with or without KEYCODE_, or a number; null when unknown. */
export function keyCodeFromString(arg: string): number | null {
  // A bare number is a key code (`input keyevent 4` is BACK, not the digit 4).
  if (/^\d+$/.test(arg)) {
    const n = Number(arg);
    return n <= 400 ? n : null;
  }
  const name = arg.startsWith('KEYCODE_') ? arg.slice(8) : arg;
  return Object.prototype.hasOwnProperty.call(KEYCODES, name) ? KEYCODES[name] : null;
}

/** The character a key types into a focused field (letters lowercase, as without shift). */
export function keyChar(code: number): string | null {
  if (code >= 7 && code <= 16) return String(code - 7);
  if (code >= 29 && code <= 54) return String.fromCharCode(97 + code - 29);
  const map: Record<number, string> = { 55: ',', 56: '.', 62: ' ', 69: '-', 70: '=', 76: '/', 77: '@', 81: '+' };
  return map[code] ?? null;
}
