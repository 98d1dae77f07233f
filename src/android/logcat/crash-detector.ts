import {
  anrSignature,
  javaCrashSignature,
  nativeCrashSignature,
  packageOfProcess,
  signatureHash,
} from './crash-signature.js';
import { type JavaFrame, type JavaStackTrace, type JavaThrowable, parseJavaStackTrace } from './java-stack-trace.js';
import type { LogcatEntry } from './logcat-entry.js';
import { type NativeFrame, parseTombstone } from './tombstone.js';

interface CrashReportBase {
  readonly pid: number | null;
  readonly package: string | null;
  /** Groups recurrences: see crash-signature.ts. */
  readonly signature: string;
  readonly signatureHash: string;
  /** The log entries of the block, in arrival order, at most `maxLines` of them. */
  readonly entries: readonly LogcatEntry[];
  /** True when the block was cut at `maxLines`; the report holds what came before the cut. */
  readonly truncated: boolean;
  /** Time of the block's first entry, as printed and as {@link LogcatEntry.timeMs}. */
  readonly time: string;
  readonly timeMs: number | null;
}

export interface JavaCrashReport extends CrashReportBase {
  readonly kind: 'java';
  readonly thread: string;
  /** The process name from `Process: …, PID: …` (a package, or `package:suffix` for a secondary process). */
  readonly process: string | null;
  readonly exceptionClass: string;
  readonly message: string | null;
  readonly frames: readonly JavaFrame[];
  /** `Caused by:` throwables, outermost first; the last is the root cause. */
  readonly causes: readonly JavaThrowable[];
}

export interface NativeCrashReport extends CrashReportBase {
  readonly kind: 'native';
  readonly signal: string | null;
  readonly signalNumber: number | null;
  readonly code: string | null;
  readonly faultAddress: string | null;
  readonly abi: string | null;
  readonly tid: number | null;
  readonly threadName: string | null;
  readonly process: string | null;
  readonly abortMessage: string | null;
  readonly cause: string | null;
  readonly frames: readonly NativeFrame[];
  /** False when only the `Fatal signal` line was seen (no tombstone reached the log before the bound). */
  readonly hasTombstone: boolean;
}

export interface AnrReport extends CrashReportBase {
  readonly kind: 'anr';
  /** The process name after `ANR in` (`com.example` or `com.example:remote`). */
  readonly process: string | null;
  /** The component in parentheses after the process, when printed (`com.example/.MainActivity`). */
  readonly component: string | null;
  readonly reason: string | null;
}

export type CrashReport = JavaCrashReport | NativeCrashReport | AnrReport;

export interface CrashDetectorOptions {
  /** Lines kept per block; a block reaching it is reported at once, marked `truncated`. Default 400. */
  readonly maxLines?: number;
  /** A block with no continuation for this many further entries is complete. Default 500. */
  readonly idleEntries?: number;
  /** A block with no continuation for this long (by the clock given to `push`/`tick`) is complete. Default 1500 ms. */
  readonly idleMs?: number;
}

type BlockKind = 'java' | 'anr' | 'tombstone';

interface OpenBlock {
  readonly kind: BlockKind;
  readonly key: string;
  readonly tag: string;
  readonly entries: LogcatEntry[];
  readonly lines: string[];
  truncated: boolean;
  lastSeq: number;
  lastAtMs: number;
}

interface PendingSignal {
  readonly entry: LogcatEntry;
  readonly pid: number;
  readonly signalNumber: number;
  readonly signal: string;
  readonly code: string | null;
  readonly faultAddress: string | null;
  readonly tid: number;
  readonly threadName: string;
  /** Android 7 and older print no `pid … (process)` part. */
  readonly process: string | null;
  readonly seq: number;
  readonly atMs: number;
}

const FATAL_EXCEPTION = /^FATAL EXCEPTION(?: IN SYSTEM PROCESS)?: (.*)$/;
const PROCESS_LINE = /^Process: (.*?), PID: (\d+)/;
const ANR_IN = /^ANR in (\S+)(?: \((.*)\))?/;
const ANR_PID = /^PID: (\d+)/;
const ANR_REASON = /^Reason: (.*)$/;
const FATAL_SIGNAL =
  /^Fatal signal (\d+) \((\w+)\)(?:, code (-?\d+)(?: \(([^)]*)\))?)?(?:, fault addr (0x[0-9a-fA-F]+|-+))? in tid (\d+) \((.*?)\)(?:, pid (\d+) \((.*?)\))?/;
/** The `*** *** ***` banner; a capture cut before it still has the `pid: …, tid: …, name: … >>> … <<<` line. */
const TOMBSTONE_START = /^(?:\*\*\* \*\*\* \*\*\*|pid: \d+, tid: \d+, name: .* >>> .* <<<$)/;

const STARTER_TAGS = new Set(['AndroidRuntime', 'ActivityManager', 'DEBUG', 'libc']);

function blockStart(entry: LogcatEntry, firstLine: string): BlockKind | null {
  switch (entry.tag) {
    case 'AndroidRuntime':
      return FATAL_EXCEPTION.test(firstLine) ? 'java' : null;
    case 'ActivityManager':
      return ANR_IN.test(firstLine) ? 'anr' : null;
    case 'DEBUG':
      return TOMBSTONE_START.test(firstLine) ? 'tombstone' : null;
    default:
      return null;
  }
}

function blockKey(entry: LogcatEntry): string {
  return `${entry.pid}:${entry.tid ?? ''}:${entry.tag}`;
}

/**
 * Finds Java crashes, native crashes and ANRs in a stream of log entries, fed one at a time in log order.
 *
 * Each report is a block of consecutive lines one thread logged under one tag (other processes may interleave).
 * A block completes when that thread logs under another tag, when its key starts a new block, after `idleEntries`
 * entries or `idleMs` without a continuation, at `maxLines`, or on {@link flush}. A native crash joins the libc
 * `Fatal signal` line with the `DEBUG` tombstone crash_dump logs for the same pid; the signal alone is reported
 * when no tombstone follows within the idle bounds.
 */
export class CrashDetector {
  private readonly maxLines: number;
  private readonly idleEntries: number;
  private readonly idleMs: number;
  private readonly open = new Map<string, OpenBlock>();
  private readonly signals = new Map<number, PendingSignal>();
  private seq = 0;

  constructor(options: CrashDetectorOptions = {}) {
    this.maxLines = Math.max(1, options.maxLines ?? 400);
    this.idleEntries = Math.max(1, options.idleEntries ?? 500);
    this.idleMs = Math.max(0, options.idleMs ?? 1500);
  }

  /** Feeds one entry; `nowMs` is the arrival time (defaults to the wall clock). Returns the reports it completed. */
  push(entry: LogcatEntry, nowMs: number = Date.now()): CrashReport[] {
    this.seq++;
    const out: CrashReport[] = [];
    // The common case, kept cheap: nothing open and a tag that never starts a block.
    if (this.open.size === 0 && this.signals.size === 0 && !STARTER_TAGS.has(entry.tag)) return out;
    const lines = entry.message.includes('\n') ? entry.message.split('\n') : [entry.message];
    if (this.open.size > 0 || this.signals.size > 0) this.expire(out, this.seq, nowMs, entry);
    const key = blockKey(entry);
    let block = this.open.get(key);
    for (const line of lines) {
      const start = blockStart(entry, line);
      // The pid line inside a tombstone continues it; it only starts one when no tombstone is open.
      if (start !== null && !(start === 'tombstone' && block?.kind === 'tombstone' && !line.startsWith('***'))) {
        if (block) this.complete(block, out);
        block = { kind: start, key, tag: entry.tag, entries: [], lines: [], truncated: false, lastSeq: 0, lastAtMs: 0 };
        this.open.set(key, block);
      }
      if (!block) continue;
      block.lines.push(line);
      if (block.entries[block.entries.length - 1] !== entry) block.entries.push(entry);
      block.lastSeq = this.seq;
      block.lastAtMs = nowMs;
      if (block.lines.length >= this.maxLines) {
        block.truncated = true;
        this.complete(block, out);
        block = undefined;
      }
    }
    if (!block && entry.tag === 'libc') {
      const s = FATAL_SIGNAL.exec(lines[0]!);
      if (s) {
        const pid = s[8] === undefined ? entry.pid : Number(s[8]);
        const previous = this.signals.get(pid);
        if (previous) out.push(this.signalOnly(previous));
        this.signals.set(pid, {
          entry,
          pid,
          signalNumber: Number(s[1]),
          signal: s[2]!,
          code: s[4] ?? s[3] ?? null,
          faultAddress: s[5] === undefined || s[5].startsWith('-') ? null : s[5],
          tid: Number(s[6]),
          threadName: s[7]!,
          process: s[9] ?? null,
          seq: this.seq,
          atMs: nowMs,
        });
      }
    }
    return out;
  }

  /** Completes what has been idle for `idleMs` by `nowMs`; call it on a timer when the stream goes quiet. */
  tick(nowMs: number = Date.now()): CrashReport[] {
    const out: CrashReport[] = [];
    this.expire(out, this.seq, nowMs, null);
    return out;
  }

  /** Completes everything still open (end of a file, stream closed). */
  flush(): CrashReport[] {
    const out: CrashReport[] = [];
    for (const block of [...this.open.values()]) this.complete(block, out);
    for (const pending of [...this.signals.values()]) out.push(this.signalOnly(pending));
    this.signals.clear();
    return out;
  }

  /** Blocks still open and signals still waiting for a tombstone. */
  get pending(): number {
    return this.open.size + this.signals.size;
  }

  private expire(out: CrashReport[], seq: number, nowMs: number, incoming: LogcatEntry | null): void {
    let tombstoneOpen = false;
    // Deleting the current key while iterating a Map is safe.
    for (const block of this.open.values()) {
      const first = block.entries[0]!;
      const sameThread =
        incoming !== null && incoming.pid === first.pid && incoming.tid === first.tid && incoming.tag !== block.tag;
      if (sameThread || seq - block.lastSeq > this.idleEntries || nowMs - block.lastAtMs >= this.idleMs) {
        this.complete(block, out);
      } else if (block.kind === 'tombstone') {
        tombstoneOpen = true;
      }
    }
    // A signal waits while any tombstone is still being written: it may be the one for that pid.
    if (tombstoneOpen || this.signals.size === 0) return;
    for (const pending of this.signals.values()) {
      if (seq - pending.seq > this.idleEntries || nowMs - pending.atMs >= this.idleMs) {
        this.signals.delete(pending.pid);
        out.push(this.signalOnly(pending));
      }
    }
  }

  private complete(block: OpenBlock, out: CrashReport[]): void {
    if (this.open.get(block.key) === block) this.open.delete(block.key);
    const report =
      block.kind === 'java' ? this.java(block) : block.kind === 'anr' ? this.anr(block) : this.tombstone(block);
    if (report) out.push(report);
  }

  private base(entries: readonly LogcatEntry[], truncated: boolean) {
    const first = entries[0]!;
    return { entries, truncated, time: first.time, timeMs: first.timeMs };
  }

  private java(block: OpenBlock): JavaCrashReport | null {
    const thread = FATAL_EXCEPTION.exec(block.lines[0]!)![1]!;
    let process: string | null = null;
    let pid: number | null = block.entries[0]!.pid;
    let traceStart = 1;
    for (let i = 1; i < Math.min(block.lines.length, 4); i++) {
      const p = PROCESS_LINE.exec(block.lines[i]!);
      if (p) {
        process = p[1]!;
        pid = Number(p[2]);
        traceStart = i + 1;
        break;
      }
    }
    const trace: JavaStackTrace | null = parseJavaStackTrace(block.lines.slice(traceStart));
    if (!trace) return null;
    const pkg = packageOfProcess(process) ?? block.entries[0]!.package ?? null;
    const signature = javaCrashSignature(trace, pkg);
    return {
      kind: 'java',
      ...this.base(block.entries, block.truncated),
      pid,
      package: pkg,
      process,
      thread,
      exceptionClass: trace.exceptionClass,
      message: trace.message,
      frames: trace.frames,
      causes: trace.causes,
      signature,
      signatureHash: signatureHash(signature),
    };
  }

  private anr(block: OpenBlock): AnrReport {
    const head = ANR_IN.exec(block.lines[0]!)!;
    let pid: number | null = null;
    let reason: string | null = null;
    for (const line of block.lines.slice(1, 40)) {
      const p: RegExpExecArray | null = pid === null ? ANR_PID.exec(line) : null;
      if (p) pid = Number(p[1]);
      const r: RegExpExecArray | null = reason === null ? ANR_REASON.exec(line) : null;
      if (r) reason = r[1]!;
    }
    const process = head[1]!;
    const pkg = packageOfProcess(process);
    const signature = anrSignature(pkg ?? process, reason);
    return {
      kind: 'anr',
      ...this.base(block.entries, block.truncated),
      pid,
      package: pkg,
      process,
      component: head[2] ?? null,
      reason,
      signature,
      signatureHash: signatureHash(signature),
    };
  }

  private tombstone(block: OpenBlock): NativeCrashReport | null {
    const t = parseTombstone(block.lines);
    if (!t) return null;
    const pending = t.pid === null ? undefined : this.signals.get(t.pid);
    if (pending) this.signals.delete(pending.pid);
    const entries = pending ? [pending.entry, ...block.entries] : block.entries;
    const process = t.process ?? pending?.process ?? null;
    const pkg = packageOfProcess(process);
    const signal = t.signal ?? pending?.signal ?? null;
    const signature = nativeCrashSignature(signal, t.frames, pkg);
    return {
      kind: 'native',
      ...this.base(entries, block.truncated),
      pid: t.pid ?? pending?.pid ?? null,
      package: pkg,
      process,
      signal,
      signalNumber: t.signalNumber ?? pending?.signalNumber ?? null,
      code: t.code ?? pending?.code ?? null,
      faultAddress: t.faultAddress ?? pending?.faultAddress ?? null,
      abi: t.abi,
      tid: t.tid ?? pending?.tid ?? null,
      threadName: t.threadName ?? pending?.threadName ?? null,
      abortMessage: t.abortMessage,
      cause: t.cause,
      frames: t.frames,
      hasTombstone: true,
      signature,
      signatureHash: signatureHash(signature),
    };
  }

  private signalOnly(s: PendingSignal): NativeCrashReport {
    const pkg = packageOfProcess(s.process);
    const signature = nativeCrashSignature(s.signal, [], pkg);
    return {
      kind: 'native',
      ...this.base([s.entry], false),
      pid: s.pid,
      package: pkg,
      process: s.process,
      signal: s.signal,
      signalNumber: s.signalNumber,
      code: s.code,
      faultAddress: s.faultAddress,
      abi: null,
      tid: s.tid,
      threadName: s.threadName,
      abortMessage: null,
      cause: null,
      frames: [],
      hasTombstone: false,
      signature,
      signatureHash: signatureHash(signature),
    };
  }
}

/** Runs a detector over a whole list of entries (a file, a paste) and returns every report, in completion order. */
export function detectCrashes(entries: Iterable<LogcatEntry>, options: CrashDetectorOptions = {}): CrashReport[] {
  // Entry count, not the wall clock, bounds blocks in a file: reading is far faster than the device wrote it.
  const detector = new CrashDetector({ ...options, idleMs: options.idleMs ?? Number.POSITIVE_INFINITY });
  const out: CrashReport[] = [];
  for (const entry of entries) out.push(...detector.push(entry, 0));
  out.push(...detector.flush());
  return out;
}
