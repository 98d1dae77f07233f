/**
 * The PostgreSQL store's own tables: the same names, columns and schema versions as SQLite's
 * (event-schema.ts), so `stats().schemaVersion`, `events migrate` and a reader of either database see
 * one layout. Native PostgreSQL DDL: this is the store's SQL, not projection SQL to translate.
 */

/**
 * The advisory lock every write transaction takes first (append, import, rebuild, migrations, table
 * steps, writeTables): PostgreSQL's stand-in for SQLite's BEGIN IMMEDIATE, so seq stays gapless and each
 * prev_hash is the previous row's hash however many machines append. The bytes of "droidwri".
 */
export const CHAIN_LOCK_KEY = '7237970049585607273';

/** The channel each append transaction notifies (payload: the last seq inserted); watchCommits LISTENs on it. */
export const EVENTS_CHANNEL = 'droidwright_events';

/** Triggers that keep `events` append-only; verify treats a missing or disabled one as tampering. */
export const PG_APPEND_ONLY_TRIGGERS = [
  'events_refuse_update',
  'events_refuse_delete',
  'events_refuse_truncate',
] as const;

export interface PgMigration {
  readonly version: number;
  readonly description: string;
  /** Statements run in order inside the migration's transaction. */
  readonly statements: readonly string[];
}

/** Forward-only, like SQLite's MIGRATIONS: never edit a shipped step, append one; versions match SQLite's. */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'events log with append-only triggers and commit notifications; projection checkpoints',
    statements: [
      // TEXT for actor and data, never jsonb: jsonb reorders keys and drops duplicates, and the hash
      // covers the canonical text exactly as stored.
      `CREATE TABLE events (
        seq           BIGINT PRIMARY KEY,
        id            TEXT   NOT NULL UNIQUE,
        at            BIGINT NOT NULL,
        type          TEXT   NOT NULL,
        v             BIGINT NOT NULL,
        stream        TEXT   NOT NULL,
        actor         TEXT   NOT NULL,
        actor_session TEXT,
        actor_kind    TEXT   NOT NULL,
        device        TEXT,
        package       TEXT,
        correlation   TEXT,
        data          TEXT   NOT NULL,
        prev_hash     TEXT   NOT NULL,
        hash          TEXT   NOT NULL
      )`,
      'CREATE INDEX events_by_type ON events(type, seq)',
      'CREATE INDEX events_by_at ON events(at)',
      'CREATE INDEX events_by_stream ON events(stream, seq)',
      'CREATE INDEX events_by_actor_kind ON events(actor_kind, seq)',
      'CREATE INDEX events_by_actor_session ON events(actor_session, seq) WHERE actor_session IS NOT NULL',
      'CREATE INDEX events_by_device ON events(device, seq) WHERE device IS NOT NULL',
      'CREATE INDEX events_by_package ON events(package, seq) WHERE package IS NOT NULL',
      'CREATE INDEX events_by_correlation ON events(correlation, seq) WHERE correlation IS NOT NULL',
      `CREATE OR REPLACE FUNCTION droidwright_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         RAISE EXCEPTION 'events are append-only' USING ERRCODE = 'insufficient_privilege';
       END $$`,
      // Statement-level, so even an UPDATE or DELETE matching no row is refused, and TRUNCATE too.
      'CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events FOR EACH STATEMENT EXECUTE FUNCTION droidwright_events_append_only()',
      'CREATE TRIGGER events_refuse_delete BEFORE DELETE ON events FOR EACH STATEMENT EXECUTE FUNCTION droidwright_events_append_only()',
      'CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION droidwright_events_append_only()',
      // NOTIFY from a trigger, so every insert (append, import, a hand-run one) wakes the tails of every
      // machine, delivered only when the transaction commits.
      `CREATE OR REPLACE FUNCTION droidwright_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM pg_notify('${EVENTS_CHANNEL}', (SELECT max(seq) FROM inserted)::text);
         RETURN NULL;
       END $$`,
      'CREATE TRIGGER events_notify AFTER INSERT ON events REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION droidwright_events_notify()',
      `CREATE TABLE projections (
        name       TEXT   PRIMARY KEY,
        version    BIGINT NOT NULL,
        last_seq   BIGINT NOT NULL,
        rebuilt_at BIGINT NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    description: 'side-table steps applied, so each plugin table migration runs once per database',
    statements: [
      `CREATE TABLE store_table_steps (
        table_name TEXT   NOT NULL,
        step       BIGINT NOT NULL,
        owner      TEXT   NOT NULL,
        applied_at BIGINT NOT NULL,
        PRIMARY KEY (table_name, step)
      )`,
    ],
  },
];

export const PG_LATEST_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;
