/*
 * The soft keyboard and the helpers tools install to type any Unicode text, as a phone has them:
 * - LatinIME is the default input method; `dumpsys input_method` reports `mInputShown` (up while an edit field
 *   has focus after a tap, down after BACK or a new screen).
 * - ADBKeyboard (com.android.adbkeyboard/.AdbIME), when installed (`inputHelpers: ['adb_keyboard']`), is listed by
 *   `ime list -a -s`; once `ime set`, it types the `ADB_INPUT_TEXT` (`msg`) and `ADB_INPUT_B64` (`msg`, UTF-8 as
 *   base64) broadcasts into the focused field and clears it on `ADB_CLEAR_TEXT`. While it is not the current input
 *   method the broadcasts reach no receiver, as on a phone.
 * - Clipper (ca.zgrs.clipper), when installed (`inputHelpers: ['clipper']`), sets the clipboard from a `clipper.set`
 *   broadcast (`text` extra); KEYCODE_PASTE pastes it into the focused field.
 */
import { AppSchema, type AppSpec } from './scenario/scenario-schema.js';

export const LATIN_IME = 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME';
export const ADB_KEYBOARD_PACKAGE = 'com.android.adbkeyboard';
export const ADB_KEYBOARD_IME = 'com.android.adbkeyboard/.AdbIME';
export const CLIPPER_PACKAGE = 'ca.zgrs.clipper';

export type InputHelper = 'adb_keyboard' | 'clipper';

/** The app a helper installs, as a scenario app with one blank screen (both have a launcher activity). */
export function inputHelperApp(helper: InputHelper): AppSpec {
  const [pkg, label] =
    helper === 'adb_keyboard' ? [ADB_KEYBOARD_PACKAGE, 'ADB Keyboard'] : [CLIPPER_PACKAGE, 'Clipper'];
  return AppSchema.parse({
    package: pkg,
    label,
    debuggable: false,
    activities: [{ name: '.MainActivity', screen: 'main', launcher: true }],
    screens: {
      main: {
        activity: '.MainActivity',
        root: { class: 'android.widget.FrameLayout', bounds: [0, 84, 1080, 2400] },
      },
    },
  });
}

/** What a broadcast asks of the input helpers, from its action and string extras. */
export type InputBroadcast =
  | { kind: 'type'; text: string }
  | { kind: 'clear' }
  | { kind: 'clipboard'; text: string }
  | null;

/** Reads an `am broadcast` intent as ADBKeyboard or Clipper would receive it; null when it is not theirs. */
export function readInputBroadcast(action: string | undefined, extras: ReadonlyMap<string, string>): InputBroadcast {
  switch (action) {
    case 'ADB_INPUT_TEXT': {
      const msg = extras.get('msg');
      return msg === undefined ? null : { kind: 'type', text: msg };
    }
    case 'ADB_INPUT_B64': {
      const msg = extras.get('msg');
      return msg === undefined ? null : { kind: 'type', text: Buffer.from(msg, 'base64').toString('utf8') };
    }
    case 'ADB_CLEAR_TEXT':
      return { kind: 'clear' };
    case 'clipper.set': {
      const text = extras.get('text');
      return text === undefined ? null : { kind: 'clipboard', text };
    }
    default:
      return null;
  }
}
