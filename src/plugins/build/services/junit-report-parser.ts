/*
 * Reads the JUnit XML reports Gradle writes for unit tests (`<module>/build/test-results/<task>/TEST-*.xml`)
 * and AGP for connected tests (`<module>/build/outputs/androidTest-results/connected/…/TEST-*.xml`), and
 * turns every failed or errored test case into a diagnostic an agent can act on: the test, the assertion
 * message, and the first stack frame that is the project's own code as file:line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { BuildDiagnostic } from './gradle-output/build-diagnostic.js';

export interface JUnitTestFailure {
  /** `com.example.FooTest` as the report names it. */
  readonly className: string;
  /** The test method (`bar`, `bar()`, or a Kotlin back-quoted name). */
  readonly method: string;
  /** `failure` for a failed assertion, `error` for an exception the test did not expect. */
  readonly kind: 'failure' | 'error';
  /** The exception class, e.g. `java.lang.AssertionError`, when the report gives it. */
  readonly type: string | null;
  /** The exception's message without its class, e.g. `expected:<1> but was:<2>`. */
  readonly message: string;
  /** Source file of the first frame in the project's code: project-relative when found on disk. */
  readonly file: string | null;
  readonly line: number | null;
  /** The stack trace, cut to MAX_STACK_LINES lines. */
  readonly stack: string;
}

export interface JUnitSuiteReport {
  readonly suite: string;
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
  readonly failed: JUnitTestFailure[];
}

export interface JUnitParseOptions {
  /** Directories holding the module's sources (`src/test/java`, `src/main/kotlin`, …), tried in order. */
  readonly sourceRoots?: readonly string[];
  /** Project root: a file found under it is reported relative to it, with `/` separators. */
  readonly projectRoot?: string;
}

export const MAX_STACK_LINES = 25;
const MAX_STACK_CHARS = 4000;
const MAX_MESSAGE_CHARS = 1000;
/** A report bigger than this is read only up to it: test output (`system-out`) is what makes reports big. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024;
const MAX_FAILURES_PER_SUITE = 500;

/** Frames of test frameworks and the platform; the first frame that is none of these is the project's. */
const FRAMEWORK_FRAME =
  /^(?:org\.junit\.|junit\.|java\.|javax\.|jdk\.|sun\.|com\.sun\.|kotlin\.|kotlinx\.coroutines\.|org\.gradle\.|worker\.org\.gradle\.|com\.android\.|android\.|androidx\.test\.|dalvik\.|org\.robolectric\.|org\.mockito\.|io\.mockk\.|org\.hamcrest\.|org\.assertj\.|com\.google\.common\.truth\.|org\.opentest4j\.|org\.spekframework\.|io\.kotest\.|app\/\/|java\.base\/)/;
const FRAME =
  /^\s*at (?:[\w.-]+(?:@[\w.-]+)?\/\/?)*([\w$.]+?)\.([^.(]+)\(([^:()]+\.(?:kt|java|groovy|scala|kts)):(\d+)\)/;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => ['testsuite', 'testcase', 'failure', 'error'].includes(name),
});

type XmlNode = Record<string, unknown>;

function text(node: unknown): string {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object' && '#text' in node) return String((node as XmlNode)['#text'] ?? '');
  return '';
}

function attr(node: XmlNode, name: string): string | null {
  const v = node[name];
  return typeof v === 'string' ? v : null;
}

function count(node: XmlNode, name: string): number {
  const n = Number(attr(node, name) ?? 0);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

/** Drops `<system-out>` / `<system-err>` bodies with plain index scans: they can be megabytes of log. */
function withoutCapturedOutput(report: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = report.indexOf('<system-', from);
    if (open < 0) break;
    const tagEnd = report.indexOf('>', open);
    if (tagEnd < 0) break;
    const name = report
      .slice(open + 1, tagEnd)
      .replace(/\/$/, '')
      .trim();
    if (name !== 'system-out' && name !== 'system-err') {
      out += report.slice(from, tagEnd + 1);
      from = tagEnd + 1;
      continue;
    }
    out += report.slice(from, open);
    if (report[tagEnd - 1] === '/') {
      from = tagEnd + 1;
      continue;
    }
    const close = report.indexOf(`</${name}>`, tagEnd);
    from = close < 0 ? report.length : close + name.length + 3;
  }
  return out + report.slice(from);
}

/** `java.lang.AssertionError: expected:<1> but was:<2>` → type and message, as a report may give either. */
function splitException(raw: string, type: string | null): { type: string | null; message: string } {
  const trimmed = raw.trim();
  if (type && trimmed.startsWith(`${type}: `)) return { type, message: trimmed.slice(type.length + 2) };
  if (type && trimmed === type) return { type, message: '' };
  const m = /^([\w$]+(?:\.[\w$]+)+(?:Error|Exception|Failure|Throwable|Failed\w*)):(?: ([\s\S]*))?$/.exec(trimmed);
  if (m) return { type: type ?? m[1]!, message: (m[2] ?? '').trim() };
  return { type, message: trimmed };
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Finds `com/example/FooTest.kt` under the source roots; the first root holding it wins. */
function resolveSource(
  cls: string,
  file: string,
  options: JUnitParseOptions,
  cache: Map<string, string | null>,
): string | null {
  const outer = cls.split('$')[0]!;
  const pkg = outer.includes('.') ? outer.slice(0, outer.lastIndexOf('.')) : '';
  const rel = pkg ? `${pkg.replace(/\./g, '/')}/${file}` : file;
  if (cache.has(rel)) return cache.get(rel)!;
  let found: string | null = null;
  for (const root of options.sourceRoots ?? []) {
    const candidate = join(root, ...rel.split('/'));
    if (existsSync(candidate)) {
      found = options.projectRoot ? relative(options.projectRoot, candidate).split(sep).join('/') : candidate;
      break;
    }
  }
  cache.set(rel, found);
  return found;
}

/**
 * The frame to show for a failure: the first one, past the test frameworks' own, in a file found in
 * the module's sources; without sources on disk, the first frame that is not a framework's, reported
 * as its package path (`com/example/FooTest.kt`).
 */
function locate(
  stack: string,
  options: JUnitParseOptions,
  cache: Map<string, string | null>,
): { file: string | null; line: number | null } {
  let first: { file: string; line: number } | null = null;
  let scanned = 0;
  for (const lineText of stack.split('\n')) {
    if (++scanned > 200) break;
    const frame = FRAME.exec(lineText);
    if (!frame) continue;
    const [, cls, , file, lineNo] = frame;
    if (FRAMEWORK_FRAME.test(cls!)) continue;
    const resolved = resolveSource(cls!, file!, options, cache);
    if (resolved) return { file: resolved, line: Number(lineNo) };
    if (!first) {
      const pkg = cls!.includes('.') ? cls!.slice(0, cls!.lastIndexOf('.')) : '';
      first = { file: pkg ? `${pkg.replace(/\./g, '/')}/${file}` : file!, line: Number(lineNo) };
    }
  }
  return first ?? { file: null, line: null };
}

/** Parses one TEST-*.xml report (a `<testsuite>` or a `<testsuites>` of them). */
export function parseJUnitXml(report: string, options: JUnitParseOptions = {}): JUnitSuiteReport[] {
  const body = withoutCapturedOutput(report.length > MAX_REPORT_BYTES ? report.slice(0, MAX_REPORT_BYTES) : report);
  let doc: XmlNode;
  try {
    doc = xml.parse(body) as XmlNode;
  } catch {
    return [];
  }
  const suites: XmlNode[] = [];
  const top = doc.testsuites as XmlNode | undefined;
  for (const s of [...((doc.testsuite as XmlNode[]) ?? []), ...(((top?.testsuite as XmlNode[]) ?? []) as XmlNode[])])
    suites.push(s);
  const cache = new Map<string, string | null>();
  return suites.map((suite) => {
    const failed: JUnitTestFailure[] = [];
    for (const testcase of (suite.testcase as XmlNode[]) ?? []) {
      if (failed.length >= MAX_FAILURES_PER_SUITE) break;
      const problems: { kind: 'failure' | 'error'; node: XmlNode | string }[] = [
        ...((testcase.failure as (XmlNode | string)[]) ?? []).map((node) => ({ kind: 'failure' as const, node })),
        ...((testcase.error as (XmlNode | string)[]) ?? []).map((node) => ({ kind: 'error' as const, node })),
      ];
      const problem = problems[0];
      if (!problem) continue;
      const node = typeof problem.node === 'string' ? {} : problem.node;
      const trace = text(problem.node).replace(/\r\n/g, '\n').trim();
      const className = attr(testcase, 'classname') ?? attr(suite, 'name') ?? '';
      const typeAttr = attr(node, 'type');
      const fromAttr = attr(node, 'message');
      // The message attribute is the exception's toString(); without it, the trace's first line is.
      const headline = (fromAttr ?? trace.split('\n', 1)[0] ?? '').slice(0, MAX_MESSAGE_CHARS * 4);
      const { type, message } = splitException(headline, typeAttr);
      const stackLines = trace.split('\n').slice(0, MAX_STACK_LINES);
      const stack = clip(stackLines.join('\n'), MAX_STACK_CHARS);
      failed.push({
        className,
        method: attr(testcase, 'name') ?? '',
        kind: problem.kind,
        type,
        message: clip(message.trim(), MAX_MESSAGE_CHARS),
        ...locate(trace, options, cache),
        stack,
      });
    }
    return {
      suite: attr(suite, 'name') ?? '',
      tests: count(suite, 'tests'),
      failures: count(suite, 'failures'),
      errors: count(suite, 'errors'),
      skipped: count(suite, 'skipped'),
      failed,
    };
  });
}

/** One failed test as a build diagnostic (`source: 'test'`), message naming the test and what it said. */
export function junitFailureToDiagnostic(failure: JUnitTestFailure, task: string | null = null): BuildDiagnostic {
  const what = failure.message
    ? failure.type
      ? `${failure.type}: ${failure.message}`
      : failure.message
    : (failure.type ?? failure.kind);
  return {
    severity: 'error',
    source: 'test',
    file: failure.file,
    line: failure.line,
    column: null,
    message: clip(`${failure.className} > ${failure.method}: ${what}`, 2000),
    task,
  };
}

/** The module's source directories under the default layout (`src/<set>/java`, `src/<set>/kotlin`), tests first. */
export function moduleSourceRoots(moduleDir: string): string[] {
  const src = join(moduleDir, 'src');
  let sets: string[];
  try {
    sets = readdirSync(src);
  } catch {
    return [];
  }
  const rank = (set: string) => (/^test/.test(set) ? 0 : /^androidTest/.test(set) ? 1 : set === 'main' ? 2 : 3);
  const roots: string[] = [];
  for (const set of sets.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)))
    for (const lang of ['java', 'kotlin']) {
      const dir = join(src, set, lang);
      try {
        if (statSync(dir).isDirectory()) roots.push(dir);
      } catch {
        // No such source set language.
      }
    }
  return roots;
}

/**
 * Reads every TEST-*.xml in one results directory (e.g. `app/build/test-results/testDebugUnitTest`)
 * and returns the failed tests as diagnostics, sources resolved in the module's source sets.
 */
export function readJUnitResults(
  resultsDir: string,
  options: { moduleDir?: string; projectRoot?: string; task?: string | null; maxFiles?: number } = {},
): { suites: JUnitSuiteReport[]; diagnostics: BuildDiagnostic[] } {
  let names: string[];
  try {
    names = readdirSync(resultsDir)
      .filter((n) => /^TEST-.*\.xml$/.test(n))
      .sort();
  } catch {
    return { suites: [], diagnostics: [] };
  }
  const parseOptions: JUnitParseOptions = {
    sourceRoots: options.moduleDir ? moduleSourceRoots(options.moduleDir) : [],
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
  };
  const suites: JUnitSuiteReport[] = [];
  for (const name of names.slice(0, options.maxFiles ?? 2000)) {
    let content: string;
    try {
      content = readFileSync(join(resultsDir, name), 'utf8');
    } catch {
      continue;
    }
    suites.push(...parseJUnitXml(content, parseOptions));
  }
  const diagnostics = suites.flatMap((s) => s.failed.map((f) => junitFailureToDiagnostic(f, options.task ?? null)));
  return { suites, diagnostics };
}
