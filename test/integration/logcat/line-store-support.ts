import type {
  LogLineCounts,
  LogLineFilter,
  LogLinePage,
  LogLineStore,
  StoredLogLine,
} from '../../../src/plugins/logcat/services/log-line-store.js';
import type { LogcatEntry } from '../../../src/android/logcat/logcat-entry.js';

/** Every stored line of a device, oldest first. */
export function storedLines(store: LogLineStore, serial: string): StoredLogLine[] {
  return [...store.range(serial, 0, Number.MAX_SAFE_INTEGER, 10_000_000)];
}

/** Interim in-memory line store until the SQLite one lands (replaced by it at merge). */
class MemoryLineStore implements LogLineStore {
  private readonly lines = new Map<string, StoredLogLine[]>();
  private readonly dropped = new Map<string, number>();
  private nextSeq = 1;
  append(serial: string, entries: readonly LogcatEntry[], packageOf: (pid: number) => string | null) {
    if (entries.length === 0) return null;
    const list = this.lines.get(serial) ?? [];
    this.lines.set(serial, list);
    const first = this.nextSeq;
    for (const e of entries)
      list.push({
        seq: this.nextSeq++,
        deviceSerial: serial,
        timeMs: e.timeMs,
        pid: e.pid,
        tid: e.tid,
        level: e.level,
        tag: e.tag,
        package: packageOf(e.pid),
        buffer: e.buffer ?? null,
        message: e.message,
      });
    return { first, last: this.nextSeq - 1 };
  }
  countDropped(serial: string, lines: number): void {
    this.dropped.set(serial, (this.dropped.get(serial) ?? 0) + lines);
  }
  query(filter: LogLineFilter, limit: number): LogLinePage {
    const all = (this.lines.get(filter.deviceSerial) ?? []).filter(
      (l) => filter.sinceMs === undefined || (l.timeMs !== null && l.timeMs >= filter.sinceMs),
    );
    const lines = all.slice(-limit).reverse();
    return { lines, more: all.length - lines.length, moreIsLowerBound: false, nextBeforeSeq: null };
  }
  counts(serial: string): LogLineCounts {
    const list = this.lines.get(serial) ?? [];
    return {
      deviceSerial: serial,
      lines: list.length,
      bytes: 0,
      oldestSeq: list[0]?.seq ?? null,
      newestSeq: list.at(-1)?.seq ?? null,
      stored: list.length,
      evicted: 0,
      dropped: this.dropped.get(serial) ?? 0,
      byLevel: {},
      topTags: [],
    };
  }
  clear(serial: string): number {
    const n = this.lines.get(serial)?.length ?? 0;
    this.lines.delete(serial);
    return n;
  }
  range(serial: string, first: number, last: number, limit: number): readonly StoredLogLine[] {
    return (this.lines.get(serial) ?? []).filter((l) => l.seq >= first && l.seq <= last).slice(0, limit);
  }
  close(): void {}
}

export function openTestLineStore(_dir: string): LogLineStore {
  return new MemoryLineStore();
}
