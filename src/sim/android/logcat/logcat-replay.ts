import { priorityOfLevel } from '../../../android/logcat/logcat-binary-decoder.js';
import type { LogcatEntry } from '../../../android/logcat/logcat-entry.js';
import { parseLogcatText, type LogcatTextFormat } from '../../../android/logcat/logcat-text-parser.js';
import { LOG_BUFFERS, type LogBufferName, type NewLogEntry } from './log-buffers.js';

/** A captured log turned into what logd would hold: entries for the buffers and the processes they name. */
export type ReplayedEntry = { -readonly [K in keyof NewLogEntry]-?: NonNullable<NewLogEntry[K]> };

export interface LogcatReplay {
  readonly format: LogcatTextFormat;
  readonly entries: readonly ReplayedEntry[];
  /** Every pid the log names → the package (or process name) the log reveals for it, if any. */
  readonly processes: ReadonlyMap<number, string | undefined>;
  /** Lines no format read (prose around a pasted log); reported, never turned into entries. */
  readonly unparsed: number;
}

/** A capture that cannot be replayed (unreadable, or no line in a logcat format): the user's input, not a bug. */
export class LogcatReplayError extends Error {
  override readonly name = 'LogcatReplayError';
}

/** Where the log reveals which process a pid is. Each pattern captures the pid and the name. */
const PROCESS_PATTERNS: readonly [RegExp, 'pid-name' | 'name-pid'][] = [
  // AndroidRuntime: `Process: com.example, PID: 1234`
  [/^Process: ([\w.:-]+), PID: (\d+)/, 'name-pid'],
  // libc: `Fatal signal 11 (SIGSEGV), … in tid 1240 (RenderThread), pid 1234 (com.example)`
  [/\bpid (\d+) \(([\w.:-]+)\)/, 'pid-name'],
  // debuggerd: `pid: 1234, tid: 1240, name: RenderThread  >>> com.example <<<`
  [/^pid: (\d+), tid: \d+, name: .*>>> ([^ ]+) <<</, 'pid-name'],
  // ActivityManager: `Start proc 1234:com.example/u0a123 for activity …`
  [/^Start proc (\d+):([\w.:-]+)\//, 'pid-name'],
  // ActivityManager: `Process com.example (pid 1234) has died`
  [/^Process ([\w.:-]+) \(pid (\d+)\) has died/, 'name-pid'],
  // ActivityManager: `Killing 1234:com.example/u0a123 (adj 900): …`
  [/^Killing (\d+):([\w.:-]+)\//, 'pid-name'],
];
const ANR_IN = /^ANR in ([\w.:-]+)/;
const SYSTEM_SERVER_TAGS = new Set(['ActivityManager', 'ActivityTaskManager']);
const ANR_PID = /^\s*PID: (\d+)/;

/** Tags whose lines go to the crash buffer on a device: the runtime's fatal exception and debuggerd's dump. */
function bufferOf(e: LogcatEntry): LogBufferName {
  if (e.buffer !== undefined && (LOG_BUFFERS as readonly string[]).includes(e.buffer)) return e.buffer as LogBufferName;
  if (e.tag === 'AndroidRuntime' && (e.level === 'E' || e.level === 'F' || e.level === 'A')) return 'crash';
  if (e.tag === 'DEBUG') return 'crash';
  return 'main';
}

/** Native crash dumps are one log call per line; everything else printed as several lines was one entry. */
const ONE_CALL_PER_LINE = new Set(['DEBUG', 'libc', 'crash_dump64', 'crash_dump32', 'tombstoned']);

/**
 * Reads a capture (threadtime, brief, time, long, Android Studio's formats, detected) into log entries with the
 * original pids, tids, levels, tags and times. Consecutive lines with one header are joined into one entry, as the
 * device logged them (a stack trace, an ANR report), except native crash dumps, which logd received line by line.
 * `year` fills in formats that print none; `fallbackTimeMs` times formats that print no time (`brief`).
 */
export function readLogcatReplay(
  text: string,
  options: { readonly year: number; readonly fallbackTimeMs: number; readonly source: string },
): LogcatReplay {
  const parsed = parseLogcatText(text, { year: options.year });
  if (parsed.format === null || parsed.entries.length === 0) {
    throw new LogcatReplayError(
      `${options.source}: no line reads as logcat output (threadtime, brief, time, long or Android Studio's copy ` +
        'formats). Give a file captured with `adb logcat -d` or copied from Android Studio.',
    );
  }
  const entries: ReplayedEntry[] = [];
  const processes = new Map<number, string | undefined>();
  const name = (pid: number, value: string | undefined) => {
    if (!Number.isSafeInteger(pid) || pid <= 0) return;
    if (value === undefined || value === '?') {
      if (!processes.has(pid)) processes.set(pid, undefined);
      return;
    }
    // Android Studio names system_server's pid `system_process`.
    processes.set(pid, value === 'system_process' ? 'system_server' : value);
  };
  let previous: LogcatEntry | null = null;
  let pendingAnr: string | null = null;
  for (const e of parsed.entries) {
    name(e.pid, e.package);
    for (const [pattern, order] of PROCESS_PATTERNS) {
      const m = pattern.exec(e.message);
      if (m) {
        if (order === 'pid-name') name(Number(m[1]), m[2]);
        else name(Number(m[2]), m[1]);
      }
    }
    // Only system_server reports ANRs and starts processes; a pid the log names otherwise keeps that name.
    if (SYSTEM_SERVER_TAGS.has(e.tag) && (ANR_IN.test(e.message) || e.message.startsWith('Start proc '))) {
      if (processes.get(e.pid) === undefined) name(e.pid, 'system_server');
    }
    const anr = ANR_IN.exec(e.message);
    if (anr) pendingAnr = anr[1]!;
    else if (pendingAnr !== null) {
      const pid = ANR_PID.exec(e.message);
      if (pid) {
        name(Number(pid[1]), pendingAnr);
        pendingAnr = null;
      }
    }
    const buffer = bufferOf(e);
    const last = entries[entries.length - 1];
    if (
      last &&
      previous &&
      previous.time === e.time &&
      previous.pid === e.pid &&
      previous.tid === e.tid &&
      previous.level === e.level &&
      previous.tag === e.tag &&
      last.buffer === buffer &&
      !ONE_CALL_PER_LINE.has(e.tag)
    ) {
      last.message = `${last.message}\n${e.message}`;
    } else {
      entries.push({
        buffer,
        timeMs: e.timeMs ?? options.fallbackTimeMs,
        pid: e.pid,
        tid: e.tid ?? e.pid,
        uid: 0,
        priority: priorityOfLevel(e.level),
        tag: e.tag,
        message: e.message,
      });
    }
    previous = e;
  }
  return { format: parsed.format, entries, processes, unparsed: parsed.stats.unparsed };
}
