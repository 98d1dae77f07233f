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

/** Every row of each table, in a stable order (all columns), for comparing read models. */
export function tableRows(store: EventStore, tables: readonly string[]): Record<string, unknown[]> {
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) {
    const columns = (store.prepareRead(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    rows[table] = store.prepareRead(`SELECT * FROM ${table} ORDER BY ${columns.join(', ')}`).all();
  }
  return rows;
}

/** Given events, the rows of the projection's tables after appending them to a fresh store. */
export function rowsAfter(projection: Projection, events: readonly GivenEvent[]): Record<string, unknown[]> {
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-projection-'));
  const store = openPluginStore(join(dir, 'events.db'), [projection]);
  try {
    appendGiven(store, pluginCatalog(), events);
    return tableRows(store, projection.tables);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
