/*
 * Edits one entry of a JSON-with-comments file (VS Code's mcp.json, Cursor's, Gemini's settings.json) as text:
 * the rest of the file — comments, key order, indentation, trailing commas — is kept byte for byte.
 * Only what setup needs: read the whole document, set or remove `parent.name`.
 */

export class JsoncError extends Error {
  override name = 'JsoncError';
}

interface Member {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  valueStart: number;
  valueEnd: number;
  /** Offset just past the comma that follows the value, when one does. */
  commaEnd: number | null;
  value: ObjectNode | null;
}
interface ObjectNode {
  start: number;
  /** Offset of the closing brace. */
  end: number;
  members: Member[];
}

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  skip(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') this.pos++;
      else if (c === '/' && t[this.pos + 1] === '/') {
        const nl = t.indexOf('\n', this.pos);
        this.pos = nl < 0 ? t.length : nl;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const close = t.indexOf('*/', this.pos + 2);
        if (close < 0) throw new JsoncError('unterminated comment');
        this.pos = close + 2;
      } else return;
    }
  }

  fail(what: string): never {
    const line = this.text.slice(0, this.pos).split('\n').length;
    throw new JsoncError(`${what} at line ${line}`);
  }

  string(): string {
    const start = this.pos;
    if (this.text[start] !== '"') this.fail('expected a string');
    let i = start + 1;
    while (i < this.text.length && this.text[i] !== '"') i += this.text[i] === '\\' ? 2 : 1;
    if (i >= this.text.length) this.fail('unterminated string');
    this.pos = i + 1;
    return JSON.parse(this.text.slice(start, this.pos)) as string;
  }

  value(): ObjectNode | null {
    this.skip();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') {
      this.pos++;
      for (;;) {
        this.skip();
        if (this.text[this.pos] === ']') {
          this.pos++;
          return null;
        }
        this.value();
        this.skip();
        if (this.text[this.pos] === ',') this.pos++;
        else if (this.text[this.pos] !== ']') this.fail('expected , or ]');
      }
    }
    if (c === '"') {
      this.string();
      return null;
    }
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      this.text.slice(this.pos, this.pos + 64),
    );
    if (!literal) this.fail('expected a value');
    this.pos += literal[0].length;
    return null;
  }

  object(): ObjectNode {
    const node: ObjectNode = { start: this.pos, end: -1, members: [] };
    this.pos++;
    for (;;) {
      this.skip();
      if (this.text[this.pos] === '}') {
        node.end = this.pos;
        this.pos++;
        return node;
      }
      const start = this.pos;
      const key = this.string();
      this.skip();
      if (this.text[this.pos] !== ':') this.fail('expected :');
      this.pos++;
      this.skip();
      const valueStart = this.pos;
      const value = this.value();
      const member: Member = { key, start, valueStart, valueEnd: this.pos, commaEnd: null, value };
      node.members.push(member);
      this.skip();
      if (this.text[this.pos] === ',') {
        this.pos++;
        member.commaEnd = this.pos;
      } else if (this.text[this.pos] !== '}') this.fail('expected , or }');
    }
  }
}

function parseRoot(text: string): ObjectNode | null {
  const scanner = new Scanner(text);
  scanner.skip();
  if (scanner.pos >= text.length) return null;
  if (text[scanner.pos] !== '{') scanner.fail('the file is not a JSON object');
  const root = scanner.object();
  scanner.skip();
  if (scanner.pos < text.length) scanner.fail('unexpected text after the object');
  return root;
}

/** Comments and trailing commas removed, so JSON.parse reads what the editor reads. */
export function parseJsonc(text: string): unknown {
  const root = parseRoot(text);
  if (!root) return {};
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) + 2;
    else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

function indentUnit(text: string): string {
  return /^([ \t]+)"/m.exec(text)?.[1] ?? '  ';
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function render(value: unknown, unit: string, base: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `\n${base}`);
}

/** Inserts `"key": value` as the last member of `node`, in the style of its siblings. */
function insertMember(text: string, node: ObjectNode, key: string, value: unknown, unit: string): string {
  const closingIndent = lineIndent(text, node.end);
  const last = node.members.at(-1);
  const indent = last ? lineIndent(text, last.start) : closingIndent + unit;
  const member = `${JSON.stringify(key)}: ${render(value, unit, indent)}`;
  if (last) {
    // After the last value, its trailing comma (when the file uses them) and a comment on the same line.
    const at = last.commaEnd ?? last.valueEnd;
    const nl = text.indexOf('\n', at);
    const restOfLine = text.slice(at, nl < 0 ? text.length : nl);
    const insertAt = nl >= 0 && /^\s*(?:\/\/.*)?$/.test(restOfLine) ? nl : at;
    const trailing = last.commaEnd === null ? '' : ',';
    const before =
      last.commaEnd === null
        ? `${text.slice(0, last.valueEnd)},${text.slice(last.valueEnd, insertAt)}`
        : text.slice(0, insertAt);
    return `${before}\n${indent}${member}${trailing}${text.slice(insertAt)}`;
  }
  const inner = text.slice(node.start + 1, node.end);
  if (inner.trim() === '')
    return `${text.slice(0, node.start + 1)}\n${indent}${member}\n${closingIndent}${text.slice(node.end)}`;
  // Only comments inside: keep them, add the member after.
  return `${text.slice(0, node.end)}${indent}${member}\n${closingIndent}${text.slice(node.end)}`;
}

/** Removes a member, its comma and its line. */
function removeMember(text: string, node: ObjectNode, index: number): string {
  const member = node.members[index]!;
  const lineStart = text.lastIndexOf('\n', member.start - 1) + 1;
  const startsLine = text.slice(lineStart, member.start).trim() === '';
  const from = startsLine ? lineStart : member.start;
  let to = member.commaEnd ?? member.valueEnd;
  const previous = node.members[index - 1];
  // The last member without a trailing comma: the previous member's comma goes with it.
  if (member.commaEnd === null && previous?.commaEnd != null)
    return text.slice(0, previous.commaEnd - 1) + text.slice(member.valueEnd);
  if (startsLine) {
    const rest = /^[ \t]*(?:\r?\n)?/.exec(text.slice(to))![0];
    to += rest.length;
  }
  return text.slice(0, from) + text.slice(to);
}

/** The JSON value of `parent.name` in the document, or undefined when there is none. */
export function readEntry(text: string, parent: string, name: string): unknown {
  const doc = parseJsonc(text) as Record<string, unknown>;
  const group = doc?.[parent];
  if (group === null || typeof group !== 'object' || Array.isArray(group)) return undefined;
  return (group as Record<string, unknown>)[name];
}

/** The document with `parent.name` set to `value` (added, or its value replaced); the rest untouched. */
export function setEntry(text: string, parent: string, name: string, value: unknown): string {
  const root = parseRoot(text);
  const unit = indentUnit(text);
  if (!root) return `${JSON.stringify({ [parent]: { [name]: value } }, null, unit)}\n`;
  const group = root.members.find((m) => m.key === parent);
  if (!group) return insertMember(text, root, parent, { [name]: value }, unit);
  if (!group.value) throw new JsoncError(`"${parent}" is not an object`);
  const existing = group.value.members.find((m) => m.key === name);
  if (!existing) return insertMember(text, group.value, name, value, unit);
  const indent = lineIndent(text, existing.start);
  return text.slice(0, existing.valueStart) + render(value, unit, indent) + text.slice(existing.valueEnd);
}

/** The document without `parent.name` (`parent` stays, even when empty: it may have been there before). */
export function removeEntry(text: string, parent: string, name: string): string {
  const root = parseRoot(text);
  const group = root?.members.find((m) => m.key === parent)?.value;
  if (!group) return text;
  const index = group.members.findIndex((m) => m.key === name);
  return index < 0 ? text : removeMember(text, group, index);
}
