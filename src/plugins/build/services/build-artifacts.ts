import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { readApkInfo } from '../../../android/apk-info.js';
import { readBuildOutputs, type GradleProject } from '../../../android/gradle-project-model.js';
import type { ApkRecord, FailedTestRecord, TestCounts } from '../build.events.js';
import type { BuildDiagnostic } from './gradle-output/build-diagnostic.js';
import { junitFailureToDiagnostic, moduleSourceRoots, parseJUnitXml } from './junit-report-parser.js';
import { sha256Of } from './build-provenance.js';
import { walkFiles } from '../../../kernel/walk-files.js';

const MAX_APKS = 100;
const MAX_MAPPINGS = 100;
const MAX_TEST_FILES = 2000;
const MAX_SNAPSHOT_FILES = 20_000;

/**
 * Modification times of a project's build outputs before a build starts. "Written by this build" is
 * then "new or changed since", which stays right when an earlier build finished moments before
 * (a start-time threshold would need slack for coarse file clocks and so would claim those files).
 */
export class OutputTimes {
  private constructor(private readonly times: ReadonlyMap<string, number>) {}

  static capture(project: GradleProject): OutputTimes {
    const times = new Map<string, number>();
    const record = (path: string): boolean => {
      try {
        times.set(path, statSync(path).mtimeMs);
      } catch {
        // Vanished while walking.
      }
      return times.size < MAX_SNAPSHOT_FILES;
    };
    for (const module of project.modules) {
      walkFiles(join(module.dir, 'build', 'outputs'), 8, record);
      walkFiles(join(module.dir, 'build', 'test-results'), 8, record);
    }
    return new OutputTimes(times);
  }

  /** True when the file exists and is new or was modified after the snapshot. */
  writtenSince(path: string): boolean {
    try {
      const mtime = statSync(path).mtimeMs;
      const before = this.times.get(path);
      return before === undefined || mtime !== before;
    } catch {
      return false;
    }
  }
}

/** The APKs the build wrote (listed by output-metadata.json, new or changed since the snapshot), read and hashed. */
export async function collectApks(project: GradleProject, before: OutputTimes): Promise<ApkRecord[]> {
  const out: ApkRecord[] = [];
  for (const module of project.modules) {
    if (module.type === 'other') continue;
    for (const output of readBuildOutputs(module.dir)) {
      for (const apk of output.apks) {
        if (out.length >= MAX_APKS || !before.writtenSince(apk.path)) continue;
        try {
          const info = await readApkInfo(apk.path);
          out.push({
            path: apk.path,
            module: module.path,
            variant: output.variantName,
            sha256: info.sha256,
            size: info.size,
            package: info.packageName,
            version_code: info.versionCode,
            version_name: info.versionName,
          });
        } catch {
          // Listed but unreadable (a partial write): record the bytes we can hash, without a package.
          try {
            const bytes = readFileSync(apk.path);
            out.push({
              path: apk.path,
              module: module.path,
              variant: output.variantName,
              sha256: sha256Of(bytes),
              size: bytes.length,
              package: null,
              version_code: apk.versionCode,
              version_name: apk.versionName,
            });
          } catch {
            // Gone.
          }
        }
      }
    }
  }
  return out;
}

/** `build/outputs/mapping/<variant>/mapping.txt` written by this build. */
export function collectMappings(
  project: GradleProject,
  before: OutputTimes,
): { module: string; variant: string; path: string; sha256: string }[] {
  const out: { module: string; variant: string; path: string; sha256: string }[] = [];
  for (const module of project.modules) {
    if (module.type === 'other') continue;
    const base = join(module.dir, 'build', 'outputs', 'mapping');
    let variants: string[];
    try {
      variants = readdirSync(base);
    } catch {
      continue;
    }
    for (const variant of variants.sort()) {
      const path = join(base, variant, 'mapping.txt');
      if (out.length >= MAX_MAPPINGS || !before.writtenSince(path)) continue;
      try {
        out.push({ module: module.path, variant, path, sha256: sha256Of(readFileSync(path)) });
      } catch {
        // Not a file.
      }
    }
  }
  return out;
}

/** Sums the JUnit XML reports (unit and connected) written since the snapshot; null when there are none. */
export function collectJUnitCounts(project: GradleProject, before: OutputTimes): TestCounts | null {
  let files = 0;
  const sum = { total: 0, failed: 0, skipped: 0 };
  const count = (path: string, name: string): boolean => {
    if (!/^TEST-.*\.xml$/.test(name) || !before.writtenSince(path)) return true;
    files++;
    let head: string;
    try {
      head = readFileSync(path, 'utf8').slice(0, 4096);
    } catch {
      return files < MAX_TEST_FILES;
    }
    const suite = /<testsuite\b([^>]*)>/.exec(head)?.[1] ?? '';
    const attr = (attribute: string) => Number(new RegExp(`\\b${attribute}="(\\d+)"`).exec(suite)?.[1] ?? 0);
    sum.total += attr('tests');
    sum.failed += attr('failures') + attr('errors');
    sum.skipped += attr('skipped');
    return files < MAX_TEST_FILES;
  };
  for (const module of project.modules) {
    walkFiles(join(module.dir, 'build', 'test-results'), 6, count);
    walkFiles(join(module.dir, 'build', 'outputs', 'androidTest-results'), 6, count);
  }
  if (files === 0) return null;
  return {
    total: sum.total,
    failed: sum.failed,
    skipped: sum.skipped,
    passed: Math.max(0, sum.total - sum.failed - sum.skipped),
    source: 'junit-xml',
  };
}

/** Gradle's console summary of a failing test task: `12 tests completed, 2 failed, 1 skipped`. */
export function parseTestSummaryLine(line: string): { total: number; failed: number; skipped: number } | null {
  const m = /^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?/.exec(line.trim());
  if (!m) return null;
  return { total: Number(m[1]), failed: Number(m[2] ?? 0), skipped: Number(m[3] ?? 0) };
}

/** Failed tests read from the reports of one build: enough for an agent to fix them, bounded. */
const MAX_FAILED_TESTS = 200;
/** Reports with failures read in all; a suite's captured output is what makes reports big. */
const MAX_FAILURE_REPORT_BYTES = 64 * 1024 * 1024;
/** Stack lines and characters a failed test keeps in build.finished (the parser keeps more). */
export const MAX_RECORDED_STACK_LINES = 12;
const MAX_RECORDED_STACK_CHARS = 1500;

function head(path: string, bytes: number): string {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The Gradle task that wrote a report: the results directory names it for unit tests; connected tests take the one that ran. */
function reportTask(modulePath: string, moduleDir: string, path: string, executed: readonly string[]): string | null {
  const prefix = modulePath === ':' ? ':' : `${modulePath}:`;
  const parts = relative(moduleDir, path).split(sep);
  if (parts[0] === 'build' && parts[1] === 'test-results' && parts.length >= 4) return `${prefix}${parts[2]}`;
  return executed.find((t) => t.startsWith(prefix) && /^connected\w*AndroidTest$/.test(t.slice(prefix.length))) ?? null;
}

/**
 * The failed tests of the JUnit XML reports (unit and connected) written since the snapshot, as
 * diagnostics (`source: 'test'`, first project frame as file:line) and as records with a bounded stack.
 * Only reports whose suite counts a failure or an error are parsed.
 */
export function collectTestFailures(
  project: GradleProject,
  before: OutputTimes,
  executedTasks: readonly string[] = [],
): { diagnostics: BuildDiagnostic[]; failures: FailedTestRecord[]; total: number } {
  const diagnostics: BuildDiagnostic[] = [];
  const failures: FailedTestRecord[] = [];
  let total = 0;
  let files = 0;
  let bytesRead = 0;
  for (const module of project.modules) {
    const options = { sourceRoots: moduleSourceRoots(module.dir), projectRoot: project.root };
    const visit = (path: string, name: string): boolean => {
      if (!/^TEST-.*\.xml$/.test(name) || !before.writtenSince(path)) return true;
      if (++files > MAX_TEST_FILES) return false;
      const suite = /<testsuite\b([^>]*)>/.exec(head(path, 4096))?.[1] ?? '';
      const failed = (attribute: string) => Number(new RegExp(`\\b${attribute}="(\\d+)"`).exec(suite)?.[1] ?? 0);
      if (failed('failures') + failed('errors') === 0) return true;
      let report: string;
      try {
        report = readFileSync(path, 'utf8');
      } catch {
        return true;
      }
      bytesRead += report.length;
      const task = reportTask(module.path, module.dir, path, executedTasks);
      for (const s of parseJUnitXml(report, options))
        for (const f of s.failed) {
          total++;
          if (diagnostics.length >= MAX_FAILED_TESTS) continue;
          diagnostics.push(junitFailureToDiagnostic(f, task));
          failures.push({
            class_name: f.className,
            method: f.method,
            kind: f.kind,
            type: f.type,
            message: f.message,
            file: f.file,
            line: f.line,
            stack: clipStack(f.stack),
            task,
          });
        }
      return bytesRead < MAX_FAILURE_REPORT_BYTES;
    };
    walkFiles(join(module.dir, 'build', 'test-results'), 6, visit);
    walkFiles(join(module.dir, 'build', 'outputs', 'androidTest-results'), 6, visit);
  }
  return { diagnostics, failures, total };
}

function clipStack(stack: string): string {
  const lines = stack.split('\n').slice(0, MAX_RECORDED_STACK_LINES).join('\n');
  return lines.length > MAX_RECORDED_STACK_CHARS ? `${lines.slice(0, MAX_RECORDED_STACK_CHARS)}…` : lines;
}

/**
 * The build's diagnostics with the test failures the reports give in place of those the console
 * printed (`Class > method FAILED`): the reports name the class in full and carry the whole message.
 * They take the place of the first console test failure, else go first.
 */
export function mergeTestDiagnostics(
  parsed: readonly BuildDiagnostic[],
  fromReports: readonly BuildDiagnostic[],
): BuildDiagnostic[] {
  if (fromReports.length === 0) return [...parsed];
  const at = parsed.findIndex((d) => d.source === 'test');
  const rest = parsed.filter((d) => d.source !== 'test');
  const insertAt = at < 0 ? 0 : parsed.slice(0, at).filter((d) => d.source !== 'test').length;
  return [...rest.slice(0, insertAt), ...fromReports, ...rest.slice(insertAt)];
}
