// The PostgreSQL event store against a real server: one cluster for this file, a fresh database per test.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { Projection, StoreTable, StoredEvent } from '../../../src/events/event-definition.js';
import { EventCatalog } from '../../../src/events/event-catalog.js';
import { EventStore, ProjectionError, StoreUnavailableError } from '../../../src/events/event-store.js';
import type { SqlConnection } from '../../../src/events/sql-connection.js';
import { PostgresEventStore } from '../../../src/events/postgres/postgres-event-store.js';
import { CHAIN_LOCK_KEY } from '../../../src/events/postgres/postgres-schema.js';
import { PgSyncClient } from '../../../src/events/postgres/pg-sync-client.js';
import { SqliteEventStore } from '../../../src/events/sqlite-event-store.js';
import { collectEventContributions, createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { pluginModules } from '../../../src/plugins/index.js';
import {
  agentActor,
  appendThing,
  removeTempDirs,
  removed,
  tempStorePath,
  testCatalog,
  thing,
  thingHappened,
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

  // Rows hidden by a row-level security policy, or a dropped table, are findings too, not crashes.
  const hiding = openStore(cluster.createDatabase());
  appendThing(hiding, 'a');
  const hidingDb = hiding.path.slice(hiding.path.lastIndexOf('/') + 1);
  cluster.psql('ALTER TABLE events ENABLE ROW LEVEL SECURITY', hidingDb);
  expect(hiding.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/row-level security/) });
  cluster.psql('DROP TABLE events', hidingDb);
  expect(hiding.verify()).toMatchObject({
    ok: false,
    checked: 0,
    reason: expect.stringMatching(/cannot read the log/),
  });
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
  let heard = 0;
  let stopWatch = () => {};
  try {
    // A watch started while the server is down follows commits once it is back.
    stopWatch = store.watchCommits(() => heard++);
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
  for (let i = 0; i < 100 && heard === 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (i % 20 === 19) appendThing(store, `poke-${i}`);
  }
  stopWatch();
  expect(heard).toBeGreaterThan(0);
  // A restart between two appends costs the next one nothing: it begins again on a fresh connection.
  const before = store.lastSeq();
  cluster.restart();
  expect(appendThing(store, 'after-restart').seq).toBe(before + 1);
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

/** Portable SQL (qualified columns in the upsert, which PostgreSQL needs and SQLite accepts). */
function countsProjection(version = 1, failOn?: string): Projection {
  return {
    name: 'pg_counts',
    version,
    handles: ['test.*'],
    tables: ['pg_counts'],
    ddl: [
      version === 1
        ? 'CREATE TABLE pg_counts (name TEXT PRIMARY KEY, total INTEGER NOT NULL, events INTEGER NOT NULL)'
        : 'CREATE TABLE pg_counts (name TEXT PRIMARY KEY, total INTEGER NOT NULL, events INTEGER NOT NULL, doubled INTEGER NOT NULL)',
    ],
    apply(db: SqlConnection, e: StoredEvent) {
      const data = e.data as { name: string; count?: number };
      if (data.name === failOn) throw new Error(`refusing ${failOn}`);
      if (data.name === 'null-total') {
        db.prepare('INSERT INTO pg_counts (name, total, events) VALUES (?, NULL, 1)').run(data.name);
        return;
      }
      if (e.type === 'test.thing_removed') {
        db.prepare('DELETE FROM pg_counts WHERE name = ?').run(data.name);
      } else if (version === 1) {
        db.prepare(
          `INSERT INTO pg_counts (name, total, events) VALUES (?, ?, 1)
           ON CONFLICT (name) DO UPDATE SET total = pg_counts.total + excluded.total, events = pg_counts.events + 1`,
        ).run(data.name, data.count);
      } else {
        db.prepare(
          `INSERT INTO pg_counts (name, total, events, doubled) VALUES (?, ?, 1, ?)
           ON CONFLICT (name) DO UPDATE SET total = pg_counts.total + excluded.total, events = pg_counts.events + 1,
             doubled = pg_counts.doubled + excluded.doubled`,
        ).run(data.name, data.count, 2 * (data.count ?? 0));
      }
    },
  };
}

test('projections apply in the append transaction and roll back with it; rebuilt, caught up and verified', () => {
  const url = cluster.createDatabase();
  const store = openStore(url, { projections: [countsProjection(1, 'poison')] });
  const counts = store.prepareRead('SELECT name, total, events FROM pg_counts ORDER BY name');
  appendThing(store, 'a', 2);
  store.appendMany([thing('a', 3), thing('b', 1)]);
  expect(counts.all()).toEqual([
    { name: 'a', total: 5, events: 2 },
    { name: 'b', total: 1, events: 1 },
  ]);
  // One event of the batch fails its projection: no event and no read-model row is written.
  expect(() => store.appendMany([thing('c', 1), thing('poison', 1)])).toThrow(ProjectionError);
  expect(() => store.appendMany([thing('c', 1), thing('poison', 1)])).toThrow(/Projection "pg_counts" failed on/);
  expect(store.lastSeq()).toBe(3);
  expect(counts.all()).toHaveLength(2);
  // A projection whose SQL fails in PostgreSQL (here: NOT NULL) is a ProjectionError too, and the
  // aborted transaction is rolled back so the store goes on.
  expect(() => appendThing(store, 'null-total')).toThrow(ProjectionError);
  expect(() => appendThing(store, 'null-total')).toThrow(/failed on test.thing_happened \(seq 4\): .*null/);
  expect(appendThing(store, 'c', 4).seq).toBe(4);
  expect(store.verify({ projections: true })).toMatchObject({ ok: true, checked: 4, projections: ['pg_counts'] });

  // A process without the projection appends; the next one that has it catches up at open.
  const without = openStore(url);
  appendThing(without, 'a', 10);
  // A process that has it catches up inside its next append, under the same lock.
  appendThing(store, 'b', 1);
  expect(counts.all()).toEqual([
    { name: 'a', total: 15, events: 3 },
    { name: 'b', total: 2, events: 2 },
    { name: 'c', total: 4, events: 1 },
  ]);
  const caughtUp = openStore(url, { projections: [countsProjection(1)] });
  expect(caughtUp.prepareRead('SELECT total FROM pg_counts WHERE name = ?').get('a')).toEqual({ total: 15 });
  expect(caughtUp.stats().projections).toEqual([
    expect.objectContaining({ name: 'pg_counts', version: 1, lastSeq: 6 }),
  ]);

  // A new version is rebuilt from the log at open.
  const v2 = openStore(url, { projections: [countsProjection(2)] });
  expect(v2.prepareRead('SELECT name, total, doubled FROM pg_counts ORDER BY name').all()).toEqual([
    { name: 'a', total: 15, doubled: 30 },
    { name: 'b', total: 2, doubled: 4 },
    { name: 'c', total: 4, doubled: 8 },
  ]);
  expect(v2.rebuildProjections()).toEqual({ rebuilt: ['pg_counts'], events: 6 });
  expect(v2.verify({ projections: true })).toMatchObject({ ok: true, projections: ['pg_counts'] });

  // A read model edited behind the store's back no longer matches a replay of the log.
  cluster.psql(`UPDATE pg_counts SET total = 99 WHERE name = 'b'`, url.slice(url.lastIndexOf('/') + 1));
  expect(v2.verify({ projections: true })).toMatchObject({
    ok: false,
    reason: expect.stringMatching(/read model pg_counts \(projection pg_counts\) differs from a replay/),
  });
});

const leasesTable: StoreTable = {
  owner: 'test',
  name: 'test_leases',
  migrations: [
    'CREATE TABLE IF NOT EXISTS test_leases (key TEXT PRIMARY KEY, holder TEXT NOT NULL, until_ms INTEGER NOT NULL)',
    { addColumn: 'note', type: 'TEXT' },
  ],
};

test('side tables: created by their steps, written only through writeTables, which refuses every other table', () => {
  const url = cluster.createDatabase();
  const store = openStore(url, { tables: [leasesTable], projections: [countsProjection()] });
  appendThing(store, 'a');
  const taken = store.writeTables((t) => {
    t.run('INSERT INTO test_leases (key, holder, until_ms, note) VALUES (?, ?, ?, ?)', 'build', 'me', 2 ** 40, 'n');
    return t.get<{ holder: string }>('SELECT holder FROM test_leases WHERE key = ?', 'build');
  });
  expect(taken).toEqual({ holder: 'me' });
  expect(store.prepareRead('SELECT key, until_ms, note FROM test_leases').all()).toEqual([
    { key: 'build', until_ms: 2 ** 40, note: 'n' },
  ]);
  // Steps run once per database: a second open applies nothing and keeps the rows.
  const again = openStore(url, { tables: [leasesTable], projections: [countsProjection()] });
  cluster.psql(
    'CREATE SCHEMA elsewhere; CREATE TABLE elsewhere.test_leases (key TEXT)',
    url.slice(url.lastIndexOf('/') + 1),
  );
  expect(again.prepareRead('SELECT count(*) AS n FROM test_leases').get()).toEqual({ n: 1 });

  for (const sql of [
    `INSERT INTO events (seq, id, at, type, v, stream, actor, actor_kind, data, prev_hash, hash) VALUES (9, 'x', 0, 't', 1, 's', '{}', 'cli', '{}', 'p', 'h')`,
    'DELETE FROM pg_counts',
    'UPDATE projections SET last_seq = 0',
    `WITH gone AS (DELETE FROM store_table_steps RETURNING 1) SELECT count(*) FROM gone`,
    'DROP TABLE test_leases',
    'TRUNCATE test_leases',
    'CREATE TABLE sneaky (x int)',
    `INSERT INTO elsewhere.test_leases (key) VALUES ('x')`,
  ]) {
    expect(() => store.writeTables((t) => t.run(sql))).toThrow(
      /may write only the declared side tables \(test_leases\)/,
    );
  }
  // A failed writeTables rolled back everything it did before the refusal.
  expect(() =>
    store.writeTables((t) => {
      t.run('DELETE FROM test_leases');
      t.run('DELETE FROM pg_counts');
    }),
  ).toThrow(TypeError);
  expect(store.prepareRead('SELECT count(*) AS n FROM test_leases').get()).toEqual({ n: 1 });
  expect(store.prepareRead('SELECT count(*) AS n FROM pg_counts').get()).toEqual({ n: 1 });

  // prepareRead refuses statements that write, by text or (whatever the text hides) by the session.
  expect(() => store.prepareRead('DELETE FROM test_leases')).toThrow(
    'EventStore.prepareRead takes statements that only read; this one writes: DELETE FROM test_leases',
  );
  const hidden = 'WITH gone AS (DELETE FROM test_leases RETURNING 1) SELECT count(*) AS n FROM gone';
  expect(() => store.prepareRead(hidden).all()).toThrow(
    `EventStore.prepareRead takes statements that only read; this one writes: ${hidden}`,
  );
  expect(store.verify({ projections: true })).toMatchObject({ ok: true });
});

test("every plugin's projections and side tables open on PostgreSQL; a second open changes nothing", () => {
  const home = process.env.DROIDWRIGHT_HOME!;
  const container = createContainer({ home, cwd: home, readOnly: false, env: process.env }, pluginModules);
  try {
    const { events, projections, tables } = collectEventContributions(container);
    const url = cluster.createDatabase();
    const options = { path: url, catalog: new EventCatalog(events), projections, tables };
    const first = EventStore.open(options);
    open.push(first);
    const steps = first.prepareRead('SELECT count(*) AS n FROM store_table_steps').get();
    expect(first.stats().projections.map((p) => p.name)).toEqual(projections.map((p) => p.name).sort());
    const second = EventStore.open(options);
    open.push(second);
    expect(second.prepareRead('SELECT count(*) AS n FROM store_table_steps').get()).toEqual(steps);
    expect(second.rebuildProjections().rebuilt).toHaveLength(projections.length);
    expect(second.verify({ projections: true })).toMatchObject({ ok: true, projections: expect.any(Array) });
  } finally {
    disposeContainer(container);
  }
});
