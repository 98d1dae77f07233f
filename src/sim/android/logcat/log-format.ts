import { encodeLogcatBinaryEntry } from '../../../android/logcat/logcat-binary-decoder.js';
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

/** One entry as `logcat -B` writes it: a v4 `logger_entry` (28-byte header with log id and uid), as logd sends. */
export function encodeBinaryEntry(e: LogEntry): Uint8Array {
  return encodeLogcatBinaryEntry(
    {
      pid: e.pid,
      tid: e.tid,
      sec: Math.floor(e.timeMs / 1000),
      nsec: (e.timeMs % 1000) * 1_000_000,
      lid: LOG_IDS[e.buffer],
      uid: e.uid,
      priority: e.priority,
      tag: e.tag,
      message: e.message,
    },
    4,
  );
}
