// The PostgreSQL event store against a real server: one cluster for this file, a fresh database per test.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { EventStore, StoreUnavailableError } from '../../../src/events/event-store.js';
import { PostgresEventStore } from '../../../src/events/postgres/postgres-event-store.js';
import { CHAIN_LOCK_KEY } from '../../../src/events/postgres/postgres-schema.js';
import { PgSyncClient } from '../../../src/events/postgres/pg-sync-client.js';
import { SqliteEventStore } from '../../../src/events/sqlite-event-store.js';
import {
  agentActor,
  appendThing,
  removeTempDirs,
  removed,
  tempStorePath,
  testCatalog,
  thing,
  thingHappened,
  thingsProjection,
} from '../../support/event-store-fixtures.js';
import { freePort } from '../../support/free-port.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';

let cluster: PostgresCluster;
const open: EventStore[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(() => {
  for (const store of open) store.close();
  cluster?.stop();
  removeTempDirs();
});

function openStore(url: string, options: Partial<Parameters<typeof EventStore.open>[0]> = {}): EventStore {
  const store = EventStore.open({ path: url, catalog: testCatalog(), ...options });
  open.push(store);
  return store;
}

test('append, read, query, digest and verify round trip; the path never holds the password', () => {
  const url = cluster.createDatabase();
  const store = openStore(url);
  expect(store).toBeInstanceOf(PostgresEventStore);
  expect(store.kind).toBe('postgres');
  expect(store.path).toBe(url);
  expect(store.lastSeq()).toBe(0);
  expect(store.digest()).toEqual({ seq: 0, hash: '0'.repeat(64), at: 0 });

  const first = appendThing(store, 'a', 2);
  const [second, third] = store.appendMany([
    thing('b', 3, { device: 'emulator-5554', correlation: 'c-1' }),
    { ...removed('a'), actor: agentActor },
  ]);
  expect([first.seq, second.seq, third.seq]).toEqual([1, 2, 3]);
  expect(second.prevHash).toBe(first.hash);
  expect(store.readAfter(0)).toEqual([first, second, third]);
  expect(store.readAfter(1.5, 1)).toEqual([second]);
  expect(store.query({ types: ['test.*'], order: 'asc' })).toEqual([first, second, third]);
  expect(store.query({ types: ['test.thing_happened'], device: 'emulator-5554' })).toEqual([second]);
  expect(store.query({ excludeTypes: ['*.thing_removed'], limit: 1 })).toEqual([second]);
  expect(store.query({ actorKind: 'agent' })).toEqual([third]);
  expect(store.query({ afterSeq: 1.5, beforeSeq: 2.5 })).toEqual([second]);
  // `_` and `%` in a glob are literal, as in SQLite's GLOB.
  expect(store.query({ types: ['test_*', 'test.thing%'] })).toEqual([]);
  expect(store.digest()).toEqual({ seq: 3, hash: third.hash, at: third.at });
  expect(store.verify({ fromDigest: { seq: 2, hash: second.hash, at: second.at } })).toEqual({
    ok: true,
    checked: 3,
    lastSeq: 3,
    anchors: 1,
  });
  const stats = store.stats();
  expect(stats).toMatchObject({
    events: 3,
    lastSeq: 3,
    byType: { 'test.thing_happened': 2, 'test.thing_removed': 1 },
    schemaVersion: 2,
    firstAt: first.at,
    lastAt: third.at,
  });
  expect(stats.fileBytes).toBeGreaterThan(0);

  const withPassword = url.replace('postgres@', 'postgres:hunter2@');
  const again = openStore(withPassword);
  expect(again.path).not.toContain('hunter2');
  expect(again.readAfter(0)).toEqual([first, second, third]);
});

test('two stores (two connections) appending interleaved keep one gapless chain', async () => {
  const url = cluster.createDatabase();
  const one = openStore(url);
  const two = openStore(url);
  for (let i = 0; i < 10; i++) {
    appendThing(one, `one-${i}`);
    appendThing(two, `two-${i}`);
    await two.appendAsync(thingHappened, { name: `async-${i}`, count: 1 }, { stream: 's', actor: agentActor });
  }
  expect(one.lastSeq()).toBe(30);
  const seqs = one.readAfter(0).map((e) => e.seq);
  expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  expect(one.verify()).toMatchObject({ ok: true, checked: 30 });
  expect(two.verify()).toMatchObject({ ok: true, checked: 30 });
});
