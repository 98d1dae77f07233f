import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../../src/events/canonical-json.js';
import { EventValidationError } from '../../../src/events/event-catalog.js';
import type { StoreTable, StoredEvent } from '../../../src/events/event-definition.js';
import {
  EventQueryError,
  EventStore,
  GENESIS_HASH,
  ProjectionError,
  type SideTableWriter,
  StoreUnavailableError,
  computeEventHash,
  type EventStoreOptions,
} from '../../../src/events/event-store.js';
import {
  appendThing,
  agentActor,
  removed,
  tempDir,
  tempStorePath,
  testActor,
  testCatalog,
  thing,
  thingsProjection,
  removeTempDirs,
  appInstalled,
  thingRemoved,
} from '../../support/event-store-fixtures.js';
import { itWhen, makeUnwritable, makeWritable, probeUnwritableDirectories } from '../../support/capabilities.js';

// root ignores mode bits, so as root these tests need chattr +i; they skip, saying why, only where that is missing.
const itWithUnwritableDirs = itWhen(probeUnwritableDirectories());

const open: { close(): void }[] = [];
function openStore(options: Partial<EventStoreOptions> = {}): EventStore {
  const store = EventStore.open({ path: options.path ?? tempStorePath(), catalog: testCatalog(), ...options });
  open.push(store);
  return store;
}
afterEach(() => {
  for (const store of open.splice(0)) store.close();
});
afterAll(removeTempDirs);

function rawConnection(path: string): Database.Database {
  const db = new Database(path);
  open.push(db);
  return db;
}

function tableContents(store: EventStore, table: string): unknown[] {
  return store.prepareRead(`SELECT * FROM ${table} ORDER BY 1`).all();
}

describe('append and the hash chain', () => {
  it('assigns gapless seqs from 1 and links every hash to the previous one', () => {
    const store = openStore();
    const first = appendThing(store, 'a', 2);
    const rest = store.appendMany([
      thing('b'),
      thing('c', 3, { device: 'emulator-5554', package: 'com.example', correlation: 'build:1' }),
    ]);
    const all = [first, ...rest];
    expect(all.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(first.prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < all.length; i++) expect(all[i].prevHash).toBe(all[i - 1].hash);
    for (const e of all) {
      expect(e.hash).toBe(computeEventHash({ ...e, prev_hash: e.prevHash }));
      expect(e.v).toBe(1);
      expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(store.query({ order: 'asc' })).toEqual(all);
    expect(store.lastSeq()).toBe(3);
    expect(store.verify()).toEqual({ ok: true, checked: 3, lastSeq: 3 });
  });

  it('stores the catalog version and the actor helper columns', () => {
    const store = openStore();
    const e = store.append(thingRemoved, { name: 'x' }, { stream: 'thing:x', actor: agentActor });
    expect(e.v).toBe(2);
    expect(store.prepareRead('SELECT actor_kind, actor_session FROM events WHERE seq = 1').get()).toEqual({
      actor_kind: 'agent',
      actor_session: 'sess-1',
    });
  });

  it('writes nothing for an unknown type or malformed data, naming the type and field', () => {
    const store = openStore({ projections: [thingsProjection()] });
    appendThing(store, 'a');
    expect(() => store.appendMany([{ ...thing('b'), type: 'test.never_declared' }])).toThrow(
      /Unknown event type "test.never_declared"/,
    );
    expect(() => store.appendMany([thing('b'), { ...thing('c'), data: { name: 'c', count: 'many' } }])).toThrow(
      /test\.thing_happened.*data\.count/,
    );
    expect(() => store.appendMany([{ ...thing('b'), stream: '' }])).toThrow(EventValidationError);
    expect(() => store.appendMany([{ ...thing('b'), actor: { kind: 'robot', pid: 1 } as never }])).toThrow(/actor/);
    expect(() => store.appendMany([{ ...thing('b'), device: 42 as never }])).toThrow(/device/);
    expect(store.lastSeq()).toBe(1);
    expect(tableContents(store, 'test_things')).toEqual([{ name: 'a', total: 1, last_seq: 1 }]);
  });

  it('records the host in the hashed actor, keeps events without one valid, and refuses a bad host', () => {
    const store = openStore();
    const before = appendThing(store, 'a');
    expect(before.actor).not.toHaveProperty('host');
    const [here] = store.appendMany([{ ...thing('b'), actor: { kind: 'cli', pid: 7, host: 'laptop-a' } }]);
    expect(here!.actor).toEqual({ kind: 'cli', pid: 7, host: 'laptop-a' });
    expect(store.prepareRead('SELECT actor FROM events WHERE seq = 2').get()).toEqual({
      actor: '{"host":"laptop-a","kind":"cli","pid":7}',
    });
    // The host is part of the hash: the same event claimed from another machine is another hash.
    expect(
      computeEventHash({ ...here!, actor: { ...here!.actor, host: 'laptop-b' }, prev_hash: here!.prevHash }),
    ).not.toBe(here!.hash);
    for (const host of ['', 'x'.repeat(254), 'evil\u001b[2Jhost', ' padded', 42]) {
      expect(() => store.appendMany([{ ...thing('c'), actor: { kind: 'cli', pid: 7, host } as never }])).toThrow(
        /actor\.host/,
      );
    }
    expect(store.lastSeq()).toBe(2);
    expect(store.verify()).toEqual({ ok: true, checked: 2, lastSeq: 2 });
  });

  it('rolls back the events and every projection change when a projection throws', () => {
    const failing = {
      ...thingsProjection(),
      name: 'failing',
      tables: ['failing_t'],
      ddl: ['CREATE TABLE failing_t (x)'],
    };
    failing.apply = (_db, e) => {
      if ((e.data as { name: string }).name === 'boom') throw new Error('cannot project boom');
    };
    const store = openStore({ projections: [thingsProjection(), failing] });
    appendThing(store, 'a');
    expect(() => store.appendMany([thing('b'), thing('boom')])).toThrow(ProjectionError);
    expect(() => appendThing(store, 'boom')).toThrow(/Projection "failing" failed on test.thing_happened \(seq 2\)/);
    expect(store.lastSeq()).toBe(1);
    expect(tableContents(store, 'test_things')).toEqual([{ name: 'a', total: 1, last_seq: 1 }]);
    expect(appendThing(store, 'c').seq).toBe(2);
  });

  it('refuses data over the size limit', () => {
    const store = openStore({ maxDataBytes: 100 });
    expect(() => store.appendMany([thing('x'.repeat(200))])).toThrow(/over the 100-byte limit/);
    expect(store.lastSeq()).toBe(0);
  });

  it('has triggers that refuse UPDATE and DELETE on events', () => {
    const store = openStore();
    appendThing(store, 'a');
    const raw = rawConnection(store.path);
    expect(() => raw.prepare(`UPDATE events SET data = '{}' WHERE seq = 1`).run()).toThrow(/events are append-only/);
    expect(() => raw.prepare('DELETE FROM events').run()).toThrow(/events are append-only/);
    expect(store.verify().ok).toBe(true);
  });
});

describe('query', () => {
  let store: EventStore;
  let t0: number;
  beforeAll(() => {
    store = EventStore.open({ path: tempStorePath(), catalog: testCatalog() });
    t0 = Date.now();
    const events = [];
    for (let i = 0; i < 60; i++)
      events.push(thing(`n${i}`, i, { device: i % 2 ? 'dev-odd' : 'dev-even', correlation: `c${i % 3}` }));
    store.appendMany(events);
    store.append(thingRemoved, { name: 'n1' }, { stream: 'thing:n1', actor: agentActor, package: 'com.example.app' });
    store.append(appInstalled, { apk: 'a.apk' }, { stream: 'device:x', actor: testActor, package: 'com.example.app' });
  });
  afterAll(() => store.close());

  it('returns the newest 50 by default, newest first', () => {
    const result = store.query();
    expect(result).toHaveLength(50);
    expect(result[0].seq).toBe(62);
    expect(result[49].seq).toBe(13);
  });

  it('orders ascending and honours limit, afterSeq and beforeSeq', () => {
    expect(store.query({ order: 'asc', limit: 3 }).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(store.query({ afterSeq: 10, beforeSeq: 14, order: 'asc' }).map((e) => e.seq)).toEqual([11, 12, 13]);
    expect(store.query({ limit: 0 })).toEqual([]);
    expect(store.query({ limit: 100_000 })).toHaveLength(62);
  });

  it('filters by exact types and globs', () => {
    expect(store.query({ types: ['test.thing_removed'] }).map((e) => e.seq)).toEqual([61]);
    expect(store.query({ types: ['*.app_installed'] }).map((e) => e.seq)).toEqual([62]);
    expect(store.query({ types: ['test.*'], limit: 1000 })).toHaveLength(61);
    expect(store.query({ types: ['other.*', 'test.thing_removed'] }).map((e) => e.seq)).toEqual([62, 61]);
    expect(store.query({ types: ['test.thing_?emoved'] })).toEqual([]);
    expect(store.query({ types: [] })).toEqual([]);
  });

  it('filters by subject columns, actor and time', () => {
    expect(store.query({ device: 'dev-odd', limit: 1000 })).toHaveLength(30);
    expect(store.query({ correlation: 'c1', limit: 1000 })).toHaveLength(20);
    expect(store.query({ package: 'com.example.app' }).map((e) => e.seq)).toEqual([62, 61]);
    expect(store.query({ stream: 'thing:n7' }).map((e) => e.seq)).toEqual([8]);
    expect(store.query({ actorSession: 'sess-1' }).map((e) => e.seq)).toEqual([61]);
    expect(store.query({ actorKind: 'agent' }).map((e) => e.seq)).toEqual([61]);
    expect(store.query({ since: t0 - 1000, limit: 1000 })).toHaveLength(62);
    expect(store.query({ until: t0 - 1000 })).toEqual([]);
    expect(store.query({ since: Date.now() + 60_000 })).toEqual([]);
  });

  it('refuses malformed filters with its own EventQueryError naming the field', () => {
    expect(() => store.query({ limit: -1 })).toThrow(EventQueryError);
    expect(() => store.query({ limit: -1 })).toThrow(expect.objectContaining({ field: 'limit' }));
    expect(() => store.query({ limit: 1.5 })).toThrow(/limit/);
    expect(() => store.query({ since: NaN })).toThrow(/since/);
    expect(() => store.query({ order: 'sideways' as never })).toThrow(/order/);
    expect(() => store.query({ actorKind: 'robot' as never })).toThrow(/actorKind/);
  });

  it('reads after a seq in ascending pages', () => {
    expect(store.readAfter(58).map((e) => e.seq)).toEqual([59, 60, 61, 62]);
    expect(store.readAfter(0, 2).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('reports stats a CLI can print', () => {
    const stats = store.stats();
    expect(stats).toMatchObject({
      events: 62,
      lastSeq: 62,
      byType: { 'test.thing_happened': 60, 'test.thing_removed': 1, 'other.app_installed': 1 },
      schemaVersion: 2,
      projections: [],
    });
    expect(stats.fileBytes).toBeGreaterThan(0);
    expect(stats.firstAt).toBeGreaterThanOrEqual(t0);
    expect(stats.lastAt).toBeGreaterThanOrEqual(stats.firstAt!);
  });
});

describe('verify and digest', () => {
  function tamperable(): { store: EventStore; raw: Database.Database; events: StoredEvent[] } {
    const store = openStore();
    const events = store.appendMany(Array.from({ length: 10 }, (_, i) => thing(`t${i}`, i)));
    const raw = rawConnection(store.path);
    raw.exec('DROP TRIGGER events_refuse_update; DROP TRIGGER events_refuse_delete;');
    return { store, raw, events };
  }

  it('names the first bad seq after a row is edited behind the triggers', () => {
    const { store, raw } = tamperable();
    raw.prepare('UPDATE events SET data = ? WHERE seq = ?').run('{"count":999,"name":"t4"}', 5);
    raw.prepare('UPDATE events SET data = ? WHERE seq = ?').run('{"count":999,"name":"t7"}', 8);
    expect(store.verify()).toEqual({ ok: false, checked: 5, lastSeq: 4, firstBadSeq: 5, reason: 'hash mismatch' });
  });

  it('reports a broken link when a row is rewritten with a fresh hash', () => {
    const { store, raw, events } = tamperable();
    const e = events[3];
    const data = { name: 't3', count: 1000 };
    const hash = computeEventHash({ ...e, data, prev_hash: e.prevHash });
    raw.prepare('UPDATE events SET data = ?, hash = ? WHERE seq = 4').run(canonicalJson(data), hash);
    expect(store.verify()).toMatchObject({ ok: false, firstBadSeq: 5, reason: 'prev_hash does not match seq 4' });
  });

  it('reports a gap when a row is deleted', () => {
    const { store, raw } = tamperable();
    raw.prepare('DELETE FROM events WHERE seq = 6').run();
    expect(store.verify()).toMatchObject({
      ok: false,
      firstBadSeq: 6,
      reason: expect.stringContaining('gap after seq 5'),
    });
  });

  it('reports missing append-only triggers even when the chain is intact', () => {
    const { store } = tamperable();
    expect(store.verify()).toMatchObject({
      ok: false,
      checked: 10,
      lastSeq: 10,
      reason: expect.stringContaining('events_refuse_update'),
    });
  });

  it('proves a digest is still in the log, and fails when the log was rewritten before it', () => {
    const store = openStore();
    store.appendMany(Array.from({ length: 10 }, (_, i) => thing(`t${i}`, i)));
    const digest = store.digest();
    expect(digest).toMatchObject({ seq: 10, hash: store.query({ limit: 1 })[0].hash });
    appendThing(store, 'later');
    expect(store.verify({ fromDigest: digest })).toEqual({ ok: true, checked: 11, lastSeq: 11, anchors: 1 });
    expect(store.verify({ fromDigest: { seq: 0, hash: GENESIS_HASH, at: 0 } }).ok).toBe(true);

    // A careful forger rewrites seq 3 (storing canonical JSON, as verify demands) and re-chains everything after it, then restores the triggers.
    const raw = rawConnection(store.path);
    raw.exec('DROP TRIGGER events_refuse_update');
    type Row = Omit<Parameters<typeof computeEventHash>[0], 'actor' | 'data'> & { actor: string; data: string };
    const rows = raw.prepare('SELECT * FROM events ORDER BY seq').all() as Row[];
    let prev = GENESIS_HASH;
    for (const row of rows) {
      const data = row.seq === 3 ? { name: 't2', count: -1 } : JSON.parse(row.data);
      const hash = computeEventHash({ ...row, actor: JSON.parse(row.actor), data, prev_hash: prev });
      raw
        .prepare('UPDATE events SET data = ?, prev_hash = ?, hash = ? WHERE seq = ?')
        .run(canonicalJson(data), prev, hash, row.seq);
      prev = hash;
    }
    raw.exec(
      `CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;`,
    );

    expect(store.verify()).toEqual({ ok: true, checked: 11, lastSeq: 11 });
    const result = store.verify({ fromDigest: digest });
    expect(result).toMatchObject({ ok: false, firstBadSeq: 10 });
    expect(result.reason).toContain('rewritten at or before seq 10');
  });

  it('fails a digest beyond the end of the log and refuses a malformed digest', () => {
    const store = openStore();
    appendThing(store, 'a');
    expect(store.verify({ fromDigest: { seq: 5, hash: 'a'.repeat(64), at: 0 } })).toMatchObject({
      ok: false,
      firstBadSeq: 5,
      reason: expect.stringContaining('events were removed'),
    });
    expect(() => store.verify({ fromDigest: { seq: 1, hash: 'xyz', at: 0 } })).toThrow(EventQueryError);
  });

  it('reports a damaged database file instead of throwing', () => {
    const store = openStore();
    store.appendMany(Array.from({ length: 300 }, (_, i) => thing(`t${i}`, i)));
    store.close();
    const image = readFileSync(store.path);
    const page = 4096;
    image.fill(0x41, 3 * page, 4 * page);
    writeFileSync(store.path, image);
    const reader = openStore({ path: store.path, readonly: true });
    const result = reader.verify();
    expect(result.ok).toBe(false);
    expect(result.reason).toMatch(/^SQLite (quick_check failed|cannot read the log)/);
  });

  it('digests an empty log as seq 0 with the genesis hash', () => {
    const store = openStore();
    expect(store.digest()).toEqual({ seq: 0, hash: GENESIS_HASH, at: 0 });
    expect(store.verify({ full: true })).toEqual({ ok: true, checked: 0, lastSeq: 0 });
  });
});

describe('projections', () => {
  const mixed = () => [thing('a', 2), thing('b', 5), thing('a', 3), removed('b'), thing('c', 1), thing('b', 7)];

  it('keeps the read model in the append transaction, and a rebuild equals the live model', () => {
    const store = openStore({ projections: [thingsProjection()] });
    store.appendMany(mixed());
    appendThing(store, 'd', 4);
    const live = tableContents(store, 'test_things');
    expect(live).toEqual([
      { name: 'a', total: 5, last_seq: 3 },
      { name: 'b', total: 7, last_seq: 6 },
      { name: 'c', total: 1, last_seq: 5 },
      { name: 'd', total: 4, last_seq: 7 },
    ]);
    expect(store.rebuildProjections()).toEqual({ rebuilt: ['test_things'], events: 7 });
    expect(tableContents(store, 'test_things')).toEqual(live);
    expect(store.rebuildProjections(['test_things']).rebuilt).toEqual(['test_things']);
    expect(tableContents(store, 'test_things')).toEqual(live);
    expect(() => store.rebuildProjections(['nope'])).toThrow(/Unknown projection\(s\): nope. Known: test_things/);
    expect(store.stats().projections).toEqual([
      expect.objectContaining({ name: 'test_things', version: 1, lastSeq: 7 }),
    ]);
  });

  it('rebuilds a projection whose version changed when the store opens', () => {
    const path = tempStorePath();
    const v1 = openStore({ path, projections: [thingsProjection(1)] });
    v1.appendMany(mixed());
    v1.close();
    const v2 = openStore({ path, projections: [thingsProjection(2)] });
    expect(tableContents(v2, 'test_things')).toEqual([
      { name: 'a', total: 5, last_seq: 3, events: 2 },
      { name: 'b', total: 7, last_seq: 6, events: 1 },
      { name: 'c', total: 1, last_seq: 5, events: 1 },
    ]);
    expect(v2.stats().projections).toEqual([expect.objectContaining({ name: 'test_things', version: 2, lastSeq: 6 })]);
  });

  it('catches up a projection on events appended by a process that did not load it', () => {
    const path = tempStorePath();
    const withIt = openStore({ path, projections: [thingsProjection()] });
    const without = openStore({ path });
    without.appendMany([thing('a', 1), thing('b', 2)]);
    appendThing(withIt, 'a', 10);
    expect(tableContents(withIt, 'test_things')).toEqual([
      { name: 'a', total: 11, last_seq: 3 },
      { name: 'b', total: 2, last_seq: 2 },
    ]);
    appendThing(without, 'c', 3);
    withIt.close();
    const reopened = openStore({ path, projections: [thingsProjection()] });
    expect(tableContents(reopened, 'test_things')).toHaveLength(3);
    expect(reopened.stats().projections[0].lastSeq).toBe(4);
  });

  it('refuses to append with a projection version another process has replaced', () => {
    const path = tempStorePath();
    const old = openStore({ path, projections: [thingsProjection(1)] });
    openStore({ path, projections: [thingsProjection(2)] });
    expect(() => appendThing(old, 'a')).toThrow(/version 2, but this process runs version 1/);
    expect(old.lastSeq()).toBe(0);
  });

  it('refuses projections that would own store tables or collide', () => {
    expect(() => openStore({ projections: [{ ...thingsProjection(), tables: ['events'] }] })).toThrow(/may not own/);
    expect(() => openStore({ projections: [thingsProjection(), thingsProjection()] })).toThrow(/registered twice/);
  });
});

describe('side tables', () => {
  const counters = (...extra: StoreTable['migrations']): StoreTable => ({
    owner: 'test',
    name: 'test_counters',
    migrations: ['CREATE TABLE IF NOT EXISTS test_counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL)', ...extra],
  });
  const steps = (store: EventStore) =>
    store.prepareRead('SELECT table_name, step, owner FROM store_table_steps ORDER BY 1, 2').all();

  it('creates a declared table at open and applies each step once, including steps added later', () => {
    const path = tempStorePath();
    openStore({ path, tables: [counters()] }).close();
    const raw = rawConnection(path);
    raw.prepare('INSERT INTO test_counters VALUES (?, ?)').run('kept', 1);
    // Reopening must not re-run step 1 (nor fail on it); a new step runs once and is recorded.
    const store = openStore({ path, tables: [counters({ addColumn: 'note', type: 'TEXT' })] });
    expect(steps(store)).toEqual([
      { table_name: 'test_counters', step: 1, owner: 'test' },
      { table_name: 'test_counters', step: 2, owner: 'test' },
    ]);
    expect(store.prepareRead('SELECT * FROM test_counters').all()).toEqual([{ name: 'kept', n: 1, note: null }]);
    store.close();
    const again = openStore({ path, tables: [counters({ addColumn: 'note', type: 'TEXT' })] });
    expect(steps(again)).toHaveLength(2);
  });

  it('writes in one transaction: everything the function wrote, or nothing when it throws', () => {
    const store = openStore({ tables: [counters()] });
    const changes = store.writeTables((t) => {
      t.run('INSERT INTO test_counters VALUES (?, ?)', 'a', 1);
      t.run('INSERT INTO test_counters VALUES (?, ?)', 'b', 2);
      return t.run('UPDATE test_counters SET n = n + 1').changes;
    });
    expect(changes).toBe(2);
    expect(() =>
      store.writeTables((t) => {
        t.run('DELETE FROM test_counters');
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    expect(store.prepareRead('SELECT * FROM test_counters ORDER BY name').all()).toEqual([
      { name: 'a', n: 2 },
      { name: 'b', n: 3 },
    ]);
    expect(store.writeTables((t) => t.get('SELECT n FROM test_counters WHERE name = ?', 'b'))).toEqual({ n: 3 });
  });

  it("refuses, from SQLite's plan, any write outside the declared side tables", () => {
    const store = openStore({ projections: [thingsProjection()], tables: [counters()] });
    appendThing(store, 'a');
    const refused = /may write only the declared side tables \(test_counters\)/;
    expect(() =>
      store.writeTables((t) =>
        t.run(
          `INSERT INTO events (seq, id, at, type, v, stream, actor, actor_kind, data, prev_hash, hash) VALUES (2, 'x', 0, 't', 1, 's', '{}', 'cli', '{}', '', '')`,
        ),
      ),
    ).toThrow(refused);
    expect(() => store.writeTables((t) => t.run('DELETE FROM test_things'))).toThrow(refused);
    expect(() => store.writeTables((t) => t.run('UPDATE test_things SET total = 0 WHERE name = ?', 'a'))).toThrow(
      refused,
    );
    expect(() => store.writeTables((t) => t.run('CREATE TABLE sneaky (x)'))).toThrow(refused);
    expect(() => store.writeTables((t) => t.run('DROP TABLE test_counters'))).toThrow(refused);
    expect(() =>
      store.writeTables((t) => t.run('INSERT INTO store_table_steps VALUES (?, 9, ?, 0)', 'x', 'y')),
    ).toThrow(refused);
    expect(store.verify().ok).toBe(true);
    expect(tableContents(store, 'test_things')).toEqual([{ name: 'a', total: 1, last_seq: 1 }]);
    // Reading anything is fine, and the handle dies with its call.
    let kept: SideTableWriter | undefined;
    const count = store.writeTables((t) => {
      kept = t;
      return t.get('SELECT count(*) AS n FROM events');
    });
    expect(count).toEqual({ n: 1 });
    expect(() => kept!.run('DELETE FROM test_counters')).toThrow(/used after its writeTables call returned/);
  });

  it('hands out only statements that cannot write, and keeps writing out of read-only stores', () => {
    const path = tempStorePath();
    const store = openStore({ path, tables: [counters()] });
    expect(() => store.prepareRead('DELETE FROM test_counters')).toThrow(/only read/);
    expect(() => store.prepareRead(`INSERT INTO test_counters VALUES ('a', 1)`)).toThrow(/only read/);
    expect(store.prepareRead('SELECT count(*) AS n FROM test_counters').get()).toEqual({ n: 0 });
    const reader = openStore({ path, readonly: true, tables: [counters()] });
    expect(() => reader.writeTables(() => undefined)).toThrow(StoreUnavailableError);
  });

  it('refuses declarations that would share or shadow a table', () => {
    expect(() => openStore({ tables: [{ ...counters(), name: 'events' }] })).toThrow(/store's own table/);
    expect(() => openStore({ tables: [{ ...counters(), name: 'store_table_steps' }] })).toThrow(/store's own table/);
    expect(() =>
      openStore({ projections: [thingsProjection()], tables: [{ ...counters(), name: 'test_things' }] }),
    ).toThrow(/also a table of projection "test_things"/);
    expect(() => openStore({ tables: [counters(), counters()] })).toThrow(/declared twice/);
    expect(() => openStore({ tables: [{ ...counters(), migrations: [] }] })).toThrow(/at least one migration step/);
    expect(() => openStore({ tables: [counters({ addColumn: 'x; DROP TABLE events', type: 'TEXT' })] })).toThrow(
      /each step is SQL or/,
    );
    expect(() => openStore({ tables: [{ ...counters(), owner: '' }] })).toThrow(/needs an owner/);
  });
});

describe('onAppended', () => {
  it('calls listeners after commit in seq order; a throwing listener affects nothing else', () => {
    const errors: unknown[] = [];
    const store = openStore({ onListenerError: (e) => errors.push(e) });
    const seen: number[] = [];
    const other: number[] = [];
    store.onAppended(() => {
      throw new Error('listener bug');
    });
    store.onAppended((e) => {
      // No transaction is open any more: a listener may write.
      expect(() => store.writeTables(() => undefined)).not.toThrow();
      seen.push(e.seq);
      if (e.seq === 1) appendThing(store, 'nested');
    });
    const stop = store.onAppended((e) => other.push(e.seq));
    expect(appendThing(store, 'a').seq).toBe(1);
    store.appendMany([thing('b'), thing('c')]);
    stop();
    appendThing(store, 'd');
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(other).toEqual([1, 2, 3, 4]);
    expect(errors).toHaveLength(5);
  });
});

describe('opening', () => {
  it('creates missing parent directories', () => {
    const path = join(tempDir(), 'a', 'b', 'events.db');
    expect(openStore({ path }).path).toBe(path);
  });

  it('throws StoreUnavailableError for a file that is not SQLite', () => {
    const path = tempStorePath();
    writeFileSync(path, 'this is not a database\n'.repeat(200));
    let error: unknown;
    try {
      openStore({ path });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toBe('STORE_UNAVAILABLE');
    expect((error as Error).message).toContain(`${path} is not a readable droidwright event log`);
    expect((error as Error).message).toContain('mv ');
  });

  it("throws StoreUnavailableError for another application's SQLite file", () => {
    const path = tempStorePath();
    const other = new Database(path);
    other.exec('CREATE TABLE customers (id INTEGER)');
    other.close();
    expect(() => openStore({ path })).toThrow(/a SQLite database but not a droidwright event log/);
  });

  it('throws StoreUnavailableError when the directory cannot be created', () => {
    const file = join(tempDir(), 'plain-file');
    writeFileSync(file, '');
    expect(() => openStore({ path: join(file, 'events.db') })).toThrow(StoreUnavailableError);
    expect(() => openStore({ path: join(file, 'events.db') })).toThrow(/set DROIDWRIGHT_HOME to a writable directory/);
  });

  itWithUnwritableDirs('throws StoreUnavailableError for a directory this user cannot write', () => {
    const dir = tempDir();
    makeUnwritable(dir);
    try {
      expect(() => openStore({ path: join(dir, 'events.db') })).toThrow(/Cannot open the event log .* for writing/);
    } finally {
      makeWritable(dir);
    }
  });

  it('throws StoreUnavailableError when another process holds the lock beyond the timeout', () => {
    const path = tempStorePath();
    const holder = rawConnection(path);
    holder.exec('BEGIN IMMEDIATE');
    holder.exec(
      'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    expect(() => openStore({ path, busyTimeoutMs: 50 })).toThrow(
      /stayed locked by another process for more than 50 ms/,
    );
    holder.exec('ROLLBACK');
    const store = openStore({ path, busyTimeoutMs: 50 });
    holder.exec('BEGIN IMMEDIATE');
    let error: unknown;
    try {
      appendThing(store, 'a');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as { cause?: { code?: string } }).cause?.code).toMatch(/^SQLITE_BUSY/);
    holder.exec('ROLLBACK');
    expect(appendThing(store, 'a').seq).toBe(1);
  });

  it('opens a copy read-only without writing to it', () => {
    const writer = openStore({ projections: [thingsProjection()] });
    writer.appendMany([thing('a'), thing('b')]);
    writer.close();
    const copy = join(tempDir(), 'copy.db');
    copyFileSync(writer.path, copy);
    const before = createHash('sha256').update(readFileSync(copy)).digest('hex');
    // A newer projection version must not trigger a rebuild in read-only mode.
    const reader = openStore({ path: copy, readonly: true, projections: [thingsProjection(2)] });
    expect(reader.verify()).toEqual({ ok: true, checked: 2, lastSeq: 2 });
    expect(reader.query().map((e) => e.seq)).toEqual([2, 1]);
    expect(() => appendThing(reader, 'c')).toThrow(/opened read-only/);
    expect(() => reader.rebuildProjections()).toThrow(StoreUnavailableError);
    reader.close();
    expect(createHash('sha256').update(readFileSync(copy)).digest('hex')).toBe(before);
    rmSync(copy);
    expect(() => openStore({ path: copy, readonly: true })).toThrow(/no event log at/);
  });

  it('opens read-only, without migrating, a log an older droidwright left at schema 1', () => {
    const writer = openStore();
    writer.appendMany([thing('a'), thing('b')]);
    writer.close();
    // Back to schema 1 as that droidwright wrote it: no side-table bookkeeping yet.
    const raw = rawConnection(writer.path);
    raw.exec('DROP TABLE store_table_steps; DELETE FROM schema_version WHERE version > 1');
    raw.close();
    const reader = openStore({ path: writer.path, readonly: true });
    expect(reader.verify()).toEqual({ ok: true, checked: 2, lastSeq: 2 });
    expect(reader.stats()).toMatchObject({ events: 2, schemaVersion: 1 });
    reader.close();
    // A writer migrates it.
    expect(openStore({ path: writer.path }).stats().schemaVersion).toBe(2);
  });

  itWithUnwritableDirs('opens read-only a copy on media where SQLite cannot create its -shm file', () => {
    const writer = openStore();
    writer.appendMany([thing('a'), thing('b'), thing('c')]);
    writer.close();
    const dir = tempDir();
    const copy = join(dir, 'events.db');
    copyFileSync(writer.path, copy);
    makeUnwritable(dir, '0555');
    try {
      const reader = openStore({ path: copy, readonly: true });
      expect(reader.verify({ full: true })).toEqual({ ok: true, checked: 3, lastSeq: 3 });
      expect(reader.stats()).toMatchObject({ events: 3, schemaVersion: 2 });
      expect(() => appendThing(reader, 'd')).toThrow(StoreUnavailableError);
    } finally {
      makeWritable(dir);
    }
  });

  it('throws StoreUnavailableError after close', () => {
    const store = openStore();
    store.close();
    expect(() => appendThing(store, 'a')).toThrow(/was closed/);
    expect(() => store.query()).toThrow(StoreUnavailableError);
  });
});
