import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../events/event-store.js';
import { currentProcess, isProcessAlive, type ProcessIdentity } from '../../../kernel/process-identity.js';
import { thisHost } from '../../../shared/actor.js';

/*
 * One UI capture per device across every droidwright process: a `ui_capture_locks` row (ui-tables.ts)
 * taken inside the store's BEGIN IMMEDIATE, so two processes never both see the device free. A row whose
 * holder died (pid gone, or reused by a process started at another time) is taken over. Rows are keyed by
 * host as well as serial, and a lock sees only its own host's: a serial and a pid mean something only on the
 * machine whose adb server and kernel gave them, so another machine's capture is neither waited for nor broken.
 */

export interface UiCaptureLockHolder extends ProcessIdentity {
  readonly host: string;
  readonly deviceSerial: string;
  readonly token: string;
  readonly startedAt: number;
}

interface LockRow {
  host: string;
  device_serial: string;
  token: string;
  pid: number;
  pid_start: string | null;
  started_at: number;
}

export type UiCaptureLockStore = Pick<EventStore, 'prepareRead' | 'readWithRetry' | 'writeTables'>;

const holderAlive = (holder: ProcessIdentity): boolean => isProcessAlive(holder.pid, holder.startTime);

function toHolder(row: LockRow): UiCaptureLockHolder {
  return {
    host: row.host,
    deviceSerial: row.device_serial,
    token: row.token,
    pid: row.pid,
    startTime: row.pid_start,
    startedAt: row.started_at,
  };
}

export type UiCaptureLockResult =
  | { readonly acquired: true; readonly token: string }
  | { readonly acquired: false; readonly holder: UiCaptureLockHolder };

export class UiCaptureLock {
  constructor(
    private readonly store: UiCaptureLockStore,
    private readonly self: ProcessIdentity = currentProcess(),
    private readonly isAlive: (holder: ProcessIdentity) => boolean = holderAlive,
    /** This machine (DROIDWRIGHT_HOST or the OS name); a test plays another machine by passing one. */
    private readonly host: string = thisHost(),
  ) {}

  /**
   * Takes the device's row unless another live process holds it. Callers in one process take turns before
   * calling (DeviceUiCapturer's queue), so a row naming this process is one a failed release left behind.
   */
  tryAcquire(deviceSerial: string): UiCaptureLockResult {
    const sql = 'SELECT * FROM ui_capture_locks WHERE host = ? AND device_serial = ?';
    // A live holder is seen with a read: no write transaction for a refusal (waiters poll this).
    const current = this.store.readWithRetry(
      () => this.store.prepareRead(sql).get(this.host, deviceSerial) as LockRow | undefined,
    );
    if (current && this.heldByOther(toHolder(current))) return { acquired: false, holder: toHolder(current) };
    const token = randomUUID();
    return this.store.writeTables((tables): UiCaptureLockResult => {
      const row = tables.get<LockRow>(sql, this.host, deviceSerial);
      if (row && this.heldByOther(toHolder(row))) return { acquired: false, holder: toHolder(row) };
      tables.run(
        `INSERT INTO ui_capture_locks (host, device_serial, token, pid, pid_start, started_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (host, device_serial) DO UPDATE SET token = excluded.token, pid = excluded.pid,
           pid_start = excluded.pid_start, started_at = excluded.started_at`,
        this.host,
        deviceSerial,
        token,
        this.self.pid,
        this.self.startTime,
        Date.now(),
      );
      return { acquired: true, token };
    });
  }

  private heldByOther(holder: UiCaptureLockHolder): boolean {
    if (holder.pid === this.self.pid && holder.startTime === this.self.startTime) return false;
    return this.isAlive(holder);
  }

  /** Releases only the capture that took the row. */
  release(deviceSerial: string, token: string): void {
    this.store.writeTables((tables) =>
      tables.run(
        'DELETE FROM ui_capture_locks WHERE host = ? AND device_serial = ? AND token = ?',
        this.host,
        deviceSerial,
        token,
      ),
    );
  }
}
