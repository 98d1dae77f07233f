import type { z } from 'zod';
import type { ApkRecord, BuildFinishedData, BuildStarted } from '../../src/plugins/build/build.events.js';

/** The data of a `build.started` for an assemble of `:app` with no git and no build files, as tests record it. */
export function assembleStartedData(opts: {
  buildId: string;
  projectRoot: string;
  variant: string;
  logPath: string;
}): z.input<typeof BuildStarted.schema> {
  const task = `:app:assemble${opts.variant[0]!.toUpperCase()}${opts.variant.slice(1)}`;
  return {
    build_id: opts.buildId,
    project_root: opts.projectRoot,
    kind: 'build',
    tasks: [task],
    args: [],
    module: ':app',
    variant: opts.variant,
    pid: process.pid,
    timeout_sec: 600,
    log_path: opts.logPath,
    provenance: {
      git: { commit: null, branch: null, dirty: null, changed_files: null },
      build_files: [],
      gradle_version: null,
      jdk: { java_home: null, source: null, version: null },
    },
  };
}

/** The data of a successful `build.finished` that wrote `apks`, with no diagnostics, mappings or tests. */
export function successfulBuildData(opts: { buildId: string; apks: ApkRecord[]; logPath: string }): BuildFinishedData {
  return {
    build_id: opts.buildId,
    status: 'success',
    duration_ms: 1000,
    exit_code: 0,
    signal: null,
    reason: null,
    cancelled_by: null,
    diagnostic_counts: { error: 0, warning: 0, info: 0 },
    diagnostics: [],
    diagnostics_total: 0,
    apks: opts.apks,
    mappings: [],
    tests: null,
    log: { path: opts.logPath, sha256: 'a'.repeat(64), bytes: 1, lines: 1, truncated_lines: 0 },
  };
}
