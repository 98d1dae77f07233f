/** A Java/Kotlin stack trace as `Throwable.printStackTrace` (and ART's AndroidRuntime handler) prints it. */
export interface JavaFrame {
  readonly className: string;
  readonly methodName: string;
  /** `Foo.kt`, `SourceFile`, `Unknown Source`, `Native Method`, `r8-map-id-<id>`; null when the parentheses are empty. */
  readonly fileName: string | null;
  readonly line: number | null;
}

export interface JavaThrowable {
  readonly exceptionClass: string;
  /** Null when the throwable printed no message; may span lines. */
  readonly message: string | null;
  readonly frames: readonly JavaFrame[];
  /** The `... N more` count: frames shared with the enclosing trace and not printed again. */
  readonly omittedFrames: number;
}

export interface JavaStackTrace extends JavaThrowable {
  /** `Caused by:` throwables, outermost first: the last is the root cause. */
  readonly causes: readonly JavaThrowable[];
  readonly suppressed: readonly JavaThrowable[];
}

// A frame may carry a module prefix (`java.base/java.lang.Thread.run`) or a class loader (`app//com.Foo.bar`);
// hand-edited reports sometimes drop the parentheses (`at e.a.c.a.onClick`).
const FRAME = /^\s*at\s+(?:[\w.$@-]*\/{1,2})?([^\s(]+)\.([^\s.(]+)(?:\((.*)\))?\s*$/;
const OMITTED = /^\s*\.\.\. (\d+) (?:more|common frames omitted)\s*$/;
const HEADER = /^(\s*)(Caused by|Suppressed): (.*)$/;
/** `pkg.Class` or `pkg.Outer$Inner`, optionally followed by `: message`. */
const THROWABLE = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$-]*)+)(?::(?: (.*)|$)|$)/;

/** Reads `(File.java:12)` contents: file and line; `Unknown Source:12`, `:4`, `Native Method`. */
export function parseFrameSource(source: string): { fileName: string | null; line: number | null } {
  const m = /^(.*?)(?::(\d+))?$/.exec(source)!;
  const fileName = m[1] === '' ? null : m[1]!;
  return { fileName, line: m[2] === undefined ? null : Number(m[2]) };
}

/** Reads one `at pkg.Class.method(File.java:12)` line; null when the line is not a frame. */
export function parseJavaFrame(line: string): JavaFrame | null {
  const m = FRAME.exec(line);
  if (!m) return null;
  if (m[3] === undefined) return { className: m[1]!, methodName: m[2]!, fileName: null, line: null };
  return { className: m[1]!, methodName: m[2]!, ...parseFrameSource(m[3]) };
}

/** Reads `pkg.SomeException: message` (the first line of a trace); null when the line names no class. */
export function parseThrowableLine(line: string): { exceptionClass: string; message: string | null } | null {
  const m = THROWABLE.exec(line.trim());
  if (!m) return null;
  return { exceptionClass: m[1]!, message: m[2] ?? null };
}

interface Building {
  exceptionClass: string;
  message: string | null;
  frames: JavaFrame[];
  omittedFrames: number;
}

/**
 * Parses the lines of one trace, starting at its throwable line. Lines before the first throwable line are
 * skipped; a line that is neither a frame, a `Caused by:`/`Suppressed:` header nor `... N more` continues the
 * current message (messages can span lines). Returns null when no throwable line is found.
 */
export function parseJavaStackTrace(lines: readonly string[]): JavaStackTrace | null {
  let top: Building | null = null;
  const causes: Building[] = [];
  const suppressed: Building[] = [];
  let current: Building | null = null;
  let framesStarted = false;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    if (current === null) {
      const t = parseThrowableLine(line);
      if (t) {
        top = current = { ...t, frames: [], omittedFrames: 0 };
        framesStarted = false;
      }
      continue;
    }
    const frame = parseJavaFrame(line);
    if (frame) {
      current.frames.push(frame);
      framesStarted = true;
      continue;
    }
    const omitted = OMITTED.exec(line);
    if (omitted) {
      current.omittedFrames = Number(omitted[1]);
      framesStarted = true;
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      const t = parseThrowableLine(header[3]!);
      if (t) {
        current = { ...t, frames: [], omittedFrames: 0 };
        (header[2] === 'Caused by' ? causes : suppressed).push(current);
        framesStarted = false;
        continue;
      }
    }
    if (!framesStarted) {
      current.message = current.message === null ? line : `${current.message}\n${line}`;
      continue;
    }
    // Text after the frames ends the trace (the next log statement of the same tag, say).
    break;
  }
  if (top === null) return null;
  return { ...top, causes, suppressed };
}
