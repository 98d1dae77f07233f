import type { StoreTable } from '../../events/event-definition.js';

/**
 * One row per device whose screen a droidwright process is capturing now: the holder by pid and start time
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
  ],
};

export const uiTables: readonly StoreTable[] = [uiCaptureLocksTable];
