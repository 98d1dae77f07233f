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

test('events are append-only in PostgreSQL; an edit made with the trigger disabled is caught by verify', () => {
  const url = cluster.createDatabase();
  const store = openStore(url);
  appendThing(store, 'a');
  appendThing(store, 'b');
  appendThing(store, 'c');
  const db = url.slice(url.lastIndexOf('/') + 1);
  for (const sql of ['UPDATE events SET stream = $$x$$', 'DELETE FROM events WHERE seq = 3', 'TRUNCATE events']) {
    expect(() => cluster.psql(sql, db)).toThrow(/append-only/);
  }
  expect(store.verify()).toMatchObject({ ok: true, checked: 3 });

  cluster.psql('ALTER TABLE events DISABLE TRIGGER events_refuse_update', db);
  expect(store.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/events_refuse_update/) });
  cluster.psql(`UPDATE events SET data = replace(data, '"count":1', '"count":7') WHERE seq = 2`, db);
  cluster.psql('ALTER TABLE events ENABLE TRIGGER events_refuse_update', db);
  expect(store.verify()).toMatchObject({ ok: false, firstBadSeq: 2, lastSeq: 1, reason: 'hash mismatch' });

  // A trigger function replaced by one that lets edits through is as good as a dropped trigger.
  const other = openStore(cluster.createDatabase());
  appendThing(other, 'a');
  const otherDb = other.path.slice(other.path.lastIndexOf('/') + 1);
  cluster.psql(
    'CREATE OR REPLACE FUNCTION droidwright_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$',
    otherDb,
  );
  expect(other.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/removed, disabled or altered/) });
});

test('importVerbatim copies a SQLite log byte for byte: both verify, same hashes; a different chain is refused', () => {
  const sqlite = SqliteEventStore.open({ path: tempStorePath(), catalog: testCatalog() });
  open.push(sqlite);
  appendThing(sqlite, 'a', 1);
  sqlite.appendMany([thing('b', 2, { package: 'com.example' }), { ...removed('a'), actor: agentActor }]);
  appendThing(sqlite, 'ünïcødé ✓', 3);
  const events = sqlite.readAfter(0);

  const pg = openStore(cluster.createDatabase());
  pg.importVerbatim(events.slice(0, 2));
  pg.importVerbatim(events.slice(2));
  expect(pg.readAfter(0)).toEqual(events);
  expect(pg.digest()).toEqual(sqlite.digest());
  expect(pg.verify()).toMatchObject({ ok: true, checked: 4 });
  expect(sqlite.verify()).toMatchObject({ ok: true, checked: 4 });
  // Appends continue the imported chain.
  const next = appendThing(pg, 'after');
  expect(next).toMatchObject({ seq: 5, prevHash: events[3].hash });

  const foreign = SqliteEventStore.open({ path: tempStorePath(), catalog: testCatalog() });
  open.push(foreign);
  for (let i = 0; i < 6; i++) appendThing(foreign, `f${i}`);
  expect(() => pg.importVerbatim(foreign.readAfter(5))).toThrow(/different chains; refusing to merge/);
  expect(() => pg.importVerbatim(foreign.readAfter(0))).toThrow(/next event must be seq 6/);
  expect(pg.lastSeq()).toBe(5);
  expect(pg.verify()).toMatchObject({ ok: true, checked: 5 });
});

test('an unreachable server is STORE_UNAVAILABLE naming where and never the password; nothing is recorded while down', async () => {
  const port = await freePort();
  const attempt = () => openStore(`postgres://alice:s3cret@127.0.0.1:${port}/log`);
  expect(attempt).toThrow(StoreUnavailableError);
  try {
    attempt();
  } catch (error) {
    expect((error as Error).message).toContain(`alice@127.0.0.1:${port}/log`);
    expect((error as Error).message).not.toContain('s3cret');
  }

  const store = openStore(cluster.createDatabase());
  appendThing(store, 'before');
  process.kill(cluster.pid(), 'SIGINT');
  for (let i = 0; i < 200 && isRunning(cluster.pid()); i++) await new Promise((r) => setTimeout(r, 50));
  try {
    expect(() => store.lastSeq()).toThrow(StoreUnavailableError);
    expect(() => store.query({})).toThrow(/Cannot reach the PostgreSQL event log at postgres@127\.0\.0\.1/);
    expect(() => appendThing(store, 'lost')).toThrow(StoreUnavailableError);
    await expect(
      store.appendAsync(thingHappened, { name: 'lost', count: 1 }, { stream: 's', actor: agentActor }),
    ).rejects.toThrow(StoreUnavailableError);
  } finally {
    cluster.restart();
  }
  // Back up: the next call reconnects, and nothing from the outage was recorded.
  expect(store.readAfter(0).map((e) => e.data)).toEqual([{ name: 'before', count: 1 }]);
  expect(appendThing(store, 'after').seq).toBe(2);
  expect(store.verify()).toMatchObject({ ok: true, checked: 2 });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('read-only open reads and verifies but never writes; it refuses an empty database', () => {
  const url = cluster.createDatabase();
  expect(() => openStore(url, { readonly: true })).toThrow(/empty database, not a droidwright event log/);
  const writer = openStore(url);
  const event = appendThing(writer, 'a');
  const reader = openStore(url, { readonly: true });
  expect(reader.readonly).toBe(true);
  expect(reader.readAfter(0)).toEqual([event]);
  expect(reader.verify()).toMatchObject({ ok: true, checked: 1 });
  expect(() => appendThing(reader, 'b')).toThrow(/opened read-only/);
  expect(() => reader.importVerbatim([event])).toThrow(/opened read-only/);
  expect(() => reader.writeTables(() => 1)).toThrow(/opened read-only/);
  expect(writer.lastSeq()).toBe(1);
});

test('a database that holds something else, or a newer schema, is refused with what to do', () => {
  const url = cluster.createDatabase();
  const db = url.slice(url.lastIndexOf('/') + 1);
  cluster.psql('CREATE TABLE customers (id int)', db);
  expect(() => openStore(url)).toThrow(/not a droidwright event log \(schema "public" has other tables/);
  expect(cluster.psql(`SELECT count(*) FROM pg_tables WHERE tablename = 'events'`, db).trim()).toBe('0');

  const newer = cluster.createDatabase();
  openStore(newer).close();
  cluster.psql(`INSERT INTO schema_version VALUES (99, 'from the future', 0)`, newer.slice(newer.lastIndexOf('/') + 1));
  expect(() => openStore(newer)).toThrow(/written by a newer droidwright \(schema 99/);
  expect(() => openStore(newer, { readonly: true })).toThrow(/newer droidwright/);
});

test('appendAsync waits for another writer without blocking the event loop, then gives up with STORE_UNAVAILABLE', async () => {
  const url = cluster.createDatabase();
  const store = openStore(url);
  const holder = PgSyncClient.connect(url);
  try {
    holder.query('writer', `BEGIN; SELECT pg_advisory_xact_lock(${CHAIN_LOCK_KEY})`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    await expect(
      store.appendAsync(
        thingHappened,
        { name: 'late', count: 1 },
        { stream: 's', actor: agentActor },
        { maxWaitMs: 400 },
      ),
    ).rejects.toThrow(/stayed locked by another writer/);
    clearInterval(timer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(ticks).toBeGreaterThan(5);
    // A blocking append gives up after busyTimeoutMs, records nothing.
    const impatient = openStore(url, { busyTimeoutMs: 200 });
    expect(() => appendThing(impatient, 'blocked')).toThrow(/more than 200 ms/);
    const pending = store.appendAsync(thingHappened, { name: 'waited', count: 1 }, { stream: 's', actor: agentActor });
    setTimeout(() => holder.query('writer', 'ROLLBACK'), 150);
    expect((await pending).seq).toBe(1);
  } finally {
    holder.close();
  }
  expect(store.readAfter(0).map((e) => (e.data as { name: string }).name)).toEqual(['waited']);
});

test("watchCommits hears another connection commit; onAppended sees this store's commits in order", async () => {
  const url = cluster.createDatabase();
  const watcher = openStore(url);
  const writer = openStore(url);
  let heard = 0;
  const stop = watcher.watchCommits(() => heard++);
  const seen: number[] = [];
  writer.onAppended((e) => {
    seen.push(e.seq);
    if (e.seq === 1) appendThing(writer, 'from-listener');
  });
  appendThing(writer, 'a');
  for (let i = 0; i < 100 && heard === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(heard).toBeGreaterThan(0);
  expect(seen).toEqual([1, 2]);
  stop();
});
