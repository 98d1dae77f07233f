import type { z } from 'zod';
import type { SqlConnection, SqlStatement } from './sql-connection.js';
import type { Actor } from '../shared/actor.js';

/**
 * One event type, declared once: past-tense dotted name, version, zod schema of `data`. `D` is the
 * data as stored (the schema's output), `In` what an appender may hand over (the schema's input).
 */
export interface EventDefinition<D = unknown, In = D> {
  readonly type: string;
  readonly version: number;
  readonly description: string;
  readonly schema: z.ZodType<D, In>;
}

export function defineEvent<S extends z.ZodType>(def: {
  type: string;
  version: number;
  description: string;
  schema: S;
}): EventDefinition<z.output<S>, z.input<S>> {
  return def as EventDefinition<z.output<S>, z.input<S>>;
}

/** Where an appended event goes and who it is recorded as; the store fills in seq, id, at, v, hashes. */
export interface EventMeta {
  /** e.g. `build:42`, `device:emulator-5554`, `mcp:<session>`. */
  readonly stream: string;
  readonly device?: string | null;
  readonly package?: string | null;
  readonly correlation?: string | null;
  /** Defaults to the appender's actor. */
  readonly actor?: Actor;
}

/** An event with its type as a string: the store's untyped path (batches, and tests of its own validation). */
export interface NewEvent<D = unknown> extends EventMeta {
  readonly type: string;
  readonly data: D;
}

export interface StoredEvent<D = unknown> {
  readonly seq: number;
  readonly id: string;
  /** UTC epoch milliseconds. */
  readonly at: number;
  readonly type: string;
  readonly v: number;
  readonly stream: string;
  readonly actor: Actor;
  readonly device: string | null;
  readonly package: string | null;
  readonly correlation: string | null;
  readonly data: D;
  readonly prevHash: string;
  readonly hash: string;
}

/** `T` with every array and object read-only: an appender never changes the data it is handed. */
export type ReadonlyData<T> = T extends readonly (infer U)[]
  ? readonly ReadonlyData<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyData<T[K]> }
    : T;

/**
 * Appends one event of `definition`'s type, so tsc rejects a misspelled definition or data of the wrong
 * shape. The store still validates against the catalog and appends in one transaction with the inline
 * projections; it throws on a bad event.
 */
export type EventAppender = <D, In>(
  definition: EventDefinition<D, In>,
  data: NoInfer<ReadonlyData<In>>,
  meta: EventMeta,
) => StoredEvent<D>;

/**
 * A read model kept in the same transaction as the append. Bump `version` when `ddl` or `apply`
 * changes: the store drops `tables` and rebuilds from the log at start.
 */
export interface Projection {
  readonly name: string;
  readonly version: number;
  readonly handles: readonly string[];
  readonly tables: readonly string[];
  readonly ddl: readonly string[];
  apply(db: SqlConnection, event: StoredEvent): void;
}

/** Adds a column unless the table already has it, so a table made before the step was recorded still opens. */
export interface AddColumnStep {
  readonly addColumn: string;
  /** Column type and constraints as in `ALTER TABLE ... ADD COLUMN name <type>`, e.g. "TEXT". */
  readonly type: string;
}

/** SQL (`CREATE TABLE IF NOT EXISTS ...`, `CREATE INDEX IF NOT EXISTS ...`) or an idempotent column addition. */
export type StoreTableStep = string | AddColumnStep;

/**
 * A table a plugin keeps beside the log that is not a read model: coordination state such as a lock or
 * live progress. It is never hashed, replayed or dropped by a rebuild, and only written through
 * `EventStore.writeTables`.
 */
export interface StoreTable {
  /** The plugin that owns it, e.g. "build"; recorded with each step applied. */
  readonly owner: string;
  readonly name: string;
  /**
   * Forward-only schema steps, applied in order, each once per database (recorded in the store's
   * `store_table_steps`), in the same BEGIN IMMEDIATE transaction that records it. Never edit or
   * reorder a shipped step: append one. Every step must also hold against a table created before the
   * store recorded it, so write SQL steps with IF NOT EXISTS and add columns with `addColumn`.
   */
  readonly migrations: readonly StoreTableStep[];
}

/** Read access to the log's database for read-model and side-table queries: statements that cannot write. */
export interface StoreReader {
  prepareRead(sql: string): SqlStatement;
}

/** What a plugin contributes to the event catalog. Bind with `bind(EventContribution).to(...)`. */
export const EventContribution = Symbol.for('droidwright.EventContribution');
export interface EventContribution {
  events(): readonly EventDefinition[];
  projections(): readonly Projection[];
  /** Side tables the plugin owns (see StoreTable); none when absent. */
  tables?(): readonly StoreTable[];
}
