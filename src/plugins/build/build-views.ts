import { z } from 'zod';
import { clip, omitNulls, takeWithinBudget } from '../../kernel/bounded-output.js';
import type { FailedTestRecord } from './build.events.js';
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
  apks: z
    .array(ApkViewSchema)
    .describe(`APKs this build wrote (the first ${MAX_APKS_PER_VIEW}); pass a path to install_apk.`),
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

/** What a build was built from, in the views that show a build's record (status, history). */
export const BuildSourcesSchema = z
  .object({
    commit: z.string().optional().describe('git commit built.'),
    branch: z.string().optional().describe('git branch.'),
    changed_files: z.number().int().optional().describe('Files git listed as changed or untracked.'),
    source_sets_sha256: z.string().optional().describe('Hash of the source sets, without git.'),
    gradle: z.string().optional().describe('Gradle version (wrapper).'),
    agp: z.string().optional().describe('Android Gradle plugin version.'),
    jdk: z.string().optional().describe('JDK version.'),
  })
  .describe('What it was built from; compare_builds lists the files that differ between two builds.');

export const BuildWithSourcesSchema = BuildViewSchema.extend({ sources: BuildSourcesSchema });

export function buildSources(r: BuildRecord): z.infer<typeof BuildSourcesSchema> {
  return omitNulls({
    commit: r.provenance.git.commit,
    branch: r.provenance.git.branch,
    changed_files: r.provenance.git.changed_files,
    source_sets_sha256: r.provenance.sources?.sha256 ?? null,
    gradle: r.provenance.gradle_version,
    agp: r.provenance.agp_version ?? null,
    jdk: r.provenance.jdk.version,
  });
}

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

/**
 * One line: `Build 1a2b… (assembleDebug) failed after 12.3 s with 3 error(s): <reason>.` With
 * `withReason: false` a failed build's line ends at the count (`…with 3 error(s):`), for a result that
 * lists the errors next (the reason is the first of them).
 */
export function buildSummaryLine(r: BuildRecord, options: { withReason?: boolean } = {}): string {
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
      if (options.withReason === false)
        return `Build ${r.id} (${what}) failed after ${secs} s with ${r.counts.error} error(s):`;
      return `Build ${r.id} (${what}) failed after ${secs} s with ${r.counts.error} error(s)${r.reason ? `: ${r.reason.slice(0, 300).replace(/[.!?]+$/, '')}` : ''}.`;
  }
}

/** Failed tests a run_tests result lists, and how many of them show their stack. */
const MAX_LISTED_FAILED_TESTS = 8;
const FAILED_TESTS_WITH_STACK = 2;
const MAX_LISTED_STACK_LINES = 6;
const MAX_LISTED_LINE_CHARS = 200;
/** What the failed tests may take in an error's details (the adapter drops details over 16 KiB). */
const FAILED_TESTS_DETAILS_BUDGET = 10 * 1024;

function location(t: FailedTestRecord): string {
  return t.file ? ` (${t.file}${t.line !== null ? `:${t.line}` : ''})` : '';
}

function what(t: FailedTestRecord): string {
  return t.message ? (t.type ? `${t.type}: ${t.message}` : t.message) : (t.type ?? t.kind);
}

/**
 * Lines naming the first failed tests: `- Class > method (file:line): Type: message`, the first few
 * followed by their stack's first frames, each line clipped.
 */
export function describeFailedTests(failed: readonly FailedTestRecord[]): string[] {
  const lines: string[] = [];
  failed.slice(0, MAX_LISTED_FAILED_TESTS).forEach((t, i) => {
    lines.push(clip(`- ${t.class_name} > ${t.method}${location(t)}: ${what(t)}`, 2 * MAX_LISTED_LINE_CHARS));
    if (i >= FAILED_TESTS_WITH_STACK) return;
    const frames = t.stack
      .split('\n')
      .filter((l) => /^\s*(at |Caused by:|\.\.\. \d+ more)/.test(l))
      .slice(0, MAX_LISTED_STACK_LINES);
    for (const frame of frames) lines.push(`    ${clip(frame.trim(), MAX_LISTED_LINE_CHARS)}`);
  });
  return lines;
}

/** The failed tests as compact records for an error's details, within their budget. */
export function failedTestsDetails(failed: readonly FailedTestRecord[]): Record<string, unknown>[] {
  const items = failed.map((t) =>
    omitNulls({
      class_name: clip(t.class_name, 300),
      method: clip(t.method, 300),
      message: clip(what(t), 500),
      file: t.file,
      line: t.line,
      task: t.task,
    }),
  );
  return takeWithinBudget(items, FAILED_TESTS_DETAILS_BUDGET).taken;
}
