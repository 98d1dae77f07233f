import type { EventStore } from '../../../events/event-store.js';
import { currentProcess, isProcessAlive, type ProcessIdentity } from '../../../kernel/process-identity.js';

/*
 * One build per project across every droidwright process. The lock is a row in the shared SQLite
 * file, taken inside BEGIN IMMEDIATE, so two processes can never both see the project free. The row
 * names the process that owns the build (the `droidwright mcp` that asked, then the build worker it
 * hands the build to) by pid AND start time, so a pid the kernel reused for another program does not
 * keep the project locked. It also names Gradle's process group once the worker started it, so
 * whoever reaps a dead worker can stop the Gradle it left behind. A row whose process is gone is taken
 * over (its build is reported back so the caller can record it).
 * This table is coordination state, not history: a side table the build plugin declares to the store
 * (build-tables.ts), not a projection, never replayed.
 */

export interface BuildLockHolder extends ProcessIdentity {
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
  constructor(private readonly store: BuildLockStore) {}

  private row(sql: string, key: string): LockRow | undefined {
    return this.store.readWithRetry(() => this.store.prepareRead(sql).get(key) as LockRow | undefined);
  }

  /** `isAlive` is injectable so a test can play a dead holder without killing anything. */
  acquire(
    projectRoot: string,
    buildId: string,
    holder: ProcessIdentity = currentProcess(),
    isAlive: (holder: ProcessIdentity) => boolean = holderAlive,
  ): AcquireResult {
    // A live holder is seen with a read: no write transaction (and no writer lock) for a refusal.
    const current = this.row('SELECT * FROM build_locks WHERE project_root = ?', projectRoot);
    if (current && isAlive(toHolder(current))) return { acquired: false, holder: toHolder(current) };
    return this.store.writeTables((tables): AcquireResult => {
      const row = tables.get<LockRow>('SELECT * FROM build_locks WHERE project_root = ?', projectRoot);
      if (row && isAlive(toHolder(row))) return { acquired: false, holder: toHolder(row) };
      tables.run(
        'INSERT OR REPLACE INTO build_locks (project_root, build_id, pid, pid_start, started_at, gradle_pgid, gradle_start) VALUES (?, ?, ?, ?, ?, NULL, NULL)',
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
        'UPDATE build_locks SET pid = ?, pid_start = ? WHERE build_id = ? AND pid = ? AND pid_start IS ?',
        to.pid,
        to.startTime,
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
        'UPDATE build_locks SET gradle_pgid = ?, gradle_start = ? WHERE build_id = ?',
        gradle.pid,
        gradle.startTime,
        buildId,
      ),
    );
  }

  /** Releases only our own lock (a takeover may have replaced it). */
  release(projectRoot: string, buildId: string): void {
    this.store.writeTables((tables) =>
      tables.run('DELETE FROM build_locks WHERE project_root = ? AND build_id = ?', projectRoot, buildId),
    );
  }

  holder(projectRoot: string): BuildLockHolder | null {
    const row = this.row('SELECT * FROM build_locks WHERE project_root = ?', projectRoot);
    return row ? toHolder(row) : null;
  }

  holderOf(buildId: string): BuildLockHolder | null {
    const row = this.row('SELECT * FROM build_locks WHERE build_id = ?', buildId);
    return row ? toHolder(row) : null;
  }

  /**
   * Removes the lock of `buildId` if its process is gone. Returns the removed holder to exactly one
   * caller, which then records the orphaned build as ended and stops its Gradle group; null otherwise.
   */
  reapIfDead(buildId: string, isAlive: (holder: ProcessIdentity) => boolean = holderAlive): BuildLockHolder | null {
    // Waiters call this every poll: while the holder lives, only read.
    const current = this.row('SELECT * FROM build_locks WHERE build_id = ?', buildId);
    if (!current || isAlive(toHolder(current))) return null;
    return this.store.writeTables((tables): BuildLockHolder | null => {
      const row = tables.get<LockRow>('SELECT * FROM build_locks WHERE build_id = ?', buildId);
      if (!row || isAlive(toHolder(row))) return null;
      tables.run('DELETE FROM build_locks WHERE build_id = ?', buildId);
      return toHolder(row);
    });
  }
}
