/*
 * Paste shapes: what happens to a build log between the terminal and an issue, applied to a whole capture. Each one
 * keeps the files, lines and messages the log reports, so a parser that reads the log should report the same
 * diagnostics after it (a metamorphic test: scripts/measure-gradle-parser.mjs --transform, and the unit test
 * gradle-output-paste-shapes.test.ts). Each shape was seen in logs pasted into public issues.
 */

type Shape = (text: string) => string;

const eachLine =
  (f: (line: string, index: number) => string): Shape =>
  (text) =>
    text
      .split('\n')
      .map((line, i) => f(line, i))
      .join('\n');

/** A line's text without the carriage return a CRLF capture keeps at its end, and that return. */
function splitCr(line: string): [string, string] {
  return line.endsWith('\r') ? [line.slice(0, -1), '\r'] : [line, ''];
}

const blank = (line: string) => line.trim() === '';

function leading(line: string): [string, string] {
  const body = line.trimStart();
  return [line.slice(0, line.length - body.length), body];
}

/** GitHub Actions' raw log: an ISO time with seven decimals and a space before every line, blank ones too. */
function actionsTime(i: number): string {
  const seconds = String(Math.floor(i / 50) % 60).padStart(2, '0');
  const fraction = String((1234567 + i * 20011) % 10_000_000).padStart(7, '0');
  return `2024-05-01T10:00:${seconds}.${fraction}Z `;
}

const COLOURED_WORD = /\b(BUILD FAILED|FAILED|FAILURE|[Ee]rror|ERROR|[Ww]arning|WARNING)\b/g;

export const PASTE_SHAPES: Record<string, Shape> = {
  /** A markdown indented code block: four spaces before every line with text (editors leave blank lines empty). */
  indent4: eachLine((line) => (blank(line) ? line : `    ${line}`)),
  /** A markdown quote: `> ` before every line, `>` alone on a blank one. */
  quote: eachLine((line) => (blank(line) ? `>${line}` : `> ${line}`)),
  crlf: eachLine((line) => (line.endsWith('\r') ? line : `${line}\r`)),
  'gha-timestamp': eachLine((line, i) => actionsTime(i) + line),
  /** npm `concurrently` running Gradle as its first command. */
  concurrently: eachLine((line) => `[0] ${line}`),
  /** … with the command named (`concurrently -n android`). */
  'concurrently-named': eachLine((line) => `[android] ${line}`),
  /** A runner tagging the stream each line came from. */
  stderr: eachLine((line) => `[stderr] ${line}`),
  /** Colours a terminal or CI viewer puts on the words a reader looks for. */
  ansi: eachLine((line) => {
    const [text, cr] = splitCr(line);
    return text.replace(COLOURED_WORD, (word) => `\u001b[${/arn/i.test(word) ? '33' : '1;31'}m${word}\u001b[0m`) + cr;
  }),
  /** An editor expanding the tabs that indent a line (stack frames' `\tat`) to four spaces. */
  tabs: eachLine((line) => {
    const [indent, body] = leading(line);
    return indent.replace(/\t/g, '    ') + body;
  }),
  /** … and the reverse: an editor turning each four spaces of indentation into a tab. */
  'tabs-reverse': eachLine((line) => {
    const [indent, body] = leading(line);
    return indent.replace(/ {4}/g, '\t') + body;
  }),
  /** Blank lines dropped (GitHub's renderer and some copies collapse them). */
  'blank-lines': (text) =>
    text
      .split('\n')
      .filter((line) => !blank(line))
      .join('\n'),
  /** A blank line after every line: a copy from a terminal that puts a paragraph break at each line's end. */
  'double-spacing': (text) =>
    text
      .split('\n')
      .map((line) => `${line}\n`)
      .join('\n'),
  /** Non-breaking spaces for the indentation, as a copy from a rendered web page has them. */
  nbsp: eachLine((line) => {
    const [indent, body] = leading(line);
    return indent.replace(/ /g, '\u00a0') + body;
  }),
  /** Trailing spaces after every line with text (markdown's hard break, or an editor padding lines). */
  'trailing-space': eachLine((line) => {
    const [text, cr] = splitCr(line);
    return blank(text) ? line : `${text}  ${cr}`;
  }),
  /** A CRLF log written out through a text-mode stream again: `\r\r\n` at every line's end. */
  'trailing-cr': eachLine((line) => `${splitCr(line)[0]}\r\r`),
};

/** Applies `a+b+…` (shapes composed left to right). */
export function applyPasteShape(name: string, text: string): string {
  let out = text;
  for (const part of name.split('+')) {
    const shape = PASTE_SHAPES[part];
    if (shape === undefined)
      throw new Error(`unknown paste shape '${part}' (known: ${Object.keys(PASTE_SHAPES).join(', ')})`);
    out = shape(out);
  }
  return out;
}
