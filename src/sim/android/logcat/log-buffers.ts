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
/** liblog's LOGGER_ENTRY_MAX_PAYLOAD: priority, tag, NUL, message and NUL; longer messages are cut when written. */
export const MAX_PAYLOAD_BYTES = 4068;

/** Cuts a message the way liblog does, on a character boundary so the stored text stays valid UTF-8. */
function truncateMessage(tag: string, message: string): string {
  const room = MAX_PAYLOAD_BYTES - 3 - Buffer.byteLength(tag);
  if (message.length <= room / 3 || Buffer.byteLength(message) <= room) return message;
  const cut = Buffer.from(message).subarray(0, Math.max(0, room)).toString('utf8');
  return cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut;
}

export class LogBuffers {
  private readonly buffers = new Map<LogBufferName, LogEntry[]>(LOG_BUFFERS.map((b) => [b, []]));
  private readonly bytes = new Map<LogBufferName, number>(LOG_BUFFERS.map((b) => [b, 0]));
  private readonly listeners = new Set<(entry: LogEntry) => void>();
  private nextId = 1;

  /** `capacityBytes` per buffer: logd's default unless the device was given more (`logcat -G`, a large replay). */
  constructor(
    private readonly clock: () => number,
    private capacityBytes = BUFFER_CAPACITY_BYTES,
  ) {}

  get capacity(): number {
    return this.capacityBytes;
  }

  /** `logcat -G`: a smaller size prunes the oldest entries at once, as logd does. */
  setCapacity(bytes: number): void {
    this.capacityBytes = bytes;
    for (const [name, list] of this.buffers) {
      let used = this.bytes.get(name)!;
      let drop = 0;
      while (used > bytes && drop < list.length - 1) used -= entrySize(list[drop++]!);
      if (drop) list.splice(0, drop);
      this.bytes.set(name, used);
    }
  }

  /** Open `logcat` readers (followers), so tests can see a closed stream stop its reader. */
  get readers(): number {
    return this.listeners.size;
  }

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
      message: truncateMessage(e.tag, e.message),
    };
    const list = this.buffers.get(entry.buffer)!;
    list.push(entry);
    let used = this.bytes.get(entry.buffer)! + entrySize(entry);
    if (used > this.capacityBytes) {
      // logd prunes a tenth of the buffer at a time; one splice per prune keeps a flood from moving the whole
      // array on every append.
      const target = this.capacityBytes - Math.floor(this.capacityBytes / 10);
      let drop = 0;
      while (used > target && drop < list.length - 1) used -= entrySize(list[drop++]!);
      list.splice(0, drop);
    }
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
