import { createHash, randomUUID } from 'node:crypto';
import { accessSync, chmodSync, closeSync, constants, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { inject, injectable } from 'inversify';
import { describeActor, systemActor, type Actor } from '../../../kernel/actor.js';
import type { ShutdownParticipant } from '../../../kernel/shutdown-participant.js';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { buildLogsDir } from '../../../kernel/paths.js';
import { ProcessRunner, type RunResult } from '../../../kernel/process-runner.js';
import { SelectedProject } from '../../../kernel/project-selection.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { Settings } from '../../../kernel/settings.js';
import { TrustService } from '../../../kernel/trust-service.js';
import { loadGradleProject, type GradleProject } from '../../../android/gradle-project-model.js';
import type { FinalBuildStatus, TestCounts } from '../build.events.js';
import { collectApks, collectJUnitCounts, collectMappings, OutputTimes, parseTestSummaryLine } from './build-artifacts.js';
import { BuildHistory, type BuildRecord } from './build-history.js';
import { BuildLock, isProcessAlive, type BuildLockHolder } from './build-lock.js';
import { BuildLogWriter } from './build-log-writer.js';
import { chooseJdk, collectProvenance } from './build-provenance.js';
import { countBySeverity, GradleOutputParser, type BuildDiagnostic } from './gradle-output-parser.js';

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
}

export interface BuildHandle {
  readonly buildId: string;
  readonly logPath: string;
  readonly timeoutSec: number;
  /** Resolves with the recorded build once build.finished is in the log; rejects (STORE_UNAVAILABLE) only when the log cannot be read back. */
  readonly done: Promise<BuildRecord>;
}

interface Canceller {
  readonly actor: Actor;
  readonly via: 'request' | 'cancel_build' | 'shutdown';
}

interface RunningBuild {
  readonly id: string;
  readonly root: string;
  readonly actor: Actor;
  readonly startedAt: number;
  /** Output file times before Gradle ran, to tell what this build wrote. */
  readonly outputsBefore: OutputTimes;
  readonly controller: AbortController;
  currentTask: string | null;
  cancelledBy: Canceller | null;
  done: Promise<BuildRecord>;
}

/** How often the owning process looks for a cancel request from another process and publishes the current task. */
const POLL_MS = 500;
const KILL_GRACE_MS = 5000;
/** Keeps build.finished well under the event size limit; the counts still cover everything. */
const MAX_EVENT_DIAGNOSTICS = 500;
const MAX_EVENT_DIAGNOSTIC_BYTES = 150_000;
const TASK_LINE = /^> Task (:\S+)/;

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function boundDiagnostics(all: readonly BuildDiagnostic[]): BuildDiagnostic[] {
  const out: BuildDiagnostic[] = [];
  let bytes = 0;
  // Errors first, so a build with thousands of warnings still records its errors.
  const ordered = [...all.filter((d) => d.severity === 'error'), ...all.filter((d) => d.severity !== 'error')];
  for (const d of ordered) {
    const size = JSON.stringify(d).length;
    if (out.length >= MAX_EVENT_DIAGNOSTICS || bytes + size > MAX_EVENT_DIAGNOSTIC_BYTES) break;
    out.push(d);
    bytes += size;
  }
  return out;
}

function hashExistingFile(path: string): { sha256: string; bytes: number } {
  const hash = createHash('sha256');
  let bytes = 0;
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(1024 * 1024);
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      bytes += n;
    }
  } catch {
    // Missing log: hash of what was read.
  } finally {
    if (fd !== null) closeSync(fd);
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** True when an abort came from the MCP session ending rather than from the client cancelling the request. */
export function isSessionEnd(reason: unknown): boolean {
  return reason instanceof Error && /^session ended/.test(reason.message);
}

/**
 * Runs Gradle for the selected project. A build belongs to this service (the process), not to the
 * request that started it: it runs to the end and is recorded even when the client goes away.
 * One build per project across processes (BuildLock); cancellation from any process (a
 * build.cancel_requested event the owner polls); timeouts stop the whole process group.
 */
@injectable()
export class BuildService implements ShutdownParticipant {
  private readonly running = new Map<string, RunningBuild>();
  private lockInstance: BuildLock | undefined;

  constructor(
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(Settings) private readonly settings: Settings,
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
    @inject(SelectedProject) private readonly selected: SelectedProject,
    @inject(TrustService) private readonly trust: TrustService,
    @inject(BuildHistory) private readonly history: BuildHistory,
  ) {}

  private lock(): BuildLock {
    return (this.lockInstance ??= new BuildLock(this.store().db));
  }

  /** The selected project's root, or PROJECT_NOT_FOUND. */
  requireRoot(): string {
    const root = this.selected.root;
    if (!root) {
      throw new ToolError('PROJECT_NOT_FOUND', 'No Gradle project is selected. Start droidwright with --project <dir>, or from inside the project (a directory with settings.gradle(.kts)).');
    }
    return root;
  }

  loadProject(): GradleProject {
    return loadGradleProject(this.requireRoot());
  }

  /** Refuses (invalid params) unless a person trusted the project. Call before anything is spawned or changed. */
  requireTrusted(root: string): void {
    if (!this.trust.isTrusted(root)) {
      throw new InvalidArgumentsError(
        `The project ${root} is not trusted, so its Gradle build may not run. Ask the user to review it and run \`droidwright trust ${root}\` in their own terminal; an agent cannot grant trust.`,
        'PROJECT_NOT_TRUSTED',
      );
    }
  }

  effectiveTimeoutSec(requested?: number): number {
    const limit = this.settings.get().buildTimeoutSec;
    return requested === undefined ? limit : Math.max(1, Math.min(limit, Math.floor(requested)));
  }

  /** The gradlew inside the root (not a symlink out of it), or NOT_FOUND. */
  private gradlew(root: string): string {
    const path = join(root, 'gradlew');
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new ToolError('NOT_FOUND', `${path} does not exist. droidwright runs builds only through the project's Gradle wrapper; generate it with \`gradle wrapper\`.`);
    }
    if (!isInside(root, real) || !statSync(real).isFile()) {
      throw new ToolError('NOT_FOUND', `${path} is not a regular file inside the project (it resolves to ${real}). Restore the project's Gradle wrapper.`);
    }
    return real;
  }

  currentTask(buildId: string): string | null {
    return this.running.get(buildId)?.currentTask ?? this.history.currentTask(buildId);
  }

  isRunningHere(buildId: string): boolean {
    return this.running.has(buildId);
  }

  /**
   * The session ended: let builds finish and be recorded. A stop signal: cancel them (recorded as
   * cancelled by droidwright itself) and wait for the record.
   */
  async shutdown(reason: 'session-ended' | 'signal'): Promise<void> {
    if (reason === 'signal') for (const build of this.running.values()) this.cancelLocal(build, systemActor(), 'shutdown');
    await this.whenIdle();
  }

  /** Resolves once no build started by this process is running (`droidwright mcp` awaits this before exiting). */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.allSettled([...this.running.values()].map((b) => b.done));
    }
  }

  async start(request: BuildRequest, actor: Actor): Promise<BuildHandle> {
    const root = this.requireRoot();
    this.requireTrusted(root);
    const gradlew = this.gradlew(root);
    const timeoutSec = this.effectiveTimeoutSec(request.timeoutSec);

    for (const other of this.running.values()) {
      if (other.root === root) this.throwInProgress({ projectRoot: root, buildId: other.id, pid: process.pid, startedAt: other.startedAt });
    }
    const buildId = randomUUID().replace(/-/g, '').slice(0, 12);
    const acquired = this.lock().acquire(root, buildId);
    if (!acquired.acquired) this.throwInProgress(acquired.holder);
    if (acquired.staleHolder) this.recordOrphan(acquired.staleHolder.buildId, acquired.staleHolder.pid);

    const logPath = join(buildLogsDir(this.options.home), `${buildId}.log`);
    let log: BuildLogWriter | undefined;
    let startedRecorded = false;
    try {
      // Made executable only now: after the trust check and with the lock held.
      try {
        accessSync(gradlew, constants.X_OK);
      } catch {
        chmodSync(gradlew, statSync(gradlew).mode | 0o100);
      }
      const project = loadGradleProject(root);
      const jdk = chooseJdk(root, this.settings.get().javaHome, this.options.env);
      const provenance = await collectProvenance(this.runner, project, jdk);
      log = new BuildLogWriter(logPath);
      this.store().append({
        type: 'build.started',
        stream: `build:${buildId}`,
        actor,
        correlation: buildId,
        data: {
          build_id: buildId,
          project_root: root,
          kind: request.kind,
          tasks: [...request.tasks],
          args: [...request.args],
          module: request.module,
          variant: request.variant,
          pid: process.pid,
          timeout_sec: timeoutSec,
          log_path: logPath,
          provenance,
        },
      });
      startedRecorded = true;
      const startedAt = Date.now();
      const outputsBefore = OutputTimes.capture(project);
      const build: RunningBuild = { id: buildId, root, actor, startedAt, outputsBefore, controller: new AbortController(), currentTask: null, cancelledBy: null, done: Promise.resolve(null as unknown as BuildRecord) };
      this.running.set(buildId, build);
      build.done = this.execute(build, request, gradlew, timeoutSec, log, project, jdk.source === 'settings' ? jdk.javaHome : null);
      return { buildId, logPath, timeoutSec, done: build.done };
    } catch (error) {
      log?.close();
      this.running.delete(buildId);
      if (startedRecorded) {
        this.appendFinished(buildId, actor, {
          status: 'failed',
          durationMs: 0,
          exitCode: null,
          signal: null,
          reason: `Could not start Gradle: ${(error as Error).message}`,
          cancelledBy: null,
          diagnostics: [],
          apks: [],
          mappings: [],
          tests: null,
          log: this.logSummary(logPath),
        });
      }
      this.lock().release(root, buildId);
      throw error;
    }
  }

  private throwInProgress(holder: BuildLockHolder): never {
    const record = this.history.get(holder.buildId);
    const who = record ? `, started by ${record.startedBy}, running ${record.tasks.join(' ')}` : '';
    throw new ToolError(
      'BUILD_IN_PROGRESS',
      `Build ${holder.buildId} of this project is running in droidwright process pid ${holder.pid}${who}. Wait for it with get_build_status (build_id "${holder.buildId}", wait_ms), or stop it with cancel_build.`,
      { build_id: holder.buildId, pid: holder.pid },
    );
  }

  private async execute(
    build: RunningBuild,
    request: BuildRequest,
    gradlew: string,
    timeoutSec: number,
    log: BuildLogWriter,
    project: GradleProject,
    javaHome: string | null,
  ): Promise<BuildRecord> {
    const parser = new GradleOutputParser();
    let sawSuccess = false;
    let consoleTests: { total: number; failed: number; skipped: number } | null = null;
    let lastPublishedTask: string | null = null;
    const poll = setInterval(() => {
      try {
        if (build.currentTask !== lastPublishedTask) {
          lastPublishedTask = build.currentTask;
          this.history.setCurrentTask(build.id, build.currentTask);
        }
        if (!build.cancelledBy) {
          const requested = this.history.get(build.id)?.cancelRequestedActor;
          if (requested) this.cancelLocal(build, requested, 'cancel_build');
        }
      } catch {
        // A busy or closing database must not break the build; the next tick retries.
      }
    }, POLL_MS);

    let result: RunResult | null = null;
    let spawnError: Error | null = null;
    try {
      result = await this.runner.run(gradlew, [...request.tasks, ...request.args, '--console=plain'], {
        cwd: build.root,
        env: javaHome ? { JAVA_HOME: javaHome } : {},
        timeoutMs: timeoutSec * 1000,
        signal: build.controller.signal,
        processGroup: true,
        killGraceMs: KILL_GRACE_MS,
        maxOutputBytes: 64 * 1024,
        onLine: (line) => {
          log.write(line);
          parser.push(line);
          const task = TASK_LINE.exec(line);
          if (task) build.currentTask = task[1]!;
          if (/^BUILD SUCCESSFUL\b/.test(line)) sawSuccess = true;
          const tests = parseTestSummaryLine(line);
          if (tests) consoleTests = tests;
        },
      });
    } catch (error) {
      spawnError = error as Error;
    } finally {
      clearInterval(poll);
    }

    const durationMs = Date.now() - build.startedAt;
    let status: FinalBuildStatus;
    let reason: string | null = null;
    const diagnostics = parser.finish();
    // A cancel that lands after Gradle already exited does not rewrite the outcome.
    if (build.cancelledBy && (result === null || !result.cancelled)) build.cancelledBy = result === null ? build.cancelledBy : null;
    if (build.cancelledBy) {
      status = 'cancelled';
      reason = `Cancelled by ${describeActor(build.cancelledBy.actor)} (${{ request: 'request cancelled', cancel_build: 'cancel_build', shutdown: 'droidwright was stopped' }[build.cancelledBy.via]}).`;
    } else if (spawnError) {
      status = 'failed';
      reason = spawnError.message;
    } else if (result!.timedOut) {
      status = 'timed_out';
      reason = `Stopped after ${timeoutSec} s, the build time limit (buildTimeoutSec in settings.json, or timeout_sec of the call).`;
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

    const logInfo = log.close();
    let apks: BuildRecord['apks'] = [];
    let mappings: BuildRecord['mappings'] = [];
    let tests: TestCounts | null = null;
    try {
      const fresh = loadGradleProject(project.root);
      apks = await collectApks(fresh, build.outputsBefore);
      mappings = collectMappings(fresh, build.outputsBefore);
      tests = collectJUnitCounts(fresh, build.outputsBefore);
    } catch {
      // The outputs are extras; the outcome is recorded regardless.
    }
    const fromConsole = consoleTests as { total: number; failed: number; skipped: number } | null;
    if (!tests && fromConsole) {
      tests = { ...fromConsole, passed: Math.max(0, fromConsole.total - fromConsole.failed - fromConsole.skipped), source: 'console' };
    }

    if (build.cancelledBy) {
      this.safeAppend({
        type: 'build.cancelled',
        stream: `build:${build.id}`,
        correlation: build.id,
        actor: build.cancelledBy.actor,
        data: { build_id: build.id, cancelled_by: describeActor(build.cancelledBy.actor), via: build.cancelledBy.via },
      });
    }
    this.appendFinished(build.id, build.actor, {
      status,
      durationMs,
      exitCode: result?.exitCode ?? null,
      signal: result?.signal ?? null,
      reason,
      cancelledBy: build.cancelledBy ? describeActor(build.cancelledBy.actor) : null,
      diagnostics,
      apks,
      mappings,
      tests,
      log: logInfo,
    });
    try {
      this.lock().release(build.root, build.id);
      this.history.clearLive(build.id);
    } catch {
      // The store is gone (shutdown); the lock row names a dead pid and is taken over next time.
    }
    this.running.delete(build.id);
    return this.history.get(build.id) ?? this.unreadableRecord(build, status, reason, durationMs);
  }

  private unreadableRecord(build: RunningBuild, status: FinalBuildStatus, reason: string | null, durationMs: number): BuildRecord {
    throw new ToolError('STORE_UNAVAILABLE', `Build ${build.id} ended (${status}${reason ? `: ${reason}` : ''}, ${durationMs} ms) but its record could not be read back from the event log. Check the event log with \`droidwright events verify\`.`);
  }

  private safeAppend(event: Parameters<ReturnType<EventStoreProvider>['append']>[0]): void {
    try {
      this.store().append(event);
    } catch (error) {
      process.stderr.write(`droidwright: could not record ${event.type} for ${event.stream}: ${(error as Error).message}\n`);
    }
  }

  private appendFinished(
    buildId: string,
    actor: Actor,
    f: {
      status: FinalBuildStatus;
      durationMs: number;
      exitCode: number | null;
      signal: string | null;
      reason: string | null;
      cancelledBy: string | null;
      diagnostics: readonly BuildDiagnostic[];
      apks: BuildRecord['apks'];
      mappings: BuildRecord['mappings'];
      tests: TestCounts | null;
      log: { path: string; sha256: string; bytes: number; lines: number; truncated_lines: number };
    },
  ): void {
    this.safeAppend({
      type: 'build.finished',
      stream: `build:${buildId}`,
      correlation: buildId,
      actor,
      data: {
        build_id: buildId,
        status: f.status,
        duration_ms: f.durationMs,
        exit_code: f.exitCode,
        signal: f.signal,
        reason: f.reason ? f.reason.slice(0, 2000) : null,
        cancelled_by: f.cancelledBy,
        diagnostic_counts: countBySeverity(f.diagnostics),
        diagnostics: boundDiagnostics(f.diagnostics),
        diagnostics_total: f.diagnostics.length,
        apks: f.apks,
        mappings: f.mappings,
        tests: f.tests,
        log: f.log,
      },
    });
  }

  private logSummary(path: string): { path: string; sha256: string; bytes: number; lines: number; truncated_lines: number } {
    const { sha256, bytes } = hashExistingFile(path);
    return { path, sha256, bytes, lines: 0, truncated_lines: 0 };
  }

  /** Records a build whose process died before it could record its end. Only one process wins the reap. */
  private recordOrphan(buildId: string, pid: number, alreadyReaped = true): void {
    if (!alreadyReaped && !this.lock().reapIfDead(buildId)) return;
    const record = this.history.get(buildId);
    if (!record || record.status !== 'running') return;
    this.appendFinished(buildId, record.cancelRequestedActor ?? { kind: 'system', pid: process.pid }, {
      status: 'failed',
      durationMs: Math.max(0, Date.now() - record.startedAt),
      exitCode: null,
      signal: null,
      reason: `The droidwright process (pid ${pid}) that ran this build exited before recording its end; the build's outcome is unknown.`,
      cancelledBy: null,
      diagnostics: [],
      apks: [],
      mappings: [],
      tests: null,
      log: this.logSummary(record.logPath),
    });
    try {
      this.history.clearLive(buildId);
    } catch {
      // Best effort.
    }
  }

  /** A running build whose owner process is gone is recorded as ended; returns the fresh record. */
  reapIfOrphaned(record: BuildRecord): BuildRecord {
    if (record.status !== 'running' || this.running.has(record.id) || isProcessAlive(record.ownerPid)) return record;
    this.recordOrphan(record.id, record.ownerPid, false);
    return this.history.get(record.id) ?? record;
  }

  private cancelLocal(build: RunningBuild, actor: Actor, via: Canceller['via']): void {
    if (build.cancelledBy) return;
    build.cancelledBy = { actor, via };
    build.controller.abort();
  }

  /** Cancels the build a request started (the request's client cancelled it). */
  cancelOwn(buildId: string, actor: Actor): void {
    const build = this.running.get(buildId);
    if (build) this.cancelLocal(build, actor, 'request');
  }

  /**
   * Cancels a running build of the selected project, in this or another process, and waits (bounded)
   * for it to be recorded. `buildId` defaults to the running one.
   */
  async cancel(buildId: string | undefined, actor: Actor, waitMs = 10_000): Promise<{ record: BuildRecord; wasRunning: boolean }> {
    const root = this.requireRoot();
    let record = buildId ? this.history.get(buildId) : (this.history.running(root)[0] ?? null);
    if (!record) {
      throw new ToolError('BUILD_NOT_FOUND', buildId ? `No build with id "${buildId}". list_build_history shows recent ids.` : 'No build of this project is running, so there is nothing to cancel.');
    }
    if (record.status !== 'running') return { record, wasRunning: false };
    const local = this.running.get(record.id);
    if (local) {
      this.cancelLocal(local, actor, 'cancel_build');
      return { record: await local.done, wasRunning: true };
    }
    record = this.reapIfOrphaned(record);
    if (record.status !== 'running') return { record, wasRunning: true };
    this.store().append({
      type: 'build.cancel_requested',
      stream: `build:${record.id}`,
      correlation: record.id,
      actor,
      data: { build_id: record.id, requested_by: describeActor(actor) },
    });
    const final = await this.waitForEnd(record.id, waitMs);
    return { record: final ?? record, wasRunning: true };
  }

  /** Polls the read model until the build ends or `waitMs` passes (works for builds of any process). */
  async waitForEnd(buildId: string, waitMs: number, signal?: AbortSignal): Promise<BuildRecord | null> {
    const deadline = Date.now() + waitMs;
    const local = this.running.get(buildId);
    if (local) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const expired = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), Math.max(0, waitMs));
        onAbort = () => resolve(null);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([local.done, expired]);
      } finally {
        clearTimeout(timer);
        if (onAbort) signal?.removeEventListener('abort', onAbort);
      }
      return this.history.get(buildId);
    }
    for (;;) {
      let record = this.history.get(buildId);
      if (!record) return null;
      record = this.reapIfOrphaned(record);
      if (record.status !== 'running' || Date.now() >= deadline || signal?.aborted) return record;
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, Math.max(1, deadline - Date.now()))));
    }
  }

  /** For get_build_status and friends: the id given, or this project's latest build. */
  resolveBuild(buildId: string | undefined): BuildRecord {
    if (buildId) {
      const record = this.history.get(buildId);
      if (!record) throw new ToolError('BUILD_NOT_FOUND', `No build with id "${buildId}". list_build_history shows recent ids.`);
      return this.reapIfOrphaned(record);
    }
    const latest = this.history.latest(this.requireRoot());
    if (!latest) throw new ToolError('BUILD_NOT_FOUND', 'This project has no recorded builds yet. Start one with run_gradle_task.');
    return this.reapIfOrphaned(latest);
  }

  /** Is there a log file we wrote for this build? */
  logExists(record: BuildRecord): boolean {
    return existsSync(record.logPath);
  }
}
