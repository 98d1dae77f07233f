import Database from 'better-sqlite3';
import { EventStore, type EventStoreOptions } from '../../../src/events/event-store.js';
import { verifyExportLines } from '../../../src/events/event-verifier.js';
import {
  removeTempDirs,
  removed,
  tempStorePath,
  testCatalog,
  appendThing,
  thing,
  thingsProjection,
} from '../../support/event-store-fixtures.js';

const open: { close(): void }[] = [];
function openStore(options: Partial<EventStoreOptions> = {}): EventStore {
  const store = EventStore.open({ path: options.path ?? tempStorePath(), catalog: testCatalog(), ...options });
  open.push(store);
  return store;
}
afterEach(() => {
  for (const item of open.splice(0)) item.close();
});
afterAll(removeTempDirs);

/** A second connection that edits rows the way an attacker with the file would (triggers dropped). */
function tamper(store: EventStore): Database.Database {
  const raw = new Database(store.path);
  open.push(raw);
  raw.exec('DROP TRIGGER events_refuse_update; DROP TRIGGER events_refuse_delete;');
  return raw;
}

describe('canonical storage', () => {
  function fiveThings(): EventStore {
    const store = openStore();
    store.appendMany(Array.from({ length: 5 }, (_, i) => thing(`t${i}`, i)));
    return store;
  }

  it('fails a row with a duplicate key that still hashes like the original, naming its seq', () => {
    const store = fiveThings();
    const raw = tamper(store);
    // JSON.parse keeps the last "count" (the hashed 3); SQLite's json_extract reads the first (999).
    raw.prepare('UPDATE events SET data = ? WHERE seq = 4').run('{"count":999,"count":3,"name":"t3"}');
    expect(
      (raw.prepare(`SELECT json_extract(data, '$.count') AS n FROM events WHERE seq = 4`).get() as { n: number }).n,
    ).toBe(999);
    expect(store.verify()).toMatchObject({
      ok: false,
      firstBadSeq: 4,
      lastSeq: 3,
      reason: expect.stringContaining('data is not stored as its canonical JSON'),
    });
  });

  it('fails re-serialized whitespace in data and in actor', () => {
    const store = fiveThings();
    const raw = tamper(store);
    raw.prepare('UPDATE events SET data = ? WHERE seq = 2').run('{"count": 1, "name": "t1"}');
    expect(store.verify()).toMatchObject({ ok: false, firstBadSeq: 2, reason: expect.stringMatching(/^data is not/) });
    raw.prepare('UPDATE events SET data = ? WHERE seq = 2').run('{"count":1,"name":"t1"}');
    raw.prepare('UPDATE events SET actor = ? WHERE seq = 5').run('{"pid":4242,"kind":"cli"}');
    expect(store.verify()).toMatchObject({ ok: false, firstBadSeq: 5, reason: expect.stringMatching(/^actor is not/) });
  });

  it('fails a row whose integer column holds text', () => {
    const store = fiveThings();
    const raw = tamper(store);
    raw.prepare(`UPDATE events SET at = 'yesterday' WHERE seq = 3`).run();
    expect(store.verify()).toMatchObject({ ok: false, firstBadSeq: 3, reason: 'column at is not an integer' });
  });
});

describe('verify with projections', () => {
  function withThings(): EventStore {
    const store = openStore({ projections: [thingsProjection()] });
    store.appendMany([thing('a', 2), thing('b', 5), thing('a', 3), removed('b'), thing('c', 1)]);
    return store;
  }

  it('passes when every read model equals a replay of the log', () => {
    const store = withThings();
    expect(store.verify({ projections: true })).toEqual({
      ok: true,
      checked: 5,
      lastSeq: 5,
      projections: ['test_things'],
    });
  });

  it('fails a hand-inserted row, which the chain alone does not see', () => {
    const store = withThings();
    const raw = new Database(store.path);
    open.push(raw);
    raw.prepare('INSERT INTO test_things (name, total, last_seq) VALUES (?, ?, ?)').run('forged', 1, 1);
    expect(store.verify().ok).toBe(true);
    const result = store.verify({ projections: true });
    expect(result.ok).toBe(false);
    expect(result.reason).toBe(
      'read model test_things (projection test_things) differs from a replay of the log: the stored row {"last_seq":1,"name":"forged","total":1} is not produced by any event',
    );
  });

  it('fails an edited or deleted row, and a changed table shape', () => {
    const store = withThings();
    const raw = new Database(store.path);
    open.push(raw);
    raw.prepare(`UPDATE test_things SET total = 50 WHERE name = 'a'`).run();
    expect(store.verify({ projections: true }).reason).toContain('{"last_seq":3,"name":"a","total":50}');
    raw.prepare(`DELETE FROM test_things WHERE name = 'a'`).run();
    expect(store.verify({ projections: true }).reason).toContain(
      'the row {"last_seq":3,"name":"a","total":5} that the events produce is missing',
    );
    raw.exec('ALTER TABLE test_things ADD COLUMN note TEXT');
    expect(store.verify({ projections: true }).reason).toContain('its columns are (name, total, last_seq, note)');
  });

  it('compares a projection left behind by another process at its own checkpoint', () => {
    const path = tempStorePath();
    const store = openStore({ path, projections: [thingsProjection()] });
    appendThing(store, 'a', 1);
    // A process without the projection appends; the table and its checkpoint stay at seq 1.
    const bare = openStore({ path });
    appendThing(bare, 'b', 2);
    const reader = openStore({ path, projections: [thingsProjection()], readonly: true });
    expect(reader.verify({ projections: true })).toMatchObject({ ok: true, projections: ['test_things'] });
  });
});

describe('verifyExportLines', () => {
  function exportOf(store: EventStore): string[] {
    return store.query({ order: 'asc', limit: 1000 }).map((e) => JSON.stringify(e));
  }

  it('recomputes the chain of a full export', () => {
    const store = openStore();
    store.appendMany(Array.from({ length: 6 }, (_, i) => thing(`t${i}`, i)));
    expect(verifyExportLines(exportOf(store))).toEqual({ ok: true, checked: 6, lastSeq: 6 });
    expect(verifyExportLines([])).toEqual({ ok: true, checked: 0, lastSeq: 0 });
  });

  it('names the first line whose content no longer matches its hash', () => {
    const store = openStore();
    store.appendMany(Array.from({ length: 6 }, (_, i) => thing(`t${i}`, i)));
    const lines = exportOf(store);
    lines[3] = lines[3]!.replace('"count":3', '"count":4');
    expect(verifyExportLines(lines)).toMatchObject({ ok: false, firstBadSeq: 4, reason: 'hash mismatch' });
  });

  it('refuses a line that is not exactly what the exporter writes', () => {
    const store = openStore();
    store.appendMany(Array.from({ length: 3 }, (_, i) => thing(`t${i}`, i)));
    const lines = exportOf(store);
    lines[1] = lines[1]!.replace('"count":1', '"count":7,"count":1');
    expect(verifyExportLines(lines)).toMatchObject({
      ok: false,
      firstBadSeq: 2,
      reason: expect.stringMatching(/line 2/),
    });
  });

  it('verifies a tail export from its first line, fails a gap and checks anchors', () => {
    const store = openStore();
    const events = store.appendMany(Array.from({ length: 6 }, (_, i) => thing(`t${i}`, i)));
    const lines = exportOf(store);
    expect(verifyExportLines(lines.slice(2))).toEqual({ ok: true, checked: 4, lastSeq: 6, firstSeq: 3 });
    expect(verifyExportLines([...lines.slice(0, 2), ...lines.slice(3)])).toMatchObject({
      ok: false,
      firstBadSeq: 3,
      reason: expect.stringContaining('gap after seq 2'),
    });
    const anchor = { seq: 4, hash: events[3]!.hash, source: 'the digest' };
    expect(verifyExportLines(lines, [anchor])).toMatchObject({ ok: true, anchors: 1 });
    expect(verifyExportLines(lines.slice(0, 3), [anchor])).toMatchObject({
      ok: false,
      firstBadSeq: 4,
      reason: expect.stringContaining('events were removed'),
    });
  });
});
