import type { EventStore } from '../../../events/event-store.js';
import { isProcessAlive, type ProcessIdentity } from '../../../kernel/process-identity.js';
import { type Actor, thisHost } from '../../../shared/actor.js';

/*
 * One logcat worker per device across every droidwright process. The lease is a row of the `logcat_workers` side
 * table (logcat-tables.ts), taken inside BEGIN IMMEDIATE so two processes never both see the device free. It names
 * its holder by pid AND start time, so a pid the kernel reused does not keep a dead worker's device taken: a row
 * whose holder is gone is taken over. The process that asked claims the row, starts the worker and hands the row to
 * it (as builds hand over their lock); the worker then marks it `streaming`. Any process asks it to stop by writing
 * `stop_actor`, and readers keep it alive by moving `touched_at`: both are one UPDATE, seen by the worker's poll.
 * Rows are keyed by host as well as serial, and a lease sees only its own host's: emulator-5554 on two laptops
 * sharing a log is two devices, and a worker's pid can be judged only on the machine it runs on.
 */

export type LeaseState = 'starting' | 'streaming' | 'stopped';

export interface LogcatLeaseRow extends ProcessIdentity {
  readonly host: string;
  readonly deviceSerial: string;
  readonly state: LeaseState;
  /** Who asked for the stream (recorded as the actor of logcat.started). */
  readonly actor: Actor;
  readonly startedAt: number;
  /** Epoch ms a reader last used the device's log; the idle clock starts here. */
  readonly touchedAt: number;
  /** A dead worker whose lease this one took (its pid), recorded in logcat.started. */
  readonly tookOver: number | null;
  /** Set by a stop request: who asked. */
  readonly stopActor: Actor | null;
  /** Host epoch ms of the worker's last stored batch. */
  readonly lastLineAt: number | null;
  /** Device time (epoch ms) of the newest line stored: where a new worker resumes (`logcat -T`). */
  readonly resumeMs: number | null;
}

export type ClaimResult =
  | { readonly claimed: true; readonly previous: LogcatLeaseRow | null }
  | { readonly claimed: false; readonly holder: LogcatLeaseRow };

interface LeaseDbRow {
  host: string;
  device_serial: string;
  pid: number;
  pid_start: string | null;
  state: string;
  actor: string;
  started_at: number;
  touched_at: number;
  took_over: number | null;
  stop_actor: string | null;
  last_line_at: number | null;
  resume_ms: number | null;
}

function parseActor(text: string | null): Actor | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Actor;
  } catch {
    return null;
  }
}

function toRow(row: LeaseDbRow): LogcatLeaseRow {
  return {
    host: row.host,
    deviceSerial: row.device_serial,
    pid: row.pid,
    startTime: row.pid_start,
    state: row.state === 'streaming' || row.state === 'starting' ? row.state : 'stopped',
    actor: parseActor(row.actor) ?? { kind: 'system', pid: row.pid, ...(row.host ? { host: row.host } : {}) },
    startedAt: row.started_at,
    touchedAt: row.touched_at,
    tookOver: row.took_over,
    stopActor: parseActor(row.stop_actor),
    lastLineAt: row.last_line_at,
    resumeMs: row.resume_ms,
  };
}

const holderAlive = (holder: ProcessIdentity): boolean => isProcessAlive(holder.pid, holder.startTime);

/** The holder of a row is a live process and the row is not finished. */
export function leaseHeld(row: LogcatLeaseRow | null, isAlive = holderAlive): boolean {
  return row !== null && row.state !== 'stopped' && isAlive(row);
}

/** The store operations the lease needs; an EventStore opened with `logcatWorkersTable` provides them. */
export type LogcatLeaseStore = Pick<EventStore, 'prepareRead' | 'readWithRetry' | 'writeTables'>;

export class LogcatLease {
  /** `host` is this machine (DROIDWRIGHT_HOST or the OS name); a test plays another machine by passing one. */
  constructor(
    private readonly store: LogcatLeaseStore,
    private readonly host: string = thisHost(),
  ) {}

  read(serial: string): LogcatLeaseRow | null {
    const row = this.store.readWithRetry(
      () =>
        this.store
          .prepareRead('SELECT * FROM logcat_workers WHERE host = ? AND device_serial = ?')
          .get(this.host, serial) as LeaseDbRow | undefined,
    );
    return row ? toRow(row) : null;
  }

  /**
   * Takes the device for `holder` unless a live process holds it. A finished row or one whose holder is dead is
   * replaced; where the stream got to (resume point) is kept. `isAlive` is injectable so a test can play a dead holder.
   */
  claim(serial: string, holder: ProcessIdentity, actor: Actor, isAlive = holderAlive): ClaimResult {
    const current = this.read(serial);
    if (current && leaseHeld(current, isAlive)) return { claimed: false, holder: current };
    return this.store.writeTables((tables): ClaimResult => {
      // A row from before hosts were recorded (host '') was written on this machine: only a single-machine
      // SQLite log predates them. It becomes this host's (a running worker, its resume point), unless this
      // host already has its own row.
      tables.run(
        `UPDATE logcat_workers SET host = ? WHERE host = '' AND device_serial = ?
           AND NOT EXISTS (SELECT 1 FROM logcat_workers AS mine WHERE mine.host = ? AND mine.device_serial = ?)`,
        this.host,
        serial,
        this.host,
        serial,
      );
      const raw = tables.get<LeaseDbRow>(
        'SELECT * FROM logcat_workers WHERE host = ? AND device_serial = ?',
        this.host,
        serial,
      );
      const row = raw ? toRow(raw) : null;
      if (row && leaseHeld(row, isAlive)) return { claimed: false, holder: row };
      const now = Date.now();
      // Only a worker that was streaming is "taken over"; a requester that died before its hand-over never streamed.
      const tookOver = row && row.state === 'streaming' ? row.pid : null;
      tables.run(
        `INSERT INTO logcat_workers (host, device_serial, pid, pid_start, state, actor, started_at, touched_at, took_over, stop_actor)
         VALUES (?, ?, ?, ?, 'starting', ?, ?, ?, ?, NULL)
         ON CONFLICT (host, device_serial) DO UPDATE SET pid = excluded.pid, pid_start = excluded.pid_start, state = 'starting',
           actor = excluded.actor, started_at = excluded.started_at, touched_at = excluded.touched_at,
           took_over = COALESCE(excluded.took_over, logcat_workers.took_over), stop_actor = NULL`,
        this.host,
        serial,
        holder.pid,
        holder.startTime,
        JSON.stringify(actor),
        now,
        now,
        // A requester that died before handing over leaves the dead worker it was replacing to be named by the next.
        tookOver ?? (row && row.state === 'starting' ? (row.tookOver ?? null) : null),
      );
      return { claimed: true, previous: row };
    });
  }

  /** Passes the row from the process that claimed it to the worker it started; false when `from` no longer holds it. */
  handOver(serial: string, from: ProcessIdentity, to: ProcessIdentity): boolean {
    const result = this.store.writeTables((tables) =>
      tables.run(
        "UPDATE logcat_workers SET pid = ?, pid_start = ? WHERE host = ? AND device_serial = ? AND pid = ? AND pid_start IS NOT DISTINCT FROM ? AND state = 'starting'",
        to.pid,
        to.startTime,
        this.host,
        serial,
        from.pid,
        from.startTime,
      ),
    );
    return result.changes === 1;
  }

  /** The worker streams now; false when the row is no longer its own. */
  markStreaming(serial: string, me: ProcessIdentity): boolean {
    const result = this.store.writeTables((tables) =>
      tables.run(
        "UPDATE logcat_workers SET state = 'streaming' WHERE host = ? AND device_serial = ? AND pid = ? AND pid_start IS NOT DISTINCT FROM ? AND state = 'starting'",
        this.host,
        serial,
        me.pid,
        me.startTime,
      ),
    );
    return result.changes === 1;
  }

  /** Where the stream got to; written by the worker about once a second. */
  progress(serial: string, me: ProcessIdentity, resumeMs: number | null, lastLineAt: number): void {
    this.store.writeTables((tables) =>
      tables.run(
        'UPDATE logcat_workers SET resume_ms = COALESCE(?, resume_ms), last_line_at = ? WHERE host = ? AND device_serial = ? AND pid = ? AND pid_start IS NOT DISTINCT FROM ?',
        resumeMs,
        lastLineAt,
        this.host,
        serial,
        me.pid,
        me.startTime,
      ),
    );
  }

  /** A reader used the device's log: restarts the idle clock (never moves it back). */
  touch(serial: string, at = Date.now()): void {
    this.store.writeTables((tables) =>
      tables.run(
        // A condition, not SQLite's two-argument MAX(): PostgreSQL spells that GREATEST.
        'UPDATE logcat_workers SET touched_at = ? WHERE host = ? AND device_serial = ? AND state != ? AND touched_at < ?',
        at,
        this.host,
        serial,
        'stopped',
        at,
      ),
    );
  }

  /** Asks the device's worker to stop; false when no row was running or starting. */
  requestStop(serial: string, actor: Actor): boolean {
    const result = this.store.writeTables((tables) =>
      tables.run(
        "UPDATE logcat_workers SET stop_actor = ? WHERE host = ? AND device_serial = ? AND state != 'stopped'",
        JSON.stringify(actor),
        this.host,
        serial,
      ),
    );
    return result.changes === 1;
  }

  /** The worker ended; the row keeps the resume point for the next one. */
  finish(serial: string, me: ProcessIdentity): void {
    this.store.writeTables((tables) =>
      tables.run(
        "UPDATE logcat_workers SET state = 'stopped', took_over = NULL WHERE host = ? AND device_serial = ? AND pid = ? AND pid_start IS NOT DISTINCT FROM ?",
        this.host,
        serial,
        me.pid,
        me.startTime,
      ),
    );
  }
}
