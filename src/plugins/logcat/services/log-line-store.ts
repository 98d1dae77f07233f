import type { LogcatEntry, LogLevel } from '../../../android/logcat/logcat-entry.js';

/** A line as the line store keeps it: the entry plus the store's per-device sequence number and resolved package. */
export interface StoredLogLine {
  /** Per device, strictly increasing in arrival order; never reused, also after eviction or `clear`. */
  readonly seq: number;
  readonly deviceSerial: string;
  readonly timeMs: number | null;
  readonly pid: number;
  readonly tid: number | null;
  readonly level: LogLevel;
  readonly tag: string;
  /** The package the pid belonged to when the line arrived (from `ps`), null when unknown. */
  readonly package: string | null;
  readonly buffer: string | null;
  readonly message: string;
}

export interface LogLineFilter {
  readonly deviceSerial: string;
  readonly minLevel?: LogLevel;
  /** Exact tags (any of). */
  readonly tags?: readonly string[];
  /** Resolved packages (any of); `mine` is expanded by the caller to the project's application ids. */
  readonly packages?: readonly string[];
  readonly pid?: number;
  /** Case-insensitive substring of the message (or tag). */
  readonly text?: string;
  /** A linear-time pattern (re2js) matched against the message, applied after the indexed filters. */
  readonly regex?: string;
  /** Device time bounds, epoch ms, inclusive. */
  readonly sinceMs?: number;
  readonly untilMs?: number;
  /** Only lines with seq < beforeSeq (the cursor: pass the previous page's `next_before_seq`). */
  readonly beforeSeq?: number;
  /** Only lines with seq > afterSeq (what `wait_for_log` and `logcat -f` read). */
  readonly afterSeq?: number;
}

export interface LogLinePage {
  /** Newest first when reading backwards (`beforeSeq`/default), oldest first when `afterSeq` is given. */
  readonly lines: readonly StoredLogLine[];
  /** How many more lines matched past this page (exact up to a bound, then `moreIsLowerBound`). */
  readonly more: number;
  readonly moreIsLowerBound: boolean;
  /** Cursor for the next (older) page, null when nothing older matched. */
  readonly nextBeforeSeq: number | null;
  /** True when a regex query stopped at the store's scan bound before the page filled: continue from `nextBeforeSeq`. */
  readonly scanLimited?: boolean;
}

export interface LogLineCounts {
  readonly deviceSerial: string;
  /** Lines now kept, their bytes, and the oldest/newest seq. */
  readonly lines: number;
  readonly bytes: number;
  readonly oldestSeq: number | null;
  readonly newestSeq: number | null;
  /** Since the store was created for this device: stored, evicted by retention, dropped at ingest. */
  readonly stored: number;
  readonly evicted: number;
  readonly dropped: number;
  readonly byLevel: Readonly<Partial<Record<LogLevel, number>>>;
  readonly topTags: readonly { tag: string; lines: number }[];
  /** Lines per second over the newest 10 s of device time; 0 when nothing arrived in the last 10 s. */
  readonly recentLinesPerSecond?: number;
  /** Epoch ms of the last append (host clock), null when never. */
  readonly lastAppendAt?: number | null;
}

/** DI token for the one `LogLineStore` of this data directory (`logcat.db`). */
export const LogLineStore = Symbol.for('droidwright.logcat.LogLineStore');

/**
 * The device log, in its own SQLite file beside the event log (`logcat.db`, WAL), bounded per device by the
 * retention settings. One writer per device (the logcat worker holding the lease); any process reads.
 */
export interface LogLineStore {
  /** Appends entries for one device in one transaction; returns the seqs given to the first and last. */
  append(
    deviceSerial: string,
    entries: readonly LogcatEntry[],
    packageOf: (pid: number) => string | null,
  ): { first: number; last: number } | null;
  /** Adds to the device's `dropped` count (lines lost at ingest, e.g. a gap in the flood's sequence). */
  countDropped(deviceSerial: string, lines: number): void;
  query(filter: LogLineFilter, limit: number): LogLinePage;
  counts(deviceSerial: string): LogLineCounts;
  /** Deletes the device's stored lines (not the device buffer); counters and seqs continue. Returns lines removed. */
  clear(deviceSerial: string): number;
  /** Every package name a line of this device was resolved to (kept after eviction), sorted. */
  packages?(deviceSerial: string): readonly string[];
  /** Lines with seq in [first, last] for one device, oldest first, at most `limit`. */
  range(deviceSerial: string, first: number, last: number, limit: number): readonly StoredLogLine[];
  close(): void;
}
