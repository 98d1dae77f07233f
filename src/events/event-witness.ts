import { appendFileSync, readFileSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { StoredEvent } from './event-definition.js';
import type { ChainAnchor } from './event-verifier.js';

/** Beside events.db in $DROIDWRIGHT_HOME: a second place that remembers how far the log reached. */
export const WITNESS_FILE = 'witness.jsonl';
/** The previous witness file, kept once when the current one is rotated. */
export const ROTATED_WITNESS_FILE = 'witness.1.jsonl';

const DEFAULT_INTERVAL_MS = 5_000;
/** About 2,000 lines; rotation keeps one previous file, and only the newest heads matter (see docs/event-log.md). */
const DEFAULT_MAX_BYTES = 256 * 1024;
const HASH = /^[0-9a-f]{64}$/;
/** A witness far beyond its rotation size was not written by droidwright; refuse to read it into memory. */
const MAX_READ_BYTES = 16 * 1024 * 1024;

/** One line of the witness file: the head this process last wrote, when it wrote the line. */
export interface WitnessLine {
  readonly seq: number;
  readonly hash: string;
  /** The event's own time (epoch ms). */
  readonly at: number;
  readonly pid: number;
  readonly written_at: number;
}

export interface EventWitnessOptions {
  /** Least time between two lines of one process. Default 5 s. */
  intervalMs?: number;
  /** Size after which the file is rotated to witness.1.jsonl. Default 256 KiB. */
  maxBytes?: number;
  /** Where a failed write is reported (once). Default: one line on stderr. */
  onError?: (error: unknown) => void;
}

interface Appends {
  onAppended(listener: (e: StoredEvent) => void): () => void;
}

/**
 * Appends the head (seq, hash) this process last wrote to a file outside the database, so a log that
 * was later truncated, replaced or re-chained no longer verifies against it. Never on the append's
 * path: an append only notes the head (a field store and, once per interval, a timer); the line is
 * written from a timer at most every `intervalMs`, and when the witness is closed or the process exits.
 * A write failure is reported once and never fails an append.
 */
export class EventWitness {
  private head: { seq: number; hash: string; at: number } | undefined;
  private writtenSeq = 0;
  private lastWriteAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private reported = false;
  private unsubscribe: (() => void) | undefined;
  private readonly intervalMs: number;
  private readonly maxBytes: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    readonly path: string,
    options: EventWitnessOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.onError = options.onError ?? reportWitnessError;
  }

  /** Starts witnessing this process's appends to `store`. */
  static attach(store: Appends, path: string, options: EventWitnessOptions = {}): EventWitness {
    const witness = new EventWitness(path, options);
    witness.unsubscribe = store.onAppended((event) => witness.note(event));
    openWitnesses.add(witness);
    if (openWitnesses.size === 1 && !exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', flushOpenWitnesses);
    }
    return witness;
  }

  /** Called for every append: remember the head, and make sure a write is scheduled. */
  note(event: Pick<StoredEvent, 'seq' | 'hash' | 'at'>): void {
    if (this.head && event.seq <= this.head.seq) return;
    this.head = { seq: event.seq, hash: event.hash, at: event.at };
    if (this.timer) return;
    const delay = Math.max(0, this.lastWriteAt + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, delay);
    // A pending witness line never keeps a process alive; the exit handler writes it.
    this.timer.unref();
  }

  /** Writes the head if it is newer than the last line this process wrote. Synchronous: safe in an exit handler. */
  flush(): void {
    const head = this.head;
    if (!head || head.seq <= this.writtenSeq) return;
    const now = Date.now();
    const line: WitnessLine = { seq: head.seq, hash: head.hash, at: head.at, pid: process.pid, written_at: now };
    try {
      this.rotateIfLarge();
      // One short line per write with O_APPEND: concurrent processes' lines do not interleave.
      appendFileSync(this.path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      this.writtenSeq = head.seq;
      this.lastWriteAt = now;
    } catch (error) {
      if (!this.reported) {
        this.reported = true;
        try {
          this.onError(error);
        } catch {
          // Reporting must not fail whoever flushed.
        }
      }
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    openWitnesses.delete(this);
  }

  private rotateIfLarge(): void {
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      return;
    }
    if (size < this.maxBytes) return;
    // Two processes may rotate at once; the loser moves a newer, smaller file over the older one,
    // which only drops old lines: a newer head proves everything an older head proved.
    renameSync(this.path, join(dirname(this.path), rotatedName(this.path)));
  }
}

/** One exit hook for every witness of the process (tests open many), not one listener each. */
const openWitnesses = new Set<EventWitness>();
let exitHookInstalled = false;
function flushOpenWitnesses(): void {
  for (const witness of openWitnesses) witness.flush();
}

function rotatedName(path: string): string {
  const name = basename(path);
  return name === WITNESS_FILE ? ROTATED_WITNESS_FILE : `${name.replace(/\.jsonl$/, '')}.1.jsonl`;
}

function reportWitnessError(error: unknown): void {
  const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  process.stderr.write(
    `droidwright: could not write the event log's witness file (${why}); the log itself is unaffected, but \`events verify\` cannot check it against this process's appends.\n`,
  );
}

export interface WitnessReading {
  /** Distinct (seq, hash) pairs, each named by the first file and line it appeared on. */
  anchors: ChainAnchor[];
  /** Lines read, over both files. */
  lines: number;
  /** Lines that are not witness entries (a torn write, an edit); they are skipped. */
  unreadable: number;
  /** The files that existed. */
  files: string[];
}

/** Reads the witness (the rotated file first, then the current one). A missing file is an empty witness. */
export function readWitness(path: string): WitnessReading {
  const reading: WitnessReading = { anchors: [], lines: 0, unreadable: 0, files: [] };
  const seen = new Set<string>();
  for (const file of [join(dirname(path), rotatedName(path)), path]) {
    let text: string;
    try {
      const size = statSync(file).size;
      if (size > MAX_READ_BYTES) {
        throw new Error(
          `${file} is ${size} bytes; droidwright rotates it at ${DEFAULT_MAX_BYTES}, so it was not written by droidwright alone`,
        );
      }
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    reading.files.push(file);
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === '') continue;
      reading.lines++;
      let entry: Partial<WitnessLine>;
      try {
        entry = JSON.parse(line) as Partial<WitnessLine>;
      } catch {
        reading.unreadable++;
        continue;
      }
      if (!Number.isSafeInteger(entry?.seq) || (entry.seq as number) < 1 || !HASH.test(String(entry.hash))) {
        reading.unreadable++;
        continue;
      }
      const key = `${entry.seq}:${entry.hash}`;
      if (seen.has(key)) continue;
      seen.add(key);
      reading.anchors.push({
        seq: entry.seq as number,
        hash: entry.hash as string,
        source: `the witness ${basename(file)} line ${i + 1}`,
      });
    }
  }
  return reading;
}
