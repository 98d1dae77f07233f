import { PRIORITY_LETTERS, type LogBufferName, type LogEntry } from './log-buffers.js';

export const LOG_FORMATS = ['brief', 'process', 'tag', 'thread', 'raw', 'time', 'threadtime', 'long'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const LOG_FORMAT_MODIFIERS = [
  'year',
  'epoch',
  'usec',
  'UTC',
  'zone',
  'printable',
  'color',
  'uid',
  'monotonic',
  'descriptive',
  'nsec',
] as const;

export interface FormatOptions {
  format: LogFormat;
  year: boolean;
  epoch: boolean;
  usec: boolean;
  zone: boolean;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Device local time; the simulated device runs in UTC (persist.sys.timezone=GMT) so output is reproducible. */
function formatTime(e: LogEntry, o: FormatOptions): string {
  const sec = Math.floor(e.timeMs / 1000);
  const frac = o.usec ? pad((e.timeMs % 1000) * 1000, 6) : pad(e.timeMs % 1000, 3);
  if (o.epoch) return `${String(sec).padStart(5, ' ')}.${frac}`;
  const d = new Date(e.timeMs);
  const date = `${o.year ? `${d.getUTCFullYear()}-` : ''}${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${frac}`;
  return o.zone ? `${time} +0000` : time;
}

/** One entry as logcat prints it; a multi-line message becomes one prefixed line per message line. */
export function formatEntry(e: LogEntry, o: FormatOptions): string {
  const p = PRIORITY_LETTERS[e.priority] ?? '?';
  const lines = e.message.split('\n');
  if (o.format === 'long') {
    return `[ ${formatTime(e, o)} ${String(e.pid).padStart(5)}:${String(e.tid).padStart(5)} ${p}/${e.tag} ]\n${e.message}\n\n`;
  }
  const prefix = (() => {
    switch (o.format) {
      case 'brief':
        return `${p}/${e.tag.padEnd(8)}(${String(e.pid).padStart(5)}): `;
      case 'process':
        return `${p}(${String(e.pid).padStart(5)}) `;
      case 'tag':
        return `${p}/${e.tag.padEnd(8)}: `;
      case 'thread':
        return `${p}(${String(e.pid).padStart(5)}:${String(e.tid).padStart(5)}) `;
      case 'raw':
        return '';
      case 'time':
        return `${formatTime(e, o)} ${p}/${e.tag.padEnd(8)}(${String(e.pid).padStart(5)}): `;
      case 'threadtime':
        return `${formatTime(e, o)} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${p} ${e.tag.padEnd(8)}: `;
    }
  })();
  const suffix = o.format === 'process' ? `  (${e.tag})` : '';
  return lines.map((line) => `${prefix}${line}${suffix}\n`).join('');
}

export function bufferHeader(buffer: LogBufferName): string {
  return `--------- beginning of ${buffer}\n`;
}

const LOG_IDS: Record<LogBufferName, number> = { main: 0, radio: 1, events: 2, system: 3, crash: 4, kernel: 7 };
/** logd's LOGGER_ENTRY_MAX_PAYLOAD: longer messages are truncated by the logger. */
const MAX_PAYLOAD = 4068;
/** struct logger_entry (v4): len, hdr_size, pid, tid, sec, nsec, lid, uid. */
export const BINARY_HEADER_SIZE = 28;

/** One entry as `logcat -B` writes it (struct logger_entry followed by prio, tag\0, message\0). */
export function encodeBinaryEntry(e: LogEntry): Buffer {
  const tag = Buffer.from(`${e.tag}\0`);
  let message = Buffer.from(e.message);
  const room = MAX_PAYLOAD - 1 - tag.length - 1;
  if (message.length > room) message = message.subarray(0, room);
  const payload = Buffer.concat([Buffer.from([e.priority]), tag, message, Buffer.from([0])]);
  const header = Buffer.alloc(BINARY_HEADER_SIZE);
  header.writeUInt16LE(payload.length, 0);
  header.writeUInt16LE(BINARY_HEADER_SIZE, 2);
  header.writeInt32LE(e.pid, 4);
  header.writeUInt32LE(e.tid, 8);
  header.writeUInt32LE(Math.floor(e.timeMs / 1000), 12);
  header.writeUInt32LE((e.timeMs % 1000) * 1_000_000, 16);
  header.writeUInt32LE(LOG_IDS[e.buffer], 20);
  header.writeUInt32LE(e.uid, 24);
  return Buffer.concat([header, payload]);
}
