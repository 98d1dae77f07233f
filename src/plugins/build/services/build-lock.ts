import type { EventStore } from '../../../events/event-store.js';
import { currentProcess, isProcessAlive, type ProcessIdentity } from '../../../kernel/process-identity.js';
import { thisHost } from '../../../shared/actor.js';

/*
 * One build per project across every droidwright process. The lock is a row in the shared SQLite
 * file, taken inside BEGIN IMMEDIATE, so two processes can never both see the project free. The row
 * names the process that owns the build (the `droidwright mcp` that asked, then the build worker it
 * hands the build to) by pid AND start time, so a pid the kernel reused for another program does not
 * keep the project locked. It also names Gradle's process group once the worker started it, so
 * whoever reaps a dead worker can stop the Gradle it left behind. A row whose process is gone is taken
 * over (its build is reported back so the caller can record it).
 * The lock is per machine: rows are keyed by host as well as project (a shared PostgreSQL log serves many
 * laptops, and the same path on two of them is two projects), and a BuildLock sees and judges only its own
 * host's rows, so a holder on another machine is never taken for dead because its pid is absent here.
 * This table is coordination state, not history: a side table the build plugin declares to the store
 * (build-tables.ts), not a projection, never replayed.
 */

export interface BuildLockHolder extends ProcessIdentity {
  readonly host: string;
  readonly projectRoot: string;
  readonly buildId: string;
  readonly startedAt: number;
  /** Gradle's process group (its leader's identity), once the worker started Gradle. */
  readonly gradle: ProcessIdentity | null;
}

export type AcquireResult =
  | { readonly acquired: true; readonly staleHolder: BuildLockHolder | null }
  | { readonly acquired: false; readonly holder: BuildLockHolder };

interface LockRow {
  host: string;
  project_root: string;
  build_id: string;
  pid: number;
  pid_start: string | null;
  started_at: number;
  gradle_pgid: number | null;
  gradle_start: string | null;
}

const holderAlive = (holder: ProcessIdentity): boolean => isProcessAlive(holder.pid, holder.startTime);

/** SIGKILLs a process group left behind by a dead owner, unless its leader's pid now belongs to another process. */
export function killOrphanedGroup(gradle: ProcessIdentity | null): boolean {
  if (!gradle) return false;
  if (isProcessAlive(gradle.pid, null) && !holderAlive(gradle)) return false;
  try {
    // Members can outlive the leader (forked Gradle workers): signal the group even when the leader is gone.
    process.kill(-gradle.pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function toHolder(row: LockRow): BuildLockHolder {
  return {
    host: row.host,
    projectRoot: row.project_root,
    buildId: row.build_id,
    pid: row.pid,
    startTime: row.pid_start,
    startedAt: row.started_at,
    gradle: row.gradle_pgid !== null ? { pid: row.gradle_pgid, startTime: row.gradle_start } : null,
  };
}

/** The store operations the lock needs; an EventStore opened with `buildLocksTable` provides them. */
export type BuildLockStore = Pick<EventStore, 'prepareRead' | 'readWithRetry' | 'writeTables'>;

/**
 * The `build_locks` side table (declared in build-tables.ts). Reads and writes go through the store,
 * which retries a busy database within its bound and reports a locked, full or unwritable one as
 * STORE_UNAVAILABLE rather than an internal error.
 */
export class BuildLock {
  /** `host` is this machine (DROIDWRIGHT_HOST or the OS name); a test plays another machine by passing one. */
  constructor(
    private readonly store: BuildLockStore,
    private readonly host: string = thisHost(),
  ) {}

  private row(sql: string, ...params: unknown[]): LockRow | undefined {
    return this.store.readWithRetry(() => this.store.prepareRead(sql).get(this.host, ...params) as LockRow | undefined);
  }

  /** `isAlive` is injectable so a test can play a dead holder without killing anything. */
  acquire(
    projectRoot: string,
    buildId: string,
    holder: ProcessIdentity = currentProcess(),
    isAlive: (holder: ProcessIdentity) => boolean = holderAlive,
  ): AcquireResult {
    const sql = 'SELECT * FROM build_locks WHERE host = ? AND project_root = ?';
    // A live holder is seen with a read: no write transaction (and no writer lock) for a refusal.
    const current = this.row(sql, projectRoot);
    if (current && isAlive(toHolder(current))) return { acquired: false, holder: toHolder(current) };
    return this.store.writeTables((tables): AcquireResult => {
      // A row from before hosts were recorded (host '') was written on this machine: only a single-machine
      // SQLite log predates them. It becomes this host's, unless this host already has its own row.
      tables.run(
        `UPDATE build_locks SET host = ? WHERE host = '' AND project_root = ?
           AND NOT EXISTS (SELECT 1 FROM build_locks AS mine WHERE mine.host = ? AND mine.project_root = ?)`,
        this.host,
        projectRoot,
        this.host,
        projectRoot,
      );
      const row = tables.get<LockRow>(sql, this.host, projectRoot);
      if (row && isAlive(toHolder(row))) return { acquired: false, holder: toHolder(row) };
      tables.run(
        `INSERT INTO build_locks (host, project_root, build_id, pid, pid_start, started_at, gradle_pgid, gradle_start)
         VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)
         ON CONFLICT (host, project_root) DO UPDATE SET build_id = excluded.build_id, pid = excluded.pid,
           pid_start = excluded.pid_start, started_at = excluded.started_at, gradle_pgid = NULL, gradle_start = NULL`,
        this.host,
        projectRoot,
        buildId,
        holder.pid,
        holder.startTime,
        Date.now(),
      );
      return { acquired: true, staleHolder: row ? toHolder(row) : null };
    });
  }

  /** Passes the lock of `buildId` from one process to another; false when `from` no longer holds it (it was reaped). */
  handOver(buildId: string, from: ProcessIdentity, to: ProcessIdentity): boolean {
    const result = this.store.writeTables((tables) =>
      tables.run(
        'UPDATE build_locks SET pid = ?, pid_start = ? WHERE host = ? AND build_id = ? AND pid = ? AND pid_start IS NOT DISTINCT FROM ?',
        to.pid,
        to.startTime,
        this.host,
        buildId,
        from.pid,
        from.startTime,
      ),
    );
    return result.changes === 1;
  }

  /** Records Gradle's process group for the holder of `buildId`. */
  setGradle(buildId: string, gradle: ProcessIdentity): void {
    this.store.writeTables((tables) =>
      tables.run(
        'UPDATE build_locks SET gradle_pgid = ?, gradle_start = ? WHERE host = ? AND build_id = ?',
        gradle.pid,
        gradle.startTime,
        this.host,
        buildId,
      ),
    );
  }

  /** Releases only our own lock (a takeover may have replaced it). */
  release(projectRoot: string, buildId: string): void {
    this.store.writeTables((tables) =>
      tables.run(
        'DELETE FROM build_locks WHERE host = ? AND project_root = ? AND build_id = ?',
        this.host,
        projectRoot,
        buildId,
      ),
    );
  }

  holder(projectRoot: string): BuildLockHolder | null {
    const row = this.row('SELECT * FROM build_locks WHERE host = ? AND project_root = ?', projectRoot);
    return row ? toHolder(row) : null;
  }

  holderOf(buildId: string): BuildLockHolder | null {
    const row = this.row('SELECT * FROM build_locks WHERE host = ? AND build_id = ?', buildId);
    return row ? toHolder(row) : null;
  }

  /**
   * Removes the lock of `buildId` if its process is gone. Returns the removed holder to exactly one
   * caller, which then records the orphaned build as ended and stops its Gradle group; null otherwise.
   * Only this host's locks: another machine's pid cannot be judged here.
   */
  reapIfDead(buildId: string, isAlive: (holder: ProcessIdentity) => boolean = holderAlive): BuildLockHolder | null {
    const sql = 'SELECT * FROM build_locks WHERE host = ? AND build_id = ?';
    // Waiters call this every poll: while the holder lives, only read.
    const current = this.row(sql, buildId);
    if (!current || isAlive(toHolder(current))) return null;
    return this.store.writeTables((tables): BuildLockHolder | null => {
      const row = tables.get<LockRow>(sql, this.host, buildId);
      if (!row || isAlive(toHolder(row))) return null;
      tables.run('DELETE FROM build_locks WHERE host = ? AND build_id = ?', this.host, buildId);
      return toHolder(row);
    });
  }
}
