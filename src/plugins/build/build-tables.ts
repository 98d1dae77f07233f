import type { StoreTable } from '../../events/event-definition.js';

/**
 * One row per project with a running build: who holds it (pid and start time), and Gradle's process
 * group once started. Coordination state, not history; see BuildLock. The first step and the three
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
