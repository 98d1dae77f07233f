// Test-only event types, a projection and helpers shared by the event store's unit and integration
// tests (and bundled into the child-process workers). Real types belong to the plugins.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Actor } from '../../src/shared/actor.js';
import { EventCatalog } from '../../src/events/event-catalog.js';
import {
  defineEvent,
  type EventMeta,
  type NewEvent,
  type Projection,
  type StoredEvent,
} from '../../src/events/event-definition.js';
import type { EventStore } from '../../src/events/event-store.js';

export const thingHappened = defineEvent({
  type: 'test.thing_happened',
  version: 1,
  description: 'A named thing was counted.',
  schema: z.object({ name: z.string().min(1), count: z.number().int(), tags: z.array(z.string()).optional() }),
});

export const thingRemoved = defineEvent({
  type: 'test.thing_removed',
  version: 2,
  description: 'A named thing was removed.',
  schema: z.object({ name: z.string().min(1) }),
});

export const appInstalled = defineEvent({
  type: 'other.app_installed',
  version: 1,
  description: 'An app was installed.',
  schema: z.object({ apk: z.string() }),
});

export function testCatalog(): EventCatalog {
  return new EventCatalog([thingHappened, thingRemoved, appInstalled]);
}

export const testActor: Actor = { kind: 'cli', pid: 4242 };
export const agentActor: Actor = { kind: 'agent', session: 'sess-1', client: 'test-client', pid: 4343 };

export function thing(name: string, count = 1, extra: Partial<NewEvent> = {}): NewEvent & { actor: Actor } {
  return { type: 'test.thing_happened', stream: `thing:${name}`, data: { name, count }, actor: testActor, ...extra };
}

/** Appends one test.thing_happened through the store's typed `append`, with `thing`'s stream and actor. */
export function appendThing(
  store: Pick<EventStore, 'append'>,
  name: string,
  count = 1,
  meta: Omit<EventMeta, 'stream'> = {},
): StoredEvent {
  return store.append(thingHappened, { name, count }, { stream: `thing:${name}`, actor: testActor, ...meta });
}

export function removed(name: string): NewEvent & { actor: Actor } {
  return { type: 'test.thing_removed', stream: `thing:${name}`, data: { name }, actor: testActor };
}

/**
 * Sum of counts per name, minus removed names. `version` 2 also keeps the number of events per
 * name, so a version bump visibly changes the table's shape and content.
 */
export function thingsProjection(version = 1): Projection {
  return {
    name: 'test_things',
    version,
    handles: ['test.*'],
    tables: ['test_things'],
    ddl: [
      version === 1
        ? 'CREATE TABLE test_things (name TEXT PRIMARY KEY, total INTEGER NOT NULL, last_seq INTEGER NOT NULL)'
        : 'CREATE TABLE test_things (name TEXT PRIMARY KEY, total INTEGER NOT NULL, last_seq INTEGER NOT NULL, events INTEGER NOT NULL)',
    ],
    apply(db: Database.Database, event: StoredEvent) {
      const data = event.data as { name: string; count?: number };
      if (event.type === 'test.thing_removed') {
        db.prepare('DELETE FROM test_things WHERE name = ?').run(data.name);
      } else if (version === 1) {
        db.prepare(
          `INSERT INTO test_things (name, total, last_seq) VALUES (?, ?, ?)
           ON CONFLICT(name) DO UPDATE SET total = test_things.total + excluded.total, last_seq = excluded.last_seq`,
        ).run(data.name, data.count, event.seq);
      } else {
        db.prepare(
          `INSERT INTO test_things (name, total, last_seq, events) VALUES (?, ?, ?, 1)
           ON CONFLICT(name) DO UPDATE SET total = test_things.total + excluded.total, last_seq = excluded.last_seq, events = test_things.events + 1`,
        ).run(data.name, data.count, event.seq);
      }
    },
  };
}

const tempDirs: string[] = [];

export function tempDir(prefix = 'droidwright-events-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Call from afterAll, after every store on these directories is closed. */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function tempStorePath(): string {
  return join(tempDir(), 'events.db');
}
