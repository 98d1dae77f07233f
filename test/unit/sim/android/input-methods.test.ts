import { newDevice, run } from './shell-io.js';
import type { SimulatedAndroidHandle } from '../../../../src/sim/android/create-simulated-android.js';

/*
 * The simulated phone's soft keyboard and the Unicode helpers, through its shell as adb runs them: the keyboard
 * follows focus and BACK, `ime` and `dumpsys input_method` answer as Android does, ADBKeyboard types only while
 * it is the current input method, Clipper's clipboard is pasted with KEYCODE_PASTE.
 */

const LATIN = 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME';
const ADB_IME = 'com.android.adbkeyboard/.AdbIME';

function emailValue(android: SimulatedAndroidHandle): string | undefined {
  return android.state.am.foreground()?.runtime.values.get('id:email');
}

async function onLogin(options: Parameters<typeof newDevice>[0] = {}): Promise<SimulatedAndroidHandle> {
  const android = newDevice(options);
  await run(android, 'am start -W -n com.example.notes/.LoginActivity');
  return android;
}

describe('simulated soft keyboard and input helpers', () => {
  it('shows the keyboard while a tapped field has focus; BACK hides it before it navigates', async () => {
    const android = await onLogin();
    const shown = async () => /mInputShown=true/.test((await run(android, 'dumpsys input_method')).stdout);
    expect(await shown()).toBe(false);
    await run(android, 'input tap 540 600');
    expect(await shown()).toBe(true);
    expect((await run(android, 'dumpsys input_method')).stdout).toContain(`mCurMethodId=${LATIN}`);
    await run(android, 'input keyevent 4');
    expect(await shown()).toBe(false);
    expect(android.state.am.foreground()?.screen.name).toBe('login');
    await run(android, 'input keyevent 4');
    expect(android.state.am.foreground()?.screen.name ?? null).not.toBe('login');
    android.dispose();
  });

  it('decodes %s in input text as a phone does', async () => {
    const android = await onLogin();
    await run(android, 'input tap 540 600');
    await run(android, "input text 'a%sb%%s' && input text '%' && input text 's'");
    expect(emailValue(android)).toBe('a b% %s');
    android.dispose();
  });

  it('lists ADBKeyboard only when installed, and it types broadcasts only once selected', async () => {
    const bare = await onLogin();
    expect((await run(bare, 'ime list -a -s')).stdout).toBe(`${LATIN}\n`);
    bare.dispose();

    const android = await onLogin({ inputHelpers: ['adb_keyboard'] });
    expect((await run(android, 'ime list -a -s')).stdout).toBe(`${LATIN}\n${ADB_IME}\n`);
    await run(android, 'input tap 540 600');
    const b64 = Buffer.from('héllo 世界', 'utf8').toString('base64');
    await run(android, `am broadcast -a ADB_INPUT_B64 --es msg ${b64}`);
    expect(emailValue(android) ?? '').toBe('');
    expect((await run(android, `ime set ${ADB_IME}`)).stderr).toContain('Unknown input method');
    expect((await run(android, `ime enable ${ADB_IME}`)).stdout).toContain('now enabled');
    expect((await run(android, `ime set ${ADB_IME}`)).stdout).toContain('selected');
    await run(android, `am broadcast -a ADB_INPUT_B64 --es msg ${b64}`);
    expect(emailValue(android)).toBe('héllo 世界');
    await run(android, "am broadcast -a ADB_INPUT_TEXT --es msg '!'");
    expect(emailValue(android)).toBe('héllo 世界!');
    await run(android, 'am broadcast -a ADB_CLEAR_TEXT');
    expect(emailValue(android)).toBe('');
    expect((await run(android, 'settings get secure default_input_method')).stdout.trim()).toBe(ADB_IME);
    android.dispose();
  });

  it('sets the clipboard through Clipper and pastes it into the focused field', async () => {
    const android = await onLogin({ inputHelpers: ['clipper'] });
    expect((await run(android, 'pm path ca.zgrs.clipper')).stdout).toMatch(/^package:.*\.apk/);
    await run(android, 'input tap 540 600');
    await run(android, "am broadcast -a clipper.set -n ca.zgrs.clipper/.ClipperReceiver -e text 'Zoë ✓'");
    await run(android, 'input keyevent 279');
    expect(emailValue(android)).toBe('Zoë ✓');
    android.dispose();
  });
});
