import type { JavaStackTrace, JavaThrowable } from '../logcat/java-stack-trace.js';
import type { ClassMapping, MethodMapping, ProguardMapping } from './proguard-mapping.js';

/**
 * Deobfuscates Java stack traces with an R8/ProGuard mapping, following R8's `retrace` (its published test cases are
 * the reference): inline frames expand to their chain, line numbers map through ranges, source files come from
 * `sourceFile` metadata or are inferred from the class name, synthesized frames are dropped, outline frames fold
 * into their call site, `rewriteFrame` rules apply to the top frame of a matching throwable, and a frame that maps
 * to several originals is reported with every alternative (`<OR #n>`), never guessed.
 */

export interface ObfuscatedFrame {
  readonly className: string;
  readonly methodName: string;
  /** As printed between the parentheses before the line (`SourceFile`, `Unknown Source`, `r8-map-id-…`, ``). */
  readonly fileName: string;
  readonly line: number | null;
}

export interface RetracedFrame {
  readonly className: string;
  readonly methodName: string;
  readonly fileName: string;
  readonly line: number | null;
  /** `void foo(int)`, when the mapping names the method; null for frames the mapping does not know. */
  readonly signature: string | null;
  /** False when the class is not in the mapping and the frame is printed as it came. */
  readonly retraced: boolean;
}

/**
 * The retrace result of one obfuscated frame: one list of frames (innermost first, inline callers after) per
 * possible original. More than one alternative means the mapping cannot tell them apart; none means the frame
 * belongs to compiler-synthesized code and disappears.
 */
export interface FrameRetrace {
  readonly alternatives: readonly (readonly RetracedFrame[])[];
  /** True when a frame resolved to an outline: the next frame's line must go through its outline call site. */
  readonly outlineLine: number | null;
}

export interface RetraceFrameContext {
  /** The dotted class of the throwable whose top frame this is (for `rewriteFrame` rules); null otherwise. */
  readonly thrownClass?: string | null;
  /** The obfuscated line of an outline frame just above this frame. */
  readonly outlineLine?: number | null;
}

/** R8's `RetraceUtils.inferSourceFile`: the outer class's simple name with the frame's extension (`.kt` or `.java`). */
export function inferSourceFile(retracedClassName: string, sourceFile: string): string {
  if (sourceFile === 'Native Method') return sourceFile;
  const dotExt = sourceFile.lastIndexOf('.');
  let extension = dotExt === -1 ? '' : sourceFile.slice(dotExt + 1);
  const lastDot = retracedClassName.lastIndexOf('.');
  let end = retracedClassName.indexOf('$', lastDot);
  if (end < 0) end = retracedClassName.length;
  let name = retracedClassName.slice(lastDot + 1, end);
  if (name.endsWith('Kt') && (extension === '' || extension === 'kt')) {
    name = name.slice(0, -2);
    extension = 'kt';
  } else if (extension !== 'kt') {
    extension = 'java';
  }
  return `${name}.${extension}`;
}

function signatureOf(m: MethodMapping): string {
  return `${m.returnType} ${m.originalName}(${m.parameters})`;
}

/** Splits a method's entries into inline chains: a chain is an entry plus the callers that share its range. */
function chains(entries: readonly MethodMapping[]): MethodMapping[][] {
  const out: MethodMapping[][] = [];
  let chain: MethodMapping[] | null = null;
  for (const e of entries) {
    const prev = chain?.[chain.length - 1];
    const continues =
      prev !== undefined &&
      e.obfuscatedStart !== null &&
      e.obfuscatedStart === prev.obfuscatedStart &&
      e.obfuscatedEnd === prev.obfuscatedEnd &&
      e.originalEnd === null &&
      e.originalStart !== null;
    if (continues) chain!.push(e);
    else {
      chain = [e];
      out.push(chain);
    }
  }
  return out;
}

/** The original line of the innermost entry of a chain for an obfuscated line. */
function innermostLine(e: MethodMapping, line: number | null): number | null {
  // Without a minified range the original line applies to every position; 0 means "keep the printed line".
  if (e.obfuscatedStart === null) return e.originalStart ? e.originalStart : line;
  if (line === null) return null;
  if (e.originalStart === null) return line;
  if (e.originalEnd === null) return e.originalStart;
  const obfuscatedSpan = (e.obfuscatedEnd ?? e.obfuscatedStart) - e.obfuscatedStart;
  const originalSpan = e.originalEnd - e.originalStart;
  // Ranges of different length (one minified line for several source lines) cannot be mapped line by line; R8
  // reports the range's first line.
  return obfuscatedSpan === originalSpan ? e.originalStart + (line - e.obfuscatedStart) : e.originalStart;
}

function compareFrames(a: RetracedFrame, b: RetracedFrame): number {
  const key = (f: RetracedFrame) => [f.className, f.methodName, f.fileName] as const;
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < 3; i++) {
    if (ka[i]! < kb[i]!) return -1;
    if (ka[i]! > kb[i]!) return 1;
  }
  return 0;
}

export class Retracer {
  constructor(readonly mapping: ProguardMapping) {}

  /** The original name of an obfuscated class, or null when the mapping does not rename it. */
  retraceClassName(obfuscated: string): string | null {
    return this.mapping.classByObfuscatedName(obfuscated)?.originalName ?? null;
  }

  retraceFrame(frame: ObfuscatedFrame, context: RetraceFrameContext = {}): FrameRetrace {
    const cls = this.mapping.classByObfuscatedName(frame.className);
    if (!cls) {
      return {
        alternatives: [[{ ...frame, signature: null, retraced: false }]],
        outlineLine: null,
      };
    }
    const entries = cls.methods.get(frame.methodName) ?? [];
    let line = frame.line;
    let selected = this.select(entries, line);
    // An outline call site: the line is the outline's position, mapped to a line of this method first.
    if (context.outlineLine != null && selected.length > 0) {
      const positions = selected[0]![0]!.outlineCallsite;
      const mapped = positions?.get(context.outlineLine);
      if (mapped !== undefined) {
        line = mapped;
        selected = this.select(entries, line);
      }
    }
    if (selected.length > 0 && selected.every((chain) => chain[0]!.outline)) {
      return { alternatives: [], outlineLine: frame.line };
    }
    if (selected.length === 0) {
      return {
        alternatives: [
          [
            {
              className: cls.originalName,
              methodName: frame.methodName,
              fileName: this.fileName(cls, cls.originalName, frame.fileName),
              line: frame.line,
              signature: null,
              retraced: true,
            },
          ],
        ],
        outlineLine: null,
      };
    }
    const alternatives: RetracedFrame[][] = [];
    const seen = new Set<string>();
    for (const chain of selected) {
      let links = chain;
      const rules = chain.flatMap((e) => e.rewriteFrames);
      for (const rule of rules) {
        if (context.thrownClass && rule.throws.includes(context.thrownClass)) {
          links = links.slice(rule.removeInnerFrames);
        }
      }
      const frames: RetracedFrame[] = [];
      links.forEach((e) => {
        if (e.synthesized) return;
        const className = e.originalClass ?? cls.originalName;
        const isInnermost = e === chain[0];
        const mappedLine = isInnermost ? innermostLine(e, line) : line === null ? null : e.originalStart;
        frames.push({
          className,
          methodName: e.originalName,
          fileName: this.fileName(cls, className, frame.fileName),
          line: mappedLine,
          signature: signatureOf(e),
          retraced: true,
        });
      });
      if (frames.length === 0) continue;
      const key = frames.map((f) => `${f.className}.${f.methodName}(${f.fileName}:${f.line})`).join('\n');
      if (seen.has(key)) continue;
      seen.add(key);
      alternatives.push(frames);
    }
    if (alternatives.length > 1) alternatives.sort((a, b) => compareFrames(a[0]!, b[0]!));
    return { alternatives, outlineLine: null };
  }

  /** Inline chains that may have produced `line` in a method's entries (all of them when the line is unknown). */
  private select(entries: readonly MethodMapping[], line: number | null): MethodMapping[][] {
    const all = chains(entries);
    if (all.length === 0) return [];
    if (line === null) return all;
    const ranged = all.filter(
      (c) => c[0]!.obfuscatedStart !== null && c[0]!.obfuscatedStart <= line && line <= c[0]!.obfuscatedEnd!,
    );
    if (ranged.length > 0) return ranged;
    return all.filter((c) => c[0]!.obfuscatedStart === null);
  }

  private fileName(cls: ClassMapping, className: string, printed: string): string {
    // R8 applies a class's `sourceFile` only to frames of that same class, not to frames inlined from others.
    if (className === cls.originalName && cls.sourceFile) return cls.sourceFile;
    return inferSourceFile(className, printed);
  }
}

const FRAME_LINE = /^(.*?\bat\s+)([^\s(]+)\.([^\s.(]+)\(([^)]*)\)(.*)$/;
const THROWABLE_PREFIX =
  /^(\s*(?:Caused by: |Suppressed: |Exception in thread "[^"]*" )?)([A-Za-z_$][\w$]*(?:\.[\w$]+)*)(:.*)?$/;
const CLASS_TOKEN = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+/g;

function splitSource(source: string): { fileName: string; line: number | null } {
  const m = /^(.*?):(\d+)$/.exec(source);
  return m ? { fileName: m[1]!, line: Number(m[2]) } : { fileName: source, line: null };
}

function formatFrame(prefix: string, f: RetracedFrame, suffix: string, emptyLine: boolean): string {
  const position = f.line !== null ? `:${f.line}` : emptyLine ? ':' : '';
  return `${prefix}${f.className}.${f.methodName}(${f.fileName}${position})${suffix}`;
}

/**
 * Finds the throwable class on a line: at its start (after `Caused by: ` and the like) or after a `: ` (a logcat
 * header such as `E AndroidRuntime: `). Returns the line with the class and any obfuscated class names in the message
 * retraced, or null when the line names no throwable.
 */
function retraceThrowableLine(retracer: Retracer, line: string): { text: string; thrownClass: string } | null {
  const starts = [0];
  for (let i = line.indexOf(': '); i !== -1 && starts.length < 8; i = line.indexOf(': ', i + 2)) starts.push(i + 2);
  for (const start of starts) {
    const m = THROWABLE_PREFIX.exec(line.slice(start));
    if (!m) continue;
    const mapped = retracer.retraceClassName(m[2]!);
    if (mapped === null && !m[2]!.includes('.')) continue;
    const original = mapped ?? m[2]!;
    const message = (m[3] ?? '').replace(CLASS_TOKEN, (token) => retracer.retraceClassName(token) ?? token);
    return { text: `${line.slice(0, start)}${m[1]}${original}${message}`, thrownClass: original };
  }
  return null;
}

/** The `pg_map_id`s a trace names in R8's `r8-map-id-<id>` source-file markers, in order of first appearance. */
export function findR8MapIds(text: string): string[] {
  const ids = new Set<string>();
  for (const m of text.matchAll(/\(r8-map-id-([0-9a-fA-F]+)(?::\d+)?\)/g)) ids.add(m[1]!);
  return [...ids];
}

/**
 * Retraces a stack trace text line by line: frames (`at a.b.c(SourceFile:12)`, also inside logcat lines), throwable
 * lines (`a.b.c: message`, `Caused by: …`, `Suppressed: …`, `Exception in thread "main" …`) and obfuscated class
 * names in their messages. Everything else is copied unchanged.
 */
export function retraceStackTrace(mapping: ProguardMapping | Retracer, text: string): string {
  const retracer = mapping instanceof Retracer ? mapping : new Retracer(mapping);
  const lines = text.split('\n');
  const out: string[] = [];
  let thrownClass: string | null = null;
  let outlineLine: number | null = null;
  for (const line of lines) {
    const frame = FRAME_LINE.exec(line);
    if (frame) {
      const [, prefix, qualified, methodName, source, suffix] = frame;
      // `loader/module@1.0/pkg.Class`, `loader//pkg.Class`, `module/pkg.Class` (StackTraceElement.toString).
      const slash = qualified!.lastIndexOf('/');
      const className = qualified!.slice(slash + 1);
      const modules =
        slash === -1
          ? ''
          : `${qualified!
              .slice(0, slash)
              .split('/')
              .map((part) => retracer.retraceClassName(part) ?? part)
              .join('/')}/`;
      const { fileName, line: number } = splitSource(source!);
      const result = retracer.retraceFrame(
        { className, methodName: methodName!, fileName, line: number },
        { thrownClass, outlineLine },
      );
      thrownClass = null;
      outlineLine = result.outlineLine;
      const emptyLine = number === null && source!.endsWith(':');
      const indent = /^\s*/.exec(prefix!)![0];
      result.alternatives.forEach((frames, index) => {
        for (const f of frames) {
          if (!f.retraced) {
            out.push(line);
            continue;
          }
          const text = formatFrame(`${prefix}${modules}`, f, suffix!, emptyLine);
          out.push(index === 0 ? text : `${indent}<OR #${index}> ${text.slice(indent.length)}`);
        }
      });
      continue;
    }
    outlineLine = null;
    const throwable = retraceThrowableLine(retracer, line);
    thrownClass = throwable?.thrownClass ?? null;
    out.push(throwable?.text ?? line);
  }
  return out.join('\n');
}

export interface RetracedThrowable {
  /** The original exception class (unchanged when the mapping does not rename it). */
  readonly exceptionClass: string;
  readonly message: string | null;
  /** One entry per obfuscated frame that did not vanish (synthesized, outline): its alternatives. */
  readonly frames: readonly FrameRetrace[];
  readonly omittedFrames: number;
}

export interface RetracedJavaTrace extends RetracedThrowable {
  readonly causes: readonly RetracedThrowable[];
  readonly suppressed: readonly RetracedThrowable[];
  /** True when some frame has more than one alternative: show them all, pick none. */
  readonly ambiguous: boolean;
}

/**
 * Retraces a parsed trace (a crash report's frames) into structured alternatives, with the same rules as
 * {@link retraceStackTrace}: `rewriteFrame` on each throwable's top frame, outlines folded into their call sites.
 */
export function retraceJavaTrace(mapping: ProguardMapping | Retracer, trace: JavaStackTrace): RetracedJavaTrace {
  const retracer = mapping instanceof Retracer ? mapping : new Retracer(mapping);
  let ambiguous = false;
  const one = (t: JavaThrowable): RetracedThrowable => {
    const exceptionClass = retracer.retraceClassName(t.exceptionClass) ?? t.exceptionClass;
    const message =
      t.message === null ? null : t.message.replace(CLASS_TOKEN, (token) => retracer.retraceClassName(token) ?? token);
    const frames: FrameRetrace[] = [];
    let outlineLine: number | null = null;
    t.frames.forEach((f, i) => {
      const result = retracer.retraceFrame(
        { className: f.className, methodName: f.methodName, fileName: f.fileName ?? '', line: f.line },
        { thrownClass: i === 0 ? exceptionClass : null, outlineLine },
      );
      outlineLine = result.outlineLine;
      if (result.alternatives.length === 0) return;
      if (result.alternatives.length > 1) ambiguous = true;
      frames.push(result);
    });
    return { exceptionClass, message, frames, omittedFrames: t.omittedFrames };
  };
  const top = one(trace);
  return { ...top, causes: trace.causes.map(one), suppressed: trace.suppressed.map(one), ambiguous };
}
