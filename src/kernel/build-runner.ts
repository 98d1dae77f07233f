import type { ToolContext } from './tool-definition.js';

export interface VariantBuildRequest {
  /** Gradle module path of an application module, `:app`. */
  readonly module: string;
  readonly variant: string;
  /** Per-call limit in seconds; capped by buildTimeoutSec in settings. */
  readonly timeoutSec?: number;
}

/** The APK a variant build leaves to install. */
export interface BuiltApk {
  readonly path: string;
  readonly sha256: string;
  /** Application id from the build's record or output-metadata.json. */
  readonly package: string | null;
  /** True when this build wrote it; false when Gradle found the variant up to date and the current file is used. */
  readonly writtenByThisBuild: boolean;
  /** The recorded build that wrote these bytes, when the history knows it. */
  readonly writtenBy: string | null;
  /** Set when the file was not written by this build: which build wrote it, or that none on record did. */
  readonly note: string | null;
}

export interface VariantBuildResult {
  readonly buildId: string;
  readonly tasks: readonly string[];
  /** run_gradle_task's one-line summary of the build. */
  readonly summary: string;
  readonly durationMs: number;
  /** The one APK of the module and variant; null when there is none or several (`apkProblem` says which). */
  readonly apk: BuiltApk | null;
  readonly apkProblem: string | null;
}

/**
 * Builds one variant of one module through exactly the path run_gradle_task takes: the task policy, the
 * project lock, the detached build worker (which checks trust again), the time limit, progress
 * notifications and request cancellation, with the caller's actor recorded as the build's origin. Bound
 * by the build plugin over its BuildService, so device-admin's run_run_configuration builds without
 * importing it. A build that fails, times out or is cancelled throws the same ToolError run_gradle_task
 * would (BUILD_FAILED, TIMEOUT, CANCELLED, with `build_id` in its details).
 */
export const BuildRunner = Symbol.for('droidwright.BuildRunner');
export interface BuildRunner {
  buildVariant(request: VariantBuildRequest, ctx: ToolContext): Promise<VariantBuildResult>;
}
