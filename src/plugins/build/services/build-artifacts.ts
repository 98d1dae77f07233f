import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readApkInfo } from '../../../android/apk-info.js';
import { readBuildOutputs, type GradleProject } from '../../../android/gradle-project-model.js';
import type { ApkRecord, TestCounts } from '../build.events.js';
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
