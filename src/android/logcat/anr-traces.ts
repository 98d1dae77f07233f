import { type JavaFrame, parseJavaFrame } from './java-stack-trace.js';
import { type NativeFrame, parseNativeFrameLocation } from './tombstone.js';

/**
 * The thread dump ART writes on SIGQUIT: `/data/anr/traces.txt`, `/data/anr/anr_*`, bug reports and the `trace`
 * of an ANR's exit info. It says why the main thread was not responding: its state, its stack and the lock it waits
 * for and which thread holds it.
 */
export interface AnrTraceThread {
  readonly name: string;
  readonly daemon: boolean;
  readonly priority: number | null;
  /** ART's thread id (`tid=1` is main); null for threads not attached to the runtime. */
  readonly tid: number | null;
  /** `Runnable`, `Blocked`, `Waiting`, `Sleeping`, `Native`, `TimedWaiting`, `(not attached)`, … */
  readonly state: string;
  /** The kernel thread id. */
  readonly sysTid: number | null;
  readonly frames: readonly JavaFrame[];
  readonly nativeFrames: readonly NativeFrame[];
  /** `- waiting to lock <0x…> (a pkg.Class) held by thread N`. */
  readonly waitingToLock: {
    readonly monitor: string;
    readonly className: string;
    readonly heldByTid: number | null;
  } | null;
  /** Monitors the thread holds (`- locked <0x…>`). */
  readonly locked: readonly string[];
}

export interface AnrTraceProcess {
  readonly pid: number;
  /** As printed after `at` in the section header. */
  readonly time: string;
  readonly commandLine: string | null;
  readonly abi: string | null;
  readonly threads: readonly AnrTraceThread[];
}

const SECTION_START = /^----- pid (\d+) at (.*?) -----$/;
const SECTION_END = /^----- end (\d+) -----$/;
const THREAD_HEADER = /^"(.*)"( daemon)?(?: prio=(\d+))?(?: tid=(\d+))? (.*)$/;
const NATIVE_FRAME = /^native: #(\d+) pc ([0-9a-fA-F]+)\s+(.*)$/;
const WAITING = /^- waiting to lock <(0x[0-9a-f]+)> \(a (.*?)\)(?: held by thread (\d+))?/;
const LOCKED = /^- locked <(0x[0-9a-f]+)>/;

interface MutableThread {
  name: string;
  daemon: boolean;
  priority: number | null;
  tid: number | null;
  state: string;
  sysTid: number | null;
  frames: JavaFrame[];
  nativeFrames: NativeFrame[];
  waitingToLock: AnrTraceThread['waitingToLock'];
  locked: string[];
}

/** Parses every process section of a thread dump; text outside `----- pid … -----` sections is ignored. */
export function parseAnrTraces(text: string): AnrTraceProcess[] {
  const processes: {
    pid: number;
    time: string;
    commandLine: string | null;
    abi: string | null;
    threads: MutableThread[];
  }[] = [];
  let process: (typeof processes)[number] | null = null;
  let thread: MutableThread | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const start = SECTION_START.exec(line);
    if (start) {
      process = { pid: Number(start[1]), time: start[2]!, commandLine: null, abi: null, threads: [] };
      processes.push(process);
      thread = null;
      continue;
    }
    if (!process) continue;
    if (SECTION_END.test(line)) {
      process = null;
      thread = null;
      continue;
    }
    if (thread === null && process.threads.length === 0) {
      if (line.startsWith('Cmd line: ')) process.commandLine = line.slice(10);
      else if (line.startsWith('ABI: ')) process.abi = line.slice(5).replace(/^'(.*)'$/, '$1');
    }
    const header = THREAD_HEADER.exec(line);
    if (header) {
      thread = {
        name: header[1]!,
        daemon: header[2] !== undefined,
        priority: header[3] === undefined ? null : Number(header[3]),
        tid: header[4] === undefined ? null : Number(header[4]),
        state: header[5]!,
        sysTid: null,
        frames: [],
        nativeFrames: [],
        waitingToLock: null,
        locked: [],
      };
      process.threads.push(thread);
      continue;
    }
    if (!thread) continue;
    const body = line.trim();
    if (body === '') {
      thread = null;
      continue;
    }
    if (body.startsWith('|')) {
      const sysTid = /\bsysTid=(\d+)/.exec(body);
      if (sysTid) thread.sysTid = Number(sysTid[1]);
      continue;
    }
    const frame = parseJavaFrame(body);
    if (frame) {
      thread.frames.push(frame);
      continue;
    }
    const native = NATIVE_FRAME.exec(body);
    if (native) {
      thread.nativeFrames.push({ index: Number(native[1]), pc: native[2]!, ...parseNativeFrameLocation(native[3]!) });
      continue;
    }
    const waiting = WAITING.exec(body);
    if (waiting) {
      thread.waitingToLock = {
        monitor: waiting[1]!,
        className: waiting[2]!,
        heldByTid: waiting[3] === undefined ? null : Number(waiting[3]),
      };
      continue;
    }
    const locked = LOCKED.exec(body);
    if (locked) thread.locked.push(locked[1]!);
  }
  return processes;
}

/** The thread holding the lock `thread` waits for, when the dump names it. */
export function lockHolder(process: AnrTraceProcess, thread: AnrTraceThread): AnrTraceThread | null {
  const tid = thread.waitingToLock?.heldByTid;
  if (tid == null) return null;
  return process.threads.find((t) => t.tid === tid) ?? null;
}
