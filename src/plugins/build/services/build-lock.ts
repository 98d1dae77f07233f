import type Database from 'better-sqlite3';

/*
 * One build per project across every droidwright process. The lock is a row in the shared SQLite
 * file, taken inside BEGIN IMMEDIATE, so two processes can never both see the project free. A row
 * whose process is gone is taken over (its build is reported back so the caller can record it).
 * This table is coordination state, not history: it is not a projection and is never replayed.
 */

export interface BuildLockHolder {
  readonly projectRoot: string;
  readonly buildId: string;
  readonly pid: number;
  readonly startedAt: number;
}

export type AcquireResult =
  | { readonly acquired: true; readonly staleHolder: BuildLockHolder | null }
  | { readonly acquired: false; readonly holder: BuildLockHolder };

interface LockRow {
  project_root: string;
  build_id: string;
  pid: number;
  started_at: number;
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function toHolder(row: LockRow): BuildLockHolder {
  return { projectRoot: row.project_root, buildId: row.build_id, pid: row.pid, startedAt: row.started_at };
}

export class BuildLock {
  private readonly db: Database.Database;

  constructor(db: Database.Database) {
    this.db = db;
    db.exec('CREATE TABLE IF NOT EXISTS build_locks (project_root TEXT PRIMARY KEY, build_id TEXT NOT NULL, pid INTEGER NOT NULL, started_at INTEGER NOT NULL)');
  }

  /** `isAlive` is injectable so a test can play a dead holder without killing anything. */
  acquire(projectRoot: string, buildId: string, pid: number = process.pid, isAlive: (pid: number) => boolean = isProcessAlive): AcquireResult {
    const tx = this.db.transaction((): AcquireResult => {
      const row = this.db.prepare('SELECT * FROM build_locks WHERE project_root = ?').get(projectRoot) as LockRow | undefined;
      if (row && isAlive(row.pid)) return { acquired: false, holder: toHolder(row) };
      this.db
        .prepare('INSERT OR REPLACE INTO build_locks (project_root, build_id, pid, started_at) VALUES (?, ?, ?, ?)')
        .run(projectRoot, buildId, pid, Date.now());
      return { acquired: true, staleHolder: row ? toHolder(row) : null };
    });
    return tx.immediate();
  }

  /** Releases only our own lock (a takeover may have replaced it). */
  release(projectRoot: string, buildId: string): void {
    this.db.prepare('DELETE FROM build_locks WHERE project_root = ? AND build_id = ?').run(projectRoot, buildId);
  }

  holder(projectRoot: string): BuildLockHolder | null {
    const row = this.db.prepare('SELECT * FROM build_locks WHERE project_root = ?').get(projectRoot) as LockRow | undefined;
    return row ? toHolder(row) : null;
  }

  /**
   * Removes the lock of `buildId` if its process is gone. Returns true for exactly one caller, which
   * then records the orphaned build as ended.
   */
  reapIfDead(buildId: string, isAlive: (pid: number) => boolean = isProcessAlive): boolean {
    const tx = this.db.transaction((): boolean => {
      const row = this.db.prepare('SELECT * FROM build_locks WHERE build_id = ?').get(buildId) as LockRow | undefined;
      if (!row || isAlive(row.pid)) return false;
      this.db.prepare('DELETE FROM build_locks WHERE build_id = ?').run(buildId);
      return true;
    });
    return tx.immediate();
  }
}
