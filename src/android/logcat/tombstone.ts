/**
 * A native crash report as debuggerd/crash_dump prints it: to logcat under the `DEBUG` tag, to `/data/tombstones`,
 * and (with extra header lines) in xCrash's files. Only the parts crash grouping and reports need are read: header,
 * signal, abort message, cause and the crashing thread's backtrace.
 */
export interface NativeFrame {
  readonly index: number;
  /** Program counter, as printed (hex, relative to the mapping). */
  readonly pc: string;
  /** The mapped file (`/system/lib64/libc.so`, `/data/app/…/base.apk!libfoo.so`) or a mapping name. */
  readonly path: string;
  /** `abort`, `_ZN7android6Thread11_threadLoopEPv`; null when unsymbolised. */
  readonly symbol: string | null;
  readonly symbolOffset: number | null;
  readonly buildId: string | null;
}

export interface NativeTombstone {
  readonly abi: string | null;
  readonly buildFingerprint: string | null;
  readonly pid: number | null;
  readonly tid: number | null;
  readonly threadName: string | null;
  /** The process: a package or process name (`com.example:remote`) or an executable path. */
  readonly process: string | null;
  readonly uid: number | null;
  /** `Cmdline:` (Android 10+): the full process command line. */
  readonly commandLine: string | null;
  readonly signalNumber: number | null;
  readonly signal: string | null;
  readonly code: string | null;
  /** `0xe9380000`; null for signals sent without one (`--------`). */
  readonly faultAddress: string | null;
  readonly abortMessage: string | null;
  readonly cause: string | null;
  readonly frames: readonly NativeFrame[];
}

const PID_LINE = /^pid: (\d+), tid: (\d+), name: (.*?)\s+>>> (.*?) <<<$/;
const SIGNAL_LINE =
  /^signal (\d+) \((\w+)\), code (-?\d+)(?: \(([^)]*)\))?(?:, fault addr (0x[0-9a-fA-F]+|-+))?(?:, from pid .*)?$/;
const FRAME_LINE = /^#(\d+) pc ([0-9a-fA-F]+)\s+(.*)$/;
const QUOTED = /^'(.*)'$/;

/** Reads `/system/lib/libc.so (abort+164) (BuildId: 12ab…)` after the `pc` value. */
export function parseNativeFrameLocation(
  rest: string,
): Pick<NativeFrame, 'path' | 'symbol' | 'symbolOffset' | 'buildId'> {
  let text = rest.trim();
  let buildId: string | null = null;
  const build = /\s*\(BuildId: ([0-9a-fA-F]+)\)$/.exec(text);
  if (build) {
    buildId = build[1]!;
    text = text.slice(0, build.index);
  }
  let symbol: string | null = null;
  let symbolOffset: number | null = null;
  // The symbol group is the last parenthesised group, unless it is the `(offset 0x…)` of an APK-embedded library.
  const sym = /\s+\(((?!offset 0x)[^()]*(?:\([^()]*\)[^()]*)*)\)$/.exec(text);
  if (sym) {
    text = text.slice(0, sym.index);
    const off = /^(.*)\+(\d+)$/.exec(sym[1]!);
    symbol = off ? off[1]! : sym[1]!;
    symbolOffset = off ? Number(off[2]) : null;
  }
  return { path: text.replace(/\s+\(offset 0x[0-9a-fA-F]+\)$/, ''), symbol, symbolOffset, buildId };
}

function unquote(value: string): string {
  return QUOTED.exec(value)?.[1] ?? value;
}

/**
 * Parses tombstone text (lines without logcat headers). Reads the first thread's `backtrace:` only; later threads
 * and memory dumps are ignored. Returns null when the text has neither a `pid:` line nor a signal line.
 */
export function parseTombstone(lines: readonly string[]): NativeTombstone | null {
  const t: {
    abi: string | null;
    buildFingerprint: string | null;
    pid: number | null;
    tid: number | null;
    threadName: string | null;
    process: string | null;
    uid: number | null;
    commandLine: string | null;
    signalNumber: number | null;
    signal: string | null;
    code: string | null;
    faultAddress: string | null;
    abortMessage: string | null;
    cause: string | null;
    frames: NativeFrame[];
  } = {
    abi: null,
    buildFingerprint: null,
    pid: null,
    tid: null,
    threadName: null,
    process: null,
    uid: null,
    commandLine: null,
    signalNumber: null,
    signal: null,
    code: null,
    faultAddress: null,
    abortMessage: null,
    cause: null,
    frames: [],
  };
  let inBacktrace = false;
  let backtraceDone = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (inBacktrace) {
      const f = FRAME_LINE.exec(line);
      if (f) {
        t.frames.push({ index: Number(f[1]), pc: f[2]!, ...parseNativeFrameLocation(f[3]!) });
        continue;
      }
      if (line === '' && t.frames.length === 0) continue;
      inBacktrace = false;
      backtraceDone = true;
    }
    if (line === 'backtrace:' && !backtraceDone) {
      inBacktrace = true;
      continue;
    }
    // A capture cut above the `backtrace:` header still starts with the crashing thread's frames.
    if (!backtraceDone && t.frames.length === 0 && FRAME_LINE.test(line)) {
      const f = FRAME_LINE.exec(line)!;
      t.frames.push({ index: Number(f[1]), pc: f[2]!, ...parseNativeFrameLocation(f[3]!) });
      inBacktrace = true;
      continue;
    }
    if (t.pid === null) {
      const p = PID_LINE.exec(line);
      if (p) {
        t.pid = Number(p[1]);
        t.tid = Number(p[2]);
        t.threadName = p[3]!;
        t.process = p[4]!;
        continue;
      }
    }
    if (t.signal === null) {
      const s = SIGNAL_LINE.exec(line);
      if (s) {
        t.signalNumber = Number(s[1]);
        t.signal = s[2]!;
        t.code = s[4] ?? s[3]!;
        t.faultAddress = s[5] === undefined || s[5].startsWith('-') ? null : s[5];
        continue;
      }
    }
    const colon = line.indexOf(': ');
    if (colon === -1) continue;
    const key = line.slice(0, colon);
    const value = line.slice(colon + 2);
    if (key === 'ABI' && t.abi === null) t.abi = unquote(value);
    else if (key === 'Build fingerprint' && t.buildFingerprint === null) t.buildFingerprint = unquote(value);
    else if (key === 'uid' && t.uid === null && /^\d+$/.test(value)) t.uid = Number(value);
    else if (key === 'Cmdline' && t.commandLine === null) t.commandLine = value;
    else if (key === 'Abort message' && t.abortMessage === null) t.abortMessage = unquote(value);
    else if (key === 'Cause' && t.cause === null) t.cause = value;
  }
  if (t.pid === null && t.signal === null) return null;
  return t;
}
