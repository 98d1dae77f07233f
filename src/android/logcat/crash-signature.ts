import { createHash } from 'node:crypto';
import type { JavaFrame, JavaStackTrace, JavaThrowable } from './java-stack-trace.js';
import type { NativeFrame } from './tombstone.js';

/**
 * Crash signatures: stable across line numbers, addresses and builds, so recurrences of one bug group together and
 * different bugs do not. Frames from the platform and common libraries say where the crash surfaced, not where the
 * bug is, so the app's own frames are preferred.
 */

/** How many frames a signature keeps: enough to tell call sites apart, few enough to survive small refactors. */
export const SIGNATURE_FRAMES = 3;

const FRAMEWORK_CLASS_PREFIXES = [
  'java.',
  'javax.',
  'jdk.',
  'sun.',
  'kotlin.',
  'kotlinx.',
  'android.',
  'androidx.',
  'com.android.',
  'com.google.android.',
  'dalvik.',
  'libcore.',
  'org.apache.',
  'org.json.',
  'org.xml.',
  'org.w3c.',
];

export function isFrameworkClass(className: string): boolean {
  return FRAMEWORK_CLASS_PREFIXES.some((p) => className.startsWith(p));
}

/** The package a process name belongs to: `com.example:remote` → `com.example`; executables and paths → null. */
export function packageOfProcess(process: string | null | undefined): string | null {
  if (!process || process.includes('/') || !process.includes('.')) return null;
  const colon = process.indexOf(':');
  return colon === -1 ? process : process.slice(0, colon);
}

function inPackage(className: string, pkg: string | null): boolean {
  return pkg !== null && (className === pkg || className.startsWith(`${pkg}.`));
}

/**
 * The frames that identify a Java crash: from the root cause outwards, the first throwable with frames in the
 * package; else the first with non-framework frames; else the root cause's top frames.
 */
export function javaSignatureFrames(trace: JavaStackTrace, pkg: string | null): readonly JavaFrame[] {
  const chain: JavaThrowable[] = [...trace.causes].reverse();
  chain.push(trace);
  for (const pick of [
    (f: JavaFrame) => inPackage(f.className, pkg),
    (f: JavaFrame) => !isFrameworkClass(f.className),
  ]) {
    for (const t of chain) {
      const frames = t.frames.filter(pick);
      if (frames.length > 0) return frames.slice(0, SIGNATURE_FRAMES);
    }
  }
  for (const t of chain) if (t.frames.length > 0) return t.frames.slice(0, SIGNATURE_FRAMES);
  return [];
}

/** `java:<outer class>[<<root cause class>]@<class.method>;…` (no lines, no messages: both vary between builds). */
export function javaCrashSignature(trace: JavaStackTrace, pkg: string | null): string {
  const root = trace.causes.length > 0 ? trace.causes[trace.causes.length - 1]!.exceptionClass : null;
  const classes = root && root !== trace.exceptionClass ? `${trace.exceptionClass}<${root}` : trace.exceptionClass;
  const frames = javaSignatureFrames(trace, pkg).map((f) => `${f.className}.${f.methodName}`);
  return `java:${classes}@${frames.join(';')}`;
}

const SYSTEM_PATH = /^(?:\/system\/|\/apex\/|\/vendor\/|\/system_ext\/|\/product\/|\[)/;

function nativeFrameKey(f: NativeFrame): string {
  const slash = f.path.lastIndexOf('/');
  const file = slash === -1 ? f.path : f.path.slice(slash + 1);
  return f.symbol ? `${file}:${f.symbol}` : file;
}

/** `<unknown>` and anonymous mappings name nothing that survives a rebuild. */
function informative(f: NativeFrame): boolean {
  return !f.path.startsWith('<') && !f.path.startsWith('[');
}

/**
 * App libraries (`/data/app/…`, or paths naming the package) first, then other non-system ones, then the top
 * frames that name a file, then the top frames.
 */
export function nativeSignatureFrames(frames: readonly NativeFrame[], pkg: string | null): readonly NativeFrame[] {
  for (const pick of [
    (f: NativeFrame) => f.path.startsWith('/data/') || (pkg !== null && f.path.includes(pkg)),
    (f: NativeFrame) => informative(f) && !SYSTEM_PATH.test(f.path),
    informative,
  ]) {
    const chosen = frames.filter(pick);
    if (chosen.length > 0) return chosen.slice(0, SIGNATURE_FRAMES);
  }
  return frames.slice(0, SIGNATURE_FRAMES);
}

/** `native:<SIGNAL>@<library>:<symbol>;…` (no pcs, no symbol offsets). */
export function nativeCrashSignature(
  signal: string | null,
  frames: readonly NativeFrame[],
  pkg: string | null,
): string {
  const keys = nativeSignatureFrames(frames, pkg).map(nativeFrameKey);
  return `native:${signal ?? 'unknown-signal'}@${keys.join(';')}`;
}

const ANR_REASON_KINDS: readonly [RegExp, string][] = [
  [/^Input dispatching timed out/i, 'input-dispatching-timed-out'],
  [/^executing service/i, 'executing-service'],
  [/^Broadcast of Intent/i, 'broadcast'],
  [/^ContentProvider not responding/i, 'content-provider-not-responding'],
  [
    /^Context\.startForegroundService\(\) did not then call Service\.startForeground/i,
    'foreground-service-not-started',
  ],
  [/^A foreground service of type/i, 'foreground-service-timeout'],
  [/^Application is not responding/i, 'app-requested'],
  [/^App requested/i, 'app-requested'],
  [/^No response to onStartJob/i, 'job-not-responding'],
  [/^Process .* failed to complete startup/i, 'startup-timeout'],
];

/** What kind of ANR a `Reason:` line describes, without the ids, windows and timings that vary every time. */
export function anrReasonKind(reason: string | null): string {
  if (!reason) return 'unknown';
  for (const [re, kind] of ANR_REASON_KINDS) if (re.test(reason)) return kind;
  const words = reason
    .replace(/\(.*$/, '')
    .replace(/[^A-Za-z ]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .slice(0, 6);
  return words.join('-') || 'unknown';
}

export function anrSignature(pkg: string | null, reason: string | null): string {
  return `anr:${pkg ?? 'unknown-package'}:${anrReasonKind(reason)}`;
}

/** A short stable id for a signature (group ids, event fields). */
export function signatureHash(signature: string): string {
  return createHash('sha256').update(signature).digest('hex').slice(0, 16);
}
