import type { Actor } from '../../../shared/actor.js';

export interface LogcatWorkerState {
  readonly deviceSerial: string;
  readonly state: 'running' | 'stopped';
  /** The worker holding the lease, with its start time (as the build lock names a holder). */
  readonly pid: number | null;
  readonly startedAt: number | null;
  /** Epoch ms of the last line the worker stored. */
  readonly lastLineAt: number | null;
}

/**
 * Starts, stops and reports the one logcat worker per device (a detached `droidwright logcat-worker <serial>`
 * holding a lease row), for every droidwright process on the machine.
 */
export const LogcatStreams = Symbol.for('droidwright.logcat.LogcatStreams');
export interface LogcatStreams {
  /** Starts a worker for the device unless a live one holds the lease; resolves once it streams. */
  ensure(deviceSerial: string, actor: Actor): Promise<{ pid: number; alreadyRunning: boolean }>;
  /** Asks the device's worker to stop and waits for it (bounded); false when none ran. */
  stop(deviceSerial: string, actor: Actor): Promise<boolean>;
  state(deviceSerial: string): LogcatWorkerState;
  /** Marks that a reader used the device's log now, which keeps an idle worker alive. */
  touch(deviceSerial: string): void;
}
