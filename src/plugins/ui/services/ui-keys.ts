/*
 * The keys send_ui_key offers, by the name an agent would use, with their android.view.KeyEvent codes. Sent as
 * numbers (`input keyevent 66`): every Android version reads a number, while names depend on the release.
 */
export const UI_KEYS = {
  back: 4,
  home: 3,
  app_switch: 187,
  menu: 82,
  enter: 66,
  tab: 61,
  space: 62,
  delete: 67,
  forward_delete: 112,
  escape: 111,
  search: 84,
  dpad_up: 19,
  dpad_down: 20,
  dpad_left: 21,
  dpad_right: 22,
  dpad_center: 23,
  move_home: 122,
  move_end: 123,
  page_up: 92,
  page_down: 93,
  paste: 279,
  volume_up: 24,
  volume_down: 25,
  power: 26,
} as const;

export type UiKeyName = keyof typeof UI_KEYS;

export const UI_KEY_NAMES = Object.keys(UI_KEYS) as [UiKeyName, ...UiKeyName[]];

export const KEYCODE_BACK = UI_KEYS.back;
export const KEYCODE_DEL = UI_KEYS.delete;
export const KEYCODE_MOVE_END = UI_KEYS.move_end;
export const KEYCODE_PASTE = UI_KEYS.paste;
