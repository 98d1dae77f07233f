import { closeSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inject, injectable } from 'inversify';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { ToolError } from '../../../kernel/errors.js';
import { droidwrightPackage } from '../../../kernel/package-root.js';
import { currentProcess, identityOf, isProcessAlive, type ProcessIdentity } from '../../../kernel/process-identity.js';
import { ProcessRunner } from '../../../kernel/process-runner.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { storeEnv } from '../../../kernel/store-location.js';
import { validateSerial } from '../../../kernel/validation.js';
import type { Actor } from '../../../shared/actor.js';
import { LogcatLease, leaseHeld, type LogcatLeaseRow } from './logcat-lease.js';
import type { LogcatStreams, LogcatWorkerState } from './logcat-streams.js';

/** How long `ensure` waits for a worker to stream (it opens the device's log first). */
const START_WAIT_MS = 20_000;
/** How long `stop` waits for the worker to store what it read and record its end, before SIGTERM. */
const STOP_WAIT_MS = 15_000;
/** A process writes a reader's touch to the lease at most this often per device: the idle bound is minutes. */
const TOUCH_EVERY_MS = 10_000;
/**
 * V8 limits for the worker: its live data is bounded (at most ~25,000 entries waiting to be stored, one crash block per
 * thread), and without a cap V8 grows the heap with the allocation rate of a flood (163 MB peak RSS at 100,000
 * lines/s, 102 MB with these).
 */
export const LOGCAT_WORKER_NODE_FLAGS = ['--max-old-space-size=64', '--max-semi-space-size=16'] as const;
/** Bytes of a failed worker's log quoted in the error. */
const LOG_TAIL_BYTES = 600;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The directory of the logcat workers' own output (one file per device, appended to by each worker). */
export function logcatWorkerLogsDir(home: string): string {
  return join(home, 'logcat-workers');
}

export function logcatWorkerLogPath(home: string, serial: string): string {
  return join(logcatWorkerLogsDir(home), `${serial.replace(/[^A-Za-z0-9._-]/g, '_')}.log`);
}

function tail(path: string): string {
  try {
    const text = readFileSync(path, 'utf8');
    return text.slice(-LOG_TAIL_BYTES).trim();
  } catch {
    return '';
  }
}

/** Starts the detached `droidwright logcat-worker <serial>` process; tests may run it some other way. */
export const LogcatWorkerLauncher = Symbol.for('droidwright.logcat.LogcatWorkerLauncher');
export interface LogcatWorkerLauncher {
  launch(serial: string): Promise<ProcessIdentity>;
}

/**
 * `droidwright logcat-worker <serial>` as a detached process: its own session and process group, stdin closed,
 * output appended to `logcat-workers/<serial>.log` in the data directory, not waited for. It outlives the process
 * that started it, whatever happens to that one.
 */
@injectable()
export class DetachedLogcatWorkerLauncher implements LogcatWorkerLauncher {
  constructor(
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
  ) {}

  async launch(serial: string): Promise<ProcessIdentity> {
    const pkg = droidwrightPackage();
    const entry = pkg ? join(pkg.root, 'dist', 'cli.js') : null;
    if (!entry || !statSync(entry, { throwIfNoEntry: false })?.isFile()) {
      throw new ToolError(
        'NOT_FOUND',
        `Cannot find droidwright's bundled CLI (${entry ?? 'no droidwright package directory'}) to start the logcat worker. Reinstall droidwright, or run \`npm run build\` in a checkout.`,
      );
    }
    mkdirSync(logcatWorkerLogsDir(this.options.home), { recursive: true });
    const logFd = openSync(logcatWorkerLogPath(this.options.home, serial), 'a', 0o600);
    try {
      const pid = await this.runner.spawnDetached(
        process.execPath,
        [...LOGCAT_WORKER_NODE_FLAGS, entry, 'logcat-worker', serial],
        {
          cwd: this.options.home,
          // The worker writes the same log as this process, whatever its own environment says.
          env: storeEnv(this.options.env, this.options),
          logFd,
        },
      );
      return identityOf(pid);
    } finally {
      closeSync(logFd);
    }
  }
}

/**
 * The one logcat worker per device, for every droidwright process: `ensure` claims the device's lease, starts the
 * worker and hands the lease to it (or reports the live one), `stop` writes a stop request any process's worker
 * sees, `touch` moves the idle clock. All of it goes through the `logcat_workers` side table of the event store.
 */
@injectable()
export class DetachedLogcatStreams implements LogcatStreams {
  private leaseInstance: LogcatLease | undefined;
  private readonly touchedAt = new Map<string, number>();

  constructor(
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
    @inject(LogcatWorkerLauncher) private readonly launcher: LogcatWorkerLauncher,
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
  ) {}

  private lease(): LogcatLease {
    return (this.leaseInstance ??= new LogcatLease(this.store()));
  }

  async ensure(deviceSerial: string, actor: Actor): Promise<{ pid: number; alreadyRunning: boolean }> {
    validateSerial(deviceSerial);
    const me = currentProcess();
    const claim = this.lease().claim(deviceSerial, me, actor);
    if (!claim.claimed) {
      const row = await this.awaitStreaming(deviceSerial, null);
      this.touch(deviceSerial, true);
      return { pid: row.pid, alreadyRunning: true };
    }
    let worker: ProcessIdentity;
    try {
      worker = await this.launcher.launch(deviceSerial);
    } catch (error) {
      this.lease().finish(deviceSerial, me);
      throw error;
    }
    if (!this.lease().handOver(deviceSerial, me, worker)) {
      // Our claim was taken over in between (we looked dead to someone): whoever holds it now streams.
      const row = await this.awaitStreaming(deviceSerial, null);
      return { pid: row.pid, alreadyRunning: row.pid !== worker.pid };
    }
    const row = await this.awaitStreaming(deviceSerial, worker);
    return { pid: row.pid, alreadyRunning: row.pid !== worker.pid };
  }

  /** Waits until a live worker streams the device; fails with its log's last lines when the one we started died. */
  private async awaitStreaming(serial: string, started: ProcessIdentity | null): Promise<LogcatLeaseRow> {
    const deadline = Date.now() + START_WAIT_MS;
    for (;;) {
      const row = this.lease().read(serial);
      if (row && row.state === 'streaming' && isProcessAlive(row.pid, row.startTime)) return row;
      const ours = started && row?.pid === started.pid;
      if (started && ours && !isProcessAlive(started.pid, started.startTime)) {
        const log = logcatWorkerLogPath(this.options.home, serial);
        const why = tail(log);
        throw new ToolError(
          'COMMAND_FAILED',
          `The logcat worker for ${serial} exited before streaming${why ? `: ${why}` : ''}. Check the device with list_devices and retry; its log is ${log}.`,
        );
      }
      if (!row || !leaseHeld(row)) {
        throw new ToolError(
          'COMMAND_FAILED',
          `The logcat worker for ${serial} ended before streaming; its log is ${logcatWorkerLogPath(this.options.home, serial)}. Retry start_logcat.`,
        );
      }
      if (Date.now() >= deadline) {
        throw new ToolError(
          'TIMEOUT',
          `The logcat worker for ${serial} (pid ${row.pid}) did not start streaming within ${START_WAIT_MS / 1000} s. The device may be busy; retry, or read ${logcatWorkerLogPath(this.options.home, serial)}.`,
        );
      }
      await sleep(50);
    }
  }

  async stop(deviceSerial: string, actor: Actor): Promise<boolean> {
    validateSerial(deviceSerial);
    const row = this.lease().read(deviceSerial);
    if (!row || !leaseHeld(row)) return false;
    if (!this.lease().requestStop(deviceSerial, actor)) return false;
    const deadline = Date.now() + STOP_WAIT_MS;
    let signalled = false;
    for (;;) {
      const now = this.lease().read(deviceSerial);
      if (!now || !leaseHeld(now) || now.pid !== row.pid) return true;
      if (Date.now() >= deadline) {
        if (signalled) {
          throw new ToolError(
            'TIMEOUT',
            `The logcat worker for ${deviceSerial} (pid ${row.pid}) did not stop after a request and SIGTERM. Stop it by its pid.`,
          );
        }
        // The worker did not see the request (hung on the device): SIGTERM records the end as `signal`.
        signalled = true;
        try {
          process.kill(row.pid, 'SIGTERM');
        } catch {
          return true;
        }
      }
      await sleep(100);
    }
  }

  state(deviceSerial: string): LogcatWorkerState {
    const row = this.lease().read(deviceSerial);
    const running = row !== null && leaseHeld(row);
    return {
      deviceSerial,
      state: running ? 'running' : 'stopped',
      pid: running ? row.pid : null,
      startedAt: running ? row.startedAt : null,
      lastLineAt: row?.lastLineAt ?? null,
    };
  }

  touch(deviceSerial: string, force = false): void {
    const now = Date.now();
    if (!force && now - (this.touchedAt.get(deviceSerial) ?? Number.NEGATIVE_INFINITY) < TOUCH_EVERY_MS) return;
    this.touchedAt.set(deviceSerial, now);
    try {
      this.lease().touch(deviceSerial, now);
    } catch {
      // A read must not fail because the idle clock could not move; the next touch retries.
      this.touchedAt.delete(deviceSerial);
    }
  }
}
