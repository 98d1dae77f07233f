import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readApkInfo } from '../../../android/apk-info.js';
import { readBuildOutputs, type GradleProject } from '../../../android/gradle-project-model.js';
import type { ApkRecord, TestCounts } from '../build.events.js';
import { sha256Of } from './build-provenance.js';

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
    const walk = (dir: string, depth: number): void => {
      if (depth > 8 || times.size >= MAX_SNAPSHOT_FILES) return;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path, depth + 1);
        else if (entry.isFile() && times.size < MAX_SNAPSHOT_FILES) {
          try {
            times.set(path, statSync(path).mtimeMs);
          } catch {
            // Vanished while walking.
          }
        }
      }
    };
    for (const module of project.modules) {
      walk(join(module.dir, 'build', 'outputs'), 0);
      walk(join(module.dir, 'build', 'test-results'), 0);
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
          out.push({ path: apk.path, module: module.path, variant: output.variantName, sha256: info.sha256, size: info.size, package: info.packageName, version_code: info.versionCode, version_name: info.versionName });
        } catch {
          // Listed but unreadable (a partial write): record the bytes we can hash, without a package.
          try {
            const bytes = readFileSync(apk.path);
            out.push({ path: apk.path, module: module.path, variant: output.variantName, sha256: sha256Of(bytes), size: bytes.length, package: null, version_code: apk.versionCode, version_name: apk.versionName });
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
export function collectMappings(project: GradleProject, before: OutputTimes): { module: string; variant: string; path: string; sha256: string }[] {
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
  const walk = (dir: string, depth: number): void => {
    if (depth > 6 || files >= MAX_TEST_FILES) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (entry.isFile() && /^TEST-.*\.xml$/.test(entry.name) && before.writtenSince(path) && files < MAX_TEST_FILES) {
        files++;
        let head: string;
        try {
          head = readFileSync(path, 'utf8').slice(0, 4096);
        } catch {
          continue;
        }
        const suite = /<testsuite\b([^>]*)>/.exec(head)?.[1] ?? '';
        const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
        sum.total += attr('tests');
        sum.failed += attr('failures') + attr('errors');
        sum.skipped += attr('skipped');
      }
    }
  };
  for (const module of project.modules) {
    walk(join(module.dir, 'build', 'test-results'), 0);
    walk(join(module.dir, 'build', 'outputs', 'androidTest-results'), 0);
  }
  if (files === 0) return null;
  return { total: sum.total, failed: sum.failed, skipped: sum.skipped, passed: Math.max(0, sum.total - sum.failed - sum.skipped), source: 'junit-xml' };
}

/** Gradle's console summary of a failing test task: `12 tests completed, 2 failed, 1 skipped`. */
export function parseTestSummaryLine(line: string): { total: number; failed: number; skipped: number } | null {
  const m = /^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?/.exec(line.trim());
  if (!m) return null;
  return { total: Number(m[1]), failed: Number(m[2] ?? 0), skipped: Number(m[3] ?? 0) };
}
