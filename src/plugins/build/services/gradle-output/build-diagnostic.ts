/*
 * What the Gradle output parser reports (BuildDiagnostic, its severities and sources) and the limits that bound
 * its output and its work per line, with the helpers every tool's rules share to build a diagnostic.
 */

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export const DIAGNOSTIC_SOURCES = [
  'kotlin',
  'ksp',
  'kapt',
  'javac',
  'lint',
  'aapt2',
  'manifest',
  'r8',
  'agp',
  'test',
  'gradle',
  'config-cache',
  'script',
] as const;

export type DiagnosticSource = (typeof DIAGNOSTIC_SOURCES)[number];

export interface BuildDiagnostic {
  readonly severity: DiagnosticSeverity;
  readonly source: DiagnosticSource;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  readonly message: string;
  readonly task: string | null;
}

export const MAX_DIAGNOSTICS = 2000;
export const MAX_MESSAGE_CHARS = 2000;
export const MAX_BLOCK_LINES = 400;
/** Longer lines are cut before matching: no diagnostic header is this long, and it bounds regex work. */
export const MAX_LINE_CHARS = 8192;
export const MAX_INDENT_CHARS = 64;
/** Lines of a test failure or a manifest error kept before the rest is dropped. */
export const MAX_CONTINUATION_LINES = 60;
/** Unindented lines taken as the rest of a message that ended with `:` (kotlinc's candidate lists, AGP's SDK problems). */
export const MAX_UNINDENTED_LINES = 12;
/** Blank lines in a row a console relaying the merger puts inside a record: its own, and a `[stderr] ` marker's. */
export const MAX_RELAYED_BLANK_LINES = 3;

export function severityOf(word: string): DiagnosticSeverity {
  switch (word) {
    case 'e':
    case 'error':
    case 'ERROR':
    case 'Error':
    case 'Fatal':
    case '错误':
    case 'エラー':
    case 'Fehler':
      return 'error';
    case 'w':
    case 'warn':
    case 'warning':
    case 'WARNING':
    case 'Warning':
    case '警告':
    case 'Warnung':
      return 'warning';
    default:
      return 'info';
  }
}

/** `file:///Users/dev/A.kt` → `/Users/dev/A.kt`, `file:///C:/a/B.kt` → `C:/a/B.kt`; plain paths as they are. */
export function normalizePath(path: string): string {
  if (!path.startsWith('file:')) return path;
  // A reporter who cut a URL's start may leave a space after `file:` (`file: /node_modules/…/A.kt`): the path follows.
  const spaced = /^file:\s+(\S.*)$/.exec(path);
  if (spaced) return spaced[1]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(new URL(path).pathname);
  } catch {
    decoded = path.replace(/^file:\/\//, '');
  }
  return /^\/[A-Za-z]:\//.test(decoded) ? decoded.slice(1) : decoded;
}

export function clip(message: string): string {
  // A tool's own line breaks (AGPBI's `text`, a message continued on the next line) read as spaces.
  const trimmed = (message.includes('\n') ? message.replace(/\s*\r?\n\s*/g, ' ') : message).trim();
  return trimmed.length > MAX_MESSAGE_CHARS ? `${trimmed.slice(0, MAX_MESSAGE_CHARS)}…` : trimmed;
}

export function countBySeverity(diagnostics: readonly BuildDiagnostic[]): {
  error: number;
  warning: number;
  info: number;
} {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}
