import type { StoreTable } from '../../events/event-definition.js';

/**
 * One row per project and host with a running build: who holds it (pid and start time), and Gradle's
 * process group once started. Coordination state, not history; see BuildLock. The first step and the three
 * columns are how droidwright built this table before the store owned side tables, so a log from then
 * opens unchanged (the steps find the table and its columns there, and are only recorded).
 */
export const buildLocksTable: StoreTable = {
  owner: 'build',
  name: 'build_locks',
  migrations: [
    'CREATE TABLE IF NOT EXISTS build_locks (project_root TEXT PRIMARY KEY, build_id TEXT NOT NULL, pid INTEGER NOT NULL, started_at INTEGER NOT NULL)',
    // Holder identities: a NULL start time means "pid only".
    { addColumn: 'pid_start', type: 'TEXT' },
    { addColumn: 'gradle_pgid', type: 'INTEGER' },
    { addColumn: 'gradle_start', type: 'TEXT' },
    // A host per row, in the key: two checkouts at one path on two machines sharing a log are two projects,
    // and a pid is only meaningful on its own host. The key cannot change in place (SQLite cannot alter a
    // primary key), so the table is rebuilt under its name with plain SQL both stores run. Rows from before
    // get host '' ("this machine": only a single-machine SQLite log predates hosts); BuildLock adopts them.
    `CREATE TABLE IF NOT EXISTS build_locks_by_host (host TEXT NOT NULL DEFAULT '', project_root TEXT NOT NULL, build_id TEXT NOT NULL, pid INTEGER NOT NULL, pid_start TEXT, started_at INTEGER NOT NULL, gradle_pgid INTEGER, gradle_start TEXT, PRIMARY KEY (host, project_root))`,
    `INSERT INTO build_locks_by_host (host, project_root, build_id, pid, pid_start, started_at, gradle_pgid, gradle_start)
     SELECT '', project_root, build_id, pid, pid_start, started_at, gradle_pgid, gradle_start FROM build_locks`,
    'DROP TABLE build_locks',
    'ALTER TABLE build_locks_by_host RENAME TO build_locks',
  ],
};

/** The task a running build is on now, published by its worker for progress messages; gone when it ends. */
export const buildLiveTable: StoreTable = {
  owner: 'build',
  name: 'build_live',
  migrations: [
    'CREATE TABLE IF NOT EXISTS build_live (build_id TEXT PRIMARY KEY, current_task TEXT, updated_at INTEGER NOT NULL)',
  ],
};

export const buildTables: readonly StoreTable[] = [buildLocksTable, buildLiveTable];
