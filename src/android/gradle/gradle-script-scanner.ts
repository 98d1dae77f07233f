/*
 * A small structural reader for Gradle build scripts (Kotlin DSL and Groovy). It does not evaluate
 * anything: it strips comments, finds `name { … }` blocks and reads literal assignments. Values that
 * are not literals (variables, function calls we do not know) read as null rather than as a guess.
 */

/** Removes `//` and `/* *\/` comments; string literals (single, double, triple-quoted) are kept intact. */
export function stripComments(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      // Keep line count stable so nothing else shifts in surprising ways.
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = stringEnd(source, i);
      out += source.slice(i, end);
      i = end;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** Index just past the string literal that starts at `start`. */
function stringEnd(source: string, start: number): number {
  const quote = source[start]!;
  if (source.startsWith(quote.repeat(3), start)) {
    const end = source.indexOf(quote.repeat(3), start + 3);
    return end === -1 ? source.length : end + 3;
  }
  let i = start + 1;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) return i + 1;
    if (c === '\n') return i; // Unterminated: stop at the line end.
    i++;
  }
  return source.length;
}

export interface ScriptBlock {
  /** Text before `{` on the same statement, trimmed (`buildTypes`, `getByName("release")`, `release`). */
  readonly header: string;
  readonly body: string;
}

export interface ScriptLevel {
  /** The level's own text with every nested `{ … }` blanked out, so assignments inside blocks do not leak. */
  readonly statements: string;
  readonly blocks: readonly ScriptBlock[];
}

/** Splits a (comment-free) body into its depth-0 statements and its depth-0 blocks. */
export function scanLevel(body: string): ScriptLevel {
  const blocks: ScriptBlock[] = [];
  let statements = '';
  let statementStart = 0;
  let i = 0;
  const n = body.length;
  while (i < n) {
    const c = body[i]!;
    if (c === '"' || c === "'") {
      const end = stringEnd(body, i);
      statements += body.slice(i, end);
      i = end;
      continue;
    }
    if (c === '\n' || c === ';') {
      statements += c;
      statementStart = statements.length;
      i++;
      continue;
    }
    if (c === '{') {
      const close = matchingBrace(body, i);
      const header = statements.slice(statementStart).trim();
      blocks.push({ header, body: body.slice(i + 1, close) });
      // The header belongs to the block, not to the statements (so `release {` is not an assignment).
      statements = `${statements.slice(0, statementStart)}\n`;
      statementStart = statements.length;
      i = close + 1;
      continue;
    }
    statements += c;
    i++;
  }
  return { statements, blocks };
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return text.length;
}

/** Bodies of the depth-0 blocks whose header is exactly one of `names` (e.g. `android`). */
export function blocksNamed(level: ScriptLevel, ...names: string[]): string[] {
  return level.blocks.filter((b) => names.includes(normalizeHeader(b.header))).map((b) => b.body);
}

/** `android` for `android`, `android ()`; leaves anything else as written but without spaces. */
function normalizeHeader(header: string): string {
  return header.replace(/\s+/g, '').replace(/\(\)$/, '');
}

/**
 * The container element a block header names: `release`, `getByName("release")`, `create("staging")`,
 * `register("x")`, `named("x")`, `maybeCreate("x").apply`, `"x"` (Groovy). Null for anything else.
 */
export function containerElementName(header: string): string | null {
  const h = header.replace(/\s+/g, ' ').trim();
  const call =
    /^(?:getByName|create|register|named|maybeCreate|getting|creating)\s*\(\s*(["'])([A-Za-z0-9_]+)\1\s*\)(?:\s*\.\s*(?:apply|configure|also|run))?$/.exec(
      h,
    );
  if (call) return call[2]!;
  const bare = /^(["']?)([A-Za-z_][A-Za-z0-9_]*)\1$/.exec(h);
  if (bare && !RESERVED_HEADERS.has(bare[2]!)) return bare[2]!;
  return null;
}

const RESERVED_HEADERS = new Set([
  'all',
  'configureEach',
  'whenObjectAdded',
  'if',
  'else',
  'try',
  'finally',
  'forEach',
  'each',
  'apply',
  'also',
  'run',
  'let',
  'with',
]);

const STRING_LITERAL = /"((?:[^"\\\n$]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/;

function keyPattern(keys: readonly string[]): string {
  return `(?:^|[\\s;{(])(?:${keys.map((k) => k.replace(/[.$]/g, '\\$&')).join('|')})`;
}

/** A literal string assigned or passed to one of `keys`: `k = "v"`, `k "v"`, `k("v")`, `k.set("v")`. Last one wins. */
export function readString(statements: string, keys: readonly string[]): string | null {
  const re = new RegExp(
    `${keyPattern(keys)}(?:\\s*=\\s*|\\s*\\(\\s*|\\s+|\\.set\\(\\s*)(?:${STRING_LITERAL.source})`,
    'gm',
  );
  let value: string | null = null;
  for (const m of statements.matchAll(re)) value = m[1] ?? m[2] ?? null;
  return value;
}

/** A literal integer for one of `keys` (or a `libs.versions.x.get().toInt()` the catalog resolves). */
export function readInt(
  statements: string,
  keys: readonly string[],
  catalogVersions?: ReadonlyMap<string, string>,
): number | null {
  const re = new RegExp(
    `${keyPattern(keys)}(?:\\s*=\\s*|\\s*\\(\\s*|\\s+|\\.set\\(\\s*)(?:(\\d+)\\b|libs\\.versions\\.([A-Za-z0-9_.\\-]+?)\\.get\\(\\)|(["'])(\\d+)\\3)`,
    'gm',
  );
  let value: number | null = null;
  for (const m of statements.matchAll(re)) {
    if (m[1]) value = Number(m[1]);
    else if (m[4]) value = Number(m[4]);
    else if (m[2] && catalogVersions) {
      const raw = catalogVersions.get(normalizeCatalogKey(m[2]));
      value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
    }
  }
  return value;
}

/** `k = true`, `k true`, `k(true)`, `k.set(true)`; last one wins. */
export function readBool(statements: string, keys: readonly string[]): boolean | null {
  const re = new RegExp(`${keyPattern(keys)}(?:\\s*=\\s*|\\s*\\(\\s*|\\s+|\\.set\\(\\s*)(true|false)\\b`, 'gm');
  let value: boolean | null = null;
  for (const m of statements.matchAll(re)) value = m[1] === 'true';
  return value;
}

/**
 * Every string literal in the statements that start with `key` (`flavorDimensions += listOf("a", "b")`,
 * `flavorDimensions "a", "b"`, `flavorDimensions.addAll(listOf(...))`), following open brackets across lines.
 */
export function readStringList(statements: string, key: string): string[] {
  const values: string[] = [];
  const re = new RegExp(`${keyPattern([key])}\\b`, 'gm');
  for (const m of statements.matchAll(re)) {
    const start = m.index + m[0].length;
    let depth = 0;
    let i = start;
    for (; i < statements.length; i++) {
      const c = statements[i]!;
      if (c === '"' || c === "'") {
        i = stringEnd(statements, i) - 1;
        continue;
      }
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if ((c === '\n' || c === ';') && depth <= 0) break;
    }
    const segment = statements.slice(start, i);
    for (const s of segment.matchAll(new RegExp(STRING_LITERAL.source, 'g'))) values.push(s[1] ?? s[2] ?? '');
  }
  return values;
}

/** Version-catalog accessor keys: `android-application`, `android_application`, `android.application` are one key. */
export function normalizeCatalogKey(key: string): string {
  return key.replace(/[-_]/g, '.').toLowerCase();
}

export interface VersionCatalog {
  /** normalized alias → plugin id */
  readonly plugins: ReadonlyMap<string, string>;
  /** normalized key → version string */
  readonly versions: ReadonlyMap<string, string>;
}

/** Reads the `[versions]` and `[plugins]` tables of a `libs.versions.toml` (the subset builds use). */
export function parseVersionCatalog(toml: string): VersionCatalog {
  const plugins = new Map<string, string>();
  const versions = new Map<string, string>();
  let section = '';
  for (const rawLine of toml.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+#.*$/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1]!.trim();
      continue;
    }
    const entry = /^([A-Za-z0-9_.\-"]+)\s*=\s*(.+)$/.exec(line);
    if (!entry) continue;
    const key = normalizeCatalogKey(entry[1]!.replace(/"/g, ''));
    const value = entry[2]!.trim();
    if (section === 'versions') {
      const literal = /^"([^"]*)"/.exec(value);
      if (literal) versions.set(key, literal[1]!);
    } else if (section === 'plugins') {
      const id = /\bid\s*=\s*"([^"]+)"/.exec(value) ?? /^"([^":]+)(?::[^"]*)?"/.exec(value);
      if (id) plugins.set(key, id[1]!);
    }
  }
  return { plugins, versions };
}
