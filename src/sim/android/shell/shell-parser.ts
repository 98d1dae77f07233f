/**
 * Parses a command line the way /system/bin/sh (mksh) splits what adb clients send: quoting, parameter and
 * command substitution, `;` `&&` `||` `|` `&`, and redirections. Compound commands (if/for/while, subshells)
 * are not supported and produce the shell's syntax error, so a tool that relies on them fails loudly.
 */

export type WordPart =
  | { readonly kind: 'lit'; readonly text: string; readonly quoted: boolean }
  | { readonly kind: 'var'; readonly name: string; readonly quoted: boolean }
  | { readonly kind: 'cmd'; readonly source: string; readonly quoted: boolean };

export interface Word {
  readonly parts: readonly WordPart[];
  /** The word as written, for assignments and error messages. */
  readonly raw: string;
}

export type Redirection =
  | { readonly fd: number; readonly op: '>' | '>>' | '<'; readonly target: Word }
  | { readonly fd: number; readonly op: '>&'; readonly toFd: number };

export interface SimpleCommand {
  readonly assignments: readonly { name: string; value: Word }[];
  readonly words: readonly Word[];
  readonly redirections: readonly Redirection[];
}

export interface Pipeline {
  readonly commands: readonly SimpleCommand[];
}

export interface AndOrList {
  /** pipelines[0] then, for each op, pipelines[i+1] runs when the previous status fits the op. */
  readonly pipelines: readonly Pipeline[];
  readonly ops: readonly ('&&' | '||')[];
  readonly background: boolean;
}

export interface Script {
  readonly lists: readonly AndOrList[];
}

export class ShellSyntaxError extends Error {}

type Token =
  | { type: 'word'; word: Word }
  | { type: 'op'; op: ';' | '&&' | '||' | '|' | '&' | 'nl' }
  | { type: 'redir'; fd: number; op: '>' | '>>' | '<' | '>&' | '<&'; dupTarget?: string };

const OPERATOR_CHARS = new Set([';', '&', '|', '<', '>', '(', ')', '\n']);
const BLANK = new Set([' ', '\t']);

/** Finds the index just after the `)` matching the `$(` at `start` (index of `(`), honoring quotes. */
function findSubstitutionEnd(s: string, open: number): number {
  let depth = 1;
  let i = open + 1;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError("syntax error: unterminated '");
      i = end + 1;
      continue;
    }
    if (c === '"') {
      i = skipDoubleQuoted(s, i + 1);
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  throw new ShellSyntaxError("syntax error: ')' missing");
}

function skipDoubleQuoted(s: string, from: number): number {
  let i = from;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"') return i + 1;
    if (c === '$' && s[i + 1] === '(') {
      i = findSubstitutionEnd(s, i + 1);
      continue;
    }
    if (c === '`') {
      const end = s.indexOf('`', i + 1);
      if (end < 0) throw new ShellSyntaxError('syntax error: unterminated `');
      i = end + 1;
      continue;
    }
    i++;
  }
  throw new ShellSyntaxError('syntax error: unterminated "');
}

class Lexer {
  private i = 0;
  readonly tokens: Token[] = [];

  constructor(private readonly s: string) {}

  run(): Token[] {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (BLANK.has(c)) {
        this.i++;
        continue;
      }
      if (c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2;
        continue;
      }
      if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
        continue;
      }
      if (this.tryRedirection()) continue;
      if (c === '\n') {
        this.tokens.push({ type: 'op', op: 'nl' });
        this.i++;
        continue;
      }
      if (c === ';') {
        if (s[this.i + 1] === ';') throw new ShellSyntaxError("syntax error: ';;' unexpected");
        this.tokens.push({ type: 'op', op: ';' });
        this.i++;
        continue;
      }
      if (c === '&') {
        if (s[this.i + 1] === '&') {
          this.tokens.push({ type: 'op', op: '&&' });
          this.i += 2;
        } else {
          this.tokens.push({ type: 'op', op: '&' });
          this.i++;
        }
        continue;
      }
      if (c === '|') {
        if (s[this.i + 1] === '|') {
          this.tokens.push({ type: 'op', op: '||' });
          this.i += 2;
        } else {
          this.tokens.push({ type: 'op', op: '|' });
          this.i++;
        }
        continue;
      }
      if (c === '(' || c === ')') throw new ShellSyntaxError(`syntax error: '${c}' unexpected`);
      this.tokens.push({ type: 'word', word: this.readWord() });
    }
    return this.tokens;
  }

  private tryRedirection(): boolean {
    const s = this.s;
    const m = /^(\d?)(>>|>&|<&|>\||>|<)/.exec(s.slice(this.i, this.i + 4));
    if (!m) return false;
    // A digit only counts as an fd when the operator follows it directly ("2>"), not inside a word ("a2>" never
    // reaches here because words consume their digits).
    const fd = m[1] ? Number(m[1]) : m[2].startsWith('<') ? 0 : 1;
    const op = m[2] === '>|' ? '>' : m[2];
    this.i += m[0].length;
    if (op === '>&' || op === '<&') {
      while (BLANK.has(s[this.i])) this.i++;
      const t = /^(\d+|-)/.exec(s.slice(this.i));
      if (!t) {
        // `>&file` is a csh-ism mksh accepts as `>file 2>&1`; tools do not send it, so refuse it.
        throw new ShellSyntaxError(`syntax error: bad fd in '${m[0]}'`);
      }
      this.i += t[0].length;
      this.tokens.push({ type: 'redir', fd, op: op as '>&' | '<&', dupTarget: t[0] });
      return true;
    }
    this.tokens.push({ type: 'redir', fd, op: op as '>' | '>>' | '<' });
    return true;
  }

  private readWord(): Word {
    const s = this.s;
    const start = this.i;
    const parts: WordPart[] = [];
    let lit = '';
    const flush = (quoted: boolean) => {
      if (lit) parts.push({ kind: 'lit', text: lit, quoted });
      lit = '';
    };
    while (this.i < s.length) {
      const c = s[this.i];
      if (BLANK.has(c) || OPERATOR_CHARS.has(c)) break;
      if (c === '\\') {
        flush(false);
        if (this.i + 1 < s.length) parts.push({ kind: 'lit', text: s[this.i + 1], quoted: true });
        this.i += 2;
        continue;
      }
      if (c === "'") {
        flush(false);
        const end = s.indexOf("'", this.i + 1);
        if (end < 0) throw new ShellSyntaxError("syntax error: unterminated '");
        parts.push({ kind: 'lit', text: s.slice(this.i + 1, end), quoted: true });
        this.i = end + 1;
        continue;
      }
      if (c === '"') {
        flush(false);
        this.readDoubleQuoted(parts);
        continue;
      }
      if (c === '$' || c === '`') {
        const part = this.readDollar(false);
        if (part) {
          flush(false);
          parts.push(part);
          continue;
        }
      }
      lit += c;
      this.i++;
    }
    flush(false);
    return { parts, raw: s.slice(start, this.i) };
  }

  private readDoubleQuoted(parts: WordPart[]): void {
    const s = this.s;
    this.i++;
    let lit = '';
    // An empty "" still makes a (quoted, empty) word.
    let produced = false;
    const flush = () => {
      if (lit || !produced) parts.push({ kind: 'lit', text: lit, quoted: true });
      produced = true;
      lit = '';
    };
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '"') {
        this.i++;
        if (lit || !produced) flush();
        return;
      }
      if (c === '\\' && '$`"\\\n'.includes(s[this.i + 1] ?? '')) {
        if (s[this.i + 1] !== '\n') lit += s[this.i + 1];
        this.i += 2;
        continue;
      }
      if (c === '$' || c === '`') {
        const part = this.readDollar(true);
        if (part) {
          if (lit) flush();
          parts.push(part);
          produced = true;
          continue;
        }
      }
      lit += c;
      this.i++;
    }
    throw new ShellSyntaxError('syntax error: unterminated "');
  }

  private readDollar(quoted: boolean): WordPart | null {
    const s = this.s;
    if (s[this.i] === '`') {
      const end = s.indexOf('`', this.i + 1);
      if (end < 0) throw new ShellSyntaxError('syntax error: unterminated `');
      const source = s.slice(this.i + 1, end).replace(/\\([`$\\])/g, '$1');
      this.i = end + 1;
      return { kind: 'cmd', source, quoted };
    }
    const next = s[this.i + 1];
    if (next === '(') {
      const end = findSubstitutionEnd(s, this.i + 1);
      const source = s.slice(this.i + 2, end - 1);
      this.i = end;
      return { kind: 'cmd', source, quoted };
    }
    if (next === '{') {
      const end = s.indexOf('}', this.i + 2);
      if (end < 0) throw new ShellSyntaxError('syntax error: missing }');
      const name = s.slice(this.i + 2, end);
      if (!/^([A-Za-z_][A-Za-z0-9_]*|[?$#0-9])$/.test(name))
        throw new ShellSyntaxError(`\${${name}}: bad substitution`);
      this.i = end + 1;
      return { kind: 'var', name, quoted };
    }
    if (next !== undefined && /[?$#0-9]/.test(next)) {
      this.i += 2;
      return { kind: 'var', name: next, quoted };
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(this.i + 1));
    if (m) {
      this.i += 1 + m[0].length;
      return { kind: 'var', name: m[0], quoted };
    }
    return null;
  }
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

function asAssignment(word: Word): { name: string; value: Word } | null {
  const first = word.parts[0];
  if (first?.kind !== 'lit' || first.quoted) return null;
  const m = ASSIGNMENT.exec(first.text);
  if (!m) return null;
  const rest = first.text.slice(m[0].length);
  const parts: WordPart[] = rest
    ? [{ kind: 'lit', text: rest, quoted: false }, ...word.parts.slice(1)]
    : [...word.parts.slice(1)];
  // An assignment value is never field-split: mark everything quoted.
  const value = parts.map((p) => ({ ...p, quoted: true }));
  if (value.length === 0) value.push({ kind: 'lit', text: '', quoted: true });
  return { name: m[1], value: { parts: value, raw: word.raw.slice(m[0].length) } };
}

export function parseShell(line: string): Script {
  const tokens = new Lexer(line).run();
  const lists: AndOrList[] = [];
  let pos = 0;

  const unexpected = (t: Token | undefined): never => {
    const what = !t
      ? 'newline'
      : t.type === 'op'
        ? t.op === 'nl'
          ? 'newline'
          : t.op
        : t.type === 'redir'
          ? t.op
          : t.word.raw;
    throw new ShellSyntaxError(`syntax error: '${what}' unexpected`);
  };

  const parseCommand = (): SimpleCommand => {
    const assignments: { name: string; value: Word }[] = [];
    const words: Word[] = [];
    const redirections: Redirection[] = [];
    while (pos < tokens.length) {
      const t = tokens[pos];
      if (t.type === 'op') break;
      pos++;
      if (t.type === 'redir') {
        if (t.op === '>&' || t.op === '<&') {
          if (t.dupTarget === '-') continue; // closing an fd: output to it is dropped, which /dev/null models
          redirections.push({ fd: t.fd, op: '>&', toFd: Number(t.dupTarget) });
          continue;
        }
        const target = tokens[pos];
        if (target?.type !== 'word') unexpected(target);
        pos++;
        redirections.push({ fd: t.fd, op: t.op as '>' | '>>' | '<', target: (target as { word: Word }).word });
        continue;
      }
      const assignment = words.length === 0 ? asAssignment(t.word) : null;
      if (assignment) assignments.push(assignment);
      else words.push(t.word);
    }
    if (assignments.length === 0 && words.length === 0 && redirections.length === 0) unexpected(tokens[pos]);
    return { assignments, words, redirections };
  };

  const parsePipeline = (): Pipeline => {
    const commands = [parseCommand()];
    while (tokens[pos]?.type === 'op' && (tokens[pos] as { op: string }).op === '|') {
      pos++;
      while (tokens[pos]?.type === 'op' && (tokens[pos] as { op: string }).op === 'nl') pos++;
      commands.push(parseCommand());
    }
    return { commands };
  };

  while (pos < tokens.length) {
    const t = tokens[pos];
    if (t.type === 'op' && (t.op === 'nl' || t.op === ';')) {
      if (t.op === ';') unexpected(t);
      pos++;
      continue;
    }
    const pipelines = [parsePipeline()];
    const ops: ('&&' | '||')[] = [];
    let background = false;
    while (pos < tokens.length) {
      const op = tokens[pos];
      if (op.type !== 'op') unexpected(op);
      const o = (op as { op: string }).op;
      if (o === '&&' || o === '||') {
        pos++;
        while (tokens[pos]?.type === 'op' && (tokens[pos] as { op: string }).op === 'nl') pos++;
        ops.push(o);
        pipelines.push(parsePipeline());
        continue;
      }
      if (o === ';' || o === 'nl' || o === '&') {
        pos++;
        background = o === '&';
        break;
      }
      unexpected(op);
    }
    lists.push({ pipelines, ops, background });
  }
  return { lists };
}
