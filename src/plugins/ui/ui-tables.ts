import type { StoreTable } from '../../events/event-definition.js';

/**
 * One row per device (and host) whose screen a droidwright process is capturing now: the holder by pid and start time
 * (a reused pid is not the holder) and a token naming the capture, so only that capture releases it.
 * UI Automator serves one client at a time on a device, so two processes dumping at once would make one
 * fail with "already registered" or read a half-built hierarchy; the row makes them take turns.
 * Coordination state, not history: a side table, never replayed.
 */
export const uiCaptureLocksTable: StoreTable = {
  owner: 'ui',
  name: 'ui_capture_locks',
  migrations: [
    'CREATE TABLE IF NOT EXISTS ui_capture_locks (device_serial TEXT PRIMARY KEY, token TEXT NOT NULL, pid INTEGER NOT NULL, pid_start TEXT, started_at INTEGER NOT NULL)',
    // Keyed by host too: a serial names a device only on the machine whose adb server sees it (emulator-5554
    // on two laptops sharing a log is two phones). SQLite cannot change a primary key in place, so the table
    // is rebuilt under its name; a row from before is a capture of seconds, so it is not carried over.
    'CREATE TABLE IF NOT EXISTS ui_capture_locks_by_host (host TEXT NOT NULL, device_serial TEXT NOT NULL, token TEXT NOT NULL, pid INTEGER NOT NULL, pid_start TEXT, started_at INTEGER NOT NULL, PRIMARY KEY (host, device_serial))',
    'DROP TABLE ui_capture_locks',
    'ALTER TABLE ui_capture_locks_by_host RENAME TO ui_capture_locks',
  ],
};

export const uiTables: readonly StoreTable[] = [uiCaptureLocksTable];
