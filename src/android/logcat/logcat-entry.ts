/**
 * One log record as every logcat source (text formats, `logcat -B` binary) is reduced to, so storage, filters and
 * crash detection never care where a line came from.
 */
export type LogLevel = 'V' | 'D' | 'I' | 'W' | 'E' | 'F' | 'A';

export interface LogcatEntry {
  /** The timestamp as the source printed it (binary entries: `<epoch seconds>.<nanoseconds>`). */
  readonly time: string;
  /**
   * Milliseconds since the Unix epoch. Exact for `epoch` text and binary entries; for wall-clock formats it is the
   * device's local wall clock read as UTC (the zone is unknown unless printed), with the parser's `year` filling in
   * formats that print none. Null when the line carries no calendar time (`-v monotonic`).
   */
  readonly timeMs: number | null;
  readonly pid: number;
  /** Null for formats that print no thread id (`brief`, `time`, Android Studio's legacy copy format). */
  readonly tid: number | null;
  /** As printed: a number (`10123`) or a user name (`u0_a123`, `system`); binary v2/v4 entries give the number. */
  readonly uid?: string;
  readonly level: LogLevel;
  readonly tag: string;
  /** May hold several lines (a binary entry, or a `long`-format record); text formats give one line per entry. */
  readonly message: string;
  /** `main`, `system`, `crash`, `events`, `radio`, … from `--------- beginning of` markers or the binary log id. */
  readonly buffer?: string;
  /** The process name Android Studio prints in its copy format; logcat itself never prints one. */
  readonly package?: string;
}

/** Severity order for `min_level` filters; `A` (assert, Android Studio's name for priority 7) ranks with `F`. */
export const LOG_LEVEL_RANK: Readonly<Record<LogLevel, number>> = { V: 0, D: 1, I: 2, W: 3, E: 4, F: 5, A: 5 };

export function isLogLevel(value: string): value is LogLevel {
  return value.length === 1 && 'VDIWEFA'.includes(value);
}

/** Log ids as `liblog` numbers them (`log_id_t`), used by binary entries v3 and v4. */
export const LOG_BUFFER_NAMES: readonly string[] = [
  'main',
  'radio',
  'events',
  'system',
  'crash',
  'stats',
  'security',
  'kernel',
];
