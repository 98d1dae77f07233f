/*
 * Text for Android's `input text`, which reads its argument twice after the device shell has unquoted it:
 * InputShellCommand.sendText turns every `%s` into a space (its one escape, with no way to write a literal
 * `%s`), then KeyCharacterMap turns each character into key presses, which exist only for printable ASCII.
 * So a space is sent as `%s`, and a literal `%` followed by a literal `s` ends one `input text` and starts
 * the next (each invocation is decoded on its own, so nothing pairs across them). Everything else reaches
 * `input` verbatim because the whole argument is single-quoted by the `sh` tag: the shell never sees `$`,
 * backquotes, `\`, quotes, `;&|<>` or globs as syntax. Control characters and non-ASCII text have no key
 * presses and are refused here; ui_type_text_unicode and send_ui_key type those.
 */

/** Characters `input text` can type: printable ASCII, space included. */
const TYPEABLE = /^[\x20-\x7e]*$/;

/** Characters of text per `input text` invocation: long arguments make slow devices drop key events. */
export const INPUT_TEXT_CHUNK_CHARS = 200;

export function isTypeableWithInputText(text: string): boolean {
  return TYPEABLE.test(text);
}

/** The first character `input text` cannot type, for the refusal message; null when there is none. */
export function firstUntypeableCharacter(text: string): { index: number; codePoint: number } | null {
  let index = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint < 0x20 || codePoint > 0x7e) return { index, codePoint };
    index += char.length;
  }
  return null;
}

/**
 * The arguments of the `input text` invocations that type `text` exactly (one per returned string). The
 * text must be typeable (isTypeableWithInputText).
 */
export function encodeInputTextArguments(text: string): string[] {
  if (!isTypeableWithInputText(text)) throw new RangeError('text has characters `input text` cannot type');
  const pieces: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const splitAfterPercent = text[i] === '%' && text[i + 1] === 's';
    if (splitAfterPercent || i + 1 - start >= INPUT_TEXT_CHUNK_CHARS) {
      pieces.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces.map((piece) => piece.replace(/ /g, '%s'));
}

/** What `input text ARG` types: a port of InputShellCommand.sendText's `%s` decoding (for tests and the sim). */
export function decodeInputTextArgument(argument: string): string {
  const buff = [...argument];
  let escapeFlag = false;
  for (let i = 0; i < buff.length; i++) {
    if (escapeFlag) {
      escapeFlag = false;
      if (buff[i] === 's') {
        buff[i] = ' ';
        buff.splice(--i, 1);
      }
    }
    if (buff[i] === '%') escapeFlag = true;
  }
  return buff.join('');
}
