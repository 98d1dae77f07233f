import type { Actor } from '../shared/actor.js';
import type { EventCatalog } from './event-catalog.js';
import type {
  EventDefinition,
  EventMeta,
  NewEvent,
  Projection,
  ReadonlyData,
  StoreReader,
  StoreTable,
  StoredEvent,
} from './event-definition.js';
import type { ChainAnchor, VerifyResult } from './event-verifier.js';
import type { SqlRunResult, SqlStatement } from './sql-connection.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { isPostgresLocation, openPostgresEventStore } from './postgres/postgres-location.js';

export { StoreUnavailableError } from './store-unavailable-error.js';
export { EventQueryError } from './event-query-error.js';
export { GENESIS_HASH } from './event-schema.js';
export { computeEventHash } from './event-hash.js';
export { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, ProjectionError } from './event-preparation.js';
export { withBusyRetry } from './sqlite-event-store.js';
export type { ChainAnchor, VerifyResult } from './event-verifier.js';

export interface EventStoreOptions {
  /**
   * Where the log is: a SQLite file (normally `$DROIDWRIGHT_HOME/events.db`; parent directories are
   * created) or a `postgres://` / `postgresql://` URL (credentials from the URL, PGPASSWORD or ~/.pgpass).
   */
  path: string;
  catalog: EventCatalog;
  /** Inline read models, updated in every append's transaction. */
  projections?: readonly Projection[];
  /** Plugin-owned side tables: created and migrated at open, written only through `writeTables`. */
  tables?: readonly StoreTable[];
  /** How long a write waits for another process's write lock before giving up. Default 10000. */
  busyTimeoutMs?: number;
  /** Open without writing anything (no migrations, no projection rebuilds); append throws. */
  readonly?: boolean;
  /** Largest accepted `data` (canonical JSON bytes). Default 256 KiB: bulk output belongs in files. */
  maxDataBytes?: number;
  /** Where a throwing onAppended listener is reported. Default: one line on stderr (never stdout). */
  onListenerError?: (error: unknown, event: StoredEvent) => void;
}

export interface EventFilter {
  /** Exact types or `*` globs: "build.*", "*.installed", "mcp.tool_called". */
  types?: readonly string[];
  /** Types or globs to leave out (same forms as `types`). */
  excludeTypes?: readonly string[];
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  device?: string;
  package?: string;
  correlation?: string;
  stream?: string;
  actorSession?: string;
  actorKind?: 'agent' | 'cli' | 'tui' | 'system';
  /** seq > afterSeq. */
  afterSeq?: number;
  /** seq < beforeSeq. */
  beforeSeq?: number;
  /** Default 50; at most 10000. */
  limit?: number;
  /** Default 'desc' (newest first). */
  order?: 'asc' | 'desc';
}

/** A (seq, hash) pair to write down somewhere else; `at` is that event's time (0 for an empty log). */
export interface Digest {
  seq: number;
  hash: string;
  at: number;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  lastSeq: number;
  rebuiltAt: number;
}

export interface EventStoreStats {
  events: number;
  lastSeq: number;
  byType: Record<string, number>;
  /** Bytes the log takes: the SQLite file plus its write-ahead log, or the PostgreSQL database's size. */
  fileBytes: number;
  firstAt: number | null;
  lastAt: number | null;
  schemaVersion: number;
  projections: ProjectionStatus[];
}

/**
 * The handle `writeTables` hands its function: statements on the open write transaction that may write
 * only the declared side tables (they may read anything). It is dead once the function returns.
 */
export interface SideTableWriter {
  run(sql: string, ...params: unknown[]): SqlRunResult;
  get<R = unknown>(sql: string, ...params: unknown[]): R | undefined;
  all<R = unknown>(sql: string, ...params: unknown[]): R[];
}

/**
 * The append-only, hash-chained event log: the seam between droidwright and where the log is kept.
 * Catalog, projections, verify, digest and the MCP/TUI/CLI code use only this; `EventStore.open` picks
 * the SQLite file (the default) or PostgreSQL from `options.path`. Every method is synchronous; a store
 * that cannot reach its database throws StoreUnavailableError saying what to check.
 */
export interface EventStore extends StoreReader {
  /** Which kind of store this is, for doctor and stats. */
  readonly kind: 'sqlite' | 'postgres';
  /** Where the log is, safe to print and record: a file path, or a URL without its password. */
  readonly path: string;
  readonly catalog: EventCatalog;
  readonly readonly: boolean;
  readonly closed: boolean;

  /** Appends one event of `definition`'s type, validated against the catalog, with its projections, in one transaction. */
  append<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
  ): StoredEvent<D>;
  /** All events are written (with their projections) or none is. */
  appendMany(events: readonly (NewEvent & { actor: Actor })[]): StoredEvent[];
  /** append() that waits for another writer without blocking the event loop; STORE_UNAVAILABLE after `maxWaitMs`. */
  appendAsync<D, In>(
    definition: EventDefinition<D, In>,
    data: NoInfer<ReadonlyData<In>>,
    meta: EventMeta & { actor: Actor },
    options?: { maxWaitMs?: number },
  ): Promise<StoredEvent<D>>;
  /**
   * Appends events exactly as another store holds them (seq, id, at, actor, hashes), for `events migrate`:
   * the first must follow this log's head (seq and prev_hash), every hash must recompute, and projections
   * apply as for a normal append. All or nothing; throws EventValidationError when the chain does not fit.
   */
  importVerbatim(events: readonly StoredEvent[]): void;
  /** Replays the whole log into all (or the named) projections, from empty tables. */
  rebuildProjections(names?: readonly string[]): { rebuilt: string[]; events: number };

  /** A statement that cannot write, for read models and side tables; portable SQL (see sql-connection.ts). */
  prepareRead(sql: string): SqlStatement;
  /** Runs reads with the store's bounded retry; an unreachable or damaged store becomes StoreUnavailableError. */
  readWithRetry<T>(fn: () => T): T;
  /** One write transaction on a handle that may write only the declared side tables. `fn` is synchronous. */
  writeTables<T>(fn: (tables: SideTableWriter) => T): T;

  /** Called for this process's commits, after commit, in seq order. */
  onAppended(listener: (e: StoredEvent) => void): () => void;
  /**
   * Calls `onChange` when another process (or machine) may have committed, so a tail reads sooner than
   * its next poll: SQLite watches the file and its WAL, PostgreSQL LISTENs. Hints only; may be early or
   * repeated, and a tail must still poll. Returns the function that stops watching.
   */
  watchCommits(onChange: () => void): () => void;

  query(filter?: EventFilter): StoredEvent[];
  /** Events with seq > `seq`, ascending. */
  readAfter(seq: number, limit?: number): StoredEvent[];
  lastSeq(): number;
  digest(): Digest;
  /** Recomputes every hash and link; with anchors, proves each (seq, hash) is still there; `projections` replays read models. */
  verify(options?: {
    fromDigest?: Digest;
    full?: boolean;
    anchors?: readonly ChainAnchor[];
    projections?: boolean;
  }): VerifyResult;
  stats(): EventStoreStats;
  close(): void;
}

export const EventStore = {
  /**
   * Opens (creating if needed) the log named by `options.path`: a `postgres://` or `postgresql://` URL
   * opens the PostgreSQL store, anything else the SQLite file.
   */
  open(options: EventStoreOptions): EventStore {
    return isPostgresLocation(options.path) ? openPostgresEventStore(options) : SqliteEventStore.open(options);
  },
};
