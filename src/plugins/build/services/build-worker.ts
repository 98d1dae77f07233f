import { accessSync, chmodSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { inject, injectable } from 'inversify';
import { describeActor, type Actor } from '../../../shared/actor.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { OUTPUT_DRAIN_MS, ProcessRunner, type RunResult } from '../../../kernel/process-runner.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { Settings } from '../../../kernel/settings.js';
import { ProjectTrust } from '../../../kernel/project-trust.js';
import { validateSerial } from '../../../kernel/validation.js';
import { loadGradleProject } from '../../../android/gradle-project-model.js';
import { type FailedTestRecord, type FinalBuildStatus, type TestCounts, BuildCancelled } from '../build.events.js';
import {
  collectApks,
  collectJUnitCounts,
  collectMappings,
  collectTestFailures,
  mergeTestDiagnostics,
  OutputTimes,
  parseTestSummaryLine,
} from './build-artifacts.js';
import { appendFinished, summarizeLogFile, writeOutcomeFallback, type FinishedFacts } from './build-finished-event.js';
import { BuildHistory, type BuildRecord } from './build-history.js';
import { currentProcess, identityOf, isProcessAlive, type ProcessIdentity } from '../../../kernel/process-identity.js';
import { BuildLock, killOrphanedGroup } from './build-lock.js';
import { BuildLogWriter } from './build-log-writer.js';
import { chooseJdk } from './build-provenance.js';
import { GradleOutputParser } from './gradle-output-parser.js';
import { checkArgs, checkTasks } from './gradle-task-policy.js';

/** How often the worker looks for a cancel request and publishes the current task. */
const POLL_MS = 500;
const KILL_GRACE_MS = 5000;
/**
 * How long a new worker waits for `droidwright mcp` to hand it the build (it does so right after
 * collecting provenance and recording build.started), as long as that process is alive.
 */
const HANDOVER_WAIT_MS = 5 * 60_000;
/**
 * Beyond the time limit, the kill grace and the output drain: if Gradle has still not been let go by
 * then, the worker records the end anyway and exits, so a project never stays locked by a hung worker.
 */
export const HARD_DEADLINE_MARGIN_MS = 30_000;
/** How long the worker keeps retrying build.finished (the event log full or locked) while it holds the lock. */
export const FINISH_RETRY_MS = 30_000;
const TASK_LINE = /^> Task (:\S+)/;

export type CancelVia = 'request' | 'cancel_build' | 'tui' | 'shutdown';

interface Canceller {
  readonly actor: Actor;
  readonly via: CancelVia;
}

/** What build.started recorded: the request, already checked by the tool that started it. */
interface StartedBuild {
  readonly id: string;
  readonly root: string;
  readonly actor: Actor;
  readonly tasks: string[];
  readonly args: string[];
  readonly timeoutSec: number;
  readonly logPath: string;
  readonly startedAt: number;
  readonly androidSerial: string | null;
}

interface ActiveRun {
  readonly build: StartedBuild;
  readonly controller: AbortController;
  cancelledBy: Canceller | null;
  currentTask: string | null;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Runs one recorded build to its end: the body of `droidwright build-worker <build-id>`, a process of
 * its own (own session, no pipe to any client), so a client that disconnects or a `droidwright mcp`
 * that is killed leaves the build running and recorded. It runs only what build.started recorded,
 * re-checks trust and the task policy, polls build.cancel_requested, publishes the current task,
 * records build.cancelled / build.finished with the right actors and releases the project lock.
 */
@injectable()
export class BuildWorker {
  private readonly active = new Set<ActiveRun>();
  private lockInstance: BuildLock | undefined;
  /** Set by stopAll: a stop that arrives before a build started still applies to it. */
  private stopped: Canceller | null = null;
  /** Exposed so a test can shorten the retry of an unwritable event log. */
  finishRetryMs = FINISH_RETRY_MS;

  constructor(
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(Settings) private readonly settings: Settings,
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
    @inject(ProjectTrust) private readonly trust: ProjectTrust,
    @inject(BuildHistory) private readonly history: BuildHistory,
  ) {}

  private lock(): BuildLock {
    return (this.lockInstance ??= new BuildLock(this.store()));
  }

  /** Stops every build this process runs (the worker got SIGTERM): recorded as cancelled by `actor`. */
  stopAll(actor: Actor, via: CancelVia): void {
    this.stopped ??= { actor, via };
    for (const run of this.active) this.cancel(run, actor, via);
  }

  /**
   * Waits until the lock of `buildId` names this process, then runs the build. Resolves with the
   * record, or null when there is nothing to run (the build was never handed over, or already ended).
   */
  async run(buildId: string, me: ProcessIdentity = currentProcess()): Promise<BuildRecord | null> {
    const build = await this.awaitHandover(buildId, me);
    if (!build) return this.stoppedBeforeHandover(buildId);
    const refusal = this.refusal(build);
    if (refusal) {
      await this.finish(build, { ...this.emptyFacts(build), status: 'failed', reason: refusal });
      return this.history.get(build.id);
    }
    const run: ActiveRun = { build, controller: new AbortController(), cancelledBy: null, currentTask: null };
    this.active.add(run);
    if (this.stopped) this.cancel(run, this.stopped.actor, this.stopped.via);
    try {
      await this.execute(run);
    } finally {
      this.active.delete(run);
    }
    return this.history.get(build.id);
  }

  private async awaitHandover(buildId: string, me: ProcessIdentity): Promise<StartedBuild | null> {
    const deadline = Date.now() + HANDOVER_WAIT_MS;
    for (;;) {
      const holder = this.lock().holderOf(buildId);
      // No lock row: the build ended or was reaped as orphaned before we got it.
      if (!holder || this.stopped) return null;
      const mine = holder.pid === me.pid && holder.startTime === me.startTime;
      if (mine) {
        const build = this.startedBuild(buildId);
        if (build) return this.history.get(buildId)?.status === 'running' ? build : null;
      }
      // The server still collecting provenance is worth waiting for; a dead one will never hand over.
      if (Date.now() >= deadline || (!mine && !isProcessAlive(holder.pid, holder.startTime))) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * SIGTERM before the hand-over: a recorded build is recorded as cancelled (shutdown). The lock row is
   * left to the server's hand-over; it then names this dead process and the next build takes it over.
   */
  private async stoppedBeforeHandover(buildId: string): Promise<BuildRecord | null> {
    const stop = this.stopped;
    if (!stop) return null;
    const build = this.startedBuild(buildId);
    if (!build || this.history.get(buildId)?.status !== 'running') return null;
    this.recordCancelled(build, stop);
    await this.finish(
      build,
      {
        ...this.emptyFacts(build),
        status: 'cancelled',
        reason: this.cancelReason(stop),
        cancelledBy: describeActor(stop.actor),
      },
      false,
    );
    return this.history.get(buildId);
  }

  private cancelReason(by: Canceller): string {
    return `Cancelled by ${describeActor(by.actor)} (${{ request: 'request cancelled', cancel_build: 'cancel_build', tui: 'from droidwright tui', shutdown: 'the build worker was stopped' }[by.via]}).`;
  }

  private recordCancelled(build: StartedBuild, by: Canceller): void {
    try {
      this.store().append(
        BuildCancelled,
        { build_id: build.id, cancelled_by: describeActor(by.actor), via: by.via },
        { stream: `build:${build.id}`, correlation: build.id, actor: by.actor },
      );
    } catch (error) {
      process.stderr.write(
        `droidwright: could not record build.cancelled for ${build.id}: ${(error as Error).message}\n`,
      );
    }
  }

  private startedBuild(buildId: string): StartedBuild | null {
    const [event] = this.store().query({ types: ['build.started'], stream: `build:${buildId}`, limit: 1 });
    if (!event) return null;
    const d = event.data as {
      project_root: string;
      tasks: string[];
      args: string[];
      timeout_sec: number;
      log_path: string;
      android_serial?: string;
    };
    return {
      id: buildId,
      root: d.project_root,
      actor: event.actor,
      tasks: d.tasks,
      args: d.args,
      timeoutSec: d.timeout_sec,
      logPath: d.log_path,
      startedAt: event.at,
      androidSerial: d.android_serial ?? null,
    };
  }

  /** The checks the tool made, made again here: this process runs Gradle, so it must not trust its caller. */
  private refusal(build: StartedBuild): string | null {
    if (!this.trust.isTrusted(build.root))
      return `The project ${build.root} is no longer trusted, so its build did not run. Ask the user to run \`droidwright trust ${build.root}\`.`;
    try {
      checkTasks(build.tasks, this.settings.get().allowUnrestrictedGradle, 'tasks');
      checkArgs(build.args);
      if (build.androidSerial !== null) validateSerial(build.androidSerial);
      this.gradlew(build.root);
    } catch (error) {
      return (error as Error).message;
    }
    return null;
  }

  private gradlew(root: string): string {
    const path = join(root, 'gradlew');
    const real = realpathSync(path);
    if (!isInside(root, real) || !statSync(real).isFile())
      throw new Error(`${path} is not a regular file inside the project (it resolves to ${real}).`);
    return real;
  }

  private cancel(run: ActiveRun, actor: Actor, via: CancelVia): void {
    if (run.cancelledBy) return;
    run.cancelledBy = { actor, via };
    run.controller.abort();
  }

  /** The first cancel request recorded for the build (from any process), if any. */
  private cancelRequest(buildId: string): Canceller | null {
    const [event] = this.store().query({
      types: ['build.cancel_requested'],
      stream: `build:${buildId}`,
      limit: 1,
      order: 'asc',
    });
    if (!event) return null;
    const via = (event.data as { via?: Exclude<CancelVia, 'shutdown'> }).via ?? 'cancel_build';
    return { actor: event.actor, via };
  }

  private emptyFacts(build: StartedBuild): FinishedFacts {
    return {
      status: 'failed',
      durationMs: Math.max(0, Date.now() - build.startedAt),
      exitCode: null,
      signal: null,
      reason: null,
      cancelledBy: null,
      diagnostics: [],
      apks: [],
      mappings: [],
      tests: null,
      log: summarizeLogFile(build.logPath),
    };
  }

  private async execute(run: ActiveRun): Promise<void> {
    const { build } = run;
    let log: BuildLogWriter;
    let gradlew: string;
    let project;
    let outputsBefore: OutputTimes;
    let javaHome: string | null;
    try {
      gradlew = this.gradlew(build.root);
      // Made executable only now: after the trust check and with the lock held.
      try {
        accessSync(gradlew, constants.X_OK);
      } catch {
        chmodSync(gradlew, statSync(gradlew).mode | 0o100);
      }
      project = loadGradleProject(build.root);
      const jdk = chooseJdk(build.root, this.settings.get().javaHome, this.options.env);
      javaHome = jdk.source === 'settings' ? jdk.javaHome : null;
      outputsBefore = OutputTimes.capture(project);
      log = new BuildLogWriter(build.logPath);
    } catch (error) {
      await this.finish(build, {
        ...this.emptyFacts(build),
        reason: `Could not start Gradle: ${(error as Error).message}`,
      });
      return;
    }

    const parser = new GradleOutputParser({ projectRoot: build.root });
    let sawSuccess = false;
    let consoleTests: { total: number; failed: number; skipped: number } | null = null;
    let lastPublishedTask: string | null = null;
    const executedTasks = new Set<string>();
    const poll = setInterval(() => {
      try {
        if (run.currentTask !== lastPublishedTask) {
          lastPublishedTask = run.currentTask;
          this.history.setCurrentTask(build.id, run.currentTask);
        }
        if (!run.cancelledBy) {
          const requested = this.cancelRequest(build.id);
          if (requested) this.cancel(run, requested.actor, requested.via);
        }
      } catch {
        // A busy database must not break the build; the next tick retries.
      }
    }, POLL_MS);

    let result: RunResult | null = null;
    let spawnError: Error | null = null;
    let gradleGroup: ProcessIdentity | null = null;
    let logBroken = false;
    let hardStop: NodeJS.Timeout | undefined;
    let hungPastDeadline = false;
    const hardDeadlineMs = build.timeoutSec * 1000 + KILL_GRACE_MS + OUTPUT_DRAIN_MS + HARD_DEADLINE_MARGIN_MS;
    try {
      // A request that arrived while we were starting up is honoured before Gradle runs at all.
      const early = this.cancelRequest(build.id);
      if (early) this.cancel(run, early.actor, early.via);
      const gradle = this.runner.run(gradlew, [...build.tasks, ...build.args, '--console=plain'], {
        cwd: build.root,
        env: {
          ...(javaHome ? { JAVA_HOME: javaHome } : {}),
          // Where AGP runs connected tests when several devices are online.
          ...(build.androidSerial !== null ? { ANDROID_SERIAL: build.androidSerial } : {}),
        },
        timeoutMs: build.timeoutSec * 1000,
        signal: run.controller.signal,
        processGroup: true,
        killGraceMs: KILL_GRACE_MS,
        maxOutputBytes: 64 * 1024,
        onSpawn: (pid) => {
          gradleGroup = identityOf(pid);
          // Whoever reaps this worker if it dies stops this group too.
          try {
            this.lock().setGradle(build.id, gradleGroup);
          } catch {
            // Without it a reaper cannot stop Gradle; the build itself goes on.
          }
        },
        onLine: (line) => {
          try {
            log.write(line);
          } catch (error) {
            // A full or vanished log must not stop the parsing that decides the outcome.
            if (!logBroken)
              process.stderr.write(
                `droidwright: could not write the build log ${build.logPath}: ${(error as Error).message}\n`,
              );
            logBroken = true;
          }
          parser.push(line);
          const task = TASK_LINE.exec(line);
          if (task) {
            run.currentTask = task[1]!;
            if (executedTasks.size < 10_000) executedTasks.add(task[1]!);
          }
          if (/^BUILD SUCCESSFUL\b/.test(line)) sawSuccess = true;
          const tests = parseTestSummaryLine(line);
          if (tests) consoleTests = tests;
        },
      });
      const deadline = new Promise<'deadline'>((resolve) => {
        hardStop = setTimeout(() => resolve('deadline'), hardDeadlineMs);
      });
      const settled = await Promise.race([gradle, deadline]);
      if (settled === 'deadline') {
        hungPastDeadline = true;
        killOrphanedGroup(gradleGroup);
      } else {
        result = settled;
      }
    } catch (error) {
      spawnError = error as Error;
    } finally {
      clearInterval(poll);
      if (hardStop) clearTimeout(hardStop);
    }

    const durationMs = Math.max(0, Date.now() - build.startedAt);
    let status: FinalBuildStatus;
    let reason: string | null = null;
    let diagnostics = parser.finish();
    // The JUnit reports name each failed test in full, with its message and the project frame it failed in.
    let failedTests: FailedTestRecord[] = [];
    try {
      const reports = collectTestFailures(loadGradleProject(project.root), outputsBefore, [...executedTasks]);
      diagnostics = mergeTestDiagnostics(diagnostics, reports.diagnostics);
      failedTests = reports.failures;
    } catch {
      // Unreadable reports leave the console's view of the failures.
    }
    // A cancel that lands after Gradle already exited does not rewrite the outcome.
    if (run.cancelledBy && result !== null && !result.cancelled) run.cancelledBy = null;
    const cancelledBy = run.cancelledBy;
    if (hungPastDeadline) {
      status = 'timed_out';
      reason = `Gradle did not let go within ${Math.round(hardDeadlineMs / 1000)} s (the ${build.timeoutSec} s time limit plus the time allowed to stop it); its process group was killed and the build recorded without its final output.`;
    } else if (cancelledBy) {
      status = 'cancelled';
      reason = this.cancelReason(cancelledBy);
    } else if (spawnError) {
      status = 'failed';
      reason = spawnError.message;
    } else if (result!.timedOut) {
      status = 'timed_out';
      reason = `Stopped after ${build.timeoutSec} s, the build time limit (buildTimeoutSec in settings.json, or timeout_sec of the call).`;
    } else if (result!.exitCode === 0 && sawSuccess) {
      status = 'success';
    } else {
      status = 'failed';
      const firstError = diagnostics.find((d) => d.severity === 'error');
      reason = firstError
        ? `${firstError.file ? `${firstError.file}${firstError.line !== null ? `:${firstError.line}` : ''}: ` : ''}${firstError.message}`
        : result!.exitCode === 0
          ? 'Gradle exited with 0 but never printed BUILD SUCCESSFUL.'
          : `Gradle exited with ${result!.exitCode ?? `signal ${result!.signal}`}.`;
    }

    let logInfo: FinishedFacts['log'];
    try {
      logInfo = log.close();
    } catch {
      logInfo = summarizeLogFile(build.logPath);
    }
    let apks: BuildRecord['apks'] = [];
    let mappings: BuildRecord['mappings'] = [];
    let tests: TestCounts | null = null;
    try {
      const fresh = loadGradleProject(project.root);
      apks = await collectApks(fresh, outputsBefore);
      mappings = collectMappings(fresh, outputsBefore);
      tests = collectJUnitCounts(fresh, outputsBefore);
    } catch {
      // The outputs are extras; the outcome is recorded regardless.
    }
    const fromConsole = consoleTests as { total: number; failed: number; skipped: number } | null;
    if (!tests && fromConsole) {
      tests = {
        ...fromConsole,
        passed: Math.max(0, fromConsole.total - fromConsole.failed - fromConsole.skipped),
        source: 'console',
      };
    }

    if (cancelledBy && !hungPastDeadline) this.recordCancelled(build, cancelledBy);
    await this.finish(build, {
      status,
      durationMs,
      exitCode: result?.exitCode ?? null,
      signal: result?.signal ?? null,
      reason,
      cancelledBy: cancelledBy ? describeActor(cancelledBy.actor) : null,
      diagnostics,
      apks,
      mappings,
      tests,
      failedTests,
      log: logInfo,
    });
  }

  /**
   * Records the end (as the agent that started the build), then frees the project. An event log that
   * refuses the record (full disk, locked) is retried with backoff while this process still holds the
   * lock; after that the outcome goes to `<id>.outcome.json`, which whoever reaps the build imports.
   */
  private async finish(build: StartedBuild, facts: FinishedFacts, release = true): Promise<void> {
    const giveUp = Date.now() + this.finishRetryMs;
    let pause = 100;
    while (!appendFinished(this.store(), build.id, build.actor, facts)) {
      if (Date.now() >= giveUp) {
        writeOutcomeFallback(build.logPath, build.id, facts);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, giveUp - Date.now()))));
      pause = Math.min(pause * 2, 5000);
    }
    if (!release) return;
    try {
      this.history.clearLive(build.id);
      this.lock().release(build.root, build.id);
    } catch (error) {
      // The lock row names this (soon dead) process: the next build takes it over.
      process.stderr.write(
        `droidwright: could not release the lock of build ${build.id}: ${(error as Error).message}\n`,
      );
    }
  }
}
