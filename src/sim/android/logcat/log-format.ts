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

/** `/system/etc/event-log-tags` numbers for the event tags this device logs. */
const EVENT_TAG_NUMBERS: Readonly<Record<string, number>> = {
  battery_level: 2722,
  boot_progress_enable_screen: 3050,
  pm_package_stats: 3121,
  am_anr: 30008,
  wm_activity_launch_time: 30009,
  am_proc_died: 30011,
  am_proc_start: 30014,
  am_crash: 30039,
  screen_toggled: 70000,
};

/** One typed value of an event payload: int (0), long (1) or string (2), as liblog's android_log_event_* write. */
function eventValue(text: string): Buffer {
  if (/^-?\d+$/.test(text)) {
    const n = BigInt(text);
    if (n >= -(2n ** 31n) && n < 2n ** 31n) {
      const b = Buffer.alloc(5);
      b.writeInt32LE(Number(n), 1);
      return b;
    }
    const b = Buffer.alloc(9);
    b[0] = 1;
    b.writeBigInt64LE(BigInt.asIntN(64, n), 1);
    return b;
  }
  const s = Buffer.from(text);
  const b = Buffer.alloc(5);
  b[0] = 2;
  b.writeInt32LE(s.length, 1);
  return Buffer.concat([b, s]);
}

/**
 * An events-buffer entry as `logcat -B -b events` writes it: the tag's number, then the values (`[a,b,c]` is a
 * list). Null for a tag the device has no number for, which logd could not have stored either.
 */
export function encodeEventEntry(e: LogEntry): Uint8Array | null {
  const number = EVENT_TAG_NUMBERS[e.tag];
  if (number === undefined) return null;
  const list = /^\[(.*)\]$/s.exec(e.message);
  const values = list ? (list[1] === '' ? [] : list[1]!.split(',')) : null;
  const body = values
    ? Buffer.concat([Buffer.from([3, Math.min(values.length, 255)]), ...values.slice(0, 255).map(eventValue)])
    : eventValue(e.message);
  const payload = Buffer.alloc(4 + body.length);
  payload.writeUInt32LE(number, 0);
  body.copy(payload, 4);
  const header = Buffer.alloc(28);
  header.writeUInt16LE(payload.length, 0);
  header.writeUInt16LE(28, 2);
  header.writeInt32LE(e.pid, 4);
  header.writeUInt32LE(e.tid, 8);
  header.writeUInt32LE(Math.floor(e.timeMs / 1000), 12);
  header.writeUInt32LE((e.timeMs % 1000) * 1_000_000, 16);
  header.writeUInt32LE(LOG_IDS.events, 20);
  header.writeUInt32LE(e.uid, 24);
  return Buffer.concat([header, payload]);
}
