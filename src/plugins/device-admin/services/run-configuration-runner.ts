import { inject, injectable } from 'inversify';
import { readApkInfo } from '../../../android/apk-info.js';
import { openProjectApk } from '../../../android/project-apk.js';
import type { RunConfiguration } from '../../../android/run-configurations/run-configuration.js';
import { RunConfigurationCatalog } from '../../../android/run-configurations/run-configuration-catalog.js';
import {
  RunConfigurationFinished,
  RunConfigurationStarted,
  runConfigurationStream,
  type RUN_OUTCOMES,
} from '../../../android/run-configurations/run-configurations.events.js';
import { RunPlanner } from '../../../android/run-configurations/run-planner.js';
import type { ResolvedBy } from '../../../android/run-configurations/run-target.js';
import { BuildRunner, type BuiltApk, type VariantBuildResult } from '../../../kernel/build-runner.js';
import { clip } from '../../../kernel/bounded-output.js';
import { ToolError } from '../../../kernel/errors.js';
import type { ToolContext } from '../../../kernel/tool-definition.js';
import { AppInstalled, AppLaunched, DeepLinkOpened } from '../device-admin.events.js';
import { ApkInstaller, type BuildLink } from './apk-installer.js';
import { AppController, type LaunchOutcome } from './app-controller.js';

export type RunPhase = 'resolving' | 'building' | 'installing' | 'launching' | 'done';

export interface RunOutcome {
  readonly configuration: RunConfiguration;
  readonly task: string;
  readonly serial: string;
  readonly resolvedBy: ResolvedBy;
  readonly build: VariantBuildResult;
  readonly apk: BuiltApk;
  readonly package: string;
  readonly versionCode: number;
  readonly versionName: string | null;
  readonly buildLink: BuildLink;
  readonly launch: LaunchOutcome | null;
  readonly phaseMs: { readonly build: number; readonly install: number; readonly launch: number | null };
}

type Outcome = (typeof RUN_OUTCOMES)[number];

/** A phase that failed: which outcome it records. */
class PhaseFailure extends Error {
  constructor(
    readonly outcome: Outcome,
    readonly failure: unknown,
  ) {
    super((failure as Error).message);
  }
}

/**
 * build → install → launch of one run configuration, on the services build_run_configuration (through
 * the kernel's BuildRunner), install_apk and launch_app use. Every phase is a progress notification and
 * leaves its own events (build.*, app.installed naming the configuration, app.launched or
 * deep_link.opened), bracketed by run_configuration.started / run_configuration.finished.
 * Cancelling the request cancels the build; once the build is done the install and launch run to their
 * end (each bounded by its own time limit), so a device is never left with half a run unrecorded.
 */
@injectable()
export class RunConfigurationRunner {
  constructor(
    @inject(RunConfigurationCatalog) private readonly catalog: RunConfigurationCatalog,
    @inject(RunPlanner) private readonly planner: RunPlanner,
    @inject(BuildRunner) private readonly builds: BuildRunner,
    @inject(ApkInstaller) private readonly installer: ApkInstaller,
    @inject(AppController) private readonly apps: AppController,
  ) {}

  async run(
    projectRoot: string,
    name: string,
    options: { requested?: string; timeoutSec?: number },
    ctx: ToolContext,
  ): Promise<RunOutcome> {
    let step = 0;
    const phase = (p: RunPhase, message: string) => ctx.progress({ progress: ++step, message: `${p}: ${message}` });

    const { configuration, task, applicationId, set } = this.catalog.requireRunnable(projectRoot, name);
    const root = set.project.root;
    const snapshot = await this.planner.devicesNow([configuration]);
    const target = this.planner.resolve(root, configuration, snapshot, { requested: options.requested });
    if (!target.ok) throw new ToolError(target.code, target.message, target.hint ? { hint: target.hint } : undefined);
    const serial = target.serial;

    const started = ctx.append(
      RunConfigurationStarted,
      {
        project_root: root,
        configuration: configuration.name,
        shared: configuration.shared,
        module: configuration.module,
        variant: configuration.variant,
        task,
        device_serial: serial,
        resolved_by: target.resolvedBy,
      },
      { stream: runConfigurationStream(root), device: serial, package: applicationId },
    );
    const finish = (
      outcome: Outcome,
      fields: {
        build?: VariantBuildResult | null;
        pkg?: string | null;
        sha256?: string | null;
        ms?: { build?: number | null; install?: number | null; launch?: number | null };
        reason?: string | null;
      },
    ) =>
      ctx.append(
        RunConfigurationFinished,
        {
          project_root: root,
          configuration: configuration.name,
          device_serial: serial,
          outcome,
          build_id: fields.build?.buildId ?? null,
          package: fields.pkg ?? null,
          apk_sha256: fields.sha256 ?? null,
          build_ms: fields.ms?.build ?? null,
          install_ms: fields.ms?.install ?? null,
          launch_ms: fields.ms?.launch ?? null,
          reason: fields.reason ? clip(fields.reason, 990) : null,
        },
        {
          stream: runConfigurationStream(root),
          device: serial,
          package: fields.pkg ?? applicationId,
          correlation: started.id,
        },
      );

    let build: VariantBuildResult | null = null;
    let buildMs: number | null = null;
    let installMs: number | null = null;
    let pkg: string | null = null;
    let sha256: string | null = null;
    try {
      await phase('building', `${task} for ${serial}`);
      const buildStart = Date.now();
      try {
        build = await this.builds.buildVariant(
          { module: configuration.module, variant: configuration.variant, timeoutSec: options.timeoutSec },
          {
            ...ctx,
            // The build's own progress (elapsed seconds, current task) goes out as steps of this run.
            progress: (u) => ctx.progress({ progress: ++step, message: `building: ${u.message ?? ''}`.trim() }),
          },
        );
      } catch (error) {
        const cancelled = error instanceof ToolError && error.code === 'CANCELLED';
        throw new PhaseFailure(cancelled ? 'cancelled' : 'build_failed', error);
      }
      buildMs = Date.now() - buildStart;
      if (ctx.signal.aborted)
        throw new PhaseFailure(
          'cancelled',
          new ToolError('CANCELLED', `The request was cancelled after build ${build.buildId}; nothing was installed.`),
        );
      const apk = build.apk;
      if (!apk)
        throw new PhaseFailure(
          'install_failed',
          new ToolError('NOT_FOUND', build.apkProblem ?? `Build ${build.buildId} left no APK to install.`),
        );

      await phase('installing', `${apk.path} on ${serial}`);
      const installStart = Date.now();
      let installed: Awaited<ReturnType<RunConfigurationRunner['install']>>;
      try {
        installed = await this.install(root, serial, apk, configuration, ctx);
      } catch (error) {
        throw new PhaseFailure('install_failed', error);
      }
      installMs = Date.now() - installStart;
      pkg = installed.package;
      sha256 = installed.sha256;

      let launch: LaunchOutcome | null = null;
      let launchMs: number | null = null;
      if (configuration.launch.kind !== 'none') {
        await phase('launching', `${pkg} (${configuration.launch.kind.replace('_', ' ')}) on ${serial}`);
        const launchStart = Date.now();
        try {
          launch = await this.launch(serial, pkg, configuration, ctx);
        } catch (error) {
          throw new PhaseFailure('launch_failed', error);
        }
        launchMs = Date.now() - launchStart;
      }
      finish('done', { build, pkg, sha256, ms: { build: buildMs, install: installMs, launch: launchMs } });
      await phase('done', `${configuration.name} on ${serial}`);
      return {
        configuration,
        task,
        serial,
        resolvedBy: target.resolvedBy,
        build,
        apk,
        package: pkg,
        versionCode: installed.versionCode,
        versionName: installed.versionName,
        buildLink: installed.link,
        launch,
        phaseMs: { build: buildMs, install: installMs, launch: launchMs },
      };
    } catch (error) {
      if (!(error instanceof PhaseFailure)) throw error;
      const reason = error.message;
      try {
        finish(error.outcome, { build, pkg, sha256, ms: { build: buildMs, install: installMs }, reason });
      } catch {
        // The phase's own error is what the agent needs; an unwritable log shows in the next call.
      }
      throw error.failure;
    }
  }

  /** install_apk's path: the file opened once, its bytes hashed, installed and recorded with the build that wrote them. */
  private async install(
    root: string,
    serial: string,
    apk: BuiltApk,
    configuration: RunConfiguration,
    ctx: ToolContext,
  ) {
    const opened = await openProjectApk(root, apk.path);
    try {
      const info = await readApkInfo(opened.copyPath, opened.path);
      const { durationMs } = await this.installer.install(serial, opened.copyPath, info);
      const link = this.installer.findBuild(info.sha256, opened.path, root);
      const build = link.match;
      ctx.append(
        AppInstalled,
        {
          device_serial: serial,
          package: info.packageName,
          apk_path: opened.path,
          apk_sha256: info.sha256,
          apk_size: info.size,
          version_code: info.versionCode,
          version_name: info.versionName,
          build_id: build?.buildId ?? null,
          module: build?.module ?? configuration.module,
          variant: build?.variant ?? configuration.variant,
          duration_ms: durationMs,
          run_configuration: configuration.name,
        },
        {
          stream: `device:${serial}`,
          device: serial,
          package: info.packageName,
          correlation: build ? `build:${build.buildId}` : null,
        },
      );
      return {
        package: info.packageName,
        sha256: info.sha256,
        versionCode: info.versionCode,
        versionName: info.versionName,
        link,
      };
    } finally {
      await opened.dispose();
    }
  }

  /** launch_app's or open_deep_link's path, per the configuration's launch. */
  private async launch(
    serial: string,
    pkg: string,
    configuration: RunConfiguration,
    ctx: ToolContext,
  ): Promise<LaunchOutcome> {
    const launch = configuration.launch;
    if (launch.kind === 'deep_link') {
      const out = await this.apps.openDeepLink(serial, launch.uri, pkg);
      ctx.append(
        DeepLinkOpened,
        {
          device_serial: serial,
          uri: launch.uri,
          scheme: launch.uri.slice(0, launch.uri.indexOf(':')).toLowerCase(),
          package: pkg,
          activity: out.component,
        },
        { stream: `device:${serial}`, device: serial, package: pkg },
      );
      return out;
    }
    const out = await this.apps.launch(serial, pkg, launch.kind === 'activity' ? launch.activity : undefined);
    ctx.append(
      AppLaunched,
      {
        device_serial: serial,
        package: pkg,
        activity: out.component,
        method: out.method,
        total_ms: out.am?.totalTimeMs ?? null,
        wait_ms: out.am?.waitTimeMs ?? null,
        launch_state: out.am?.launchState ?? null,
      },
      { stream: `device:${serial}`, device: serial, package: pkg },
    );
    return out;
  }
}
