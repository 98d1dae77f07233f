import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { inject, injectable } from 'inversify';
import { findModule, readBuildOutputs } from '../../../android/gradle-project-model.js';
import { assembleTask } from '../../../android/run-configurations/run-configuration.js';
import type { BuildRunner, BuiltApk, VariantBuildRequest, VariantBuildResult } from '../../../kernel/build-runner.js';
import { ToolError } from '../../../kernel/errors.js';
import { Settings } from '../../../kernel/settings.js';
import type { ToolContext } from '../../../kernel/tool-definition.js';
import { buildSummaryLine } from '../build-views.js';
import { describeTopErrors } from '../tools/run-gradle-task.tool.js';
import { BuildArtifactIndex } from './build-artifact-index.js';
import { BuildHistory, type BuildRecord } from './build-history.js';
import { BuildService } from './build-service.js';
import { awaitBuild, failureError } from './build-waiter.js';
import { checkTasks } from './gradle-task-policy.js';
import { resolveTasks } from './task-resolution.js';

/** APK paths quoted when a variant has several (splits). */
const MAX_QUOTED = 5;

/** BuildRunner over BuildService: run_gradle_task's path for one `assemble<Variant>` task. */
@injectable()
export class VariantBuildRunner implements BuildRunner {
  constructor(
    @inject(BuildService) private readonly service: BuildService,
    @inject(BuildHistory) private readonly history: BuildHistory,
    @inject(BuildArtifactIndex) private readonly artifacts: BuildArtifactIndex,
    @inject(Settings) private readonly settings: Settings,
  ) {}

  async buildVariant(request: VariantBuildRequest, ctx: ToolContext): Promise<VariantBuildResult> {
    const unrestricted = this.settings.get().allowUnrestrictedGradle;
    const project = this.service.loadProject();
    const resolved = resolveTasks(project, { tasks: [assembleTask(request.module, request.variant)] });
    checkTasks(resolved.tasks, unrestricted, 'task');
    const handle = await this.service.start(
      {
        kind: 'build',
        tasks: resolved.tasks,
        args: [],
        module: request.module,
        variant: request.variant,
        timeoutSec: request.timeoutSec,
      },
      ctx.actor,
    );
    const outcome = await awaitBuild(this.service, handle, ctx);
    const record = outcome === 'detached' ? this.history.get(handle.buildId)! : outcome;
    if (record.status === 'running')
      throw new ToolError(
        'TIMEOUT',
        `Build ${record.id} (${record.tasks.join(' ')}) is still running past its time limit; nothing was installed. Follow it with get_build_status (build_id "${record.id}").`,
        { build_id: record.id, status: record.status },
      );
    if (record.status !== 'success') {
      const topErrors = describeTopErrors(this.history, record.id);
      throw failureError(record, buildSummaryLine(record, { withReason: topErrors.length === 0 }), topErrors);
    }
    const { apk, problem } = this.apkOf(record, request);
    return {
      buildId: record.id,
      tasks: record.tasks,
      summary: buildSummaryLine(record),
      durationMs: record.durationMs ?? 0,
      apk,
      apkProblem: problem,
    };
  }

  /** The APK this build wrote for the variant, else the current one on disk (Gradle found it up to date). */
  private apkOf(record: BuildRecord, request: VariantBuildRequest): { apk: BuiltApk | null; problem: string | null } {
    const written = record.apks.filter((a) => a.module === request.module && a.variant === request.variant);
    if (written.length === 1) {
      const a = written[0]!;
      return {
        apk: {
          path: a.path,
          sha256: a.sha256,
          package: a.package,
          writtenByThisBuild: true,
          writtenBy: record.id,
          note: null,
        },
        problem: null,
      };
    }
    if (written.length > 1)
      return {
        apk: null,
        problem: severalApks(
          written.map((a) => a.path),
          request,
        ),
      };
    const module = findModule(this.service.loadProject(), request.module);
    const current = module
      ? readBuildOutputs(module.dir)
          .filter((o) => o.variantName === request.variant)
          .flatMap((o) => o.apks.filter((a) => existsSync(a.path)).map((a) => ({ path: a.path, id: o.applicationId })))
      : [];
    if (current.length === 0)
      return {
        apk: null,
        problem: `Build ${record.id} succeeded but wrote no APK for ${request.module} ${request.variant}, and ${request.module}/build/outputs/apk has none for that variant. Check the task with get_build_log (build_id "${record.id}").`,
      };
    if (current.length > 1)
      return {
        apk: null,
        problem: severalApks(
          current.map((c) => c.path),
          request,
        ),
      };
    const { path, id } = current[0]!;
    const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
    const writer = this.artifacts.findBuildsByApkHash(sha256, { projectRoot: record.projectRoot, limit: 1 })[0];
    return {
      apk: {
        path,
        sha256,
        package: id,
        writtenByThisBuild: false,
        writtenBy: writer?.buildId ?? null,
        note: `Gradle found ${record.tasks.join(' ')} up to date and wrote no APK; this is the current one${writer ? `, written by build ${writer.buildId}` : ', which no recorded build wrote'}.`,
      },
      problem: null,
    };
  }
}

function severalApks(paths: readonly string[], request: VariantBuildRequest): string {
  return `${paths.length} APKs match ${request.module} ${request.variant} (split APKs?): ${paths
    .slice(0, MAX_QUOTED)
    .join(', ')}${paths.length > MAX_QUOTED ? ', …' : ''}. Install the one for the device with install_apk.`;
}
