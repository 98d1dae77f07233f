import type { Key } from 'ink';
import { splitKeys } from '../../../src/tui/key-chunks.js';

const none: Key = {
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

/** A compact name per keystroke: the text, or the key's name. */
function names(input: string, key: Key = none): string[] {
  return splitKeys(input, key).map(({ input, key }) =>
    key.return
      ? 'Enter'
      : key.tab
        ? 'Tab'
        : key.escape
          ? 'Esc'
          : key.delete || key.backspace
            ? 'Del'
            : key.ctrl
              ? `C-${input}`
              : key.shift
                ? `S-${input}`
                : input,
  );
}

describe('splitKeys', () => {
  it('gives one keystroke per character of a chunk Ink delivered as one string', () => {
    expect(names('2j\r')).toEqual(['2', 'j', 'Enter']);
    expect(names('jjG')).toEqual(['j', 'j', 'S-G']);
    expect(names('ab\u007f\t\n')).toEqual(['a', 'b', 'Del', 'Tab', 'Enter']);
    expect(names('q\u0003')).toEqual(['q', 'C-c']);
  });

  it('keeps a single key, and an escape sequence Ink already parsed, as it is', () => {
    expect(splitKeys('j', none)).toEqual([{ input: 'j', key: none }]);
    const down = { ...none, downArrow: true };
    expect(splitKeys('', down)).toEqual([{ input: '', key: down }]);
    const shiftTab = { ...none, tab: true, shift: true };
    expect(splitKeys('', shiftTab)).toEqual([{ input: '', key: shiftTab }]);
  });

  it('reads ESC and a key in one chunk as Escape, then the key (no Alt bindings here)', () => {
    expect(names('1', { ...none, meta: true })).toEqual(['Esc', '1']);
    expect(names('', { ...none, escape: true, meta: true })).toEqual(['Esc']);
  });

  it('drops control characters that are no key', () => {
    expect(names('a\u0000b')).toEqual(['a', '', 'b']);
  });
});
