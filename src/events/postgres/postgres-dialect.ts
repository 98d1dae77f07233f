/**
 * Portable SQL -> PostgreSQL. Projections, side-table writers and readers are written once, in the
 * SQLite-flavoured portable subset described in src/events/sql-connection.ts, and run unchanged on both
 * stores: better-sqlite3 takes the text as is, the PostgreSQL store runs it through `translateToPostgres`.
 *
 * The translation works on tokens, never on whole-statement regexes, so a `?` inside a string literal, an
 * `INSERT OR IGNORE` inside a comment or a column that happens to be called `max` are left alone. What it
 * cannot carry over faithfully it refuses with a TypeError naming the construct and the portable form, at
 * prepare time, so a non-portable statement fails the first test that prepares it on PostgreSQL instead of
 * behaving differently in production.
 */

type TokenKind = 'space' | 'comment' | 'string' | 'quoted' | 'word' | 'number' | 'param' | 'punct';

interface Token {
  kind: TokenKind;
  text: string;
  /** For params: the name (`@x`, `:x`, `$x` -> `x`), the 1-based index for `?NNN`, or undefined for `?`. */
  param?: { name?: string; index?: number };
}

export interface PostgresTranslation {
  /** The statement(s) in PostgreSQL syntax, parameters as $1, $2 … */
  readonly sql: string;
  /**
   * How the caller's arguments map onto $1..$n: `positional` takes them in order (`count` of them);
   * `named` lists, for $1..$n, the property of the one object argument each reads.
   */
  readonly params:
    | { readonly style: 'none' }
    | { readonly style: 'positional'; readonly count: number }
    | {
        readonly style: 'named';
        readonly names: readonly string[];
      };
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Splits SQL into tokens; concatenating every token's text gives the input back unchanged. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    const start = i;
    if (/\s/.test(c)) {
      while (i < n && /\s/.test(sql[i])) i++;
      tokens.push({ kind: 'space', text: sql.slice(start, i) });
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
      tokens.push({ kind: 'comment', text: sql.slice(start, i) });
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      tokens.push({ kind: 'comment', text: sql.slice(start, i) });
    } else if (c === "'" || c === '"' || c === '`') {
      // Both dialects escape the quote by doubling it.
      i++;
      while (i < n) {
        if (sql[i] === c) {
          if (sql[i + 1] === c) {
            i += 2;
            continue;
          }
          i++;
          break;
        }
        i++;
      }
      if (sql[i - 1] !== c || i - 1 === start) throw new TypeError(`Unterminated ${c} quote in SQL: ${excerpt(sql)}`);
      if (c === '`') {
        // A MySQL/SQLite backtick identifier is a double-quoted one in PostgreSQL.
        tokens.push({ kind: 'quoted', text: `"${sql.slice(start + 1, i - 1).replaceAll('"', '""')}"` });
      } else {
        tokens.push({ kind: c === "'" ? 'string' : 'quoted', text: sql.slice(start, i) });
      }
    } else if (c === '[') {
      throw new TypeError(
        `SQLite's [bracketed] identifiers are not portable: quote the identifier with double quotes instead. In: ${excerpt(sql)}`,
      );
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      while (i < n && /[0-9A-Za-z_.]/.test(sql[i])) {
        // An exponent's sign belongs to the number: 1e-3.
        if ((sql[i] === 'e' || sql[i] === 'E') && (sql[i + 1] === '-' || sql[i + 1] === '+')) i++;
        i++;
      }
      tokens.push({ kind: 'number', text: sql.slice(start, i) });
    } else if (WORD_START.test(c)) {
      while (i < n && WORD_CHAR.test(sql[i])) i++;
      tokens.push({ kind: 'word', text: sql.slice(start, i) });
    } else if (c === '?') {
      i++;
      while (i < n && /[0-9]/.test(sql[i])) i++;
      const digits = sql.slice(start + 1, i);
      tokens.push({ kind: 'param', text: sql.slice(start, i), param: digits ? { index: Number(digits) } : {} });
    } else if ((c === '@' || c === '$' || (c === ':' && sql[i + 1] !== ':')) && WORD_START.test(sql[i + 1] ?? '')) {
      i++;
      while (i < n && /[A-Za-z0-9_\u0080-\uffff]/.test(sql[i])) i++;
      tokens.push({ kind: 'param', text: sql.slice(start, i), param: { name: sql.slice(start + 1, i) } });
    } else if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      throw new TypeError(
        `PostgreSQL-style $${sql[i + 1]} parameters are not portable (SQLite reads them as names): use ? or @name. In: ${excerpt(sql)}`,
      );
    } else {
      // Two-character operators stay one token so `::` is never mistaken for a `:name` parameter.
      const two = sql.slice(i, i + 2);
      if (['::', '||', '<=', '>=', '<>', '!=', '==', '<<', '>>', '->'].includes(two)) {
        i += sql.slice(i, i + 3) === '->>' ? 3 : 2;
      } else {
        i++;
      }
      tokens.push({ kind: 'punct', text: sql.slice(start, i) });
    }
  }
  return tokens;
}

/** Constructs with no faithful PostgreSQL counterpart, and what portable SQL uses instead. */
const REFUSED_WORDS: ReadonlyMap<string, string> = new Map([
  ['glob', 'GLOB has no PostgreSQL counterpart: use LIKE with an ESCAPE clause, or filter in code'],
  ['pragma', 'PRAGMA is SQLite-only: schema and settings belong to the store, not to portable SQL'],
  ['sqlite_master', 'sqlite_master is SQLite-only: ask the store (e.g. its stats) instead'],
  ['sqlite_schema', 'sqlite_schema is SQLite-only: ask the store (e.g. its stats) instead'],
  ['sqlite_sequence', 'sqlite_sequence is SQLite-only'],
  ['rowid', 'rowid is SQLite-only: declare an explicit key column'],
  ['_rowid_', '_rowid_ is SQLite-only: declare an explicit key column'],
  ['autoincrement', 'AUTOINCREMENT is SQLite-only: assign keys explicitly (e.g. from the event seq)'],
  ['collate', 'COLLATE names differ between SQLite and PostgreSQL: compare lower(x) instead of COLLATE NOCASE'],
  ['regexp', 'REGEXP is not built into SQLite and differs in PostgreSQL: filter in code'],
]);

const REFUSED_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['last_insert_rowid', 'last_insert_rowid() is SQLite-only: use RETURNING or an explicit key'],
  ['changes', 'changes() is SQLite-only: use the `changes` that run() returns'],
  ['total_changes', 'total_changes() is SQLite-only: use the `changes` that run() returns'],
  ['strftime', 'strftime() is SQLite-only: store epoch milliseconds and format them in code'],
  ['datetime', 'datetime() is SQLite-only: store epoch milliseconds and format them in code'],
  ['date', 'date() is SQLite-only: store epoch milliseconds and format them in code'],
  ['time', 'time() is SQLite-only: store epoch milliseconds and format them in code'],
  ['julianday', 'julianday() is SQLite-only: store epoch milliseconds and compute in code'],
  ['unixepoch', 'unixepoch() is SQLite-only: pass the time as a parameter'],
  ['iif', 'iif() is SQLite-only: use CASE WHEN … THEN … ELSE … END'],
  ['instr', 'instr() is SQLite-only: use LIKE, or filter in code'],
  ['printf', 'printf() is SQLite-only: format in code'],
  ['format', 'format() differs between SQLite and PostgreSQL: format in code'],
  ['typeof', 'typeof() is SQLite-only: columns have one declared type'],
  ['total', 'total() is SQLite-only: use COALESCE(SUM(x), 0)'],
  ['group_concat', 'group_concat() is SQLite-only: select the rows and join them in code'],
  ['string_agg', 'string_agg() is PostgreSQL-only: select the rows and join them in code'],
  ['json_extract', 'json_extract() is SQLite-only: store the field in its own column'],
  ['json_array_length', 'json_array_length() takes json in PostgreSQL but text in SQLite: store the count in a column'],
  ['json_group_array', 'json_group_array() is SQLite-only: select the rows and build the array in code'],
  ['json_object', 'json_object() differs between SQLite and PostgreSQL: build JSON in code'],
  ['json_array', 'json_array() differs between SQLite and PostgreSQL: build JSON in code'],
  ['json_tree', 'json_tree() is SQLite-only: use json_each over an array'],
  ['random', 'random() differs between SQLite (integer) and PostgreSQL (0..1): compute in code'],
  ['hex', 'hex() is SQLite-only: encode in code'],
  ['randomblob', 'randomblob() is SQLite-only: generate in code'],
  ['likely', 'likely() is SQLite-only: drop it'],
  ['unlikely', 'unlikely() is SQLite-only: drop it'],
]);

/** Words after which an identifier is a table alias, not a keyword continuing the statement. */
const CLAUSE_WORDS = new Set([
  'where',
  'join',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'natural',
  'on',
  'using',
  'group',
  'order',
  'limit',
  'offset',
  'having',
  'window',
  'union',
  'intersect',
  'except',
  'returning',
  'set',
  'values',
  'and',
  'or',
]);

const DDL_TYPES: ReadonlyMap<string, string> = new Map([
  // Epoch milliseconds and byte counts overflow PostgreSQL's 4-byte INTEGER; SQLite's INTEGER is 8 bytes.
  ['integer', 'BIGINT'],
  ['int', 'BIGINT'],
  ['real', 'DOUBLE PRECISION'],
  ['blob', 'BYTEA'],
]);

/**
 * Translates one or more portable statements to PostgreSQL. Throws TypeError for what is not portable.
 * `ddl` additionally drops SQLite-only table options (WITHOUT ROWID, STRICT); type names are mapped in
 * every statement because CAST(x AS INTEGER) must not become a 4-byte cast either.
 */
export function translateToPostgres(sql: string, options: { ddl?: boolean } = {}): PostgresTranslation {
  const tokens = tokenize(sql);
  const out: Token[] = [];
  let positional = 0;
  let numbered = 0;
  const names: string[] = [];
  // Index (in `out`) where each open INSERT OR IGNORE's statement started, ended by `;` or the end.
  let pendingIgnore: { depth: number } | undefined;
  let depth = 0;
  // For each open parenthesis, the word before it: `cast` tells a type name from a column alias.
  const calls: string[] = [];
  const significant = (from: number, step: 1 | -1, list: Token[] = tokens): number => {
    let j = from;
    while (j >= 0 && j < list.length && (list[j].kind === 'space' || list[j].kind === 'comment')) j += step;
    return j;
  };
  const lower = (t: Token | undefined): string => (t && t.kind === 'word' ? t.text.toLowerCase() : '');
  const refuse = (what: string): never => {
    throw new TypeError(`Not portable to PostgreSQL: ${what}. In: ${excerpt(sql)}`);
  };
  const bindParam = (t: Token): Token => {
    const p = t.param ?? {};
    if (p.name !== undefined) {
      let index = names.indexOf(p.name);
      if (index < 0) {
        names.push(p.name);
        index = names.length - 1;
      }
      return { kind: 'param', text: `$${index + 1}` };
    }
    if (p.index !== undefined) {
      if (p.index < 1) refuse(`parameter ${t.text} (numbered parameters start at ?1)`);
      numbered = Math.max(numbered, p.index);
      return { kind: 'param', text: `$${p.index}` };
    }
    positional++;
    return { kind: 'param', text: `$${positional}` };
  };
  const closeIgnore = (): void => {
    if (!pendingIgnore) return;
    // ON CONFLICT goes before a top-level RETURNING, else at the end of the statement.
    let at = out.length;
    for (let k = out.length - 1; k >= 0; k--) {
      if (out[k].kind === 'punct' && out[k].text === ';') break;
      if ((out[k] as Token & { depth?: number }).depth === pendingIgnore.depth && lower(out[k]) === 'returning') {
        at = k;
        break;
      }
    }
    while (at > 0 && out[at - 1].kind === 'space') at--;
    out.splice(at, 0, { kind: 'word', text: ' ON CONFLICT DO NOTHING' });
    pendingIgnore = undefined;
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'param') {
      // PostgreSQL types a parameter from its context, and `? IS NULL` gives it none (even when another
      // use of the same @name would): the statement fails at run time, so refuse it here, on both stores.
      const after = significant(i + 1, 1);
      if (lower(tokens[after]) === 'is') {
        const then = significant(after + 1, 1);
        const nullTest =
          lower(tokens[then]) === 'null' ||
          (lower(tokens[then]) === 'not' && lower(tokens[significant(then + 1, 1)]) === 'null');
        if (nullTest)
          refuse(
            `${t.text} IS NULL leaves the parameter's type open: write CAST(${t.text} AS TEXT) IS NULL (or AS INTEGER)`,
          );
      }
      out.push(bindParam(t));
      continue;
    }
    if (t.kind === 'punct') {
      if (t.text === '(') {
        depth++;
        const before = out[significant(out.length - 1, -1, out)];
        calls.push(lower(before));
      }
      if (t.text === ')') {
        depth--;
        calls.pop();
      }
      if (t.text === ';') closeIgnore();
      if (t.text === '==') {
        out.push({ kind: 'punct', text: '=' });
        continue;
      }
      out.push(t);
      continue;
    }
    if (t.kind !== 'word') {
      out.push(t);
      continue;
    }
    const word = t.text.toLowerCase();
    const next = significant(i + 1, 1);
    const nextWord = lower(tokens[next]);
    const isCall = tokens[next]?.kind === 'punct' && tokens[next].text === '(';
    const previousOut = out[significant(out.length - 1, -1, out)];
    // A word after `.` is a column of a table (t.max, x.value), never a keyword or function.
    const qualified = previousOut?.kind === 'punct' && previousOut.text === '.';
    if (qualified) {
      // t.rowid is as SQLite-only as rowid.
      if (word === 'rowid' || word === '_rowid_') refuse(REFUSED_WORDS.get(word) as string);
      out.push(t);
      continue;
    }

    const refusedWord = REFUSED_WORDS.get(word);
    // The one collation this translation writes itself (below) reads back unchanged.
    const ownCollation = word === 'collate' && options.ddl === true && tokens[next]?.text === '"C"';
    if (refusedWord && !ownCollation) refuse(refusedWord);
    if (isCall && REFUSED_FUNCTIONS.has(word)) refuse(REFUSED_FUNCTIONS.get(word) as string);

    if (word === 'replace' && nextWord === 'into') {
      refuse(
        'INSERT OR REPLACE / REPLACE INTO (it deletes the old row first): use INSERT … ON CONFLICT (key) DO UPDATE SET …',
      );
    }
    if (word === 'insert' && nextWord === 'or') {
      const kind = lower(tokens[significant(next + 1, 1)]);
      if (kind === 'ignore') {
        if (pendingIgnore) refuse('two INSERT OR IGNORE in one statement');
        pendingIgnore = { depth };
        out.push(t);
        i = significant(next + 1, 1);
        continue;
      }
      if (kind === 'replace') {
        refuse('INSERT OR REPLACE (it deletes the old row first): use INSERT … ON CONFLICT (key) DO UPDATE SET …');
      }
      refuse(`INSERT OR ${kind.toUpperCase()}: use plain INSERT, or INSERT … ON CONFLICT`);
    }
    if (word === 'conflict' && pendingIgnore)
      refuse('INSERT OR IGNORE together with ON CONFLICT: use only ON CONFLICT DO NOTHING');

    if (word === 'is') {
      // SQLite's `a IS b` / `a IS NOT b` compare null-safely for any b (pid_start IS ?); PostgreSQL only
      // takes NULL, TRUE, FALSE … there, and spells the comparison IS [NOT] DISTINCT FROM.
      const negated = nextWord === 'not';
      const operandAt = negated ? significant(next + 1, 1) : next;
      const operand = tokens[operandAt];
      const keyword = lower(operand);
      const special = ['null', 'true', 'false', 'unknown', 'distinct', 'not', 'json', 'document', 'normalized', 'of'];
      if (operand && !(operand.kind === 'word' && special.includes(keyword)) && operand.kind !== 'punct') {
        out.push({ kind: 'word', text: negated ? `${t.text} DISTINCT FROM` : `${t.text} NOT DISTINCT FROM` });
        // Skip NOT (it is part of the replacement), keep the space before the operand.
        if (negated) i = next;
        continue;
      }
    }
    if ((word === 'max' || word === 'min') && isCall && topLevelArgumentCount(tokens, next) >= 2) {
      // SQLite's scalar max/min. GREATEST/LEAST ignore NULL arguments where SQLite returns NULL; portable
      // SQL keeps the arguments non-null (COALESCE) so both agree.
      out.push({ kind: 'word', text: word === 'max' ? 'GREATEST' : 'LEAST' });
      continue;
    }
    if (word === 'ifnull' && isCall) {
      out.push({ kind: 'word', text: 'COALESCE' });
      continue;
    }
    if (word === 'json_each' && isCall) {
      if (topLevelArgumentCount(tokens, next) !== 1) refuse('json_each with a path argument: pass the array itself');
      const close = matchingParen(tokens, next);
      // Only the `value` column carries over: json_array_elements_text yields the elements of an array
      // as text (SQLite's json_each yields typed values), so compare value with text or CAST it.
      out.push({ kind: 'word', text: 'json_array_elements_text' }, { kind: 'punct', text: '((' });
      for (const inner of tokens.slice(next + 1, close)) {
        if (lower(inner) === 'json_each') refuse('nested json_each');
        out.push(inner.kind === 'param' ? bindParam(inner) : inner);
      }
      out.push({ kind: 'punct', text: ')::json)' });
      i = close;
      const after = tokens[significant(close + 1, 1)];
      const aliased =
        lower(after) === 'as' ||
        (after?.kind === 'word' && !CLAUSE_WORDS.has(lower(after))) ||
        after?.kind === 'quoted';
      // Unaliased, SQLite names the table json_each; keep that name so json_each.value still resolves.
      if (!aliased) out.push({ kind: 'word', text: ' AS json_each(value)' });
      continue;
    }
    if (word === 'without' && nextWord === 'rowid') {
      if (!options.ddl) refuse('WITHOUT ROWID outside DDL');
      // Drop "WITHOUT ROWID" and the space before it.
      while (out.length > 0 && out[out.length - 1].kind === 'space') out.pop();
      i = next;
      continue;
    }
    if (options.ddl && word === 'strict' && lower(previousOut) === '' && previousOut?.text === ')') {
      while (out.length > 0 && out[out.length - 1].kind === 'space') out.pop();
      continue;
    }
    const mapped = DDL_TYPES.get(word);
    if (mapped && isTypePosition(previousOut, options.ddl === true, calls[calls.length - 1] === 'cast')) {
      out.push({ kind: 'word', text: mapped });
      continue;
    }
    if (
      word === 'text' &&
      options.ddl === true &&
      lower(previousOut) !== 'as' &&
      isTypePosition(previousOut, true, false) &&
      nextWord !== 'collate'
    ) {
      // Text columns compare and sort by bytes, as SQLite's BINARY collation does, whatever locale the
      // database was created with: the same ORDER BY gives the same order on both stores.
      out.push(t, { kind: 'word', text: ' COLLATE "C"' });
      continue;
    }
    (t as Token & { depth?: number }).depth = depth;
    out.push(t);
  }
  closeIgnore();

  const hasNamed = names.length > 0;
  if (hasNamed && (positional > 0 || numbered > 0)) {
    refuse('named (@x, :x, $x) and positional (?) parameters in one statement: use one style');
  }
  if (positional > 0 && numbered > 0) refuse('? and ?NNN parameters in one statement: use one style');
  if (options.ddl && (hasNamed || positional > 0 || numbered > 0)) refuse('parameters in DDL');
  const text = out.map((t) => t.text).join('');
  if (hasNamed) return { sql: text, params: { style: 'named', names } };
  if (positional > 0 || numbered > 0)
    return { sql: text, params: { style: 'positional', count: positional || numbered } };
  return { sql: text, params: { style: 'none' } };
}

/** DDL (CREATE TABLE / INDEX, ALTER TABLE) in PostgreSQL terms: 8-byte integers, BYTEA, no WITHOUT ROWID. */
export function toPostgresDdl(sql: string): string {
  return translateToPostgres(sql, { ddl: true }).sql;
}

/** A type name follows a column name in DDL, or AS in a CAST (elsewhere `AS real` is a column alias). */
function isTypePosition(previous: Token | undefined, ddl: boolean, inCast: boolean): boolean {
  if (!previous) return false;
  if (previous.kind === 'word' && previous.text.toLowerCase() === 'as') return inCast;
  if (ddl && (previous.kind === 'word' || previous.kind === 'quoted')) {
    // `name INTEGER`, `ADD COLUMN name INTEGER`, but not a keyword followed by a column called "real".
    return !['table', 'index', 'on', 'exists', 'column'].includes(previous.text.toLowerCase());
  }
  return false;
}

function matchingParen(tokens: Token[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (tokens[j].kind !== 'punct') continue;
    if (tokens[j].text === '(') depth++;
    if (tokens[j].text === ')') {
      depth--;
      if (depth === 0) return j;
    }
  }
  throw new TypeError('Unbalanced parentheses in SQL');
}

/** How many comma-separated arguments the call whose `(` is at `open` has (0 for `()`). */
function topLevelArgumentCount(tokens: Token[], open: number): number {
  const close = matchingParen(tokens, open);
  let depth = 0;
  let count = 1;
  let empty = true;
  for (let j = open + 1; j < close; j++) {
    const t = tokens[j];
    if (t.kind === 'space' || t.kind === 'comment') continue;
    empty = false;
    if (t.kind !== 'punct') continue;
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (t.text === ',' && depth === 0) count++;
  }
  return empty ? 0 : count;
}

function excerpt(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}
