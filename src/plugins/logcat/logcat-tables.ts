import type { StoreTable } from '../../events/event-definition.js';

/**
 * One row per device that has had a logcat worker: who streams it now (pid and start time, as the build lock names
 * its holder), who asked, when a reader last used the log (the idle clock), a stop request from any process, and
 * where the stream got to (the device time of the last stored line, so a new worker resumes without duplicates).
 * Coordination state, not history; see LogcatLease.
 */
export const logcatWorkersTable: StoreTable = {
  owner: 'logcat',
  name: 'logcat_workers',
  migrations: [
    `CREATE TABLE IF NOT EXISTS logcat_workers (
      device_serial TEXT PRIMARY KEY,
      pid INTEGER NOT NULL,
      pid_start TEXT,
      state TEXT NOT NULL,
      actor TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      touched_at INTEGER NOT NULL,
      took_over INTEGER,
      stop_actor TEXT,
      last_line_at INTEGER,
      resume_ms INTEGER
    )`,
  ],
};

export const logcatTables: readonly StoreTable[] = [logcatWorkersTable];
