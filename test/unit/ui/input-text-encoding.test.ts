import {
  decodeInputTextArgument,
  encodeInputTextArguments,
  firstUntypeableCharacter,
  INPUT_TEXT_CHUNK_CHARS,
  isTypeableWithInputText,
} from '../../../src/plugins/ui/services/input-text-encoding.js';

/** What a device types for the arguments: each `input text` decodes its own argument. */
function typed(args: readonly string[]): string {
  return args.map(decodeInputTextArgument).join('');
}

describe('input text encoding', () => {
  it('decodes %s as InputShellCommand.sendText does, and nothing else', () => {
    expect(decodeInputTextArgument('a%sb')).toBe('a b');
    expect(decodeInputTextArgument('%%s')).toBe('% ');
    expect(decodeInputTextArgument('%%ss')).toBe('% s');
    expect(decodeInputTextArgument('100%')).toBe('100%');
    expect(decodeInputTextArgument('\\n$x`y`\'"')).toBe('\\n$x`y`\'"');
  });

  it('sends spaces as %s and splits a literal %s across invocations, so the device types the text exactly', () => {
    expect(encodeInputTextArguments('a b')).toEqual(['a%sb']);
    expect(encodeInputTextArguments('50%s off')).toEqual(['50%', 's%soff']);
    expect(encodeInputTextArguments('%% s')).toEqual(['%%%ss']);
    expect(encodeInputTextArguments('%%s')).toEqual(['%%', 's']);
    for (const text of ['%s', '%%s%s', ' %s ', 's%', '%', '%%%%', 'a%sb%sc', '%s%s%s']) {
      const args = encodeInputTextArguments(text);
      expect({ text, typed: typed(args) }).toEqual({ text, typed: text });
      for (const arg of args) expect(arg).not.toContain(' ');
    }
  });

  it('types every random printable-ASCII string exactly, in chunks of bounded length', () => {
    const alphabet = ' %s%s\\\'"`$&;|<>(){}[]*?!#~=^-_.,:/@+aS0';
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const wrong: string[] = [];
    for (let n = 0; n < 1000; n++) {
      const length = next() % 600;
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
      const args = encodeInputTextArguments(text);
      const chunksOk = args.every(
        (arg) => arg.length > 0 && decodeInputTextArgument(arg).length <= INPUT_TEXT_CHUNK_CHARS,
      );
      if (typed(args) !== text || !chunksOk) wrong.push(text);
    }
    expect(wrong).toEqual([]);
  });

  it('accepts printable ASCII only and names the first character it cannot type', () => {
    expect(isTypeableWithInputText('Hello, world! ~')).toBe(true);
    expect(isTypeableWithInputText('line\nbreak')).toBe(false);
    expect(isTypeableWithInputText('café')).toBe(false);
    expect(firstUntypeableCharacter('ab\tc')).toEqual({ index: 2, codePoint: 9 });
    expect(firstUntypeableCharacter('x😀')).toEqual({ index: 1, codePoint: 0x1f600 });
    expect(firstUntypeableCharacter('plain')).toBeNull();
    expect(() => encodeInputTextArguments('é')).toThrow(RangeError);
  });
});
