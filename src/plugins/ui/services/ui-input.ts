import { inject, injectable } from 'inversify';
import { AdbService, type ShellResult } from '../../../android/adb-service.js';
import { type DeviceCommand, joinCommands, sh } from '../../../android/device-command.js';
import { ToolError } from '../../../kernel/errors.js';
import { encodeInputTextArguments } from './input-text-encoding.js';
import { KEYCODE_BACK, KEYCODE_PASTE } from './ui-keys.js';

/*
 * The touch and key input a tester's hand makes, as `input` commands on the device. Every value reaches the
 * device through the `sh` tag; numbers are integers checked by the tools' schemas.
 */

/** ADBKeyboard (github.com/senzhk/ADBKeyBoard): an input method that types what it is sent by broadcast. */
export const ADB_KEYBOARD_IME = 'com.android.adbkeyboard/.AdbIME';
/** Clipper (github.com/majido/clipper): sets the clipboard from a broadcast; the text is then pasted. */
export const CLIPPER_PACKAGE = 'ca.zgrs.clipper';

export type UnicodeMethod = 'ime_broadcast' | 'clipboard';

const INPUT_OPTS = { timeoutMs: 20_000, maxOutputBytes: 16 * 1024 } as const;

/** How long a long press holds (ViewConfiguration's long-press timeout is 400–500 ms). */
export const LONG_PRESS_MS = 800;

@injectable()
export class UiInput {
  constructor(@inject(AdbService) private readonly adb: AdbService) {}

  private async run(serial: string, command: DeviceCommand, what: string, signal?: AbortSignal): Promise<ShellResult> {
    const result = await this.adb.shell(serial, command, { ...INPUT_OPTS, signal });
    // `input` reports a bad argument as an exception on stderr with status 0 on older releases.
    if (result.exitCode !== 0 || /Exception|Error:/.test(result.output)) {
      throw new ToolError(
        'COMMAND_FAILED',
        `${what} failed on ${serial}: ${result.output.trim().slice(0, 300) || `exit status ${result.exitCode}`}. Check the device is unlocked with its screen on (get_device_info) and retry.`,
      );
    }
    return result;
  }

  async tap(serial: string, x: number, y: number, signal?: AbortSignal): Promise<void> {
    await this.run(serial, sh`input tap ${x} ${y}`, 'input tap', signal);
  }

  /** A press held in place: a swipe that does not move, the only long press `input` can make on every release. */
  async longPress(serial: string, x: number, y: number, signal?: AbortSignal): Promise<void> {
    await this.run(serial, sh`input swipe ${x} ${y} ${x} ${y} ${LONG_PRESS_MS}`, 'input swipe (long press)', signal);
  }

  async swipe(
    serial: string,
    from: { x: number; y: number },
    to: { x: number; y: number },
    durationMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.run(serial, sh`input swipe ${from.x} ${from.y} ${to.x} ${to.y} ${durationMs}`, 'input swipe', signal);
  }

  /** Types printable ASCII into the focused field with `input text` (see input-text-encoding.ts). */
  async typeAscii(serial: string, text: string, signal?: AbortSignal): Promise<void> {
    const commands = encodeInputTextArguments(text).map((argument) => sh`input text ${argument}`);
    if (commands.length === 0) return;
    await this.run(serial, joinCommands(commands, ' && '), 'input text', signal);
  }

  async keyevents(serial: string, keycodes: readonly number[], signal?: AbortSignal): Promise<void> {
    if (keycodes.length === 0) return;
    const args = keycodes.map(String);
    await this.run(serial, sh`input keyevent ${args}`, 'input keyevent', signal);
  }

  /** Whether the soft keyboard is up (`mInputShown` in `dumpsys input_method`); null when the device does not say. */
  async keyboardShown(serial: string, signal?: AbortSignal): Promise<boolean | null> {
    const result = await this.adb.shell(serial, sh`dumpsys input_method`, {
      timeoutMs: 15_000,
      maxOutputBytes: 256 * 1024,
      signal,
    });
    const match = /\bmInputShown=(true|false)\b/.exec(result.output);
    return match ? match[1] === 'true' : null;
  }

  /** Hides the soft keyboard with BACK, which closes the keyboard (and only it) while it is up. */
  async hideKeyboard(serial: string, signal?: AbortSignal): Promise<void> {
    await this.keyevents(serial, [KEYCODE_BACK], signal);
  }

  /** How this device can type any Unicode text: ADBKeyboard installed, else Clipper, else null. */
  async unicodeMethod(serial: string, signal?: AbortSignal): Promise<UnicodeMethod | null> {
    const result = await this.adb.shell(
      serial,
      joinCommands([sh`ime list -a -s`, sh`pm path ${CLIPPER_PACKAGE}`], '; '),
      { ...INPUT_OPTS, signal },
    );
    const lines = result.output.split('\n').map((line) => line.trim());
    if (lines.includes(ADB_KEYBOARD_IME)) return 'ime_broadcast';
    if (lines.some((line) => line.startsWith('package:') && line.endsWith('.apk'))) return 'clipboard';
    return null;
  }

  /**
   * Types through ADBKeyboard: made the current input method for the broadcast (UTF-8 as base64, so no
   * character is read by anything but the keyboard), then the previous one is restored.
   */
  async typeWithImeBroadcast(serial: string, text: string, signal?: AbortSignal): Promise<void> {
    const current = await this.adb.shell(serial, sh`settings get secure default_input_method`, {
      ...INPUT_OPTS,
      signal,
    });
    const previous = current.output.trim();
    const base64 = Buffer.from(text, 'utf8').toString('base64');
    try {
      await this.run(
        serial,
        joinCommands([sh`ime enable ${ADB_KEYBOARD_IME}`, sh`ime set ${ADB_KEYBOARD_IME}`], ' && '),
        'Selecting ADBKeyboard',
        signal,
      );
      await this.waitForInputMethod(serial, ADB_KEYBOARD_IME, signal);
      const result = await this.run(
        serial,
        sh`am broadcast -a ADB_INPUT_B64 --es msg ${base64}`,
        'The ADBKeyboard broadcast',
        signal,
      );
      if (!/Broadcast completed/.test(result.output))
        throw new ToolError('COMMAND_FAILED', `The ADBKeyboard broadcast was not delivered on ${serial}.`);
    } finally {
      if (/^[\w.]+\/[\w.$]+$/.test(previous) && previous !== ADB_KEYBOARD_IME)
        await this.adb.shell(serial, sh`ime set ${previous}`, INPUT_OPTS);
    }
  }

  /**
   * Waits (at most 2 s) until the input method service has bound `id`: ADBKeyboard registers its broadcast
   * receiver when bound, so a broadcast sent straight after `ime set` can reach no one on a slow device.
   */
  private async waitForInputMethod(serial: string, id: string, signal?: AbortSignal): Promise<void> {
    for (let attempt = 0; attempt < 20 && !signal?.aborted; attempt++) {
      const result = await this.adb.shell(serial, sh`dumpsys input_method`, {
        timeoutMs: 15_000,
        maxOutputBytes: 256 * 1024,
        signal,
      });
      if (result.output.split(/\s+/).includes(`mCurMethodId=${id}`)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new ToolError(
      'COMMAND_FAILED',
      `${serial} did not switch to ${id} within 2 s (dumpsys input_method); check the keyboard is installed and enabled, then retry.`,
    );
  }

  /** Types by setting the clipboard through Clipper and pasting into the focused field. */
  async typeWithClipboard(serial: string, text: string, signal?: AbortSignal): Promise<void> {
    const result = await this.run(
      serial,
      sh`am broadcast -a clipper.set -n ${`${CLIPPER_PACKAGE}/.ClipperReceiver`} -e text ${text}`,
      'Setting the clipboard through Clipper',
      signal,
    );
    if (!/Broadcast completed/.test(result.output))
      throw new ToolError('COMMAND_FAILED', `Clipper did not take the text on ${serial}.`);
    await this.keyevents(serial, [KEYCODE_PASTE], signal);
  }
}
