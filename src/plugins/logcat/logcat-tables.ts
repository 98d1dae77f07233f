import type { StoreTable } from '../../events/event-definition.js';

/**
 * One row per device (and host) that has had a logcat worker: who streams it now (pid and start time, as the build lock names
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
    // Keyed by host too: a serial names a device only on the machine whose adb server sees it, and a worker's
    // pid only there. SQLite cannot change a primary key in place, so the table is rebuilt under its name.
    // Rows from before get host '' (only a single-machine SQLite log predates hosts); LogcatLease adopts them,
    // keeping a running worker's lease and where its stream got to.
    `CREATE TABLE IF NOT EXISTS logcat_workers_by_host (
      host TEXT NOT NULL DEFAULT '',
      device_serial TEXT NOT NULL,
      pid INTEGER NOT NULL,
      pid_start TEXT,
      state TEXT NOT NULL,
      actor TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      touched_at INTEGER NOT NULL,
      took_over INTEGER,
      stop_actor TEXT,
      last_line_at INTEGER,
      resume_ms INTEGER,
      PRIMARY KEY (host, device_serial)
    )`,
    `INSERT INTO logcat_workers_by_host (host, device_serial, pid, pid_start, state, actor, started_at, touched_at, took_over, stop_actor, last_line_at, resume_ms)
     SELECT '', device_serial, pid, pid_start, state, actor, started_at, touched_at, took_over, stop_actor, last_line_at, resume_ms FROM logcat_workers`,
    'DROP TABLE logcat_workers',
    'ALTER TABLE logcat_workers_by_host RENAME TO logcat_workers',
  ],
};

export const logcatTables: readonly StoreTable[] = [logcatWorkersTable];
