import type { Actor } from '../../shared/actor.js';
import { AppendedListeners } from '../appended-listeners.js';
import { type EventCatalog, EventValidationError } from '../event-catalog.js';
import type {
  EventDefinition,
  EventMeta,
  NewEvent,
  Projection,
  ReadonlyData,
  StoreTable,
  StoredEvent,
} from '../event-definition.js';
import {
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_MAX_DATA_BYTES,
  DEFAULT_READ_AFTER_LIMIT,
  type PreparedEvent,
  ProjectionError,
  REPLAY_PAGE,
  chainEvents,
  chooseProjections,
  clampLimit,
  eventFilterSql,
  handlesType,
  prepareEvent,
  reportListenerError,
  validateTables,
} from '../event-preparation.js';
import { EventQueryError } from '../event-query-error.js';
import { GENESIS_HASH, OLDEST_READABLE_SCHEMA_VERSION } from '../event-schema.js';
import type {
  Digest,
  EventFilter,
  EventStore,
  EventStoreOptions,
  EventStoreStats,
  SideTableWriter,
} from '../event-store.js';
import {
  type ChainAnchor,
  ChainWalker,
  type EventRow,
  type ProjectionCheckpoint,
  type VerifyResult,
  checkVerbatimChain,
  rowToEvent,
  verifyProjectionsFrom,
} from '../event-verifier.js';
import { isGlob } from '../glob.js';
import type { SqlConnection, SqlStatement } from '../sql-connection.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { PgQueryError, type PgSession, PgSyncClient } from './pg-sync-client.js';
import { bindParameters, createPgSqlConnection } from './pg-sql-connection.js';
import { translateToPostgres } from './postgres-dialect.js';
import { redactLocation } from './postgres-location.js';
import {
  CHAIN_LOCK_KEY,
  EVENTS_CHANNEL,
  PG_APPEND_ONLY_TRIGGERS,
  PG_LATEST_SCHEMA_VERSION,
  PG_MIGRATIONS,
} from './postgres-schema.js';

/** How often watchCommits tries to LISTEN again while the server is unreachable. */
const WATCH_RETRY_MS = 1000;
/** Rows read per page by verify and replays: bounded memory whatever the log's size. */
const VERIFY_PAGE = 2000;
/** Rows per INSERT of an import or batch: one round trip each, bounded by bytes too (data may be 256 KiB). */
const INSERT_ROWS = 1000;
const INSERT_BYTES = 8 * 1024 * 1024;
/** Prepared read statements kept per store; the SQL texts are the code's own, so few. */
const MAX_CACHED_STATEMENTS = 256;
/** appendAsync: how long one attempt waits for the chain lock, and the pause between attempts. */
const ASYNC_ATTEMPT_LOCK_MS = 20;
const ASYNC_PAUSE_MS = 50;
/** Statements a read-only handle may start with; anything else is refused before it reaches the server. */
const READ_STATEMENT = /^\s*(\(\s*)*(SELECT|WITH|VALUES|TABLE|EXPLAIN|SHOW)\b/i;
/** lock_not_available: lock_timeout ran out while waiting for the chain lock. */
const LOCK_TIMEOUT = '55P03';
const READ_ONLY_TRANSACTION = '25006';

const INSERT_EVENTS = `INSERT INTO events (seq, id, at, type, v, stream, actor, actor_session, actor_kind, device, package, correlation, data, prev_hash, hash)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[],
                       $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])`;
const EVENT_COLUMNS = [
  'seq',
  'id',
  'at',
  'type',
  'v',
  'stream',
  'actor',
  'actor_session',
  'actor_kind',
  'device',
  'package',
  'correlation',
  'data',
  'prev_hash',
  'hash',
] as const;

const HEAD_SQL = 'SELECT seq, hash, at FROM events ORDER BY seq DESC LIMIT 1';
/**
 * The head and the projection checkpoints in one row, read with the chain lock in one round trip: what
 * every append needs before it inserts.
 */
const LOCKED_HEAD_SQL = `SELECT h.seq, h.hash, h.at,
    (SELECT coalesce(json_agg(json_build_object('name', name, 'version', version, 'last_seq', last_seq, 'rebuilt_at', rebuilt_at)), '[]')
       FROM projections) AS checkpoints
  FROM (SELECT 1) AS one LEFT JOIN LATERAL (${HEAD_SQL}) AS h ON true`;

/** The last event (seq 0 and the genesis hash for an empty log). */
interface Head {
  seq: number;
  hash: string;
  at: number;
  /** Read under the chain lock with the head (absent when read alone). */
  checkpoints?: Map<string, CheckpointRow>;
}
const EMPTY_HEAD: Head = { seq: 0, hash: GENESIS_HASH, at: 0 };

function toHead(row: Record<string, unknown> | undefined): Head {
  const head =
    row && row.seq !== null ? { seq: row.seq as number, hash: row.hash as string, at: row.at as number } : EMPTY_HEAD;
  if (!Array.isArray(row?.checkpoints)) return head;
  return { ...head, checkpoints: new Map((row.checkpoints as CheckpointRow[]).map((r) => [r.name, r])) };
}

interface CheckpointRow {
  name: string;
  version: number;
  last_seq: number;
  rebuilt_at: number;
}

/**
 * The append-only, hash-chained event log in a PostgreSQL database: the same tables, chain, canonical
 * JSON and behaviour as SqliteEventStore, for a team whose machines share one log. Every write
 * transaction starts with one advisory lock (CHAIN_LOCK_KEY), PostgreSQL's stand-in for SQLite's BEGIN
 * IMMEDIATE, so appends from any number of machines serialize into one gapless chain. Projections and
 * side tables live in the same database and are written in the same transactions. Synchronous like the
 * SQLite store: statements go through PgSyncClient ('writer' for transactions, the read-only 'reader'
 * for reads).
 */
export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  /** The URL without its password: safe to print and record. */
  readonly path: string;
  readonly catalog: EventCatalog;
  readonly readonly: boolean;

  private readonly client: PgSyncClient;
  /** user@host:port/db, what every StoreUnavailableError names. */
  private readonly location: string;
  private readonly projections: readonly Projection[];
  private readonly sideTables: readonly StoreTable[];
  private readonly busyTimeoutMs: number;
  private readonly maxDataBytes: number;
  private readonly listeners: AppendedListeners;
  /** Projections and side-table writers get the writer session, so their writes are in the append's transaction. */
  private readonly writerSql: SqlConnection;
  private readonly readerSql: SqlConnection;
  private readonly readStatements = new Map<string, SqlStatement>();
  /** Side-table SQL texts whose plans were proven to write only declared side tables. */
  private readonly provenSideTableSql = new Set<string>();
  private inTransaction = false;
  private isClosed = false;

  private constructor(client: PgSyncClient, options: EventStoreOptions) {
    this.client = client;
    this.path = redactLocation(options.path);
    this.location = client.location;
    this.catalog = options.catalog;
    this.readonly = options.readonly ?? false;
    this.projections = options.projections ?? [];
    this.sideTables = options.tables ?? [];
    this.busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    this.maxDataBytes = options.maxDataBytes ?? DEFAULT_MAX_DATA_BYTES;
    this.listeners = new AppendedListeners(options.onListenerError ?? reportListenerError);
    this.writerSql = createPgSqlConnection(client, 'writer');
    this.readerSql = createPgSqlConnection(client, 'reader');
  }

  /**
   * Connects, creates or migrates the schema under the chain lock, applies side-table steps and
   * rebuilds new or re-versioned projections (catching up lagging ones), as SqliteEventStore.open does.
   * Environment failures throw StoreUnavailableError naming user@host:port/db and what to check.
   */
  static open(options: EventStoreOptions): PostgresEventStore {
    if (typeof options.catalog?.validate !== 'function') throw new TypeError('EventStore.open needs an EventCatalog.');
    validateTables(options.projections ?? [], options.tables ?? []);
    const client = PgSyncClient.connect(options.path);
    let store: PostgresEventStore | undefined;
    try {
      store = new PostgresEventStore(client, options);
      store.migrate();
      if (!store.readonly) {
        store.applyTableSteps();
        store.syncProjections();
      }
      return store;
    } catch (error) {
      client.close();
      throw pgFailure(error, client.location, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS) ?? error;
    }
  }

  // ---------------------------------------------------------------- schema

  /** What the database holds: the schema version (0 for none), or a refusal of a database that is something else. */
  private schemaVersion(session: PgSession): number {
    const [where] = this.client.query(
      session,
      `SELECT current_schema() AS schema,
              (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')) AS tables,
              (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relname = 'schema_version' AND c.relkind = 'r') AS versioned`,
    ).rows as { schema: string | null; tables: number; versioned: number }[];
    if (where.schema === null) {
      throw new StoreUnavailableError(
        `The PostgreSQL event log ${this.location} has no schema to keep its tables in (search_path names none that exists). Create one (CREATE SCHEMA) or fix the role's search_path.`,
      );
    }
    if (where.versioned === 0) {
      if (where.tables > 0) {
        throw new StoreUnavailableError(
          `${this.location} is a PostgreSQL database but not a droidwright event log (schema "${where.schema}" has other tables and no schema_version). Point --store / DROIDWRIGHT_STORE at an empty database or at one droidwright created.`,
        );
      }
      return 0;
    }
    return this.client.query(session, 'SELECT coalesce(max(version), 0) AS v FROM schema_version').rows[0].v as number;
  }

  /** Brings the schema to PG_LATEST_SCHEMA_VERSION under the chain lock (another machine may be migrating too). */
  private migrate(): void {
    const found = this.schemaVersion('reader');
    const newer = (version: number) =>
      new StoreUnavailableError(
        `The event log ${this.location} was written by a newer droidwright (schema ${version}, this one knows ${PG_LATEST_SCHEMA_VERSION}). Upgrade droidwright; this version cannot safely append to it.`,
      );
    if (found > PG_LATEST_SCHEMA_VERSION) throw newer(found);
    if (this.readonly) {
      if (found === 0) {
        throw new StoreUnavailableError(
          `${this.location} is an empty database, not a droidwright event log. Check the URL.`,
        );
      }
      if (found < OLDEST_READABLE_SCHEMA_VERSION) {
        throw new StoreUnavailableError(
          `The event log ${this.location} has schema version ${found}; this droidwright needs ${OLDEST_READABLE_SCHEMA_VERSION} and cannot migrate a read-only log. Open it once read-write (any droidwright command).`,
        );
      }
      return;
    }
    if (found === PG_LATEST_SCHEMA_VERSION) return;
    this.writeTransaction(
      this.busyTimeoutMs,
      () => {
        // Re-read under the lock: another process may have migrated since the check above.
        const current = this.schemaVersion('writer');
        if (current > PG_LATEST_SCHEMA_VERSION) throw newer(current);
        if (current === 0) {
          this.client.query(
            'writer',
            'CREATE TABLE schema_version (version BIGINT PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)',
          );
        }
        for (const migration of PG_MIGRATIONS) {
          if (migration.version <= current) continue;
          for (const statement of migration.statements) this.client.query('writer', statement);
          this.client.query(
            'writer',
            'INSERT INTO schema_version (version, description, applied_at) VALUES ($1, $2, $3)',
            [migration.version, migration.description, Date.now()],
          );
        }
      },
      { readHead: false },
    );
  }

  /** At open: applies every declared side-table step this database has not recorded, under the chain lock. */
  private applyTableSteps(): void {
    if (this.sideTables.length === 0) return;
    const recorded = (session: PgSession): Set<string> =>
      new Set(
        (
          this.client.query(session, 'SELECT table_name, step FROM store_table_steps').rows as {
            table_name: string;
            step: number;
          }[]
        ).map((r) => `${r.table_name.toLowerCase()}#${r.step}`),
      );
    const pending = (done: Set<string>) =>
      this.sideTables.some((t) => t.migrations.some((_, i) => !done.has(`${t.name.toLowerCase()}#${i + 1}`)));
    // The usual open finds everything applied with a read, and takes no lock.
    if (!pending(recorded('reader'))) return;
    this.writeTransaction(this.busyTimeoutMs, () => {
      const done = recorded('writer');
      for (const table of this.sideTables) {
        table.migrations.forEach((step, i) => {
          if (done.has(`${table.name.toLowerCase()}#${i + 1}`)) return;
          if (typeof step === 'string') {
            this.writerSql.exec(step);
          } else {
            // A table made before its steps were recorded may already have the column. Names are plain
            // identifiers (validateTables), unquoted so PostgreSQL folds them as the DDL that made them.
            const has = this.client.query(
              'writer',
              `SELECT 1 FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = lower($1) AND column_name = lower($2)`,
              [table.name, step.addColumn],
            ).rows.length;
            if (!has) {
              this.writerSql.exec(`ALTER TABLE ${table.name} ADD COLUMN ${step.addColumn} ${step.type}`);
            }
          }
          this.client.query(
            'writer',
            'INSERT INTO store_table_steps (table_name, step, owner, applied_at) VALUES ($1, $2, $3, $4)',
            [table.name, i + 1, table.owner, Date.now()],
          );
        });
      }
    });
  }

  // ---------------------------------------------------------------- writing

  append<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
  ): StoredEvent<D> {
    return this.appendMany([{ ...meta, type: definition.type, data }])[0] as StoredEvent<D>;
  }

  appendMany(events: readonly (NewEvent & { actor: Actor })[]): StoredEvent[] {
    this.assertWritable();
    if (!Array.isArray(events)) throw new EventValidationError('appendMany expects an array of events.');
    if (events.length === 0) return [];
    if (this.inTransaction) {
      throw new Error(
        'EventStore.append was called inside an open transaction (for example from a projection). Projections must not append; append after the current append returns.',
      );
    }
    // Validated and serialized before the lock is taken, so the lock is held only for the SQL.
    const prepared = events.map((e) => prepareEvent(this.catalog, this.maxDataBytes, e));
    let stored: StoredEvent[];
    try {
      stored = this.writeTransaction(this.busyTimeoutMs, (head) => this.commit(prepared, head));
    } catch (error) {
      throw this.failure(error) ?? error;
    }
    this.listeners.deliver(stored);
    return stored;
  }

  /**
   * append() for a caller that must not stall its process while another writer holds the chain lock:
   * each attempt waits for the lock only briefly (lock_timeout), and the pauses between attempts are
   * timers, not a blocked event loop. Gives up after `maxWaitMs` (default: the store's busy timeout)
   * with STORE_UNAVAILABLE stating how long it actually waited.
   */
  async appendAsync<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
    options: { maxWaitMs?: number } = {},
  ): Promise<StoredEvent<D>> {
    this.assertWritable();
    if (this.inTransaction) {
      throw new Error(
        'EventStore.appendAsync was called inside an open transaction (for example from a projection). Projections must not append.',
      );
    }
    const prepared = [prepareEvent(this.catalog, this.maxDataBytes, { ...meta, type: definition.type, data })];
    const maxWaitMs = Math.max(0, options.maxWaitMs ?? this.busyTimeoutMs);
    const started = Date.now();
    for (;;) {
      this.assertWritable();
      let stored: StoredEvent[];
      try {
        stored = this.writeTransaction(Math.max(1, Math.min(ASYNC_ATTEMPT_LOCK_MS, maxWaitMs)), (head) =>
          this.commit(prepared, head),
        );
      } catch (error) {
        const waited = Date.now() - started;
        if (!isLockTimeout(error) || waited >= maxWaitMs) throw pgFailure(error, this.location, waited) ?? error;
        // Jittered, so writers that collided do not retry in lock step.
        const pause = Math.min(ASYNC_PAUSE_MS * (0.5 + Math.random()), maxWaitMs - waited);
        await new Promise((resolve) => setTimeout(resolve, pause));
        continue;
      }
      this.listeners.deliver(stored);
      return stored[0] as StoredEvent<D>;
    }
  }

  importVerbatim(events: readonly StoredEvent[]): void {
    this.assertWritable();
    if (events.length === 0) return;
    if (this.inTransaction) {
      throw new Error('EventStore.importVerbatim was called inside an open transaction. Import after it returns.');
    }
    try {
      this.writeTransaction(this.busyTimeoutMs, (head) => {
        const rows = checkVerbatimChain(head, events);
        this.catchUpProjections(head.seq, head.checkpoints);
        this.insertRows(rows);
        for (const row of rows) this.project(rowToEvent(row));
        this.advanceCheckpoints(rows[rows.length - 1].seq);
      });
    } catch (error) {
      throw this.failure(error) ?? error;
    }
  }

  /** Runs under the chain lock: nobody else can append between reading the head and inserting. */
  private commit(events: readonly PreparedEvent[], head: Head): StoredEvent[] {
    this.catchUpProjections(head.seq, head.checkpoints);
    const chained = chainEvents(events, head);
    // One INSERT for the batch (a round trip per statement is the cost here); the events_notify
    // trigger NOTIFYs the last seq, delivered to every LISTENer at COMMIT.
    this.insertRows(chained.map((c) => c.row));
    const stored = chained.map((c) => c.event);
    for (const event of stored) this.project(event);
    this.advanceCheckpoints(stored[stored.length - 1]?.seq ?? head.seq);
    return stored;
  }

  private insertRows(rows: readonly EventRow[]): void {
    let start = 0;
    while (start < rows.length) {
      let end = start;
      let bytes = 0;
      while (end < rows.length && end - start < INSERT_ROWS && (end === start || bytes < INSERT_BYTES)) {
        bytes += rows[end].data.length + rows[end].actor.length;
        end++;
      }
      const chunk = rows.slice(start, end);
      this.client.query(
        'writer',
        INSERT_EVENTS,
        EVENT_COLUMNS.map((column) => chunk.map((row) => row[column])),
      );
      start = end;
    }
  }

  private head(session: PgSession): Head {
    return toHead(this.client.query(session, HEAD_SQL).rows[0]);
  }

  private advanceCheckpoints(lastSeq: number): void {
    if (this.projections.length === 0) return;
    this.client.query('writer', 'UPDATE projections SET last_seq = $1 WHERE name = ANY($2::text[])', [
      lastSeq,
      this.projections.map((p) => p.name),
    ]);
  }

  private project(event: StoredEvent, only: readonly Projection[] = this.projections): void {
    for (const p of only) {
      if (!handlesType(p, event.type)) continue;
      try {
        p.apply(this.writerSql, event);
      } catch (error) {
        // A lost server or a full disk is the store's problem, not the projection's.
        if (pgFailure(error, this.location, this.busyTimeoutMs)) throw error;
        throw new ProjectionError(
          `Projection "${p.name}" failed on ${event.type} (seq ${event.seq}): ${error instanceof Error ? error.message : String(error)}. Nothing was written.`,
          p.name,
          error,
        );
      }
    }
  }

  private checkpoints(session: PgSession): Map<string, CheckpointRow> {
    const rows = this.client.query(session, 'SELECT name, version, last_seq, rebuilt_at FROM projections ORDER BY name')
      .rows as unknown as CheckpointRow[];
    return new Map(rows.map((r) => [r.name, r]));
  }

  /**
   * A process that does not load some projection still appends; the next process that does load it
   * replays what it missed before applying new events, so a read model is never silently behind.
   * Must run under the chain lock.
   */
  private catchUpProjections(lastSeq: number, checkpoints?: Map<string, CheckpointRow>): void {
    if (this.projections.length === 0) return;
    const rows = checkpoints ?? this.checkpoints('writer');
    const behind: Projection[] = [];
    for (const p of this.projections) {
      const row = rows.get(p.name);
      if (!row || row.version !== p.version) {
        throw new StoreUnavailableError(
          `Projection "${p.name}" in ${this.location} is at version ${row?.version ?? 'none'}, but this process runs version ${p.version}: another droidwright version rebuilt it. Restart this process so it rebuilds with its own version, and avoid running two droidwright versions at once.`,
        );
      }
      if (row.last_seq < lastSeq) behind.push(p);
    }
    for (const p of behind) {
      this.replay([p], rows.get(p.name)!.last_seq, lastSeq);
      this.client.query('writer', 'UPDATE projections SET last_seq = $1 WHERE name = $2', [lastSeq, p.name]);
    }
  }

  /** Applies events in (afterSeq, toSeq] of the projections' types in seq order; returns rows read. */
  private replay(projections: readonly Projection[], afterSeq: number, toSeq: number): number {
    const patterns = [...new Set(projections.flatMap((p) => p.handles))];
    if (patterns.length === 0) return 0;
    const cond = typeCondition(patterns);
    const sql = numbered(
      `SELECT * FROM events WHERE seq > ? AND seq <= ? AND ${cond.sql} ORDER BY seq ASC LIMIT ${REPLAY_PAGE}`,
    );
    let cursor = afterSeq;
    let count = 0;
    for (;;) {
      const rows = this.client.query('writer', sql, [cursor, toSeq, ...cond.params]).rows as unknown as EventRow[];
      for (const row of rows) this.project(rowToEvent(row), projections);
      count += rows.length;
      if (rows.length < REPLAY_PAGE) return count;
      cursor = rows[rows.length - 1].seq;
    }
  }

  /** Must run under the chain lock. Drops and recreates the tables, replays the log, resets checkpoints. */
  private rebuildInTransaction(projections: readonly Projection[], lastSeq: number): number {
    // One DROP for all of them: tables that reference each other go together, without CASCADE reaching
    // tables outside the set.
    const tables = projections.flatMap((p) => p.tables);
    if (tables.length > 0) this.client.query('writer', `DROP TABLE IF EXISTS ${tables.join(', ')}`);
    for (const p of projections) for (const ddl of p.ddl) this.writerSql.exec(ddl);
    const count = this.replay(projections, 0, lastSeq);
    const now = Date.now();
    for (const p of projections) {
      this.client.query(
        'writer',
        `INSERT INTO projections (name, version, last_seq, rebuilt_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name) DO UPDATE SET version = excluded.version, last_seq = excluded.last_seq, rebuilt_at = excluded.rebuilt_at`,
        [p.name, p.version, lastSeq, now],
      );
    }
    return count;
  }

  /** At open: rebuild new or re-versioned projections and catch up lagging ones, under one lock. */
  private syncProjections(): void {
    if (this.projections.length === 0) return;
    const needsWork = (): boolean => {
      const rows = this.checkpoints('reader');
      const lastSeq = this.head('reader').seq;
      return this.projections.some((p) => {
        const row = rows.get(p.name);
        return !row || row.version !== p.version || row.last_seq < lastSeq;
      });
    };
    if (!needsWork()) return;
    this.writeTransaction(this.busyTimeoutMs, (head) => {
      const rows = this.checkpoints('writer');
      const stale = this.projections.filter((p) => rows.get(p.name)?.version !== p.version);
      if (stale.length > 0) this.rebuildInTransaction(stale, head.seq);
      this.catchUpProjections(head.seq);
    });
  }

  rebuildProjections(names?: readonly string[]): { rebuilt: string[]; events: number } {
    this.assertWritable();
    const chosen = chooseProjections(this.projections, names);
    if (chosen.length === 0) return { rebuilt: [], events: 0 };
    if (this.inTransaction) {
      throw new Error('EventStore.rebuildProjections was called inside an open transaction. Rebuild after it returns.');
    }
    try {
      const events = this.writeTransaction(this.busyTimeoutMs, (head) => this.rebuildInTransaction(chosen, head.seq));
      return { rebuilt: chosen.map((p) => p.name), events };
    } catch (error) {
      throw this.failure(error) ?? error;
    }
  }

  /**
   * BEGIN, the chain lock (waiting at most `lockWaitMs`), `fn`, COMMIT; ROLLBACK on any error, which is
   * rethrown as it came (callers map it). BEGIN, lock_timeout and the lock go in one round trip.
   */
  private writeTransaction<T>(lockWaitMs: number, fn: (head: Head) => T, options: { readHead?: boolean } = {}): T {
    if (this.inTransaction) throw new Error('A write transaction is already open on this event store.');
    this.inTransaction = true;
    try {
      // lock_timeout bounds only the wait for the chain lock: it is reset in the same round trip, so the
      // rest of the transaction (DDL of a rebuild, say) is not cut short by it. The head, read under the
      // lock, rides along too (not while migrating: there may be no events table yet).
      const readHead = options.readHead ?? true;
      const begin = `BEGIN; SET LOCAL lock_timeout = '${Math.max(1, Math.round(lockWaitMs))}ms'; SELECT pg_advisory_xact_lock(${CHAIN_LOCK_KEY}); SET LOCAL lock_timeout = 0${readHead ? `; ${LOCKED_HEAD_SQL}` : ''}`;
      let rows: Record<string, unknown>[];
      try {
        rows = this.client.query('writer', begin).rows;
      } catch (error) {
        // A connection that died while idle (a server restart, a dropped NAT entry) fails the first
        // statement sent on it. Nothing was written yet, so BEGIN again once on a fresh connection.
        if (!(error instanceof StoreUnavailableError) || this.client.closed) throw error;
        this.client.query('writer', 'ROLLBACK');
        rows = this.client.query('writer', begin).rows;
      }
      const result = fn(readHead ? toHead(rows[0]) : EMPTY_HEAD);
      if (result instanceof Promise) {
        throw new TypeError('The function given to EventStore.writeTables must be synchronous.');
      }
      this.client.query('writer', 'COMMIT');
      return result;
    } catch (error) {
      try {
        this.client.query('writer', 'ROLLBACK');
      } catch {
        // The server is gone: it rolled the transaction back itself. The original error is the one to report.
      }
      throw error;
    } finally {
      this.inTransaction = false;
    }
  }

  // ---------------------------------------------------------------- side tables

  /**
   * A statement that cannot write, for read models and side tables, on the read-only reader session.
   * Prepared once per SQL text. A statement that writes is refused: by its first keyword here, and by
   * the session itself (default_transaction_read_only) whatever its text hides.
   */
  prepareRead(sql: string): SqlStatement {
    this.assertOpen();
    let statement = this.readStatements.get(sql);
    if (statement) return statement;
    const refuse = () =>
      new TypeError(`EventStore.prepareRead takes statements that only read; this one writes: ${sql}`);
    if (typeof sql !== 'string' || !READ_STATEMENT.test(sql)) throw refuse();
    const inner = this.readerSql.prepare(sql);
    const guarded = <R>(run: () => R): R => {
      try {
        return run();
      } catch (error) {
        if (error instanceof PgQueryError && error.code === READ_ONLY_TRANSACTION) throw refuse();
        throw pgFailure(error, this.location, this.busyTimeoutMs) ?? error;
      }
    };
    statement = {
      run: (...params) => guarded(() => inner.run(...params)),
      get: (...params) => guarded(() => inner.get(...params)),
      all: (...params) => guarded(() => inner.all(...params)),
    };
    if (this.readStatements.size >= MAX_CACHED_STATEMENTS) this.readStatements.clear();
    this.readStatements.set(sql, statement);
    return statement;
  }

  /**
   * Runs reads, retrying once after a dropped connection (the next statement reconnects: a server
   * restart costs one retry, not a failure); an unreachable server becomes StoreUnavailableError.
   */
  readWithRetry<T>(fn: () => T): T {
    this.assertOpen();
    return this.read(fn);
  }

  /**
   * One transaction under the chain lock on a handle that may write only the side tables declared at
   * open (it may read anything). All of `fn`'s writes commit or none does; `fn` must be synchronous.
   */
  writeTables<T>(fn: (tables: SideTableWriter) => T): T {
    this.assertWritable();
    if (this.inTransaction) {
      throw new Error(
        'EventStore.writeTables was called inside an open transaction (a projection or another writeTables). Write side tables after it returns.',
      );
    }
    try {
      return this.writeTransaction(this.busyTimeoutMs, () => {
        let open = true;
        const statement = (sql: string, params: unknown[]): SqlStatement => {
          if (!open) throw new Error('This side-table handle was used after its writeTables call returned.');
          this.proveWritesOnlySideTables(sql, params);
          return this.writerSql.prepare(sql);
        };
        const handle: SideTableWriter = {
          run: (sql, ...params) => statement(sql, params).run(...params),
          get: <R>(sql: string, ...params: unknown[]) => statement(sql, params).get(...params) as R | undefined,
          all: <R>(sql: string, ...params: unknown[]) => statement(sql, params).all(...params) as R[],
        };
        try {
          return fn(handle);
        } finally {
          open = false;
        }
      });
    } catch (error) {
      throw this.failure(error) ?? error;
    }
  }

  /**
   * Proves from PostgreSQL's own plan of the statement that every table it modifies is a declared side
   * table in this store's schema (not a same-named table in another schema): EXPLAIN (which plans without executing) lists a ModifyTable node per
   * target, data-modifying CTEs included. Utility statements (DDL, TRUNCATE, LOCK, SET) cannot be
   * EXPLAINed and are refused. What a plan cannot show is a function that writes from inside a SELECT;
   * the store defines none besides its triggers, and the events table refuses changes by trigger anyway.
   * Proven once per SQL text: the targets of a statement do not depend on its parameters.
   */
  private proveWritesOnlySideTables(sql: string, params: unknown[]): void {
    if (this.provenSideTableSql.has(sql)) return;
    const declared = new Set(this.sideTables.map((t) => t.name.toLowerCase()));
    const refuse = (target: string) =>
      new TypeError(
        `EventStore.writeTables may write only the declared side tables (${[...declared].join(', ') || 'none'}); this statement writes ${target}: ${sql}`,
      );
    let plan: unknown;
    try {
      // The statement as it will run: translated, its parameters bound as the handle will bind them.
      // VERBOSE, because only then does each ModifyTable node name its target's schema.
      const translation = translateToPostgres(sql);
      const row = this.client.query(
        'writer',
        `EXPLAIN (FORMAT JSON, VERBOSE) ${translation.sql}`,
        bindParameters(translation, params),
      ).rows[0];
      plan = Object.values(row ?? {})[0];
      if (typeof plan === 'string') plan = JSON.parse(plan);
    } catch (error) {
      if (error instanceof PgQueryError && error.code === '42601') throw refuse('the schema or an unknown table');
      throw error;
    }
    const schema = this.client.query('writer', 'SELECT current_schema() AS s').rows[0].s as string;
    for (const node of modifyTableNodes(plan)) {
      const name = String(node['Relation Name'] ?? '');
      const where = String(node.Schema ?? '');
      if (where !== schema || !declared.has(name.toLowerCase())) {
        throw refuse(where === schema ? name || 'an unknown table' : `${where}.${name}`);
      }
    }
    if (this.provenSideTableSql.size >= MAX_CACHED_STATEMENTS) this.provenSideTableSql.clear();
    this.provenSideTableSql.add(sql);
  }

  // ---------------------------------------------------------------- listeners

  onAppended(listener: (e: StoredEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  /**
   * LISTEN on the channel every append transaction notifies, from any machine. Hints only: tails still
   * poll. A server that is down when the watch starts is tried again every second until it answers
   * (PgSyncClient re-LISTENs by itself after a connection it had drops).
   */
  watchCommits(onChange: () => void): () => void {
    let stop: (() => void) | undefined;
    let retry: NodeJS.Timeout | undefined;
    let stopped = false;
    const subscribe = () => {
      retry = undefined;
      if (stopped || this.isClosed) return;
      try {
        stop = this.client.listen(EVENTS_CHANNEL, () => onChange());
      } catch {
        // Unreachable right now: the caller's poll still delivers (and reports the outage) meanwhile.
        retry = setTimeout(subscribe, WATCH_RETRY_MS);
        retry.unref();
      }
    };
    subscribe();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      stop?.();
    };
  }

  // ---------------------------------------------------------------- reading

  query(filter: EventFilter = {}): StoredEvent[] {
    this.assertOpen();
    const q = eventFilterSql(filter, typeCondition);
    if (!q) return [];
    const params = integerBounds(q.where, q.params);
    const sql = numbered(
      `SELECT * FROM events${q.where.length ? ` WHERE ${q.where.join(' AND ')}` : ''} ORDER BY seq ${q.order.toUpperCase()} LIMIT ?`,
    );
    const rows = this.read(() => this.client.query('reader', sql, [...params, q.limit]).rows as unknown as EventRow[]);
    return rows.map(rowToEvent);
  }

  readAfter(seq: number, limit: number = DEFAULT_READ_AFTER_LIMIT): StoredEvent[] {
    this.assertOpen();
    if (typeof seq !== 'number' || !Number.isFinite(seq)) {
      throw new EventQueryError('seq must be a finite number.', 'seq');
    }
    const n = clampLimit(limit, DEFAULT_READ_AFTER_LIMIT);
    if (n === 0) return [];
    const after = clampSafe(Math.floor(seq));
    return this.read(
      () =>
        this.client.query('reader', 'SELECT * FROM events WHERE seq > $1 ORDER BY seq ASC LIMIT $2', [after, n])
          .rows as unknown as EventRow[],
    ).map(rowToEvent);
  }

  lastSeq(): number {
    this.assertOpen();
    return this.read(() => this.head('reader').seq);
  }

  digest(): Digest {
    this.assertOpen();
    return this.read(() => this.head('reader'));
  }

  /**
   * Walks the whole chain in seq order (paged, in one REPEATABLE READ snapshot), recomputing every hash
   * and link with the same ChainWalker as SQLite, checks the anchors, and that the append-only triggers
   * are still there, enabled and still refusing. `projections` replays the log into an in-memory SQLite
   * through the same projections and compares each read model with the PostgreSQL table. `full` has no
   * PostgreSQL counterpart of SQLite's integrity_check (the server checksums pages itself when the
   * cluster has data checksums on) and changes nothing.
   */
  verify(
    options: { fromDigest?: Digest; full?: boolean; anchors?: readonly ChainAnchor[]; projections?: boolean } = {},
  ): VerifyResult {
    this.assertOpen();
    const digest = options.fromDigest;
    if (digest !== undefined) {
      if (
        !Number.isInteger(digest?.seq) ||
        digest.seq < 0 ||
        typeof digest.hash !== 'string' ||
        !/^[0-9a-f]{64}$/.test(digest.hash)
      ) {
        throw new EventQueryError(
          'fromDigest needs an integer seq >= 0 and a 64-character lowercase hex hash.',
          'fromDigest',
        );
      }
    }
    const anchors = [...(options.anchors ?? []), ...(digest ? [{ ...digest, source: 'the digest' }] : [])];
    try {
      return this.read(() =>
        this.readSnapshot(() => {
          const chain = this.verifyChain(anchors);
          if (!chain.ok || !options.projections) return chain;
          const models = verifyProjectionsFrom(this.projectionSource(), this.projections);
          if (!models.ok) return { ...chain, ok: false, reason: models.reason };
          return { ...chain, projections: models.projections };
        }),
      );
    } catch (error) {
      // A log whose tables were dropped or altered is a verification result, not a crash of the verifier.
      if (error instanceof PgQueryError && !this.failure(error)) {
        return { ok: false, checked: 0, lastSeq: 0, reason: `PostgreSQL cannot read the log: ${error.message}` };
      }
      throw error;
    }
  }

  private verifyChain(anchors: readonly ChainAnchor[]): VerifyResult {
    const walker = new ChainWalker(anchors);
    const early = walker.start();
    if (early) return early;
    let cursor = 0;
    for (;;) {
      const rows = this.client.query('reader', 'SELECT * FROM events WHERE seq > $1 ORDER BY seq ASC LIMIT $2', [
        cursor,
        VERIFY_PAGE,
      ]).rows as unknown as EventRow[];
      for (const row of rows) {
        const bad = walker.row(row);
        if (bad) return bad;
      }
      if (rows.length < VERIFY_PAGE) break;
      cursor = rows[rows.length - 1].seq;
    }
    const end = walker.finish();
    if (end) return end;
    const weakened = this.weakenedTriggers();
    if (weakened.length > 0) {
      return {
        ...walker.result(),
        ok: false,
        reason: `the chain is intact but the append-only trigger(s) ${weakened.join(', ')} were removed, disabled or altered, so rows could be edited in place; treat the log as tampered with`,
      };
    }
    const hidden = this.client.query(
      'reader',
      `SELECT c.relrowsecurity AS rls FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relname = 'events'`,
    ).rows[0] as { rls: number } | undefined;
    if (hidden?.rls) {
      return {
        ...walker.result(),
        ok: false,
        reason:
          'the chain is intact as read, but row-level security is enabled on events, so rows may be hidden from this role (a truncated view verifies); treat the log as tampered with',
      };
    }
    return walker.result();
  }

  /** Append-only triggers that are missing, disabled, or no longer call a function that raises. */
  private weakenedTriggers(): string[] {
    const rows = this.client.query(
      'reader',
      `SELECT t.tgname AS name, t.tgenabled AS enabled, p.proname AS fn, p.prosrc AS body
         FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE n.nspname = current_schema() AND c.relname = 'events' AND NOT t.tgisinternal`,
    ).rows as { name: string; enabled: string; fn: string; body: string }[];
    const byName = new Map(rows.map((r) => [r.name, r]));
    return PG_APPEND_ONLY_TRIGGERS.filter((name) => {
      const t = byName.get(name);
      return !t || t.enabled === 'D' || t.fn !== 'droidwright_events_append_only' || !/RAISE\s+EXCEPTION/i.test(t.body);
    });
  }

  /** The stored side of a projection check, read in verify's snapshot on the reader session. */
  private projectionSource() {
    const client = this.client;
    return {
      foldsNames: true,
      checkpoints: () =>
        client.query('reader', 'SELECT name, version, last_seq FROM projections')
          .rows as unknown as ProjectionCheckpoint[],
      *events(upTo: number): Iterable<EventRow> {
        let cursor = 0;
        for (;;) {
          const rows = client.query(
            'reader',
            'SELECT * FROM events WHERE seq > $1 AND seq <= $2 ORDER BY seq ASC LIMIT $3',
            [cursor, upTo, VERIFY_PAGE],
          ).rows as unknown as EventRow[];
          yield* rows;
          if (rows.length < VERIFY_PAGE) return;
          cursor = rows[rows.length - 1].seq;
        }
      },
      columns: (table: string) =>
        (
          client.query(
            'reader',
            `SELECT column_name AS name FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = lower($1) ORDER BY ordinal_position`,
            [table],
          ).rows as { name: string }[]
        ).map((r) => r.name),
      // Table names are plain identifiers (validateTables): unquoted, PostgreSQL folds them as their DDL did.
      rows: (table: string) => client.query('reader', `SELECT * FROM ${table}`).rows,
    };
  }

  /** A read-only REPEATABLE READ transaction on the reader: every page of a walk sees the same snapshot. */
  private readSnapshot<T>(fn: () => T): T {
    this.client.query('reader', 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const result = fn();
      this.client.query('reader', 'COMMIT');
      return result;
    } catch (error) {
      try {
        this.client.query('reader', 'ROLLBACK');
      } catch {
        // A lost connection ended the transaction already.
      }
      throw error;
    }
  }

  stats(): EventStoreStats {
    this.assertOpen();
    return this.read(() =>
      this.readSnapshot(() => {
        const byType: Record<string, number> = {};
        let events = 0;
        for (const row of this.client.query(
          'reader',
          'SELECT type, count(*) AS n FROM events GROUP BY type ORDER BY type',
        ).rows as { type: string; n: number }[]) {
          byType[row.type] = row.n;
          events += row.n;
        }
        const last = this.client.query('reader', 'SELECT seq, at FROM events ORDER BY seq DESC LIMIT 1').rows[0] as
          | { seq: number; at: number }
          | undefined;
        const first = this.client.query('reader', 'SELECT at FROM events ORDER BY seq ASC LIMIT 1').rows[0] as
          | { at: number }
          | undefined;
        const facts = this.client.query(
          'reader',
          'SELECT (SELECT coalesce(max(version), 0) FROM schema_version) AS schema_version, pg_database_size(current_database()) AS bytes',
        ).rows[0] as { schema_version: number; bytes: number };
        const projections = [...this.checkpoints('reader').values()].map((r) => ({
          name: r.name,
          version: r.version,
          lastSeq: r.last_seq,
          rebuiltAt: r.rebuilt_at,
        }));
        return {
          events,
          lastSeq: last?.seq ?? 0,
          byType,
          fileBytes: facts.bytes,
          firstAt: first?.at ?? null,
          lastAt: last?.at ?? null,
          schemaVersion: facts.schema_version,
          projections,
        };
      }),
    );
  }

  get closed(): boolean {
    return this.isClosed;
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.listeners.clear();
    this.client.close();
  }

  // ---------------------------------------------------------------- helpers

  /** Reads, retried once when the connection dropped (not inside a transaction: that retry would lie). */
  private read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || this.inTransaction || this.client.closed) {
        throw this.failure(error) ?? error;
      }
      try {
        return fn();
      } catch (again) {
        throw this.failure(again) ?? again;
      }
    }
  }

  private failure(error: unknown): StoreUnavailableError | undefined {
    return pgFailure(error, this.location, this.busyTimeoutMs);
  }

  private assertOpen(): void {
    if (this.isClosed) {
      throw new StoreUnavailableError(`The event store ${this.path} was closed. Open it again with EventStore.open().`);
    }
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.readonly) {
      throw new StoreUnavailableError(
        `The event store ${this.path} was opened read-only. Open it without { readonly: true } to append or rebuild.`,
      );
    }
  }
}

function isLockTimeout(error: unknown): boolean {
  return error instanceof PgQueryError && error.code === LOCK_TIMEOUT;
}

/**
 * Turns an environment failure PostgreSQL reported (lock wait, resources, privileges, a read-only
 * server, internal errors) into a StoreUnavailableError saying what to check; undefined for anything
 * else (a bug, a projection's constraint), which the caller rethrows unchanged. Connection failures
 * are already StoreUnavailableError (PgSyncClient).
 */
export function pgFailure(error: unknown, location: string, waitedMs: number): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  if (!(error instanceof PgQueryError)) return undefined;
  const code = error.code;
  const why = error.message;
  if (code === LOCK_TIMEOUT) {
    return new StoreUnavailableError(
      `The event log ${location} stayed locked by another writer for more than ${waitedMs} ms. Look for a hung session holding it (pg_stat_activity, state 'idle in transaction', application_name 'droidwright') and end it, or retry later.`,
      error,
    );
  }
  if (code === '57014') {
    return new StoreUnavailableError(
      `A statement on the event log ${location} was cancelled (${why}). Check the server's load and statement_timeout, then retry.`,
      error,
    );
  }
  if (code === '42501') {
    return new StoreUnavailableError(
      `The role used for the event log ${location} lacks a privilege (${why}). Grant it CREATE on the schema and SELECT/INSERT/UPDATE/DELETE on droidwright's tables (docs/event-log.md), or use another role.`,
      error,
    );
  }
  if (code === READ_ONLY_TRANSACTION) {
    return new StoreUnavailableError(
      `The PostgreSQL server for the event log ${location} accepts no writes (${why}): it is a standby or read-only. Point --store / DROIDWRIGHT_STORE at the primary.`,
      error,
    );
  }
  if (code.startsWith('53')) {
    return new StoreUnavailableError(
      `The PostgreSQL server for the event log ${location} is out of resources (${code}: ${why}): disk, memory or connections. Free them and retry.`,
      error,
    );
  }
  if (code.startsWith('58') || code.startsWith('XX')) {
    return new StoreUnavailableError(
      `The PostgreSQL server for the event log ${location} reported a system or internal error (${code}: ${why}). Check its log and storage.`,
      error,
    );
  }
  return undefined;
}

/** PostgreSQL's type condition: exact names with IN, `*` globs as LIKE with `%`, `_` and `\` escaped. */
function typeCondition(patterns: readonly string[]): { sql: string; params: string[] } {
  const exact = patterns.filter((p) => !isGlob(p));
  const globs = patterns.filter(isGlob);
  const parts: string[] = [];
  const params: string[] = [];
  if (exact.length > 0) {
    parts.push(`type IN (${exact.map(() => '?').join(', ')})`);
    params.push(...exact);
  }
  for (const g of globs) {
    parts.push(`type LIKE ? ESCAPE '\\'`);
    params.push(g.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '%'));
  }
  return { sql: `(${parts.join(' OR ')})`, params };
}

/** `?` to `$1`, `$2` …: only for the store's own SQL, whose texts hold no `?` in literals. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function clampSafe(n: number): number {
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n));
}

/**
 * seq and at are BIGINT, and PostgreSQL rejects `1.5` as a bigint parameter where SQLite compares it:
 * round each bound the way that keeps the comparison's meaning on integers (seq > 1.5 is seq > 1).
 */
function integerBounds(where: readonly string[], params: readonly unknown[]): unknown[] {
  const out = [...params];
  let index = 0;
  for (const clause of where) {
    const count = (clause.match(/\?/g) ?? []).length;
    const bound = /^(?:at|seq) (>=|<=|<|>) \?$/.exec(clause);
    if (bound && typeof out[index] === 'number') {
      const value = out[index] as number;
      const op = bound[1];
      out[index] = clampSafe(op === '>' || op === '<=' ? Math.floor(value) : Math.ceil(value));
    }
    index += count;
  }
  return out;
}

/** Every ModifyTable node of an EXPLAIN (FORMAT JSON) plan, CTEs and subplans included. */
function modifyTableNodes(plan: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record['Node Type'] === 'ModifyTable') found.push(record);
    for (const value of Object.values(record)) if (typeof value === 'object') visit(value);
  };
  visit(plan);
  return found;
}
