import { randomUUID } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { inject, injectable } from 'inversify';
import { describeActor, systemActor, thisHost, type Actor } from '../../../shared/actor.js';
import { ToolError } from '../../../kernel/errors.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { buildLogsDir } from '../../../kernel/paths.js';
import { ProcessRunner } from '../../../kernel/process-runner.js';
import { SelectedProject } from '../../../kernel/project-selection.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { Settings } from '../../../kernel/settings.js';
import { loadGradleProject, type GradleProject } from '../../../android/gradle-project-model.js';
import { appendFinished, readOutcomeFallback, summarizeLogFile } from './build-finished-event.js';
import { type BuildComparison, compareBuilds } from './build-comparison.js';
import { BuildHistory, type BuildRecord } from './build-history.js';
import { BuildLauncher } from './build-launcher.js';
import { pruneBuildLogs } from './build-log-writer.js';
import { currentProcess, isProcessAlive } from '../../../kernel/process-identity.js';
import { BuildLock, killOrphanedGroup, type BuildLockHolder } from './build-lock.js';
import { chooseJdk, collectProvenance } from './build-provenance.js';
import { BuildStarted, BuildFinished, BuildCancelRequested } from '../build.events.js';

export interface BuildRequest {
  readonly kind: 'build' | 'test';
  /** Task paths, already checked by the task policy. */
  readonly tasks: readonly string[];
  /** Extra arguments, already checked against the allow-list. */
  readonly args: readonly string[];
  readonly module: string | null;
  readonly variant: string | null;
  /** Per-call limit in seconds; never above Settings.buildTimeoutSec. */
  readonly timeoutSec?: number;
  /** adb serial connected tests run on (ANDROID_SERIAL), already validated. */
  readonly androidSerial?: string;
}

export interface BuildHandle {
  readonly buildId: string;
  readonly logPath: string;
  readonly timeoutSec: number;
  /** The build worker process that runs it. */
  readonly workerPid: number;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** True when an abort came from the MCP session ending rather than from the client cancelling the request. */
export function isSessionEnd(reason: unknown): boolean {
  return reason instanceof Error && /^session ended/.test(reason.message);
}

/** How often a waiting request reads the build's record. */
const WAIT_POLL_MS = 250;

/**
 * Starts builds of the selected project and follows them, for the tools. A build does not belong to
 * the request or to this process: `start` hands it to a detached build worker (BuildWorker, run as
 * `droidwright build-worker <id>`), which runs Gradle and records the end. This process only reads the
 * record: a client that disconnects, or a `droidwright mcp` that is stopped, leaves the build running
 * to its recorded end. One build per project across processes (BuildLock); cancellation from any
 * process is a build.cancel_requested event the worker polls.
 */
@injectable()
export class BuildService {
  private lockInstance: BuildLock | undefined;

  constructor(
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(Settings) private readonly settings: Settings,
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
    @inject(SelectedProject) private readonly selected: SelectedProject,
    @inject(BuildHistory) private readonly history: BuildHistory,
    @inject(BuildLauncher) private readonly launcher: BuildLauncher,
  ) {}

  private lock(): BuildLock {
    return (this.lockInstance ??= new BuildLock(this.store()));
  }

  /** The selected project's root, or PROJECT_NOT_FOUND. */
  requireRoot(): string {
    const root = this.selected.root;
    if (!root) {
      throw new ToolError(
        'PROJECT_NOT_FOUND',
        'No Gradle project is selected. Start droidwright with --project <dir>, or from inside the project (a directory with settings.gradle(.kts)).',
      );
    }
    return root;
  }

  loadProject(): GradleProject {
    return loadGradleProject(this.requireRoot());
  }

  effectiveTimeoutSec(requested?: number): number {
    const limit = this.settings.get().buildTimeoutSec;
    return requested === undefined ? limit : Math.max(1, Math.min(limit, Math.floor(requested)));
  }

  /** Refuses early (NOT_FOUND) when the project has no Gradle wrapper inside it; the worker checks again. */
  private requireGradlew(root: string): void {
    const path = join(root, 'gradlew');
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new ToolError(
        'NOT_FOUND',
        `${path} does not exist. droidwright runs builds only through the project's Gradle wrapper; generate it with \`gradle wrapper\`.`,
      );
    }
    if (!isInside(root, real) || !statSync(real).isFile()) {
      throw new ToolError(
        'NOT_FOUND',
        `${path} is not a regular file inside the project (it resolves to ${real}). Restore the project's Gradle wrapper.`,
      );
    }
  }

  /** The `> Task` the build runs now, as its worker last published it. */
  currentTask(buildId: string): string | null {
    return this.history.currentTask(buildId);
  }

  /**
   * Records build.started (by `actor`) and hands the build to a new worker process. Returns once the
   * worker holds the project lock; the build then runs whatever happens to this process.
   */
  async start(request: BuildRequest, actor: Actor): Promise<BuildHandle> {
    const root = this.requireRoot();
    this.requireGradlew(root);
    const timeoutSec = this.effectiveTimeoutSec(request.timeoutSec);

    const buildId = randomUUID().replace(/-/g, '').slice(0, 12);
    const me = currentProcess();
    const acquired = this.lock().acquire(root, buildId, me);
    if (!acquired.acquired) this.throwInProgress(acquired.holder);
    if (acquired.staleHolder) this.recordOrphan(acquired.staleHolder);

    const logPath = join(buildLogsDir(this.options.home), `${buildId}.log`);
    this.pruneLogs(buildId);
    let startedRecorded = false;
    try {
      const project = loadGradleProject(root);
      const jdk = chooseJdk(root, this.settings.get().javaHome, this.options.env);
      // The worker boots (node, the bundle) while the sources are hashed: provenance costs the build only
      // what it takes beyond that. A worker whose build is never handed over finds no lock and exits.
      const [provenance, worker] = await Promise.all([
        collectProvenance(this.runner, project, jdk, this.options.env),
        this.launcher.launch(buildId, root),
      ]);
      this.store().append(
        BuildStarted,
        {
          build_id: buildId,
          project_root: root,
          kind: request.kind,
          tasks: [...request.tasks],
          args: [...request.args],
          module: request.module,
          variant: request.variant,
          pid: worker.pid,
          timeout_sec: timeoutSec,
          log_path: logPath,
          provenance,
          ...(request.androidSerial ? { android_serial: request.androidSerial } : {}),
        },
        { stream: `build:${buildId}`, actor, correlation: buildId },
      );
      startedRecorded = true;
      // The go signal for the worker: from here on it owns the build and the lock.
      if (!this.lock().handOver(buildId, me, worker)) {
        throw new ToolError(
          'STORE_UNAVAILABLE',
          `Build ${buildId} lost its project lock before its worker could take it over. Start the build again.`,
        );
      }
      return { buildId, logPath, timeoutSec, workerPid: worker.pid };
    } catch (error) {
      if (startedRecorded) {
        appendFinished(this.store(), buildId, actor, {
          status: 'failed',
          durationMs: 0,
          exitCode: null,
          signal: null,
          reason: `Could not start the build: ${(error as Error).message}`,
          cancelledBy: null,
          diagnostics: [],
          apks: [],
          mappings: [],
          tests: null,
          log: summarizeLogFile(logPath),
        });
      }
      this.lock().release(root, buildId);
      throw error;
    }
  }

  /** Keeps the build-logs directory bounded; the logs of running builds (any project) stay. */
  private pruneLogs(starting: string): void {
    try {
      pruneBuildLogs(
        buildLogsDir(this.options.home),
        (id) => id === starting || this.history.get(id)?.status === 'running',
      );
    } catch (error) {
      process.stderr.write(`droidwright: could not prune old build logs: ${(error as Error).message}\n`);
    }
  }

  private throwInProgress(holder: BuildLockHolder): never {
    const record = this.history.get(holder.buildId);
    const who = record ? `, started by ${record.startedBy}, running ${record.tasks.join(' ')}` : '';
    throw new ToolError(
      'BUILD_IN_PROGRESS',
      `Build ${holder.buildId} of this project is running (droidwright process pid ${holder.pid}${who}). Wait for it with get_build_status (build_id "${holder.buildId}", wait_ms), or stop it with cancel_build.`,
      { build_id: holder.buildId, pid: holder.pid },
    );
  }

  /**
   * Records a build whose worker died before it could record its end, and stops the Gradle process
   * group it left behind. Called only by the one process whose takeover or reap removed the lock.
   */
  private recordOrphan(holder: BuildLockHolder): void {
    const killed = killOrphanedGroup(holder.gradle);
    const record = this.history.get(holder.buildId);
    if (record?.status !== 'running') return;
    // Recorded, like every build's end, as the agent that started it; the reaper is named in the data.
    const [started] = this.store().query({ types: ['build.started'], stream: `build:${record.id}`, limit: 1 });
    const actor: Actor = started?.actor ?? systemActor();
    const reapedBy = describeActor(systemActor());
    // The worker could not append its outcome but left it beside the log: that is the outcome.
    const left = readOutcomeFallback(record.logPath, record.id);
    if (left) {
      try {
        this.store().append(
          BuildFinished,
          { ...left, reaped_by: reapedBy },
          { stream: `build:${record.id}`, correlation: record.id, actor },
        );
        this.clearLive(record.id);
        return;
      } catch (error) {
        process.stderr.write(
          `droidwright: the outcome file of build ${record.id} was refused (${(error as Error).message}); recording it as unknown.\n`,
        );
      }
    }
    const workerLog = join(buildLogsDir(this.options.home), `${record.id}.worker.log`);
    appendFinished(this.store(), record.id, actor, {
      status: 'failed',
      durationMs: Math.max(0, Date.now() - record.startedAt),
      exitCode: null,
      signal: null,
      // Essentials first: summaries cut the reason at 300 characters.
      reason: `The build worker (pid ${holder.pid}) exited before recording the build's end, so its outcome is unknown. Start the build again; the worker's own output is in ${workerLog}.${killed ? ` Its Gradle process group (${holder.gradle!.pid}) was stopped.` : ''}`,
      cancelledBy: null,
      diagnostics: [],
      apks: [],
      mappings: [],
      tests: null,
      log: summarizeLogFile(record.logPath),
      reapedBy,
    });
    this.clearLive(record.id);
  }

  private clearLive(buildId: string): void {
    try {
      this.history.clearLive(buildId);
    } catch {
      // Best effort.
    }
  }

  /** A running build whose worker is gone is recorded as ended; returns the fresh record. */
  reapIfOrphaned(record: BuildRecord): BuildRecord {
    if (record.status !== 'running') return record;
    const reaped = this.lock().reapIfDead(record.id);
    if (reaped) {
      this.recordOrphan(reaped);
    } else if (
      !this.lock().holderOf(record.id) &&
      this.startedHere(record.id) &&
      !isProcessAlive(record.ownerPid, null)
    ) {
      // Running without a lock: its worker released the project but could not record the end.
      const again = this.history.get(record.id);
      if (again?.status === 'running')
        this.recordOrphan({
          host: thisHost(),
          projectRoot: record.projectRoot,
          buildId: record.id,
          pid: record.ownerPid,
          startTime: null,
          startedAt: record.startedAt,
          gradle: null,
        });
    } else {
      return record;
    }
    return this.history.get(record.id) ?? record;
  }

  /**
   * Whether the build's worker ran on this machine, from the host of the agent that started it (the server
   * that asked spawns the worker beside itself). A shared log holds other machines' running builds, whose
   * worker pids mean nothing here; a build recorded before hosts were named was started here.
   */
  private startedHere(buildId: string): boolean {
    const [started] = this.store().query({ types: ['build.started'], stream: `build:${buildId}`, limit: 1 });
    const host = started?.actor.host;
    return host === undefined || host === thisHost();
  }

  /** Asks the build's worker to stop it; recorded as cancelled by `actor` via the request, cancel_build or the TUI. */
  requestCancel(buildId: string, actor: Actor, via: 'request' | 'cancel_build' | 'tui'): void {
    this.store().append(
      BuildCancelRequested,
      { build_id: buildId, requested_by: describeActor(actor), via },
      { stream: `build:${buildId}`, correlation: buildId, actor },
    );
  }

  /**
   * Cancels a running build of the selected project, whichever process started it, and waits
   * (bounded) for it to be recorded. `buildId` defaults to the running one.
   */
  async cancel(
    buildId: string | undefined,
    actor: Actor,
    waitMs = 10_000,
    via: 'cancel_build' | 'tui' = 'cancel_build',
  ): Promise<{ record: BuildRecord; wasRunning: boolean }> {
    const root = this.requireRoot();
    let record = buildId ? this.getInProject(buildId) : (this.history.running(root)[0] ?? null);
    if (!record)
      throw new ToolError('BUILD_NOT_FOUND', 'No build of this project is running, so there is nothing to cancel.');
    if (record.status !== 'running') return { record, wasRunning: false };
    record = this.reapIfOrphaned(record);
    if (record.status !== 'running') return { record, wasRunning: true };
    this.requestCancel(record.id, actor, via);
    const final = await this.waitForEnd(record.id, waitMs);
    return { record: final ?? record, wasRunning: true };
  }

  /** Polls the read model until the build ends, `waitMs` passes or `signal` aborts (works for builds of any process). */
  async waitForEnd(buildId: string, waitMs: number, signal?: AbortSignal): Promise<BuildRecord | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      let record = this.history.get(buildId);
      if (!record) return null;
      record = this.reapIfOrphaned(record);
      if (record.status !== 'running' || Date.now() >= deadline || signal?.aborted) return record;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(WAIT_POLL_MS, Math.max(1, deadline - Date.now())));
        function done(): void {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** A build of the selected project by id; builds of other projects are not visible here. */
  private getInProject(buildId: string): BuildRecord {
    const root = this.requireRoot();
    const record = this.history.get(buildId);
    if (!record || record.projectRoot !== root) {
      throw new ToolError(
        'BUILD_NOT_FOUND',
        `No build with id "${buildId}" in the selected project ${root}. list_build_history shows this project's build ids.`,
      );
    }
    return record;
  }

  /** For get_build_status and friends: the id given (of this project), or this project's latest build. */
  resolveBuild(buildId: string | undefined): BuildRecord {
    if (buildId) return this.reapIfOrphaned(this.getInProject(buildId));
    const latest = this.history.latest(this.requireRoot());
    if (!latest)
      throw new ToolError(
        'BUILD_NOT_FOUND',
        'This project has no recorded builds yet. Start one with run_gradle_task.',
      );
    return this.reapIfOrphaned(latest);
  }

  /**
   * What differs between two builds of this project: `buildId` (default: the latest) against `baseId`
   * (default: the build that started before it).
   */
  async compare(
    buildId: string | undefined,
    baseId: string | undefined,
  ): Promise<{ base: BuildRecord; build: BuildRecord; comparison: BuildComparison }> {
    const build = this.resolveBuild(buildId);
    const base = baseId ? this.resolveBuild(baseId) : this.history.previous(build);
    if (!base)
      throw new ToolError(
        'BUILD_NOT_FOUND',
        `Build ${build.id} is the first recorded build of this project, so there is nothing before it to compare with. Pass base_build_id, or run another build first.`,
      );
    return { base, build, comparison: await compareBuilds(this.runner, base, build, this.options.env) };
  }

  /** Is there a log file we wrote for this build? */
  logExists(record: BuildRecord): boolean {
    return existsSync(record.logPath);
  }
}
