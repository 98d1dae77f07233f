import { createHash } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { UiNode } from '../../../android/ui/ui-dump-parser.js';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';
import { firstUntypeableCharacter, isTypeableWithInputText } from './input-text-encoding.js';
import { KEYCODE_DEL, KEYCODE_MOVE_END } from './ui-keys.js';
import { ADB_KEYBOARD_IME, CLIPPER_PACKAGE, UiInput, type UnicodeMethod } from './ui-input.js';

/** The most text one call types, in UTF-8 bytes: a form field's worth, and a bounded run of key events. */
export const MAX_TEXT_BYTES = 1000;
/** DEL presses that clear a password field, whose length the dump never tells. */
const PASSWORD_CLEAR_PRESSES = 64;

export type TextMethod = 'input_text' | UnicodeMethod;

/** What the event log keeps of typed text. */
export function textDigest(text: string): { length: number; sha256: string } {
  return { length: [...text].length, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
}

/** Refuses text over MAX_TEXT_BYTES, naming the field. */
export function checkTextSize(text: string, field = 'text'): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TEXT_BYTES)
    throw new InvalidArgumentsError(
      `${field} is ${bytes} bytes in UTF-8; at most ${MAX_TEXT_BYTES} are typed per call. Split it over several calls.`,
      'INVALID_ARGUMENT',
      field,
    );
}

/** Refuses text `input text` cannot type, naming the first such character and the tool that can. */
export function checkAsciiTypeable(text: string, field = 'text'): void {
  const bad = firstUntypeableCharacter(text);
  if (!bad) return;
  const hex = bad.codePoint.toString(16).toUpperCase().padStart(4, '0');
  throw new InvalidArgumentsError(
    `${field} has U+${hex} at index ${bad.index}, which \`input text\` cannot type (printable ASCII only). Use ui_type_text_unicode for other characters, send_ui_key for enter or tab.`,
    'INVALID_ARGUMENT',
    field,
  );
}

@injectable()
export class UiTextEntry {
  constructor(@inject(UiInput) private readonly input: UiInput) {}

  /** Types printable ASCII through `input text`, any other text through the device's Unicode helper. */
  async type(serial: string, text: string, signal: AbortSignal): Promise<TextMethod> {
    if (isTypeableWithInputText(text)) {
      await this.input.typeAscii(serial, text, signal);
      return 'input_text';
    }
    return this.typeUnicode(serial, text, signal);
  }

  async typeUnicode(serial: string, text: string, signal: AbortSignal): Promise<UnicodeMethod> {
    const method = await this.input.unicodeMethod(serial, signal);
    if (method === null) {
      throw new ToolError(
        'INPUT_METHOD_MISSING',
        `${serial} has no way to type non-ASCII text: install ADBKeyboard (github.com/senzhk/ADBKeyBoard, input method ${ADB_KEYBOARD_IME}; droidwright selects it for the text and restores yours) or Clipper (${CLIPPER_PACKAGE}, clipboard + paste), then retry. ui_type_text types printable ASCII without either.`,
      );
    }
    if (method === 'ime_broadcast') await this.input.typeWithImeBroadcast(serial, text, signal);
    else await this.input.typeWithClipboard(serial, text, signal);
    return method;
  }

  /** Empties the focused field: the cursor to the end, then one DEL per character it holds. */
  async clear(serial: string, field: UiNode, signal: AbortSignal): Promise<void> {
    const text = field.text && field.text !== field.hint ? field.text : '';
    const presses = field.flags.password && text ? PASSWORD_CLEAR_PRESSES : [...text].length;
    if (presses === 0) return;
    await this.input.keyevents(serial, [KEYCODE_MOVE_END, ...Array<number>(presses).fill(KEYCODE_DEL)], signal);
  }
}
