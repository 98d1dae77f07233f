import { z } from 'zod';
import { clip, omitNulls } from '../../kernel/bounded-output.js';
import type { BuildRecord } from './services/build-history.js';

/* Shared output shapes of the build tools (snake_case, bounded). */

/** APKs listed per build view; a build that wrote more says how many in apks_total. */
const MAX_APKS_PER_VIEW = 20;
/** A failure reason quotes Gradle's output; longer ones are cut (get_build_log has it all). */
const MAX_REASON_CHARS = 2000;

export const ApkViewSchema = z.object({
  path: z.string().describe('Absolute path of the APK.'),
  module: z.string().optional().describe('Gradle module that produced it.'),
  variant: z.string().optional().describe('Variant from output-metadata.json.'),
  package: z.string().optional().describe('Package name from the APK manifest.'),
  version_code: z.number().int().optional().describe('versionCode.'),
  version_name: z.string().optional().describe('versionName.'),
  sha256: z.string().describe('SHA-256 of the file.'),
  size: z.number().int().describe('Size in bytes.'),
});

export const BuildViewSchema = z.object({
  build_id: z.string().describe('Build id (for get_build_status, get_build_errors, get_build_log).'),
  status: z.enum(['running', 'success', 'failed', 'cancelled', 'timed_out']).describe('Outcome, or running.'),
  kind: z.enum(['build', 'test']).describe('A build (run_gradle_task) or a test run (run_tests).'),
  tasks: z.array(z.string()).describe('Gradle tasks it runs.'),
  module: z.string().optional().describe('Module it builds, when known.'),
  variant: z.string().optional().describe('Variant it builds, when known.'),
  started_at: z.string().describe('Start time (ISO 8601).'),
  finished_at: z.string().optional().describe('End time (ISO 8601); absent while running.'),
  elapsed_ms: z.number().int().describe('Duration so far, or in total once finished.'),
  origin: z.string().describe('Who started it (agent client and session, cli, tui) and its pid.'),
  cancelled_by: z.string().optional().describe('Who cancelled it.'),
  cancel_requested_by: z.string().optional().describe('Who asked to cancel it (recorded even before it stopped).'),
  owner_pid: z.number().int().describe('Process id of the droidwright build worker running it.'),
  exit_code: z.number().int().optional().describe("Gradle's exit code, when it exited."),
  reason: z.string().optional().describe('Why it failed, timed out or was cancelled.'),
  errors: z.number().int().describe('Error diagnostics.'),
  warnings: z.number().int().describe('Warning diagnostics.'),
  apks: z.array(ApkViewSchema).describe(`APKs this build wrote (the first ${MAX_APKS_PER_VIEW}).`),
  apks_total: z.number().int().describe('APKs it wrote in all.'),
  tests: z
    .object({
      total: z.number().int().describe('Tests run.'),
      passed: z.number().int().describe('Passed.'),
      failed: z.number().int().describe('Failed (failures and errors).'),
      skipped: z.number().int().describe('Skipped.'),
      source: z.enum(['junit-xml', 'console']).describe('Where the counts come from.'),
    })
    .optional()
    .describe('Test counts, when it ran tests.'),
  log_path: z.string().describe('Full output of the build.'),
});
export type BuildView = z.infer<typeof BuildViewSchema>;

export function toBuildView(r: BuildRecord): BuildView {
  const end = r.finishedAt ?? Date.now();
  return omitNulls({
    build_id: r.id,
    status: r.status,
    kind: r.kind,
    tasks: r.tasks.map((t) => clip(t, 300)),
    module: r.module,
    variant: r.variant,
    started_at: new Date(r.startedAt).toISOString(),
    finished_at: r.finishedAt !== null ? new Date(r.finishedAt).toISOString() : null,
    elapsed_ms: r.durationMs ?? Math.max(0, end - r.startedAt),
    origin: r.startedBy,
    cancelled_by: r.cancelledBy,
    cancel_requested_by: r.cancelRequestedBy,
    owner_pid: r.ownerPid,
    exit_code: r.exitCode,
    reason: r.reason !== null ? clip(r.reason, MAX_REASON_CHARS) : null,
    errors: r.counts.error,
    warnings: r.counts.warning,
    apks: r.apks.slice(0, MAX_APKS_PER_VIEW).map((a) => ({
      path: a.path,
      module: a.module,
      variant: a.variant,
      package: a.package,
      version_code: a.version_code,
      version_name: a.version_name,
      sha256: a.sha256,
      size: a.size,
    })),
    apks_total: r.apks.length,
    tests: r.tests,
    log_path: r.logPath,
  });
}

/** One line: `build 1a2b… failed in 12.3 s (3 errors): <reason>`. */
export function buildSummaryLine(r: BuildRecord): string {
  const secs = ((r.durationMs ?? Date.now() - r.startedAt) / 1000).toFixed(1);
  const what = r.tasks.join(' ');
  switch (r.status) {
    case 'running':
      return `Build ${r.id} (${what}) is running (${secs} s so far).`;
    case 'success':
      return `Build ${r.id} (${what}) succeeded in ${secs} s${r.apks.length ? `, ${r.apks.length} APK(s)` : ''}${r.counts.warning ? `, ${r.counts.warning} warning(s)` : ''}.`;
    case 'cancelled':
      return `BUILD CANCELLED: ${what} (${r.id}) was cancelled by ${r.cancelledBy ?? 'someone'} after ${secs} s.`;
    case 'timed_out':
      return `Build ${r.id} (${what}) timed out after ${secs} s.`;
    case 'failed':
      return `Build ${r.id} (${what}) failed after ${secs} s with ${r.counts.error} error(s)${r.reason ? `: ${r.reason.slice(0, 300).replace(/[.!?]+$/, '')}` : ''}.`;
  }
}
