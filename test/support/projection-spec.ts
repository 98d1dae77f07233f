// Given events, expect rows: the read models of the real plugins, fed through the real event store.
// Shared by the projection tests and the child process that appends from a second process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceEvents } from '../../src/android/device.events.js';
import { devicesProjection } from '../../src/android/devices.projection.js';
import { EventCatalog } from '../../src/events/event-catalog.js';
import type {
  EventDefinition,
  EventMeta,
  NewEvent,
  Projection,
  ReadonlyData,
  StoredEvent,
} from '../../src/events/event-definition.js';
import { EventStore } from '../../src/events/event-store.js';
import type { Actor } from '../../src/shared/actor.js';
import { buildEvents } from '../../src/plugins/build/build.events.js';
import { buildHistoryProjection } from '../../src/plugins/build/build-history.projection.js';
import { coreEvents } from '../../src/plugins/core/core.events.js';
import { debugSessionsProjection } from '../../src/plugins/core/debug-sessions.projection.js';
import { mcpActivityProjection } from '../../src/plugins/core/mcp-activity.projection.js';
import { trustedProjectsProjection } from '../../src/plugins/core/trusted-projects.projection.js';
import { deviceAdminEvents } from '../../src/plugins/device-admin/device-admin.events.js';
import { installedBuildsProjection } from '../../src/plugins/device-admin/installed-builds.projection.js';
import { crashesProjection } from '../../src/plugins/logcat/crashes.projection.js';
import { logcatEvents } from '../../src/plugins/logcat/logcat.events.js';
import { uiEvents } from '../../src/plugins/ui/ui.events.js';

/** Every projection the plugins contribute; the projection tests check this list against src/**\/*.projection.ts. */
export const allProjections: readonly Projection[] = [
  mcpActivityProjection,
  trustedProjectsProjection,
  buildHistoryProjection,
  devicesProjection,
  installedBuildsProjection,
  crashesProjection,
  debugSessionsProjection,
];

export function pluginCatalog(): EventCatalog {
  return new EventCatalog([
    ...coreEvents,
    ...buildEvents,
    ...deviceAdminEvents,
    ...deviceEvents,
    ...logcatEvents,
    ...uiEvents,
  ]);
}

/** One event to append, its data checked against the definition by tsc; plain JSON, so a child process can take it. */
export type GivenEvent = NewEvent & { readonly actor: Actor };

export function given<D, In>(
  definition: EventDefinition<D, In>,
  data: NoInfer<ReadonlyData<In>>,
  meta: EventMeta & { actor: Actor },
): GivenEvent {
  return { ...meta, type: definition.type, data };
}

/** Appends each event in its own transaction through the typed path, as the tools and services do. */
export function appendGiven(store: EventStore, catalog: EventCatalog, events: readonly GivenEvent[]): void {
  for (const { type, data, ...meta } of events) {
    const definition = catalog.get(type);
    if (!definition) throw new Error(`no event type ${type} in the plugin catalog`);
    store.append(definition, data, meta);
  }
}

export function openPluginStore(path: string, projections: readonly Projection[] = allProjections): EventStore {
  return EventStore.open({ path, catalog: pluginCatalog(), projections });
}

/**
 * Every row of each table, in a stable order (all columns, compared as SQLite orders values: NULL, numbers,
 * text, blobs), for comparing read models. Sorted here rather than with ORDER BY so the order is the same
 * on both stores (PostgreSQL sorts NULLs last and text by collation).
 */
export function tableRows(store: EventStore, tables: readonly string[]): Record<string, unknown[]> {
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) {
    rows[table] = (store.prepareRead(`SELECT * FROM ${table}`).all() as Record<string, unknown>[]).sort(compareRows);
  }
  return rows;
}

function compareRows(a: Record<string, unknown>, b: Record<string, unknown>): number {
  for (const key of Object.keys(a)) {
    const order = compareValues(a[key], b[key]);
    if (order !== 0) return order;
  }
  return 0;
}

function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown) =>
    v === null || v === undefined ? 0 : typeof v === 'number' ? 1 : typeof v === 'string' ? 2 : 3;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return Buffer.compare(a, b);
  return 0;
}

/**
 * Where a test's fresh stores live: a SQLite file in a temp directory, or a new database on a PostgreSQL
 * cluster (test/support/postgres-cluster.ts), so the same specs run on both stores.
 */
export interface StoreLocations {
  readonly name: 'sqlite' | 'postgres';
  /** A location for a new, empty store; `dispose` removes what it made (a no-op for PostgreSQL databases). */
  fresh(): { readonly path: string; dispose(): void };
}

export const sqliteLocations: StoreLocations = {
  name: 'sqlite',
  fresh() {
    const dir = mkdtempSync(join(tmpdir(), 'droidwright-projection-'));
    return { path: join(dir, 'events.db'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
  },
};

/** Each fresh store is a new database on `cluster`, dropped when the cluster stops. */
export function postgresLocations(cluster: { createDatabase(prefix?: string): string }): StoreLocations {
  return { name: 'postgres', fresh: () => ({ path: cluster.createDatabase('projection'), dispose: () => {} }) };
}

/** Given events, the rows of the projection's tables after appending them to a fresh store. */
export function rowsAfter(
  projection: Projection,
  events: readonly GivenEvent[],
  locations: StoreLocations = sqliteLocations,
): Record<string, unknown[]> {
  return readModelAfter(projection, events, locations).rows;
}

/** Given events, the projection's rows and the log as stored (seq, ts, hashes) in a fresh store. */
export function readModelAfter(
  projection: Projection,
  events: readonly GivenEvent[],
  locations: StoreLocations = sqliteLocations,
): { rows: Record<string, unknown[]>; log: StoredEvent[] } {
  const location = locations.fresh();
  const store = openPluginStore(location.path, [projection]);
  try {
    appendGiven(store, pluginCatalog(), events);
    return { rows: tableRows(store, projection.tables), log: store.readAfter(0, events.length) };
  } finally {
    store.close();
    location.dispose();
  }
}

/**
 * The projection's rows after importing `log` verbatim into a fresh SQLite store: what the same events,
 * with the same timestamps, give on SQLite, to compare with another store's read model.
 */
export function rowsOnSqlite(projection: Projection, log: readonly StoredEvent[]): Record<string, unknown[]> {
  const location = sqliteLocations.fresh();
  const store = openPluginStore(location.path, [projection]);
  try {
    store.importVerbatim(log);
    return tableRows(store, projection.tables);
  } finally {
    store.close();
    location.dispose();
  }
}
