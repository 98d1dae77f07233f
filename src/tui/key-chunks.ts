import type { Key } from 'ink';

/** One keystroke as the dashboard handles it. */
export interface KeyPress {
  readonly input: string;
  readonly key: Key;
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * The keystrokes in what Ink delivered as one input. Ink splits a chunk of stdin at escape sequences only, so
 * keys typed fast, pasted, or sent together by `tmux send-keys` (`jj`, `2j`, `y\r`) arrive as one string that
 * matches no key; each character is one keystroke here, with Enter, Tab, Backspace and Ctrl-letters recognized
 * as a single-key chunk would have been.
 */
export function splitKeys(input: string, key: Key): KeyPress[] {
  const chars = [...input];
  // ESC and a key in one chunk is how a terminal spells Alt+key, and also Escape then the key sent together; the
  // dashboard binds no Alt keys, so it is the latter.
  if (key.meta && !key.escape && chars.length === 1 && isPlainChunk({ ...key, meta: false }))
    return [{ input: '', key: { ...NO_KEY, escape: true, meta: true } }, keyOfChar(input)];
  if (chars.length <= 1 || !isPlainChunk(key)) return [{ input, key }];
  return chars.map(keyOfChar);
}

/** Ink reports nothing about a multi-character chunk beyond its text. */
function isPlainChunk(key: Key): boolean {
  return !(
    key.upArrow ||
    key.downArrow ||
    key.leftArrow ||
    key.rightArrow ||
    key.pageDown ||
    key.pageUp ||
    key.home ||
    key.end ||
    key.return ||
    key.escape ||
    key.tab ||
    key.ctrl ||
    key.meta ||
    key.backspace ||
    key.delete
  );
}

function keyOfChar(char: string): KeyPress {
  switch (char) {
    case '\r':
    case '\n':
      return { input: '', key: { ...NO_KEY, return: true } };
    case '\t':
      return { input: '', key: { ...NO_KEY, tab: true } };
    case '\u007f':
      return { input: '', key: { ...NO_KEY, delete: true } };
    case '\b':
      return { input: '', key: { ...NO_KEY, backspace: true } };
    case '\u001b':
      return { input: '', key: { ...NO_KEY, escape: true, meta: true } };
  }
  const code = char.codePointAt(0)!;
  // Ctrl-A … Ctrl-Z, as Ink reports a lone one: the letter with ctrl set.
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ...NO_KEY, ctrl: true } };
  if (code < 32) return { input: '', key: NO_KEY };
  return { input: char, key: /[A-Z]/.test(char) ? { ...NO_KEY, shift: true } : NO_KEY };
}
