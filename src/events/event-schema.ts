import type Database from 'better-sqlite3';

/** prev_hash of seq 1. */
export const GENESIS_HASH = '0'.repeat(64);

/** Tables the store owns; a projection or side table may not declare (and so drop or write) any of them. */
export const STORE_TABLES = ['events', 'schema_version', 'projections', 'store_table_steps'] as const;

export const APPEND_ONLY_TRIGGERS = ['events_refuse_update', 'events_refuse_delete'] as const;

export interface Migration {
  readonly version: number;
  readonly description: string;
  up(db: Database.Database): void;
}

/**
 * Forward-only schema steps. Never edit a shipped step: append a new one. Each step runs in the
 * same BEGIN IMMEDIATE transaction that records it in schema_version, so two processes opening an
 * old file at once cannot both apply it.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'events log with append-only triggers; projection checkpoints',
    up(db) {
      db.exec(`
        CREATE TABLE events (
          seq           INTEGER PRIMARY KEY,
          id            TEXT    NOT NULL UNIQUE,
          at            INTEGER NOT NULL,
          type          TEXT    NOT NULL,
          v             INTEGER NOT NULL,
          stream        TEXT    NOT NULL,
          actor         TEXT    NOT NULL,
          actor_session TEXT,
          actor_kind    TEXT    NOT NULL,
          device        TEXT,
          package       TEXT,
          correlation   TEXT,
          data          TEXT    NOT NULL,
          prev_hash     TEXT    NOT NULL,
          hash          TEXT    NOT NULL
        );
        CREATE INDEX events_by_type ON events(type, seq);
        CREATE INDEX events_by_at ON events(at);
        CREATE INDEX events_by_stream ON events(stream, seq);
        CREATE INDEX events_by_actor_kind ON events(actor_kind, seq);
        CREATE INDEX events_by_actor_session ON events(actor_session, seq) WHERE actor_session IS NOT NULL;
        CREATE INDEX events_by_device ON events(device, seq) WHERE device IS NOT NULL;
        CREATE INDEX events_by_package ON events(package, seq) WHERE package IS NOT NULL;
        CREATE INDEX events_by_correlation ON events(correlation, seq) WHERE correlation IS NOT NULL;

        CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
        CREATE TRIGGER events_refuse_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

        CREATE TABLE projections (
          name       TEXT    PRIMARY KEY,
          version    INTEGER NOT NULL,
          last_seq   INTEGER NOT NULL,
          rebuilt_at INTEGER NOT NULL
        );
      `);
    },
  },
  {
    version: 2,
    description: 'side-table steps applied, so each plugin table migration runs once per database',
    up(db) {
      db.exec(`
        CREATE TABLE store_table_steps (
          table_name TEXT    NOT NULL,
          step       INTEGER NOT NULL,
          owner      TEXT    NOT NULL,
          applied_at INTEGER NOT NULL,
          PRIMARY KEY (table_name, step)
        );
      `);
    },
  },
];

/**
 * The oldest schema a read-only open accepts: later steps add only what writers use (side-table
 * bookkeeping), so an auditor's copy of an older log still verifies without being migrated.
 */
export const OLDEST_READABLE_SCHEMA_VERSION = 1;

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
