import type { CommandHandler } from '../shell/command.js';
import { LOG_BUFFERS, MAX_PAYLOAD_BYTES, PRIORITY, type LogBufferName, type LogEntry } from '../logcat/log-buffers.js';
import {
  LOG_FORMATS,
  bufferHeader,
  encodeBinaryEntry,
  encodeEventEntry,
  formatEntry,
  type FormatOptions,
  type LogFormat,
} from '../logcat/log-format.js';
import { normalizePath } from '../sim-file-system.js';

const DEFAULT_BUFFERS: LogBufferName[] = ['main', 'system', 'crash'];
/** Entries rendered into one write: large enough to fill adb packets, small enough to keep memory flat. */
const WRITE_BATCH = 2048;
/** Lines a follower may lag behind before the oldest are dropped (logd prunes past a slow reader). */
const MAX_PENDING_ENTRIES = 1 << 20;
const EMPTY = new Uint8Array(0);

interface LogcatOptions {
  buffers: LogBufferName[];
  format: FormatOptions;
  dump: boolean;
  clear: boolean;
  binary: boolean;
  sizes: boolean;
  /** `-G <size>`: new ring buffer size in bytes. */
  setSize: number | null;
  tail: { count?: number; sinceMs?: number } | null;
  follow: boolean;
  pid: number | null;
  regex: RegExp | null;
  maxCount: number | null;
  silentDefault: boolean;
  specs: string[];
  file: string | null;
  dividers: boolean;
}

function priorityOf(ch: string): number | null {
  const c = ch.toUpperCase();
  if (c === '*') return PRIORITY.V;
  if (c in PRIORITY) return PRIORITY[c as keyof typeof PRIORITY];
  if (/^[2-8]$/.test(c)) return Number(c);
  return null;
}

/** `-t`/`-T` take a count or a time: 'MM-DD hh:mm:ss.mmm', 'YYYY-MM-DD hh:mm:ss.mmm' or 'sssss.mmm' epoch. */
function parseTail(value: string, nowMs: number): { count?: number; sinceMs?: number } | null {
  if (/^\d+$/.test(value)) return { count: Number(value) };
  const epoch = /^(\d+)\.(\d{1,9})$/.exec(value);
  if (epoch) return { sinceMs: Number(epoch[1]) * 1000 + Number(epoch[2].padEnd(3, '0').slice(0, 3)) };
  const m = /^(?:(\d{4})-)?(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(value);
  if (!m) return null;
  const year = m[1] ? Number(m[1]) : new Date(nowMs).getUTCFullYear();
  return {
    sinceMs: Date.UTC(
      year,
      Number(m[2]) - 1,
      Number(m[3]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6]),
      Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3)),
    ),
  };
}

function parseArgs(args: readonly string[], nowMs: number): LogcatOptions | string {
  const o: LogcatOptions = {
    buffers: [],
    format: { format: 'threadtime', year: false, epoch: false, usec: false, zone: false },
    dump: false,
    clear: false,
    binary: false,
    sizes: false,
    setSize: null,
    tail: null,
    follow: true,
    pid: null,
    regex: null,
    maxCount: null,
    silentDefault: false,
    specs: [],
    file: null,
    dividers: false,
  };
  let formatSet = false;
  const take = (i: number, inline: string | undefined): [string | undefined, number] =>
    inline !== undefined ? [inline, i] : [args[i + 1], i + 1];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const long = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    let opt: string;
    let inline: string | undefined;
    if (long) {
      const map: Record<string, string> = {
        clear: 'c',
        dump: 'd',
        binary: 'B',
        buffer: 'b',
        format: 'v',
        regex: 'e',
        'max-count': 'm',
        pid: 'pid',
        'buffer-size': 'g',
        dividers: 'D',
        file: 'f',
      };
      if (!map[long[1]]) return `unrecognized option '${a}'`;
      opt = map[long[1]];
      inline = long[2];
    } else if (/^-[a-zA-Z]/.test(a)) {
      opt = a[1];
      inline = a.length > 2 ? a.slice(2) : undefined;
      // Bundled flags without values (-dv is not valid, but -vthreadtime / -bmain / -T5 are).
      if (inline !== undefined && !'vbtTfemrnG'.includes(opt)) {
        for (const f of a.slice(1)) if (!'cdBDsg'.includes(f)) return `invalid option -- '${f}'`;
        for (const f of a.slice(1)) applyFlag(o, f);
        continue;
      }
    } else {
      o.specs.push(a);
      continue;
    }
    if ('cdBDsg'.includes(opt) && opt.length === 1) {
      applyFlag(o, opt);
      continue;
    }
    let value: string | undefined;
    [value, i] = take(i, inline);
    if (value === undefined) return `option requires an argument -- '${opt}'`;
    switch (opt) {
      case 'v': {
        for (const part of value.split(',')) {
          if ((LOG_FORMATS as readonly string[]).includes(part)) {
            if (formatSet && o.format.format !== part) return `Invalid parameter "${value}" to -v.`;
            o.format.format = part as LogFormat;
            formatSet = true;
          } else if (part === 'year') o.format.year = true;
          else if (part === 'epoch') o.format.epoch = true;
          else if (part === 'usec') o.format.usec = true;
          else if (part === 'UTC' || part === 'zone') o.format.zone = part === 'zone';
          else if (!['color', 'printable', 'uid', 'monotonic', 'descriptive', 'nsec'].includes(part))
            return `Invalid parameter "${part}" to -v.`;
        }
        break;
      }
      case 'b':
        for (const b of value.split(',')) {
          if (b === 'all') o.buffers.push(...LOG_BUFFERS);
          else if (b === 'default') o.buffers.push(...DEFAULT_BUFFERS);
          else if ((LOG_BUFFERS as readonly string[]).includes(b)) o.buffers.push(b as LogBufferName);
          else return `unknown buffer ${b}`;
        }
        break;
      case 't':
      case 'T': {
        const tail = parseTail(value, nowMs);
        if (!tail) return `-${opt} "${value}" not in time format`;
        o.tail = tail;
        if (opt === 't') o.follow = false;
        break;
      }
      case 'pid':
        if (!/^\d+$/.test(value)) return `--pid=${value} is not a valid pid`;
        o.pid = Number(value);
        break;
      case 'e':
        try {
          o.regex = new RegExp(value);
        } catch {
          return `Invalid regex: ${value}`;
        }
        break;
      case 'm':
        if (!/^\d+$/.test(value) || Number(value) === 0) return `-m "${value}" isn't an integer greater than zero`;
        o.maxCount = Number(value);
        break;
      case 'f':
        o.file = value;
        break;
      case 'G': {
        const size = /^(\d+)([KkMm]?)$/.exec(value);
        const bytes = size ? Number(size[1]) * (size[2] ? (/[Kk]/.test(size[2]) ? 1024 : 1024 * 1024) : 1) : 0;
        // logd's bounds: 64 KiB to 256 MiB.
        if (bytes < 64 * 1024 || bytes > 256 * 1024 * 1024) return `failed to set the log size to "${value}"`;
        o.setSize = bytes;
        break;
      }
      case 'r':
      case 'n':
        break;
      default:
        return `invalid option -- '${opt}'`;
    }
  }
  if (o.buffers.length === 0) o.buffers = [...DEFAULT_BUFFERS];
  o.buffers = [...new Set(o.buffers)];
  return o;
}

function applyFlag(o: LogcatOptions, f: string): void {
  if (f === 'c') o.clear = true;
  else if (f === 'd') {
    o.dump = true;
    o.follow = false;
  } else if (f === 'B') o.binary = true;
  else if (f === 'D') o.dividers = true;
  else if (f === 's') o.silentDefault = true;
  else if (f === 'g') o.sizes = true;
}

type Filter = (e: LogEntry) => boolean;

function buildFilter(o: LogcatOptions, env: ReadonlyMap<string, string>): Filter | string {
  const rules = new Map<string, number>();
  let defaultPriority: number = o.silentDefault ? PRIORITY.S : PRIORITY.V;
  const specs = o.specs.length ? o.specs : (env.get('ANDROID_LOG_TAGS') ?? '').split(/\s+/).filter(Boolean);
  for (const spec of specs) {
    const colon = spec.lastIndexOf(':');
    const tag = colon >= 0 ? spec.slice(0, colon) : spec;
    const pri = colon >= 0 ? priorityOf(spec.slice(colon + 1)) : PRIORITY.V;
    if (pri === null || !tag) return `Invalid filter expression '${spec}'`;
    if (tag === '*') defaultPriority = pri;
    else rules.set(tag, pri);
  }
  return (e) => {
    if (o.pid !== null && e.pid !== o.pid) return false;
    if (o.regex && !o.regex.test(e.message)) return false;
    const min = rules.get(e.tag) ?? defaultPriority;
    return min !== PRIORITY.S && e.priority >= min;
  };
}

const USAGE = `Usage: logcat [options] [filterspecs]

General options:
  -b, --buffer=<buffer>       Request alternate ring buffer(s):
                                main system radio events crash default all
  -c, --clear                 Clear (flush) the entire log and exit.
  -d                          Dump the log and then exit (don't block).
  -t <count>                  Print only the most recent <count> lines (implies -d).
  -T <count>                  Print only the most recent <count> lines (does not imply -d).
  -g, --buffer-size           Get the size of the ring buffers within logd.
  -G <size>                   Set size of a ring buffer in logd. May suffix with K or M.
  -B, --binary                Output the log in binary.
  -v, --format=<format>       Sets log print format verb and adverbs, where <format> is one of:
                                brief long process raw tag thread threadtime time
  -s                          Set default filter to silent.
  --pid=<pid>                 Only print logs from the given pid.
  -e, --regex=<expr>          Only print lines where the log message matches <expr>.
  -m, --max-count=<count>     Quit after printing <count> lines.
`;

export const logcatCommand: CommandHandler = async ({ argv, io, device, env, cwd }) => {
  const args = argv.slice(1);
  if (args.includes('-h') || args.includes('--help')) {
    await io.stderr(USAGE);
    return 0;
  }
  const parsed = parseArgs(args, device.clock());
  if (typeof parsed === 'string') {
    await io.stderr(`logcat: ${parsed}\n${USAGE}`);
    return 1;
  }
  const o = parsed;
  if (o.clear) {
    device.logs.clear(o.buffers);
    return 0;
  }
  if (o.setSize !== null) {
    device.logs.setCapacity(o.setSize);
    return 0;
  }
  if (o.sizes) {
    const lines = o.buffers.map(
      (b) =>
        `${b}: ring buffer is ${device.logs.capacity / 1024} KiB (${Math.ceil(device.logs.consumedBytes(b) / 1024)} KiB consumed), max entry is 5120 B, max payload is ${MAX_PAYLOAD_BYTES} B`,
    );
    await io.stdout(`${lines.join('\n')}\n`);
    if (!o.dump && o.tail === null) return 0;
  }
  const filter = buildFilter(o, env);
  if (typeof filter === 'string') {
    await io.stderr(`logcat: ${filter}\n`);
    return 1;
  }
  let write = io.stdout;
  if (o.file) {
    const path = normalizePath(o.file, cwd);
    const error = device.fs.checkWritable(path);
    if (error) {
      await io.stderr(`logcat: Could not open output file "${o.file}": ${error}\n`);
      return 1;
    }
    device.fs.writeFile(path, Buffer.alloc(0), 0o640, Math.floor(device.clock() / 1000));
    write = async (d) => device.fs.appendFile(path, typeof d === 'string' ? Buffer.from(d) : d);
  }

  const seen = new Set<LogBufferName>();
  let last: LogBufferName | null = null;
  let printed = 0;
  const render = (e: LogEntry): Uint8Array | string => {
    if (o.binary) return e.buffer === 'events' ? (encodeEventEntry(e) ?? EMPTY) : encodeBinaryEntry(e);
    let head = '';
    if (!seen.has(e.buffer)) {
      seen.add(e.buffer);
      head = bufferHeader(e.buffer);
    } else if (o.dividers && last !== e.buffer) head = `--------- switch to ${e.buffer}\n`;
    last = e.buffer;
    return head + formatEntry(e, o.format);
  };
  const wanted = (e: LogEntry) => o.buffers.includes(e.buffer) && (o.pid === null || e.pid === o.pid) && filter(e);
  const flush = (parts: (Uint8Array | string)[]) =>
    write(o.binary ? Buffer.concat(parts as Uint8Array[]) : (parts as string[]).join(''));
  const done = () => o.maxCount !== null && printed >= o.maxCount;

  // Subscribe before reading the backlog so no entry falls between the two.
  let queue: LogEntry[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = o.follow
    ? device.logs.subscribe((e) => {
        if (!wanted(e)) return;
        queue.push(e);
        // A reader further behind than logd keeps loses the oldest lines, as on a phone (the flood counts them).
        if (queue.length > MAX_PENDING_ENTRIES) queue = queue.slice(queue.length - MAX_PENDING_ENTRIES / 2);
        const w = wake;
        wake = null;
        w?.();
      })
    : () => undefined;
  try {
    // logd applies the tail (count or time) and --pid; tag specs and -e are the logcat client's, so
    // `-t 5 Tag:* *:S` prints the matching lines among the last 5, as on a phone.
    let backlog = device.logs.read(o.buffers);
    if (o.pid !== null) backlog = backlog.filter((e) => e.pid === o.pid);
    if (o.tail?.count !== undefined) backlog = backlog.slice(Math.max(0, backlog.length - o.tail.count));
    if (o.tail?.sinceMs !== undefined) backlog = backlog.filter((e) => e.timeMs >= o.tail!.sinceMs!);
    backlog = backlog.filter(filter);
    const lastBacklogId = backlog.length ? backlog[backlog.length - 1].id : 0;
    const chunk: (Uint8Array | string)[] = [];
    for (const e of backlog) {
      if (done()) break;
      chunk.push(render(e));
      printed++;
      if (chunk.length >= WRITE_BATCH) await flush(chunk.splice(0));
    }
    if (chunk.length) await flush(chunk);
    if (!o.follow || done()) return 0;
    const onAbort = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    io.signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (!io.signal.aborted && !done()) {
        if (queue.length === 0) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        const batch = queue.length > WRITE_BATCH ? queue.splice(0, WRITE_BATCH) : queue.splice(0);
        const out: (Uint8Array | string)[] = [];
        for (const e of batch) {
          if (done()) break;
          if (e.id <= lastBacklogId) continue;
          out.push(render(e));
          printed++;
        }
        if (out.length) await flush(out);
      }
    } finally {
      io.signal.removeEventListener('abort', onAbort);
    }
    return 0;
  } finally {
    unsubscribe();
  }
};
