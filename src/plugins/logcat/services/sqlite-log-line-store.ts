import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { RE2JS } from 're2js';
import type { LogcatEntry, LogLevel } from '../../../android/logcat/logcat-entry.js';
import { withBusyRetry } from '../../../events/event-store.js';
import { errorCode, isBusyError } from '../../../events/store-unavailable-error.js';
import { ToolError } from '../../../kernel/errors.js';
import type { LogLineCounts, LogLineFilter, LogLinePage, LogLineStore, StoredLogLine } from './log-line-store.js';

/*
 * Schema and why (measured with `npm run bench logcat-store`; the numbers are in the bench output and README):
 * - `lines` is a rowid table whose rowid is `device_id * 2^40 + seq`: one b-tree ordered by device then seq, so
 *   appends go to its right edge, a device's lines are one rowid range, cursors are range bounds, and "newest
 *   first, stop at the limit" walks the range backwards with no sort. Tags, packages and buffers are interned in
 *   `names`; the level is an integer code (V=0 … F=5, A=6), so rows stay small and `min_level` is a range.
 * - Lines are grouped in blocks of 1024 seqs (`blk` = rowid >> 10, unique across devices). Every secondary index
 *   leads with `blk`: (blk, level), (blk, tag_id), (blk, package_id), (blk, pid). A plain index on tag_id costs
 *   ingest ~3x (each batch dirties one leaf page per distinct tag in every index, written to the WAL and again at
 *   checkpoint: measured 37,000 lines per CPU-second with four such indexes against 390,000 with none); leading
 *   with `blk` makes every index append-only too. A query walks the candidate blocks newest first and seeks
 *   (blk, value) in the index of its most selective filter: a few µs per block, then only matching rows.
 * - `blocks` summarizes each block: lines, bytes, device time span and a 64 Kibit Bloom filter of the
 *   ASCII-lowercased trigrams of its messages and tags. `text` search tests the needle's trigrams against it and
 *   scans only blocks that may hold it (`message LIKE '%…%'`: ASCII case-insensitive, compared in place; measured
 *   faster than `instr(lower(message), …)`, which copies every message). A full scan of 1,000,000 lines costs
 *   ~330 ms of CPU, over the 200 ms target; an FTS5 trigram index would index every 3-byte window of every
 *   message, several times the ingest budget. The filter costs 8 KiB per 1024 lines and one pass over the
 *   message at ingest. `since`/`until` prune blocks by their time span (no time index to pay for).
 * - Retention evicts whole blocks (cheap, amortized, exact counts); `tallies` keeps lines per (device, tag,
 *   level), updated per batch and per evicted block, so stats never scan lines; `devices` is the per-device
 *   counters row (next_seq, stored, evicted, dropped): seqs are never reused, also after eviction and clear.
 * Durability: synchronous=NORMAL in WAL. These are device output, not the audit log: a power loss may lose the
 * last moments of log, never corrupt the file.
 */
const SCHEMA_VERSION = 1;
const SEQ_BITS = 2 ** 40;
const MAX_DEVICE_ID = Math.floor(Number.MAX_SAFE_INTEGER / SEQ_BITS) - 1;
const BLOCK_SHIFT = 10;
const BLOCK_LINES = 2 ** BLOCK_SHIFT;
/** `blk` of a device's block: device_id * 2^30 + block (= rowid >> 10). */
const BLOCKS_PER_DEVICE = SEQ_BITS / BLOCK_LINES;
const GRAM_BITS = 65_536;
const LEVEL_CODES: Readonly<Record<LogLevel, number>> = { V: 0, D: 1, I: 2, W: 3, E: 4, F: 5, A: 6 };
const LEVEL_OF_CODE: readonly LogLevel[] = ['V', 'D', 'I', 'W', 'E', 'F', 'A'];
/** `more` is exact up to this many lines past the page, then a lower bound. */
export const MORE_COUNT_BOUND = 10_000;
/**
 * Regex queries test at most this many candidate lines per call, so no pattern can run a query unbounded:
 * re2js (linear time, but interpreted) costs 5–18 µs a line here, so this bounds a call to well under a second.
 */
export const REGEX_SCAN_BOUND = 50_000;
const INSERT_ROWS_PER_STATEMENT = 128;
const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS devices (
  device_id INTEGER PRIMARY KEY,
  serial TEXT NOT NULL UNIQUE,
  next_seq INTEGER NOT NULL DEFAULT 1,
  lines INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  stored INTEGER NOT NULL DEFAULT 0,
  evicted INTEGER NOT NULL DEFAULT 0,
  dropped INTEGER NOT NULL DEFAULT 0,
  last_append_at INTEGER
);
CREATE TABLE IF NOT EXISTS names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS lines (
  blk INTEGER NOT NULL,
  time_ms INTEGER,
  pid INTEGER NOT NULL,
  tid INTEGER,
  level INTEGER NOT NULL,
  tag_id INTEGER NOT NULL,
  package_id INTEGER,
  buffer_id INTEGER,
  message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lines_tag ON lines(blk, tag_id, level);
CREATE INDEX IF NOT EXISTS lines_package ON lines(blk, package_id, pid, level);
CREATE TABLE IF NOT EXISTS blocks (
  device_id INTEGER NOT NULL,
  block INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  min_time INTEGER,
  max_time INTEGER,
  at_level TEXT NOT NULL,
  grams BLOB,
  PRIMARY KEY (device_id, block)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS device_packages (
  device_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL,
  PRIMARY KEY (device_id, package_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tallies (
  device_id INTEGER NOT NULL,
  tag_id INTEGER NOT NULL,
  level INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  PRIMARY KEY (device_id, tag_id, level)
) WITHOUT ROWID;
`;

export interface LogLineRetention {
  readonly maxLines: number;
  readonly maxBytes: number;
}

export interface SqliteLogLineStoreOptions {
  readonly path: string;
  readonly retention: () => LogLineRetention;
  readonly busyTimeoutMs?: number;
}

interface DeviceRow {
  device_id: number;
  serial: string;
  next_seq: number;
  lines: number;
  bytes: number;
  stored: number;
  evicted: number;
  dropped: number;
  last_append_at: number | null;
}

interface LineRow {
  rowid: number;
  time_ms: number | null;
  pid: number;
  tid: number | null;
  level: number;
  tag_id: number;
  package_id: number | null;
  buffer_id: number | null;
  message: string;
}

type SqliteLogLinePage = LogLinePage & { readonly scanLimited: boolean };

/** A regex the caller gave that re2js refuses; the message names the pattern and the reason. */
export class InvalidLogPatternError extends Error {
  override readonly name = 'InvalidLogPatternError';
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`Invalid regex ${JSON.stringify(pattern.slice(0, 200))}: ${reason}`);
  }
}

/** Compiles an agent's pattern with the linear-time engine; throws InvalidLogPatternError naming it. */
export function compileLogPattern(pattern: string): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    throw new InvalidLogPatternError(pattern, (error as Error).message);
  }
}

/**
 * The longest ASCII literal (3+ characters) every match of `pattern` must contain, or undefined when none is
 * certain. It is only a pre-filter (LIKE and the block Bloom filters skip lines and blocks without it), so it
 * reads the pattern conservatively: top level only, no alternation, groups and classes and escapes end a run,
 * and a character made optional by `?`, `*` or `{0` is dropped.
 */
export function requiredLiteral(pattern: string): string | undefined {
  if (pattern.includes('\\Q')) return undefined;
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return undefined;
  }
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run.length > 0) runs.push(run);
    run = '';
  };
  depth = 0;
  inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (inClass) {
      if (c === '\\') i++;
      else if (c === ']') inClass = false;
      continue;
    }
    if (depth > 0) {
      if (c === '\\') i++;
      else if (c === '[') inClass = true;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      continue;
    }
    const next = pattern[i + 1];
    // Structure first: an escape, a class or a group ends the run whatever follows it.
    if (c === '\\' || c === '[' || c === '(' || c === ')') {
      end();
      if (c === '\\') i++;
      else if (c === '[') inClass = true;
      else if (c === '(') depth++;
      continue;
    }
    if (c === '?' || c === '*' || c === '+' || c === '{') {
      end();
      if (c === '{') while (i < pattern.length && pattern[i] !== '}') i++;
      continue;
    }
    if (next === '?' || next === '*' || (next === '{' && /^\{0[,}]/.test(pattern.slice(i + 1)))) {
      end();
      continue;
    }
    const optionalAfter = next === '{';
    if (c === '.' || c === '^' || c === '$' || c.charCodeAt(0) > 126 || c.charCodeAt(0) < 32) {
      end();
      continue;
    }
    run += c;
    if (next === '+' || optionalAfter) end();
  }
  end();
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= 3 ? longest : undefined;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The device log in `logcat.db` (see the schema note above). Opened on first use, so a process that never
 * reads the log never creates the file. Writes are BEGIN IMMEDIATE with busy_timeout and a bounded retry, so
 * the worker writing and any number of readers in other processes never see SQLITE_BUSY.
 */
export class SqliteLogLineStore implements LogLineStore {
  private db: Database.Database | undefined;
  private readonly busyTimeoutMs: number;
  private readonly nameIds = new Map<string, number>();
  private readonly idNames = new Map<number, string>();
  private readonly statements = new Map<string, Database.Statement>();
  private readonly inserts = new Map<number, Database.Statement>();
  private readonly seenPackages = new Set<number>();

  constructor(private readonly options: SqliteLogLineStoreOptions) {
    this.busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  }

  get path(): string {
    return this.options.path;
  }

  append(
    deviceSerial: string,
    entries: readonly LogcatEntry[],
    packageOf: (pid: number) => string | null,
  ): { first: number; last: number } | null {
    if (entries.length === 0) return null;
    const db = this.open();
    const packages = new Map<number, string | null>();
    const packageFor = (entry: LogcatEntry): string | null => {
      let pkg = packages.get(entry.pid);
      if (pkg === undefined) {
        pkg = packageOf(entry.pid) ?? null;
        packages.set(entry.pid, pkg);
      }
      return pkg ?? entry.package ?? null;
    };
    const write = db.transaction(() => {
      const device = this.deviceForWrite(deviceSerial);
      const first = device.next_seq;
      const last = first + entries.length - 1;
      if (last >= SEQ_BITS) throw new Error(`The log of ${deviceSerial} reached the largest sequence number.`);
      const base = device.device_id * SEQ_BITS;
      const params: unknown[] = [];
      const blocks = new Map<
        number,
        {
          lines: number;
          bytes: number;
          min: number | null;
          max: number | null;
          atLevel: number[];
          grams: Uint8Array;
          keys: Set<number>;
        }
      >();
      const tallies = new Map<number, number>();
      let bytes = 0;
      let seq = first;
      const flush = (rows: number) => {
        if (rows === 0) return;
        this.insertStatement(rows).run(params);
        params.length = 0;
      };
      let pending = 0;
      for (const entry of entries) {
        const level = LEVEL_CODES[entry.level] ?? 0;
        const tagId = this.intern(entry.tag);
        const pkg = packageFor(entry);
        const messageBytes = Buffer.byteLength(entry.message, 'utf8');
        bytes += messageBytes;
        params.push(
          base + seq,
          (base + seq - (seq % BLOCK_LINES)) / BLOCK_LINES,
          entry.timeMs,
          entry.pid,
          entry.tid,
          level,
          tagId,
          pkg === null ? null : this.internPackage(device.device_id, pkg),
          entry.buffer === undefined ? null : this.intern(entry.buffer),
          entry.message,
        );
        const blockKey = Math.floor(seq / BLOCK_LINES);
        let block = blocks.get(blockKey);
        if (!block) {
          const stored = this.prepare('SELECT at_level, grams FROM blocks WHERE device_id = ? AND block = ?').get(
            device.device_id,
            blockKey,
          ) as { at_level: string; grams: Uint8Array | null } | undefined;
          const grams = new Uint8Array(GRAM_BITS / 8);
          if (stored?.grams) grams.set(stored.grams.subarray(0, grams.length));
          const atLevel = stored ? parseLevelCounts(stored.at_level) : [0, 0, 0, 0, 0, 0, 0];
          block = { lines: 0, bytes: 0, min: null, max: null, atLevel, grams, keys: new Set() };
          blocks.set(blockKey, block);
        }
        block.atLevel[level]!++;
        addGrams(block.grams, entry.message);
        // Tags (so text search finds a line by its tag) and pids (so a pid filter skips blocks) once per block.
        if (!block.keys.has(tagId)) {
          block.keys.add(tagId);
          addGrams(block.grams, entry.tag);
        }
        if (!block.keys.has(-1 - entry.pid)) {
          block.keys.add(-1 - entry.pid);
          addPid(block.grams, entry.pid);
        }
        block.lines++;
        block.bytes += messageBytes;
        if (entry.timeMs !== null) {
          if (block.min === null || entry.timeMs < block.min) block.min = entry.timeMs;
          if (block.max === null || entry.timeMs > block.max) block.max = entry.timeMs;
        }
        const tallyKey = tagId * 8 + level;
        tallies.set(tallyKey, (tallies.get(tallyKey) ?? 0) + 1);
        seq++;
        if (++pending === INSERT_ROWS_PER_STATEMENT) {
          flush(pending);
          pending = 0;
        }
      }
      flush(pending);
      const upsertBlock = this.prepare(
        `INSERT INTO blocks (device_id, block, lines, bytes, min_time, max_time, at_level, grams)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (device_id, block) DO UPDATE SET lines = lines + excluded.lines, bytes = bytes + excluded.bytes,
           at_level = excluded.at_level, grams = excluded.grams,
           min_time = coalesce(min(min_time, excluded.min_time), min_time, excluded.min_time),
           max_time = coalesce(max(max_time, excluded.max_time), max_time, excluded.max_time)`,
      );
      for (const [key, b] of blocks) {
        upsertBlock.run(device.device_id, key, b.lines, b.bytes, b.min, b.max, b.atLevel.join(','), b.grams);
      }
      const upsertTally = this.prepare(
        `INSERT INTO tallies (device_id, tag_id, level, lines) VALUES (?, ?, ?, ?)
         ON CONFLICT (device_id, tag_id, level) DO UPDATE SET lines = lines + excluded.lines`,
      );
      for (const [key, n] of tallies) upsertTally.run(device.device_id, Math.floor(key / 8), key % 8, n);
      this.prepare(
        `UPDATE devices SET next_seq = ?, lines = lines + ?, bytes = bytes + ?, stored = stored + ?, last_append_at = ?
         WHERE device_id = ?`,
      ).run(last + 1, entries.length, bytes, entries.length, Date.now(), device.device_id);
      this.evictIfOver(device.device_id, Math.floor(last / BLOCK_LINES));
      return { first, last };
    });
    return this.write(() => write.immediate());
  }

  countDropped(deviceSerial: string, lines: number): void {
    if (!Number.isSafeInteger(lines) || lines <= 0) return;
    const db = this.open();
    const write = db.transaction(() => {
      const device = this.deviceForWrite(deviceSerial);
      this.prepare('UPDATE devices SET dropped = dropped + ? WHERE device_id = ?').run(lines, device.device_id);
    });
    this.write(() => write.immediate());
  }

  clear(deviceSerial: string): number {
    const db = this.open();
    const write = db.transaction(() => {
      const device = this.deviceRow(deviceSerial);
      if (!device) return 0;
      const base = device.device_id * SEQ_BITS;
      const removed = this.prepare('DELETE FROM lines WHERE rowid BETWEEN ? AND ?').run(
        base,
        base + SEQ_BITS - 1,
      ).changes;
      this.prepare('DELETE FROM blocks WHERE device_id = ?').run(device.device_id);
      this.prepare('DELETE FROM tallies WHERE device_id = ?').run(device.device_id);
      this.prepare('UPDATE devices SET lines = 0, bytes = 0 WHERE device_id = ?').run(device.device_id);
      return removed;
    });
    return this.write(() => write.immediate());
  }

  query(filter: LogLineFilter, limit: number): SqliteLogLinePage {
    const empty: SqliteLogLinePage = {
      lines: [],
      more: 0,
      moreIsLowerBound: false,
      nextBeforeSeq: null,
      scanLimited: false,
    };
    const pattern = filter.regex === undefined ? undefined : compileLogPattern(filter.regex);
    const pageSize = Math.max(0, Math.floor(limit));
    return this.read(() => {
      const device = this.deviceRow(filter.deviceSerial);
      if (!device) return empty;
      const ascending = filter.afterSeq !== undefined && filter.beforeSeq === undefined;
      const plan = this.plan(device, filter, ascending);
      if (!plan) return empty;
      return pattern
        ? this.regexPage(device, plan, pattern, pageSize, ascending)
        : this.sqlPage(device, plan, pageSize, ascending);
    });
  }

  counts(deviceSerial: string): LogLineCounts {
    return this.read(() => {
      const device = this.deviceRow(deviceSerial);
      if (!device) {
        return {
          deviceSerial,
          lines: 0,
          bytes: 0,
          oldestSeq: null,
          newestSeq: null,
          stored: 0,
          evicted: 0,
          dropped: 0,
          byLevel: {},
          topTags: [],
          recentLinesPerSecond: 0,
          lastAppendAt: null,
        };
      }
      const base = device.device_id * SEQ_BITS;
      // Two statements: SQLite answers a lone min() or max() from the b-tree edge, both together by a scan.
      const bounds = {
        oldest: (
          this.prepare('SELECT min(rowid) AS v FROM lines WHERE rowid BETWEEN ? AND ?').get(
            base,
            base + SEQ_BITS - 1,
          ) as {
            v: number | null;
          }
        ).v,
        newest: (
          this.prepare('SELECT max(rowid) AS v FROM lines WHERE rowid BETWEEN ? AND ?').get(
            base,
            base + SEQ_BITS - 1,
          ) as {
            v: number | null;
          }
        ).v,
      };
      const byLevel: Partial<Record<LogLevel, number>> = {};
      for (const row of this.prepare(
        'SELECT level, sum(lines) AS n FROM tallies WHERE device_id = ? GROUP BY level',
      ).all(device.device_id) as { level: number; n: number }[]) {
        const level = LEVEL_OF_CODE[row.level];
        if (level && row.n > 0) byLevel[level] = row.n;
      }
      const topTags = (
        this.prepare(
          `SELECT tag_id, sum(lines) AS n FROM tallies WHERE device_id = ? GROUP BY tag_id HAVING n > 0
           ORDER BY n DESC, tag_id LIMIT 10`,
        ).all(device.device_id) as { tag_id: number; n: number }[]
      ).map((row) => ({ tag: this.nameOf(row.tag_id) ?? '', lines: row.n }));
      return {
        deviceSerial,
        lines: device.lines,
        bytes: device.bytes,
        oldestSeq: bounds.oldest === null ? null : bounds.oldest - base,
        newestSeq: bounds.newest === null ? null : bounds.newest - base,
        stored: device.stored,
        evicted: device.evicted,
        dropped: device.dropped,
        byLevel,
        topTags,
        recentLinesPerSecond: this.recentRate(device),
        lastAppendAt: device.last_append_at,
      };
    });
  }

  range(deviceSerial: string, first: number, last: number, limit: number): readonly StoredLogLine[] {
    return this.read(() => {
      const device = this.deviceRow(deviceSerial);
      if (!device || last < first) return [];
      const base = device.device_id * SEQ_BITS;
      const rows = this.prepare(`SELECT rowid, * FROM lines WHERE rowid BETWEEN ? AND ? ORDER BY rowid LIMIT ?`).all(
        base + Math.max(0, first),
        base + Math.min(SEQ_BITS - 1, last),
        Math.max(0, Math.floor(limit)),
      ) as LineRow[];
      return rows.map((row) => this.toLine(device, row));
    });
  }

  /** Serials with a counters row (lines stored at some point), sorted. */
  devices(): readonly string[] {
    return this.read(() =>
      (this.prepare('SELECT serial FROM devices ORDER BY serial').all() as { serial: string }[]).map((r) => r.serial),
    );
  }

  packages(deviceSerial: string): readonly string[] {
    return this.read(() => {
      const device = this.deviceRow(deviceSerial);
      if (!device) return [];
      return (
        this.prepare(
          'SELECT n.name FROM device_packages p JOIN names n ON n.id = p.package_id WHERE p.device_id = ? ORDER BY n.name',
        ).all(device.device_id) as { name: string }[]
      ).map((row) => row.name);
    });
  }

  close(): void {
    this.statements.clear();
    this.inserts.clear();
    this.db?.close();
    this.db = undefined;
  }

  // --- planning and reading ---------------------------------------------------------------------------------

  private plan(device: DeviceRow, filter: LogLineFilter, ascending: boolean): QueryPlan | undefined {
    const base = device.device_id * SEQ_BITS;
    let lo = 1;
    let hi = SEQ_BITS - 1;
    if (filter.afterSeq !== undefined) lo = Math.max(lo, Math.floor(filter.afterSeq) + 1);
    if (filter.beforeSeq !== undefined) hi = Math.min(hi, Math.ceil(filter.beforeSeq) - 1);
    if (lo > hi) return undefined;
    const where: string[] = [];
    const params: unknown[] = [];
    let index: string | undefined;
    let threshold = 0;
    const needle: number[] = [];
    if (filter.minLevel !== undefined) {
      threshold = filter.minLevel === 'A' ? LEVEL_CODES.F : LEVEL_CODES[filter.minLevel];
      if (threshold > 0) {
        where.push('level >= ?');
        params.push(threshold);
      }
    }
    // The tag index leads with (blk, tag_id, level), the package index with (blk, package_id, pid, level): a tag
    // is usually the rarer of the two, so it drives when both are given.
    if (filter.packages !== undefined) {
      const ids = this.idsOf(filter.packages);
      if (ids.length === 0) return undefined;
      where.push(`package_id IN (${ids.map(() => '?').join(',')})`);
      params.push(...ids);
      index = 'lines_package';
    }
    if (filter.tags !== undefined) {
      const ids = this.idsOf(filter.tags);
      if (ids.length === 0) return undefined;
      where.push(`tag_id IN (${ids.map(() => '?').join(',')})`);
      params.push(...ids);
      index = 'lines_tag';
    }
    if (filter.pid !== undefined) {
      where.push('pid = ?');
      params.push(filter.pid);
      needle.push(...pidBits(filter.pid));
    }
    if (filter.sinceMs !== undefined) {
      where.push('time_ms >= ?');
      params.push(filter.sinceMs);
    }
    if (filter.untilMs !== undefined) {
      where.push('time_ms <= ?');
      params.push(filter.untilMs);
    }
    if (filter.text !== undefined && filter.text !== '') {
      const like = `%${escapeLike(filter.text)}%`;
      const tagIds = (
        this.prepare(
          `SELECT id FROM names WHERE name LIKE ? ESCAPE '\\' AND id IN (SELECT tag_id FROM tallies WHERE device_id = ?)`,
        ).all(like, device.device_id) as { id: number }[]
      ).map((row) => row.id);
      where.push(
        tagIds.length > 0
          ? `(message LIKE ? ESCAPE '\\' OR tag_id IN (${tagIds.map(() => '?').join(',')}))`
          : `message LIKE ? ESCAPE '\\'`,
      );
      params.push(like, ...tagIds);
      needle.push(...gramHashes(filter.text));
    }
    const literal = filter.regex === undefined ? undefined : requiredLiteral(filter.regex);
    if (literal !== undefined) {
      where.push(`message LIKE ? ESCAPE '\\'`);
      params.push(`%${escapeLike(literal)}%`);
      needle.push(...gramHashes(literal));
    }
    // Candidate blocks: in the seq range, overlapping the time bounds, holding a line at the level, and whose
    // Bloom filter may hold the pid and every trigram of the text. Ordered in reading direction.
    const since = filter.sinceMs ?? Number.MIN_SAFE_INTEGER;
    const until = filter.untilMs ?? Number.MAX_SAFE_INTEGER;
    if (since > until) return undefined;
    const timed = filter.sinceMs !== undefined || filter.untilMs !== undefined;
    const rows = this.prepare(
      `SELECT block, lines, at_level${needle.length > 0 ? ', grams' : ''} FROM blocks
       WHERE device_id = ? AND block BETWEEN ? AND ? ${timed ? 'AND max_time >= ? AND min_time <= ?' : ''}
       ORDER BY block ${ascending ? 'ASC' : 'DESC'}`,
    ).all(
      device.device_id,
      Math.floor(lo / BLOCK_LINES),
      Math.floor(hi / BLOCK_LINES),
      ...(timed ? [since, until] : []),
    ) as {
      block: number;
      lines: number;
      at_level: string;
      grams?: Uint8Array | null;
    }[];
    const blocks: number[] = [];
    const matchesInBlock: number[] = [];
    for (const row of rows) {
      let atOrAbove = row.lines;
      if (threshold > 0) {
        const counts = parseLevelCounts(row.at_level);
        atOrAbove = 0;
        for (let level = threshold; level < counts.length; level++) atOrAbove += counts[level]!;
        if (atOrAbove === 0) continue;
      }
      if (needle.length > 0 && !mayContain(row.grams ?? null, needle)) continue;
      blocks.push(row.block);
      matchesInBlock.push(atOrAbove);
    }
    // With no filter beyond the level (and seq bounds), a whole block's matches are its summary count.
    const summaryCounts = where.length === (threshold > 0 ? 1 : 0);
    const conditions = where.map((w) => ` AND ${w}`).join('');
    const order = ascending ? 'ASC' : 'DESC';
    // Indexed: one statement seeks (blk, value) for a whole group of candidate blocks (listed as JSON), a few µs
    // per block inside SQLite. Not indexed: each block is a rowid range scanned in reading order.
    const unit = index
      ? `lines INDEXED BY ${index} WHERE blk IN (SELECT value FROM json_each(?))`
      : 'lines NOT INDEXED WHERE blk = ?';
    return {
      base,
      low: base + lo,
      high: base + hi,
      blocks,
      indexed: index !== undefined,
      summaryCounts: summaryCounts ? matchesInBlock : undefined,
      blkBase: device.device_id * BLOCKS_PER_DEVICE,
      params,
      fetch: this.prepare(
        `SELECT rowid, * FROM ${unit} AND rowid BETWEEN ? AND ?${conditions} ORDER BY rowid ${order} LIMIT ?`,
      ),
      count: this.prepare(
        `SELECT count(*) AS n FROM (SELECT 1 FROM ${unit} AND rowid BETWEEN ? AND ?${conditions} LIMIT ?)`,
      ),
    };
  }

  /**
   * The candidate blocks in reading units: one block each when not indexed, else groups growing 4, 16, 64, …
   * blocks, so a page found in the newest blocks costs little and a sparse match still takes few statements.
   */
  private units(plan: QueryPlan): { key: unknown; low: number; high: number; blockIndex: number; whole: boolean }[] {
    const units: { key: unknown; low: number; high: number; blockIndex: number; whole: boolean }[] = [];
    if (!plan.indexed) {
      plan.blocks.forEach((block, i) => {
        const [low, high] = this.blockRange(plan, block);
        const whole = low === plan.base + block * BLOCK_LINES && high === low + BLOCK_LINES - 1;
        units.push({ key: plan.blkBase + block, low, high, blockIndex: i, whole });
      });
      return units;
    }
    for (let i = 0, size = 4; i < plan.blocks.length; i += size, size = Math.min(size * 4, 4096)) {
      const group = plan.blocks.slice(i, i + size).map((block) => plan.blkBase + block);
      units.push({ key: JSON.stringify(group), low: plan.low, high: plan.high, blockIndex: i, whole: false });
    }
    return units;
  }

  /** The part of a candidate block inside the plan's seq range, as fetch/count arguments, or undefined after `after`. */
  private blockRange(plan: QueryPlan, block: number): [number, number] {
    const from = plan.base + block * BLOCK_LINES;
    return [Math.max(from, plan.low), Math.min(from + BLOCK_LINES - 1, plan.high)];
  }

  private sqlPage(device: DeviceRow, plan: QueryPlan, limit: number, ascending: boolean): SqliteLogLinePage {
    const lines: StoredLogLine[] = [];
    let more = 0;
    for (const unit of this.units(plan)) {
      let { low, high } = unit;
      if (lines.length >= limit && unit.whole && plan.summaryCounts) {
        more += plan.summaryCounts[unit.blockIndex]!;
        if (more > MORE_COUNT_BOUND) break;
        continue;
      }
      if (lines.length < limit) {
        const rows = plan.fetch.all(unit.key, low, high, ...plan.params, limit - lines.length) as LineRow[];
        for (const row of rows) lines.push(this.toLine(device, row));
        if (lines.length < limit) continue;
        const last = rows[rows.length - 1]!.rowid;
        if (ascending) low = last + 1;
        else high = last - 1;
        if (low > high) continue;
      }
      more += (plan.count.get(unit.key, low, high, ...plan.params, MORE_COUNT_BOUND + 1 - more) as { n: number }).n;
      if (more > MORE_COUNT_BOUND) break;
    }
    return this.page(device, lines, more, ascending, false, null);
  }

  private regexPage(
    device: DeviceRow,
    plan: QueryPlan,
    pattern: RE2JS,
    limit: number,
    ascending: boolean,
  ): SqliteLogLinePage {
    const lines: StoredLogLine[] = [];
    let more = 0;
    let scanned = 0;
    let lastExamined: number | null = null;
    let stopped = false;
    for (const unit of this.units(plan)) {
      let { low, high } = unit;
      // A unit may hold more candidates than one fetch returns: read it in slices, in order.
      for (;;) {
        const rows = plan.fetch.all(unit.key, low, high, ...plan.params, BLOCK_LINES) as LineRow[];
        for (const row of rows) {
          if (scanned >= REGEX_SCAN_BOUND || more > MORE_COUNT_BOUND) {
            stopped = true;
            break;
          }
          scanned++;
          lastExamined = row.rowid;
          if (!pattern.test(row.message)) continue;
          if (lines.length < limit) lines.push(this.toLine(device, row));
          else more++;
        }
        if (stopped || rows.length < BLOCK_LINES) break;
        if (ascending) low = lastExamined! + 1;
        else high = lastExamined! - 1;
      }
      if (stopped) break;
    }
    const scanLimited = stopped && more <= MORE_COUNT_BOUND;
    // A page cut short by the scan bound resumes where the scan stopped, not after the last match.
    const resumeAt = scanLimited && lines.length < limit && lastExamined !== null ? lastExamined : null;
    return this.page(device, lines, more, ascending, scanLimited, resumeAt);
  }

  private page(
    device: DeviceRow,
    lines: StoredLogLine[],
    more: number,
    ascending: boolean,
    scanLimited: boolean,
    resumeRowid: number | null,
  ): SqliteLogLinePage {
    const base = device.device_id * SEQ_BITS;
    const last = lines[lines.length - 1];
    let nextBeforeSeq: number | null = null;
    if (!ascending) {
      if (resumeRowid !== null) nextBeforeSeq = resumeRowid - base;
      else if ((more > 0 || scanLimited) && last) nextBeforeSeq = last.seq;
    }
    return {
      lines,
      more: Math.min(more, MORE_COUNT_BOUND),
      moreIsLowerBound: more > MORE_COUNT_BOUND || scanLimited,
      nextBeforeSeq,
      scanLimited,
    };
  }

  private toLine(device: DeviceRow, row: LineRow): StoredLogLine {
    return {
      seq: row.rowid - device.device_id * SEQ_BITS,
      deviceSerial: device.serial,
      timeMs: row.time_ms,
      pid: row.pid,
      tid: row.tid,
      level: LEVEL_OF_CODE[row.level] ?? 'V',
      tag: this.nameOf(row.tag_id) ?? '',
      package: row.package_id === null ? null : (this.nameOf(row.package_id) ?? null),
      buffer: row.buffer_id === null ? null : (this.nameOf(row.buffer_id) ?? null),
      message: row.message,
    };
  }

  /** Lines per second over the newest 10 s of device time, from block summaries plus one partial block. */
  private recentRate(device: DeviceRow): number {
    if (device.last_append_at === null || Date.now() - device.last_append_at > 10_000) return 0;
    const blocks = this.prepare(
      `SELECT block, lines, min_time, max_time FROM blocks WHERE device_id = ? AND max_time IS NOT NULL
       ORDER BY block DESC LIMIT 5000`,
    ).all(device.device_id) as { block: number; lines: number; min_time: number; max_time: number }[];
    if (blocks.length === 0) return 0;
    const windowStart = blocks[0]!.max_time - 10_000;
    let lines = 0;
    for (const block of blocks) {
      if (block.max_time < windowStart) break;
      if (block.min_time >= windowStart) {
        lines += block.lines;
        continue;
      }
      const from = device.device_id * SEQ_BITS + block.block * BLOCK_LINES;
      lines += (
        this.prepare('SELECT count(*) AS n FROM lines WHERE rowid BETWEEN ? AND ? AND time_ms >= ?').get(
          from,
          from + BLOCK_LINES - 1,
          windowStart,
        ) as { n: number }
      ).n;
      break;
    }
    return Math.round(lines / 10);
  }

  // --- writing helpers ----------------------------------------------------------------------------------------

  private evictIfOver(deviceId: number, newestBlock: number): void {
    const { maxLines, maxBytes } = this.options.retention();
    const device = this.prepare('SELECT lines, bytes FROM devices WHERE device_id = ?').get(deviceId) as {
      lines: number;
      bytes: number;
    };
    if (device.lines <= maxLines && device.bytes <= maxBytes) return;
    let lines = device.lines;
    let bytes = device.bytes;
    let evicted = 0;
    const oldest = this.prepare(
      'SELECT block, lines, bytes FROM blocks WHERE device_id = ? AND block < ? ORDER BY block LIMIT 64',
    );
    const tallyOf = this.prepare(
      'SELECT tag_id, level, count(*) AS n FROM lines WHERE rowid BETWEEN ? AND ? GROUP BY tag_id, level',
    );
    const untally = this.prepare(
      'UPDATE tallies SET lines = lines - ? WHERE device_id = ? AND tag_id = ? AND level = ?',
    );
    const deleteLines = this.prepare('DELETE FROM lines WHERE rowid BETWEEN ? AND ?');
    const deleteBlock = this.prepare('DELETE FROM blocks WHERE device_id = ? AND block = ?');
    const base = deviceId * SEQ_BITS;
    while (lines > maxLines || bytes > maxBytes) {
      const batch = oldest.all(deviceId, newestBlock) as { block: number; lines: number; bytes: number }[];
      if (batch.length === 0) break;
      for (const block of batch) {
        if (lines <= maxLines && bytes <= maxBytes) break;
        const from = base + block.block * BLOCK_LINES;
        const to = from + BLOCK_LINES - 1;
        for (const t of tallyOf.all(from, to) as { tag_id: number; level: number; n: number }[]) {
          untally.run(t.n, deviceId, t.tag_id, t.level);
        }
        deleteLines.run(from, to);
        deleteBlock.run(deviceId, block.block);
        lines -= block.lines;
        bytes -= block.bytes;
        evicted += block.lines;
      }
    }
    if (evicted === 0) return;
    this.prepare('DELETE FROM tallies WHERE device_id = ? AND lines <= 0').run(deviceId);
    this.prepare('UPDATE devices SET lines = ?, bytes = ?, evicted = evicted + ? WHERE device_id = ?').run(
      lines,
      bytes,
      evicted,
      deviceId,
    );
  }

  private insertStatement(rows: number): Database.Statement {
    const cached = this.inserts.get(rows);
    if (cached) return cached;
    const values = Array.from({ length: rows }, () => '(?,?,?,?,?,?,?,?,?,?)').join(',');
    const statement = this.open().prepare(
      `INSERT INTO lines (rowid, blk, time_ms, pid, tid, level, tag_id, package_id, buffer_id, message) VALUES ${values}`,
    );
    this.inserts.set(rows, statement);
    return statement;
  }

  private deviceForWrite(serial: string): DeviceRow {
    const existing = this.deviceRow(serial);
    if (existing) return existing;
    this.prepare('INSERT INTO devices (serial) VALUES (?)').run(serial);
    const created = this.deviceRow(serial)!;
    if (created.device_id > MAX_DEVICE_ID) throw new Error(`Too many devices in ${this.options.path}.`);
    return created;
  }

  private deviceRow(serial: string): DeviceRow | undefined {
    return this.prepare('SELECT * FROM devices WHERE serial = ?').get(serial) as DeviceRow | undefined;
  }

  private intern(name: string): number {
    const known = this.nameIds.get(name);
    if (known !== undefined) return known;
    this.prepare('INSERT OR IGNORE INTO names (name) VALUES (?)').run(name);
    const id = (this.prepare('SELECT id FROM names WHERE name = ?').get(name) as { id: number }).id;
    this.nameIds.set(name, id);
    this.idNames.set(id, name);
    return id;
  }

  /** Interns a package and remembers the device saw it (what `package: "mine"` is matched against). */
  private internPackage(deviceId: number, name: string): number {
    const id = this.intern(name);
    const key = deviceId * 2 ** 26 + id;
    if (!this.seenPackages.has(key)) {
      this.prepare('INSERT OR IGNORE INTO device_packages (device_id, package_id) VALUES (?, ?)').run(deviceId, id);
      this.seenPackages.add(key);
    }
    return id;
  }

  private idsOf(names: readonly string[]): number[] {
    const ids: number[] = [];
    const lookup = this.prepare('SELECT id FROM names WHERE name = ?');
    for (const name of new Set(names)) {
      let id = this.nameIds.get(name);
      if (id === undefined) {
        id = (lookup.get(name) as { id: number } | undefined)?.id;
        if (id !== undefined) {
          this.nameIds.set(name, id);
          this.idNames.set(id, name);
        }
      }
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }

  private nameOf(id: number): string | undefined {
    let name = this.idNames.get(id);
    if (name === undefined) {
      name = (this.prepare('SELECT name FROM names WHERE id = ?').get(id) as { name: string } | undefined)?.name;
      if (name !== undefined) {
        this.idNames.set(id, name);
        this.nameIds.set(name, id);
      }
    }
    return name;
  }

  // --- connection -------------------------------------------------------------------------------------------

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.open().prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private read<T>(fn: () => T): T {
    this.open();
    return this.write(fn);
  }

  private write<T>(fn: () => T): T {
    try {
      return withBusyRetry(this.busyTimeoutMs, fn);
    } catch (error) {
      throw this.failure(error) ?? error;
    }
  }

  private open(): Database.Database {
    if (this.db) return this.db;
    const path = this.options.path;
    try {
      const dir = path.slice(0, path.lastIndexOf('/'));
      if (dir && !existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (dir && !statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      const db = new Database(path, { timeout: this.busyTimeoutMs });
      try {
        withBusyRetry(this.busyTimeoutMs, () => {
          db.pragma('journal_mode = WAL');
          db.pragma('synchronous = NORMAL');
          db.pragma('cache_size = -16384');
        });
        const version = db.pragma('user_version', { simple: true }) as number;
        if (version > SCHEMA_VERSION) {
          throw new ToolError(
            'STORE_UNAVAILABLE',
            `${path} was written by a newer droidwright (log schema ${version}, this one knows ${SCHEMA_VERSION}). Upgrade droidwright, or move the file aside to start a new log.`,
            { path },
          );
        }
        if (version < SCHEMA_VERSION) {
          const migrate = db.transaction(() => {
            if ((db.pragma('user_version', { simple: true }) as number) >= SCHEMA_VERSION) return;
            db.exec(SCHEMA);
            db.pragma(`user_version = ${SCHEMA_VERSION}`);
          });
          withBusyRetry(this.busyTimeoutMs, () => migrate.immediate());
        }
      } catch (error) {
        db.close();
        throw error;
      }
      this.db = db;
      return db;
    } catch (error) {
      throw this.failure(error) ?? error;
    }
  }

  private failure(error: unknown): ToolError | undefined {
    if (error instanceof ToolError) return error;
    const path = this.options.path;
    const code = errorCode(error);
    const why = error instanceof Error ? error.message : String(error);
    if (isBusyError(error)) {
      return new ToolError(
        'STORE_UNAVAILABLE',
        `The log store ${path} stayed locked by another process for more than ${this.busyTimeoutMs} ms; retry, or stop a hung droidwright process holding it.`,
        { path },
      );
    }
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
      return new ToolError(
        'STORE_UNAVAILABLE',
        `${path} is not a readable droidwright log store (${why}). Move it aside (\`mv ${path} ${path}.bad\`); a new one is created on the next use.`,
        { path },
      );
    }
    if (code.startsWith('SQLITE_') || code.startsWith('E')) {
      return new ToolError(
        'STORE_UNAVAILABLE',
        `Cannot use the log store ${path} (${code}: ${why}). Check that the data directory is writable and has free space.`,
        { path },
      );
    }
    return undefined;
  }
}

interface QueryPlan {
  /** Rowid of the device's seq 0, and the rowid bounds of the query. */
  readonly base: number;
  readonly low: number;
  readonly high: number;
  /** Candidate block numbers (seq >> 10) in reading order, and the device's `blk` of block 0. */
  readonly blocks: readonly number[];
  /** Whether an index drives the query (units are block groups as JSON) or blocks are rowid ranges. */
  readonly indexed: boolean;
  /** Per candidate block, its matching lines from the block summary, when the filter is at most a level. */
  readonly summaryCounts: readonly number[] | undefined;
  readonly blkBase: number;
  readonly params: readonly unknown[];
  /** (unit key, low, high, ...params, limit) → rows in reading order. */
  readonly fetch: Database.Statement;
  /** (unit key, low, high, ...params, limit) → { n } matches, at most limit. */
  readonly count: Database.Statement;
}

/** ASCII-only lowering, as LIKE folds case: a filter built this way never excludes a block LIKE would match. */
function foldedCode(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 65 && c <= 90 ? c + 32 : c;
}

// A module binding, not a lookup of the global Math per trigram: in a vm context (jest) every global lookup
// goes through the context's interceptors and made indexing 3,000-character lines ~50x slower.
const imul = Math.imul;

function gramBit(a: number, b: number, c: number, salt: number): number {
  const key = imul(imul(a, 0x01000193) ^ b, 0x01000193) ^ c;
  return imul(key ^ salt, 0x9e3779b1) >>> 16;
}

/** Sets the two bits of every trigram of `text` (UTF-16 code units) in a block's filter. */
function addGrams(bits: Uint8Array, text: string): void {
  if (text.length < 3) return;
  let a = foldedCode(text, 0);
  let b = foldedCode(text, 1);
  for (let i = 2; i < text.length; i++) {
    const c = foldedCode(text, i);
    const x = gramBit(a, b, c, 0);
    const y = gramBit(a, b, c, 0x5bd1e995);
    bits[x >>> 3]! |= 1 << (x & 7);
    bits[y >>> 3]! |= 1 << (y & 7);
    a = b;
    b = c;
  }
}

/** The filter bits a needle needs (empty when it is shorter than a trigram: no pruning). */
function gramHashes(text: string): number[] {
  const bits: number[] = [];
  for (let i = 2; i < text.length; i++) {
    const a = foldedCode(text, i - 2);
    const b = foldedCode(text, i - 1);
    const c = foldedCode(text, i);
    bits.push(gramBit(a, b, c, 0), gramBit(a, b, c, 0x5bd1e995));
  }
  return bits;
}

function parseLevelCounts(text: string): number[] {
  const counts = text.split(',').map(Number);
  while (counts.length < 7) counts.push(0);
  return counts;
}

/** A pid's two bits in a block's filter (salted apart from trigrams). */
function pidBits(pid: number): [number, number] {
  return [
    gramBit(0x10000, pid >>> 16, pid & 0xffff, 0x27d4eb2f),
    gramBit(0x10000, pid >>> 16, pid & 0xffff, 0x165667b1),
  ];
}

function addPid(bits: Uint8Array, pid: number): void {
  for (const bit of pidBits(pid)) bits[bit >>> 3]! |= 1 << (bit & 7);
}

function mayContain(grams: Uint8Array | null, needle: readonly number[]): boolean {
  if (!grams || grams.length * 8 < GRAM_BITS) return true;
  for (const bit of needle) if ((grams[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  return true;
}
