import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Actor } from '../shared/actor.js';
import { type EventCatalog, EventValidationError } from './event-catalog.js';
import { EventQueryError } from './event-query-error.js';
import type {
  EventDefinition,
  EventMeta,
  NewEvent,
  Projection,
  ReadonlyData,
  StoreTable,
  StoredEvent,
} from './event-definition.js';
import { AppendedListeners } from './appended-listeners.js';
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
} from './event-preparation.js';
import { GENESIS_HASH, LATEST_SCHEMA_VERSION, MIGRATIONS, OLDEST_READABLE_SCHEMA_VERSION } from './event-schema.js';
import type {
  Digest,
  EventFilter,
  EventStore,
  EventStoreOptions,
  EventStoreStats,
  SideTableWriter,
} from './event-store.js';
import {
  type ChainAnchor,
  type EventRow,
  checkVerbatimChain,
  rowToEvent,
  type VerifyResult,
  verifyChain,
  verifyProjections,
} from './event-verifier.js';
import { isGlob, toSqlGlob } from './glob.js';
import { StoreUnavailableError, errorCode, isBusyError, storeFailure } from './store-unavailable-error.js';

const MAX_BUSY_ATTEMPTS = 20;
/** Prepared read and side-table statements kept per store; the SQL texts are the code's own, so few. */
const MAX_CACHED_STATEMENTS = 256;
/** OP_Open* flag: P2 is a register, not a root page, so the statement's target cannot be read from the plan. */
const OPFLAG_P2ISREG = 0x10;

interface CheckpointRow {
  name: string;
  version: number;
  last_seq: number;
  rebuilt_at: number;
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
/** Appends are synchronous (better-sqlite3), so the back-off between lock attempts must be too. */
function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/**
 * The append-only, hash-chained event log. One instance per process; every process appending to the
 * same file serializes on SQLite's write lock, so seq stays gapless and the chain stays valid.
 */
export class SqliteEventStore implements EventStore {
  readonly kind = 'sqlite' as const;
  readonly path: string;
  readonly catalog: EventCatalog;
  readonly readonly: boolean;

  /** Never handed out: reads go through prepareRead, side-table writes through writeTables, events through append. */
  private readonly db: Database.Database;
  private readonly projections: readonly Projection[];
  private readonly sideTables: readonly StoreTable[];
  private readonly readStatements = new Map<string, Database.Statement>();
  private readonly sideTableStatements = new Map<string, Database.Statement>();
  private readonly busyTimeoutMs: number;
  private readonly maxDataBytes: number;
  private readonly listeners: AppendedListeners;
  private isClosed = false;
  private readonly statements: ReturnType<SqliteEventStore['prepareStatements']>;
  private readonly appendTransaction: Database.Transaction<(events: readonly PreparedEvent[]) => StoredEvent[]>;

  private constructor(db: Database.Database, path: string, options: EventStoreOptions) {
    this.db = db;
    this.path = path;
    this.catalog = options.catalog;
    this.readonly = options.readonly ?? false;
    this.projections = options.projections ?? [];
    this.sideTables = options.tables ?? [];
    this.busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    this.maxDataBytes = options.maxDataBytes ?? DEFAULT_MAX_DATA_BYTES;
    this.listeners = new AppendedListeners(options.onListenerError ?? reportListenerError);
    this.statements = this.prepareStatements();
    this.appendTransaction = db.transaction((events: readonly PreparedEvent[]) => this.commit(events));
  }

  /**
   * Opens (creating if needed) the log: parent directory, file, WAL, migrations, and a rebuild of
   * every projection whose version changed or which is new, plus a catch-up of any that fell behind.
   * Environment failures throw StoreUnavailableError with what to do next.
   */
  static open(options: EventStoreOptions): SqliteEventStore {
    if (typeof options.catalog?.validate !== 'function') throw new TypeError('EventStore.open needs an EventCatalog.');
    validateTables(options.projections ?? [], options.tables ?? []);
    const memory = options.path === ':memory:';
    const path = memory ? options.path : resolve(options.path);
    const readonly = options.readonly ?? false;
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    if (readonly && (memory || !existsSync(path))) {
      throw new StoreUnavailableError(
        `There is no event log at ${path} to open read-only. Check the path (or DROIDWRIGHT_HOME); a log is created by the first droidwright command that writes.`,
      );
    }
    let db: Database.Database | undefined;
    try {
      if (!memory && !readonly) ensureDirectory(dirname(path));
      // `timeout` is SQLite's busy_timeout: how long a statement waits for another connection's lock.
      db = readonly ? openReadonly(path, busyTimeoutMs) : new Database(path, { timeout: busyTimeoutMs });
      const opened = db;
      withBusyRetry(busyTimeoutMs, () => {
        // WAL: readers never block the writer and vice versa, which is what lets several MCP
        // servers, the TUI and the CLI share one file without a daemon.
        if (!readonly) opened.pragma('journal_mode = WAL');
        // FULL, not WAL's usual NORMAL: NORMAL may lose the last commits on power loss, and an
        // acknowledged audit event must survive it. The price is one fsync of the WAL per commit;
        // measured on the 2-core dev VM under load: 4.2 ms vs 0.45 ms per single-event append,
        // 12.6 ms vs 5.8 ms per 25-event batch. Events are few and meaningful (telemetry is not an
        // event), and appendMany amortizes the fsync, so durability wins.
        opened.pragma('synchronous = FULL');
        opened.pragma('foreign_keys = ON');
      });
      const schemaVersion = SqliteEventStore.migrate(opened, path, readonly, busyTimeoutMs);
      if (readonly && schemaVersion < OLDEST_READABLE_SCHEMA_VERSION) {
        throw new StoreUnavailableError(
          `The event log ${path} has schema version ${schemaVersion}; this droidwright needs ${OLDEST_READABLE_SCHEMA_VERSION} and cannot migrate a read-only log. Open it once read-write (any droidwright command) or verify a copy.`,
        );
      }
      const store = new SqliteEventStore(opened, path, { ...options, busyTimeoutMs });
      if (!readonly) {
        store.applyTableSteps();
        store.syncProjections();
      }
      return store;
    } catch (error) {
      try {
        db?.close();
      } catch {
        // The original error is the one worth reporting.
      }
      throw storeFailure(error, path, busyTimeoutMs) ?? error;
    }
  }

  /** Brings the schema to LATEST_SCHEMA_VERSION; returns the version found (after migrating, when writable). */
  private static migrate(db: Database.Database, path: string, readonly: boolean, busyTimeoutMs: number): number {
    const read = (): number | undefined =>
      withBusyRetry(busyTimeoutMs, () => {
        const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`).get();
        if (!table) {
          const others = db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'`).get() as {
            n: number;
          };
          if (others.n > 0) {
            throw new StoreUnavailableError(
              `${path} is a SQLite database but not a droidwright event log (it has other tables and no schema_version). Point DROIDWRIGHT_HOME elsewhere or move the file aside.`,
            );
          }
          return undefined;
        }
        return (db.prepare('SELECT coalesce(max(version), 0) AS v FROM schema_version').get() as { v: number }).v;
      });
    const found = read() ?? 0;
    if (found > LATEST_SCHEMA_VERSION) {
      throw new StoreUnavailableError(
        `The event log ${path} was written by a newer droidwright (schema ${found}, this one knows ${LATEST_SCHEMA_VERSION}). Upgrade droidwright; this version cannot safely append to it.`,
      );
    }
    if (found === LATEST_SCHEMA_VERSION || readonly) {
      if (readonly && found === 0) {
        throw new StoreUnavailableError(`${path} is an empty database, not a droidwright event log. Check the path.`);
      }
      return found;
    }
    const step = db.transaction(() => {
      db.exec(
        'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
      // Re-read under the write lock: another process may have migrated since the check above.
      const current = (db.prepare('SELECT coalesce(max(version), 0) AS v FROM schema_version').get() as { v: number })
        .v;
      const record = db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)');
      for (const migration of MIGRATIONS) {
        if (migration.version <= current) continue;
        migration.up(db);
        record.run(migration.version, migration.description, Date.now());
      }
    });
    withBusyRetry(busyTimeoutMs, () => step.immediate());
    return LATEST_SCHEMA_VERSION;
  }

  private prepareStatements() {
    const db = this.db;
    return {
      last: db.prepare('SELECT seq, hash, at FROM events ORDER BY seq DESC LIMIT 1'),
      first: db.prepare('SELECT at FROM events ORDER BY seq ASC LIMIT 1'),
      insert: this.readonly
        ? undefined
        : db.prepare(
            `INSERT INTO events (seq, id, at, type, v, stream, actor, actor_session, actor_kind, device, package, correlation, data, prev_hash, hash)
             VALUES (@seq, @id, @at, @type, @v, @stream, @actor, @actor_session, @actor_kind, @device, @package, @correlation, @data, @prev_hash, @hash)`,
          ),
      checkpoints: db.prepare('SELECT name, version, last_seq, rebuilt_at FROM projections ORDER BY name'),
      advanceCheckpoint: this.readonly ? undefined : db.prepare('UPDATE projections SET last_seq = ? WHERE name = ?'),
      readAfter: db.prepare('SELECT * FROM events WHERE seq > ? ORDER BY seq ASC LIMIT ?'),
    };
  }

  // ---------------------------------------------------------------- writing

  /**
   * Appends one event of `definition`'s type: tsc checks `data` against the definition's schema, and the
   * store validates it against the catalog again before writing.
   */
  append<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
  ): StoredEvent<D> {
    return this.appendMany([{ ...meta, type: definition.type, data }])[0] as StoredEvent<D>;
  }

  /**
   * One transaction: all events are written (with their projections) or none is. The untyped path, for
   * batches and for tests of the store's own validation; code that records one event uses `append`.
   */
  appendMany(events: readonly (NewEvent & { actor: Actor })[]): StoredEvent[] {
    this.assertWritable();
    if (!Array.isArray(events)) throw new EventValidationError('appendMany expects an array of events.');
    if (events.length === 0) return [];
    if (this.db.inTransaction) {
      throw new Error(
        'EventStore.append was called inside an open transaction (for example from a projection). Projections must not append; append after the current append returns.',
      );
    }
    const prepared = events.map((e) => prepareEvent(this.catalog, this.maxDataBytes, e));
    let stored: StoredEvent[];
    try {
      stored = withBusyRetry(this.busyTimeoutMs, () => this.appendTransaction.immediate(prepared));
    } catch (error) {
      throw storeFailure(error, this.path, this.busyTimeoutMs) ?? error;
    }
    this.deliver(stored);
    return stored;
  }

  importVerbatim(events: readonly StoredEvent[]): void {
    this.assertWritable();
    if (events.length === 0) return;
    if (this.db.inTransaction) {
      throw new Error('EventStore.importVerbatim was called inside an open transaction. Import after it returns.');
    }
    const importAll = this.db.transaction(() => {
      const last = this.statements.last.get() as { seq: number; hash: string } | undefined;
      const rows = checkVerbatimChain({ seq: last?.seq ?? 0, hash: last?.hash ?? GENESIS_HASH }, events);
      this.catchUpProjections(last?.seq ?? 0);
      for (const row of rows) {
        this.statements.insert!.run(row);
        this.project(rowToEvent(row));
      }
      for (const p of this.projections) this.statements.advanceCheckpoint!.run(rows[rows.length - 1].seq, p.name);
    });
    try {
      withBusyRetry(this.busyTimeoutMs, () => importAll.immediate());
    } catch (error) {
      throw storeFailure(error, this.path, this.busyTimeoutMs) ?? error;
    }
  }

  /** Runs inside BEGIN IMMEDIATE: nobody else can append between reading the tail and inserting. */
  private commit(events: readonly PreparedEvent[]): StoredEvent[] {
    const last = this.statements.last.get() as { seq: number; hash: string } | undefined;
    const head = { seq: last?.seq ?? 0, hash: last?.hash ?? GENESIS_HASH };
    this.catchUpProjections(head.seq);
    const chained = chainEvents(events, head);
    for (const { row, event } of chained) {
      this.statements.insert!.run(row);
      this.project(event);
    }
    const lastSeq = chained[chained.length - 1]?.row.seq ?? head.seq;
    for (const p of this.projections) this.statements.advanceCheckpoint!.run(lastSeq, p.name);
    return chained.map((c) => c.event);
  }

  private project(event: StoredEvent, only: readonly Projection[] = this.projections): void {
    for (const p of only) {
      if (!handlesType(p, event.type)) continue;
      try {
        p.apply(this.db, event);
      } catch (error) {
        // A full disk or I/O error is the store's problem, not the projection's: let it map to StoreUnavailableError.
        if (storeFailure(error, this.path, this.busyTimeoutMs)) throw error;
        throw new ProjectionError(
          `Projection "${p.name}" failed on ${event.type} (seq ${event.seq}): ${error instanceof Error ? error.message : String(error)}. Nothing was written.`,
          p.name,
          error,
        );
      }
    }
  }

  /**
   * A process that does not load some projection still appends; the next process that does load it
   * replays what it missed before applying new events, so a read model is never silently behind.
   * Must run under the write lock.
   */
  private catchUpProjections(lastSeq: number): void {
    if (this.projections.length === 0) return;
    const rows = new Map((this.statements.checkpoints.all() as CheckpointRow[]).map((r) => [r.name, r]));
    const behind: Projection[] = [];
    for (const p of this.projections) {
      const row = rows.get(p.name);
      if (!row || row.version !== p.version) {
        throw new StoreUnavailableError(
          `Projection "${p.name}" in ${this.path} is at version ${row?.version ?? 'none'}, but this process runs version ${p.version}: another droidwright version rebuilt it. Restart this process so it rebuilds with its own version, and avoid running two droidwright versions at once.`,
        );
      }
      if (row.last_seq < lastSeq) behind.push(p);
    }
    if (behind.length === 0) return;
    for (const p of behind) {
      const row = rows.get(p.name)!;
      this.replay([p], row.last_seq, lastSeq);
      this.statements.advanceCheckpoint!.run(lastSeq, p.name);
    }
  }

  /** Applies events in (afterSeq, toSeq] of the projections' types in seq order; returns rows read. */
  private replay(projections: readonly Projection[], afterSeq: number, toSeq: number): number {
    const patterns = [...new Set(projections.flatMap((p) => p.handles))];
    if (patterns.length === 0) return 0;
    const cond = typeCondition(patterns);
    const page = this.db.prepare(
      `SELECT * FROM events WHERE seq > ? AND seq <= ? AND ${cond.sql} ORDER BY seq ASC LIMIT ${REPLAY_PAGE}`,
    );
    let cursor = afterSeq;
    let count = 0;
    for (;;) {
      // Paged rather than iterated: projections write while we read, which an open iterator forbids.
      const rows = page.all(cursor, toSeq, ...cond.params) as EventRow[];
      for (const row of rows) this.project(rowToEvent(row), projections);
      count += rows.length;
      if (rows.length < REPLAY_PAGE) return count;
      cursor = rows[rows.length - 1].seq;
    }
  }

  /** Must run under the write lock. Drops and recreates the tables, replays the log, resets checkpoints. */
  private rebuildInTransaction(projections: readonly Projection[]): number {
    // Projection tables may reference each other; check foreign keys once, at commit.
    this.db.pragma('defer_foreign_keys = ON');
    for (const p of projections) {
      for (const table of [...p.tables].reverse()) this.db.exec(`DROP TABLE IF EXISTS "${table}"`);
    }
    for (const p of projections) for (const ddl of p.ddl) this.db.exec(ddl);
    const lastSeq = (this.statements.last.get() as { seq: number } | undefined)?.seq ?? 0;
    const count = this.replay(projections, 0, lastSeq);
    const upsert = this.db.prepare(
      `INSERT INTO projections (name, version, last_seq, rebuilt_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET version = excluded.version, last_seq = excluded.last_seq, rebuilt_at = excluded.rebuilt_at`,
    );
    const now = Date.now();
    for (const p of projections) upsert.run(p.name, p.version, lastSeq, now);
    return count;
  }

  /** At open: rebuild new or re-versioned projections and catch up lagging ones, under one write lock. */
  private syncProjections(): void {
    if (this.projections.length === 0) return;
    const needsWork = (): boolean => {
      const rows = new Map((this.statements.checkpoints.all() as CheckpointRow[]).map((r) => [r.name, r]));
      const lastSeq = (this.statements.last.get() as { seq: number } | undefined)?.seq ?? 0;
      return this.projections.some((p) => {
        const row = rows.get(p.name);
        return !row || row.version !== p.version || row.last_seq < lastSeq;
      });
    };
    if (!withBusyRetry(this.busyTimeoutMs, needsWork)) return;
    const sync = this.db.transaction(() => {
      const rows = new Map((this.statements.checkpoints.all() as CheckpointRow[]).map((r) => [r.name, r]));
      const stale = this.projections.filter((p) => rows.get(p.name)?.version !== p.version);
      if (stale.length > 0) this.rebuildInTransaction(stale);
      const lastSeq = (this.statements.last.get() as { seq: number } | undefined)?.seq ?? 0;
      this.catchUpProjections(lastSeq);
    });
    withBusyRetry(this.busyTimeoutMs, () => sync.immediate());
  }

  /** Replays the whole log into all (or the named) projections, from empty tables. */
  rebuildProjections(names?: readonly string[]): { rebuilt: string[]; events: number } {
    this.assertWritable();
    const chosen = chooseProjections(this.projections, names);
    if (chosen.length === 0) return { rebuilt: [], events: 0 };
    const rebuild = this.db.transaction(() => this.rebuildInTransaction(chosen));
    try {
      const events = withBusyRetry(this.busyTimeoutMs, () => rebuild.immediate());
      return { rebuilt: chosen.map((p) => p.name), events };
    } catch (error) {
      throw storeFailure(error, this.path, this.busyTimeoutMs) ?? error;
    }
  }

  // ---------------------------------------------------------------- side tables

  /** At open: applies every declared side-table step this database has not recorded, under one write lock. */
  private applyTableSteps(): void {
    if (this.sideTables.length === 0) return;
    const recorded = (): Set<string> =>
      new Set(
        (
          this.db.prepare('SELECT table_name, step FROM store_table_steps').all() as {
            table_name: string;
            step: number;
          }[]
        ).map((r) => `${r.table_name.toLowerCase()}#${r.step}`),
      );
    const pending = (done: Set<string>) =>
      this.sideTables.some((t) => t.migrations.some((_, i) => !done.has(`${t.name.toLowerCase()}#${i + 1}`)));
    // The usual open finds everything applied with a read, and takes no write lock.
    if (!withBusyRetry(this.busyTimeoutMs, () => pending(recorded()))) return;
    const apply = this.db.transaction(() => {
      // Re-read under the write lock: another process may have applied steps since the check above.
      const done = recorded();
      const record = this.db.prepare(
        'INSERT INTO store_table_steps (table_name, step, owner, applied_at) VALUES (?, ?, ?, ?)',
      );
      for (const table of this.sideTables) {
        table.migrations.forEach((step, i) => {
          if (done.has(`${table.name.toLowerCase()}#${i + 1}`)) return;
          if (typeof step === 'string') {
            this.db.exec(step);
          } else {
            const columns = this.db.prepare(`PRAGMA table_info("${table.name}")`).all() as { name: string }[];
            // A table made before its steps were recorded may already have the column.
            if (!columns.some((c) => c.name.toLowerCase() === step.addColumn.toLowerCase())) {
              this.db.exec(`ALTER TABLE "${table.name}" ADD COLUMN "${step.addColumn}" ${step.type}`);
            }
          }
          record.run(table.name, i + 1, table.owner, Date.now());
        });
      }
    });
    withBusyRetry(this.busyTimeoutMs, () => apply.immediate());
  }

  /**
   * A statement that cannot write (SELECT, read-only PRAGMA) on the log's database: how services read
   * read models and side tables. Statements are prepared once per SQL text and shared, so use get/all
   * (an unfinished iterate() would hold the statement).
   */
  prepareRead(sql: string): Database.Statement {
    this.assertOpen();
    let statement = this.readStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (!statement.readonly) {
        throw new TypeError(`EventStore.prepareRead takes statements that only read; this one writes: ${sql}`);
      }
      remember(this.readStatements, sql, statement);
    }
    return statement;
  }

  /**
   * Runs reads with the store's bounded busy retry, for readers that must not fail while another process
   * commits; a locked, corrupt or unreadable file becomes StoreUnavailableError.
   */
  readWithRetry<T>(fn: () => T): T {
    this.assertOpen();
    try {
      return withBusyRetry(this.busyTimeoutMs, fn);
    } catch (error) {
      throw storeFailure(error, this.path, this.busyTimeoutMs) ?? error;
    }
  }

  /**
   * Runs `fn` in one BEGIN IMMEDIATE transaction (with the store's bounded busy retry) on a handle that
   * may write only the side tables declared at open. All of `fn`'s writes commit or none does; `fn`
   * must be synchronous and must not append. Environment failures become StoreUnavailableError.
   */
  writeTables<T>(fn: (tables: SideTableWriter) => T): T {
    this.assertWritable();
    if (this.db.inTransaction) {
      throw new Error(
        'EventStore.writeTables was called inside an open transaction (a projection or another writeTables). Write side tables after it returns.',
      );
    }
    const transaction = this.db.transaction(() => {
      let open = true;
      const statement = (sql: string, params: unknown[]): Database.Statement => {
        if (!open) throw new Error('This side-table handle was used after its writeTables call returned.');
        return this.sideTableStatement(sql, params);
      };
      const handle: SideTableWriter = {
        run: (sql, ...params) => statement(sql, params).run(...params),
        get: <R>(sql: string, ...params: unknown[]) => statement(sql, params).get(...params) as R | undefined,
        all: <R>(sql: string, ...params: unknown[]) => statement(sql, params).all(...params) as R[],
      };
      try {
        const result = fn(handle);
        if (result instanceof Promise) {
          throw new TypeError('The function given to EventStore.writeTables must be synchronous.');
        }
        return result;
      } finally {
        open = false;
      }
    });
    try {
      return withBusyRetry(this.busyTimeoutMs, () => transaction.immediate());
    } catch (error) {
      throw storeFailure(error, this.path, this.busyTimeoutMs) ?? error;
    }
  }

  /**
   * Prepares a side-table statement after proving, from SQLite's own plan of it, that every b-tree it
   * opens for writing belongs to a declared side table: so the handle cannot touch the events, a read
   * model or the schema, whatever the SQL text looks like.
   */
  private sideTableStatement(sql: string, params: unknown[]): Database.Statement {
    const cached = this.sideTableStatements.get(sql);
    if (cached) return cached;
    const statement = this.db.prepare(sql);
    if (!statement.readonly) {
      const declared = new Set(this.sideTables.map((t) => t.name.toLowerCase()));
      const owners = this.db.prepare('SELECT tbl_name FROM sqlite_master WHERE rootpage = ?').pluck();
      const plan = this.db.prepare(`EXPLAIN ${sql}`).all(...params) as {
        opcode: string;
        p1: number;
        p2: number;
        p3: number;
        p5: number;
      }[];
      for (const op of plan) {
        let target: string | undefined;
        if (op.opcode === 'OpenWrite') {
          target =
            op.p3 === 0 && (op.p5 & OPFLAG_P2ISREG) === 0 ? (owners.get(op.p2) as string | undefined) : undefined;
        } else if (op.opcode === 'Clear' || op.opcode === 'Destroy') {
          target = op.p2 === 0 ? (owners.get(op.p1) as string | undefined) : undefined;
        } else {
          continue;
        }
        if (target === undefined || !declared.has(target.toLowerCase())) {
          throw new TypeError(
            `EventStore.writeTables may write only the declared side tables (${[...declared].join(', ') || 'none'}); this statement writes ${target ?? 'the schema or an unknown table'}: ${sql}`,
          );
        }
      }
    }
    remember(this.sideTableStatements, sql, statement);
    return statement;
  }

  // ---------------------------------------------------------------- listeners

  /** Called for this process's commits, after COMMIT, in seq order. A throwing listener affects nothing else. */
  onAppended(listener: (e: StoredEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  private deliver(events: readonly StoredEvent[]): void {
    this.listeners.deliver(events);
  }

  /** fs.watch on the directory, not the files: the WAL is deleted and recreated as connections come and go. */
  watchCommits(onChange: () => void): () => void {
    if (this.path === ':memory:') return () => {};
    const names = new Set([basename(this.path), `${basename(this.path)}-wal`]);
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(dirname(this.path), { persistent: false }, (_event, filename) => {
        if (filename === null || names.has(filename.toString())) onChange();
      });
      watcher.on('error', () => {
        // Out of inotify watches or the directory vanished: the caller's poll alone still delivers.
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined;
    }
    return () => {
      watcher?.close();
      watcher = undefined;
    };
  }

  // ---------------------------------------------------------------- reading

  query(filter: EventFilter = {}): StoredEvent[] {
    this.assertOpen();
    const q = eventFilterSql(filter, typeCondition);
    if (!q) return [];
    const sql = `SELECT * FROM events${q.where.length ? ` WHERE ${q.where.join(' AND ')}` : ''} ORDER BY seq ${q.order.toUpperCase()} LIMIT ?`;
    const rows = this.read(() => this.db.prepare(sql).all(...q.params, q.limit) as EventRow[]);
    return rows.map(rowToEvent);
  }

  /** Events with seq > `seq`, ascending: what a tail reads on each poll. */
  readAfter(seq: number, limit: number = DEFAULT_READ_AFTER_LIMIT): StoredEvent[] {
    this.assertOpen();
    if (typeof seq !== 'number' || !Number.isFinite(seq)) {
      throw new EventQueryError('seq must be a finite number.', 'seq');
    }
    const n = clampLimit(limit, DEFAULT_READ_AFTER_LIMIT);
    if (n === 0) return [];
    return this.read(() => this.statements.readAfter.all(seq, n) as EventRow[]).map(rowToEvent);
  }

  lastSeq(): number {
    this.assertOpen();
    return this.read(() => (this.statements.last.get() as { seq: number } | undefined)?.seq ?? 0);
  }

  digest(): Digest {
    this.assertOpen();
    const last = this.read(() => this.statements.last.get() as { seq: number; hash: string; at: number } | undefined);
    return last ? { seq: last.seq, hash: last.hash, at: last.at } : { seq: 0, hash: GENESIS_HASH, at: 0 };
  }

  /**
   * Walks the whole chain in seq order (streaming), recomputing every hash and link, after SQLite's
   * own quick_check (`full: true` runs the slower integrity_check); rows must be stored canonically.
   * With `fromDigest` (or `anchors`, e.g. the witness file's heads), also proves the log still holds
   * each exact (seq, hash), i.e. nothing up to it was rewritten or removed. `projections` also replays
   * the log in memory and compares every read model. The checks live in event-verifier.ts.
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
    try {
      const anchors = [...(options.anchors ?? []), ...(digest ? [{ ...digest, source: 'the digest' }] : [])];
      return this.read(() => this.readSnapshot(() => this.verifySnapshot(anchors, options)));
    } catch (error) {
      // A file too damaged to read is a verification result, not a crash of the verifier.
      if (storeFailure(error, this.path, this.busyTimeoutMs) && !isBusyError(error)) {
        return { ok: false, checked: 0, lastSeq: 0, reason: `SQLite cannot read the log: ${(error as Error).message}` };
      }
      throw storeFailure(error, this.path, this.busyTimeoutMs) ?? error;
    }
  }

  /** The chain, then (when asked) the read models, from one read snapshot; the checks live in event-verifier.ts. */
  private verifySnapshot(anchors: readonly ChainAnchor[], options: { full?: boolean; projections?: boolean }) {
    const chain = verifyChain(this.db, { anchors, full: options.full ?? false });
    if (!chain.ok || !options.projections) return chain;
    const models = verifyProjections(this.db, this.projections);
    if (!models.ok) return { ...chain, ok: false, reason: models.reason };
    return { ...chain, projections: models.projections };
  }

  /** A deferred transaction: every read inside sees the same snapshot, even while others append. */
  private readSnapshot<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    this.db.exec('BEGIN');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  stats(): EventStoreStats {
    this.assertOpen();
    return this.read(() => {
      const byType: Record<string, number> = {};
      let events = 0;
      for (const row of this.db.prepare('SELECT type, count(*) AS n FROM events GROUP BY type ORDER BY type').all() as {
        type: string;
        n: number;
      }[]) {
        byType[row.type] = row.n;
        events += row.n;
      }
      const last = this.statements.last.get() as { seq: number; at: number } | undefined;
      const first = this.statements.first.get() as { at: number } | undefined;
      const schemaVersion = (
        this.db.prepare('SELECT coalesce(max(version), 0) AS v FROM schema_version').get() as { v: number }
      ).v;
      const projections = (this.statements.checkpoints.all() as CheckpointRow[]).map((r) => ({
        name: r.name,
        version: r.version,
        lastSeq: r.last_seq,
        rebuiltAt: r.rebuilt_at,
      }));
      return {
        events,
        lastSeq: last?.seq ?? 0,
        byType,
        fileBytes: this.fileBytes(),
        firstAt: first?.at ?? null,
        lastAt: last?.at ?? null,
        schemaVersion,
        projections,
      };
    });
  }

  private fileBytes(): number {
    if (this.path === ':memory:') return 0;
    let total = 0;
    for (const file of [this.path, `${this.path}-wal`]) {
      try {
        total += statSync(file).size;
      } catch {
        // No WAL file between sessions is normal.
      }
    }
    return total;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.listeners.clear();
    this.db.close();
  }

  // ---------------------------------------------------------------- helpers

  private read<T>(fn: () => T): T {
    try {
      return withBusyRetry(this.busyTimeoutMs, fn);
    } catch (error) {
      if (isBusyError(error)) throw storeFailure(error, this.path, this.busyTimeoutMs)!;
      throw error;
    }
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

  /**
   * append() for a caller that must not stall its process while another process holds the write lock
   * (the MCP server recording a call before it acts, while it keeps answering other requests): each
   * attempt lets SQLite wait only briefly, and the waits between attempts are timers, not a blocked
   * event loop. Gives up after `maxWaitMs` (default: the store's busy timeout) with STORE_UNAVAILABLE
   * stating how long it actually waited.
   */
  async appendAsync<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
    options: { maxWaitMs?: number } = {},
  ): Promise<StoredEvent<D>> {
    const attemptBusyMs = 20;
    const pauseMs = 50;
    this.assertWritable();
    if (this.db.inTransaction) {
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
        this.db.pragma(`busy_timeout = ${attemptBusyMs}`);
        try {
          stored = this.appendTransaction.immediate(prepared);
        } finally {
          this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
        }
      } catch (error) {
        const waited = Date.now() - started;
        if (!isBusyError(error) || waited >= maxWaitMs) throw storeFailure(error, this.path, waited) ?? error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(pauseMs, maxWaitMs - waited)));
        continue;
      }
      this.deliver(stored);
      return stored[0] as StoredEvent<D>;
    }
  }
}

/**
 * busy_timeout already waits for the lock inside SQLite; some contention returns SQLITE_BUSY without
 * consulting it (WAL recovery, a lock race at BEGIN), so retry with jitter until the timeout has
 * passed, and a bounded number of times. A BUSY that survives this is rethrown for the caller to map.
 */
export function withBusyRetry<T>(busyTimeoutMs: number, fn: () => T): T {
  const deadline = Date.now() + busyTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      if (attempt >= MAX_BUSY_ATTEMPTS || (attempt >= 2 && Date.now() >= deadline)) throw error;
      sleepSync(Math.min(250, 5 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random()));
    }
  }
}

/**
 * A WAL-mode log on read-only media (an auditor's copy) cannot be opened in place: SQLite needs to
 * create the -shm file beside it. Then read a snapshot into memory instead, marked as a rollback-
 * journal database (header bytes 18-19) because an in-memory image cannot use WAL. The file itself
 * is only read.
 */
function openReadonly(path: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    if (!errorCode(error).startsWith('SQLITE_CANTOPEN')) throw error;
  }
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new StoreUnavailableError(
      `${path} has a write-ahead log (${wal}) that SQLite cannot read in place here (no -shm file and the directory is not writable). Copy the database with its -wal file to a writable directory and open that copy.`,
    );
  }
  const image = readFileSync(path);
  if (image.length >= 20 && image[18] === 2 && image[19] === 2) {
    image[18] = 1;
    image[19] = 1;
  }
  return new Database(image, { readonly: true });
}

/**
 * mkdir -p one level at a time: Node's recursive mkdir spins forever under pseudo file systems
 * such as /proc, and a hostile DROIDWRIGHT_HOME must fail, not hang.
 */
function ensureDirectory(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) mkdirSync(d, { mode: 0o700 });
}

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
    parts.push('type GLOB ?');
    params.push(toSqlGlob(g));
  }
  return { sql: `(${parts.join(' OR ')})`, params };
}

/** Keeps a prepared statement; a cache past its bound starts over rather than growing. */
function remember(cache: Map<string, Database.Statement>, sql: string, statement: Database.Statement): void {
  if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
  cache.set(sql, statement);
}
