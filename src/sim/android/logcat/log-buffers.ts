/** logd's ring buffers: bounded per buffer, with live subscribers for `logcat` follow mode. */

export const LOG_BUFFERS = ['main', 'system', 'crash', 'events', 'radio', 'kernel'] as const;
export type LogBufferName = (typeof LOG_BUFFERS)[number];

/** Android priorities as stored in the binary log (VERBOSE=2 … FATAL=7, SILENT=8). */
export const PRIORITY = { V: 2, D: 3, I: 4, W: 5, E: 6, F: 7, S: 8 } as const;
export type PriorityLetter = keyof typeof PRIORITY;
export const PRIORITY_LETTERS: Record<number, string> = {
  0: '?',
  1: '?',
  2: 'V',
  3: 'D',
  4: 'I',
  5: 'W',
  6: 'E',
  7: 'F',
  8: 'S',
};

export interface LogEntry {
  /** Monotonic id, so followers and `-T` know what is new. */
  readonly id: number;
  readonly buffer: LogBufferName;
  readonly timeMs: number;
  readonly pid: number;
  readonly tid: number;
  readonly uid: number;
  readonly priority: number;
  readonly tag: string;
  readonly message: string;
}

export type NewLogEntry = Omit<LogEntry, 'id' | 'timeMs' | 'tid' | 'uid'> & {
  timeMs?: number;
  tid?: number;
  uid?: number;
};

/** Per-buffer capacity in bytes, as `logcat -g` reports it (the defaults of a userdebug emulator). */
export const BUFFER_CAPACITY_BYTES = 256 * 1024;
const ENTRY_OVERHEAD = 28;

export class LogBuffers {
  private readonly buffers = new Map<LogBufferName, LogEntry[]>(LOG_BUFFERS.map((b) => [b, []]));
  private readonly bytes = new Map<LogBufferName, number>(LOG_BUFFERS.map((b) => [b, 0]));
  private readonly listeners = new Set<(entry: LogEntry) => void>();
  private nextId = 1;

  constructor(private readonly clock: () => number) {}

  append(e: NewLogEntry): LogEntry {
    const entry: LogEntry = {
      id: this.nextId++,
      buffer: e.buffer,
      timeMs: e.timeMs ?? this.clock(),
      pid: e.pid,
      tid: e.tid ?? e.pid,
      uid: e.uid ?? 0,
      priority: e.priority,
      tag: e.tag,
      message: e.message,
    };
    const list = this.buffers.get(entry.buffer)!;
    list.push(entry);
    let used = this.bytes.get(entry.buffer)! + entrySize(entry);
    while (used > BUFFER_CAPACITY_BYTES && list.length > 1) used -= entrySize(list.shift()!);
    this.bytes.set(entry.buffer, used);
    for (const listener of this.listeners) {
      try {
        listener(entry);
      } catch {
        // One broken reader must not stop the others or the writer.
      }
    }
    return entry;
  }

  /** Entries of the given buffers merged in time order (logd's merge of several buffers). */
  read(buffers: readonly LogBufferName[]): LogEntry[] {
    const all: LogEntry[] = [];
    for (const b of buffers) all.push(...this.buffers.get(b)!);
    return all.sort((a, b) => a.timeMs - b.timeMs || a.id - b.id);
  }

  clear(buffers: readonly LogBufferName[]): void {
    for (const b of buffers) {
      this.buffers.set(b, []);
      this.bytes.set(b, 0);
    }
  }

  consumedBytes(buffer: LogBufferName): number {
    return this.bytes.get(buffer)!;
  }

  subscribe(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function entrySize(e: LogEntry): number {
  return ENTRY_OVERHEAD + Buffer.byteLength(e.tag) + Buffer.byteLength(e.message) + 3;
}
