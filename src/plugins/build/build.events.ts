import { z } from 'zod';
import { defineEvent } from '../../events/event-definition.js';
import { DIAGNOSTIC_SOURCES } from './services/gradle-output/build-diagnostic.js';

export const BUILD_STATUSES = ['running', 'success', 'failed', 'cancelled', 'timed_out'] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];
export const FINAL_STATUSES = ['success', 'failed', 'cancelled', 'timed_out'] as const;
export type FinalBuildStatus = (typeof FINAL_STATUSES)[number];

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const GitBlob = z.string().regex(/^[0-9a-f]{40}$/);

/** A file `git status` lists under the project, with what its content was when the build started. */
export const ChangedFileSchema = z.object({
  /** Relative to the project root, `/`-separated. */
  path: z.string(),
  change: z.enum(['modified', 'added', 'deleted', 'untracked']),
  /** Null when deleted, or not hashed (over the size, byte or time bound of a build start). */
  sha256: Sha256.nullable(),
  /** git's object id of the same bytes, so a later commit's tree can be compared with it. */
  git_blob: GitBlob.optional(),
});

/** Without git: the modules' source sets (`<module>/src/<set>/`) by content. */
export const SourceSetsSchema = z.object({
  files: z.array(z.object({ path: z.string(), sha256: Sha256 })).max(500),
  files_total: z.number().int().nonnegative(),
  files_omitted: z.number().int().nonnegative(),
  unhashed: z.number().int().nonnegative(),
  sha256: Sha256,
});

/**
 * What a build was built from. Fields after `jdk` were added later and are optional, so builds recorded
 * before them still validate (read as unknown).
 */
export const BuildProvenanceSchema = z.object({
  git: z.object({
    commit: z.string().nullable(),
    branch: z.string().nullable(),
    dirty: z.boolean().nullable(),
    changed_files: z.number().int().nonnegative().nullable(),
    /** The changed and untracked files (the first 500 by path); `changed_files` counts them all. */
    files: z.array(ChangedFileSchema).max(500).optional(),
    files_omitted: z.number().int().nonnegative().optional(),
  }),
  build_files: z.array(z.object({ path: z.string(), sha256: Sha256 })).max(2000),
  gradle_version: z.string().nullable(),
  jdk: z.object({ java_home: z.string().nullable(), source: z.string().nullable(), version: z.string().nullable() }),
  /** The Android Gradle plugin version the build files or version catalog name. */
  agp_version: z.string().nullable().optional(),
  /** Only for a project outside git (no commit to name the sources). */
  sources: SourceSetsSchema.optional(),
});
export type BuildProvenance = z.infer<typeof BuildProvenanceSchema>;

export const BuildStarted = defineEvent({
  type: 'build.started',
  version: 1,
  description:
    'A Gradle build (or test run) started, with what it builds and from which sources; `pid` is the build worker process that runs it.',
  schema: z.object({
    build_id: z.string().min(1).max(64),
    project_root: z.string().min(1),
    kind: z.enum(['build', 'test']),
    tasks: z.array(z.string()).min(1).max(50),
    args: z.array(z.string()).max(100),
    module: z.string().nullable(),
    variant: z.string().nullable(),
    pid: z.number().int().positive(),
    timeout_sec: z.number().int().positive(),
    log_path: z.string(),
    provenance: BuildProvenanceSchema,
    /** The device connected tests run on: ANDROID_SERIAL in Gradle's environment. */
    android_serial: z.string().min(1).max(128).optional(),
  }),
});

export const ApkRecordSchema = z.object({
  path: z.string(),
  module: z.string().nullable(),
  variant: z.string().nullable(),
  sha256: Sha256,
  size: z.number().int().nonnegative(),
  package: z.string().nullable(),
  version_code: z.number().int().nullable(),
  version_name: z.string().nullable(),
});
export type ApkRecord = z.infer<typeof ApkRecordSchema>;

export const DiagnosticRecordSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  source: z.enum(DIAGNOSTIC_SOURCES),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  message: z.string(),
  task: z.string().nullable(),
});

export const TestCountsSchema = z.object({
  total: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  source: z.enum(['junit-xml', 'console']),
});
export type TestCounts = z.infer<typeof TestCountsSchema>;

/** A failed test from the JUnit XML reports, with the stack cut short (its diagnostic is in `diagnostics`). */
export const FailedTestRecordSchema = z.object({
  class_name: z.string(),
  method: z.string(),
  kind: z.enum(['failure', 'error']),
  type: z.string().nullable(),
  message: z.string(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  stack: z.string(),
  task: z.string().nullable(),
});
export type FailedTestRecord = z.infer<typeof FailedTestRecordSchema>;

export const BuildFinished = defineEvent({
  type: 'build.finished',
  version: 1,
  description:
    'A build ended: outcome, duration, diagnostics, the APKs and mapping files it wrote, and the log file with its SHA-256.',
  schema: z.object({
    build_id: z.string().min(1).max(64),
    status: z.enum(FINAL_STATUSES),
    duration_ms: z.number().int().nonnegative(),
    exit_code: z.number().int().nullable(),
    signal: z.string().nullable(),
    reason: z.string().nullable(),
    cancelled_by: z.string().nullable(),
    diagnostic_counts: z.object({ error: z.number().int(), warning: z.number().int(), info: z.number().int() }),
    /** The first diagnostics, bounded so the event stays small; the counts cover all of them. */
    diagnostics: z.array(DiagnosticRecordSchema).max(500),
    diagnostics_total: z.number().int().nonnegative(),
    apks: z.array(ApkRecordSchema).max(100),
    mappings: z.array(z.object({ module: z.string(), variant: z.string(), path: z.string(), sha256: Sha256 })).max(100),
    tests: TestCountsSchema.nullable(),
    log: z.object({
      path: z.string(),
      sha256: Sha256,
      bytes: z.number().int().nonnegative(),
      lines: z.number().int().nonnegative(),
      truncated_lines: z.number().int().nonnegative(),
    }),
    /** The first failed tests of the JUnit reports, with their stacks; `tests.failed` counts them all. */
    failed_tests: z.array(FailedTestRecordSchema).max(50).optional(),
    /** True when diagnostics, APK or mapping entries were left out to keep the event under the size limit. */
    truncated: z.boolean().optional(),
    /** The process that recorded the end of a build whose worker died. */
    reaped_by: z.string().optional(),
  }),
});

export type BuildFinishedData = z.input<typeof BuildFinished.schema>;

export const BuildCancelRequested = defineEvent({
  type: 'build.cancel_requested',
  version: 1,
  description:
    'Someone asked to cancel a running build; the build worker that runs it stops it and records build.cancelled.',
  schema: z.object({
    build_id: z.string().min(1).max(64),
    requested_by: z.string(),
    /**
     * request: the client cancelled the call that started the build; cancel_build (default): the cancel_build tool;
     * tui: a person in `droidwright tui`.
     */
    via: z.enum(['request', 'cancel_build', 'tui']).optional(),
  }),
});

export const BuildCancelled = defineEvent({
  type: 'build.cancelled',
  version: 1,
  description: 'A running build was stopped on request; the actor is who asked.',
  schema: z.object({
    build_id: z.string().min(1).max(64),
    cancelled_by: z.string(),
    via: z.enum(['request', 'cancel_build', 'tui', 'shutdown']),
  }),
});

export const VariantSelected = defineEvent({
  type: 'variant.selected',
  version: 1,
  description: 'The active build variant of a module was chosen; APK lookups and test runs default to it.',
  schema: z.object({
    project_root: z.string().min(1),
    module: z.string().min(1),
    variant: z.string().min(1),
    selected_by: z.string(),
  }),
});

export const buildEvents = [BuildStarted, BuildFinished, BuildCancelRequested, BuildCancelled, VariantSelected];
