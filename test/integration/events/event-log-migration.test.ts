/*
 * events migrate's core: a log copied between stores as stored (seq, id, at, actor, data, hashes), resumed from a
 * prefix, refused into a different chain or from a broken source with nothing written, and verified on both sides.
 * Every pair of real stores: SQLite files and PostgreSQL databases (one cluster for the file, a database per log).
 */
import Database from 'better-sqlite3';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { MigrationRefusedError, migrateEventLog } from '../../../src/events/event-log-migration.js';
import { EventStore } from '../../../src/events/event-store.js';
import {
  agentActor,
  removeTempDirs,
  removed,
  tempStorePath,
  testCatalog,
  thing,
  thingsProjection,
} from '../../support/event-store-fixtures.js';
import { truncateLog } from '../../support/log-tampering.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';

type Kind = 'sqlite' | 'postgres';
const open: EventStore[] = [];
let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgresCluster();
});

/** A place for a new, empty log of this kind. */
function newLocation(kind: Kind): string {
  return kind === 'sqlite' ? tempStorePath() : cluster.createDatabase('droidwright_migrate');
}

/** What someone with write access to the log's storage can do: change one event's data, hashes left as they were. */
function editEventData(kind: Kind, location: string, seq: number, data: string): void {
  if (kind === 'sqlite') {
    const db = new Database(location);
    db.exec('DROP TRIGGER IF EXISTS events_refuse_update');
    db.prepare('UPDATE events SET data = ? WHERE seq = ?').run(data, seq);
    db.close();
    return;
  }
  cluster.psql(
    `ALTER TABLE events DISABLE TRIGGER USER; UPDATE events SET data = '${data}' WHERE seq = ${seq}; ALTER TABLE events ENABLE TRIGGER USER;`,
    new URL(location).pathname.slice(1),
  );
}

/** Cuts the end off a log, leaving a valid chain. */
function truncate(kind: Kind, location: string, keepThroughSeq: number): void {
  if (kind === 'sqlite') {
    truncateLog(location, keepThroughSeq);
    return;
  }
  cluster.psql(
    `ALTER TABLE events DISABLE TRIGGER USER; DELETE FROM events WHERE seq > ${keepThroughSeq}; ALTER TABLE events ENABLE TRIGGER USER;`,
    new URL(location).pathname.slice(1),
  );
}

function openStore(path: string, readonly = false): EventStore {
  const store = EventStore.open({ path, catalog: testCatalog(), projections: [thingsProjection()], readonly });
  open.push(store);
  return store;
}

/** A log of `n` events with varied actors, subjects and data, written in batches like several processes would. */
function seed(store: EventStore, n: number, from = 0): void {
  for (let i = from; i < from + n; i += 250) {
    const batch = [];
    for (let j = i; j < Math.min(i + 250, from + n); j++) {
      batch.push(
        j % 7 === 6
          ? removed(`t${j % 13}`)
          : thing(`t${j % 13}`, j, {
              ...(j % 3 === 0 ? { actor: agentActor, device: 'emulator-5554', package: 'com.example' } : {}),
              ...(j % 5 === 0 ? { correlation: `c-${j}` } : {}),
            }),
      );
    }
    store.appendMany(batch);
  }
}

function all(store: EventStore): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (let after = 0; ; ) {
    const page = store.readAfter(after, 1000);
    if (page.length === 0) return events;
    events.push(...page);
    after = page[page.length - 1]!.seq;
  }
}

function thingRows(store: EventStore): unknown[] {
  return store.prepareRead('SELECT name, total, last_seq FROM test_things ORDER BY name').all();
}

afterEach(() => {
  for (const store of open.splice(0)) if (!store.closed) store.close();
});
afterAll(() => {
  cluster?.stop();
  removeTempDirs();
});

const pairs: [Kind, Kind][] = [
  ['sqlite', 'sqlite'],
  ['sqlite', 'postgres'],
  ['postgres', 'sqlite'],
  ['postgres', 'postgres'],
];

describe.each(pairs)('%s to %s', (from, to) => {
  test('a fresh copy holds every event as stored, its read models equal the source, and both sides verify', () => {
    const source = openStore(newLocation(from));
    seed(source, 2345);
    const destination = openStore(newLocation(to));
    const progress: [number, number][] = [];
    const report = migrateEventLog(source, destination, { onProgress: (c, t) => progress.push([c, t]) });

    expect(report).toMatchObject({ ok: true, copied: 2345, resumedAfter: 0, destinationAhead: 0 });
    expect([report.from.kind, report.to.kind]).toEqual([from, to]);
    expect(report.from.head).toEqual(source.digest());
    expect(report.to.head).toEqual(source.digest());
    expect(report.from.verify).toMatchObject({ ok: true, checked: 2345 });
    expect(report.to.verify).toMatchObject({ ok: true, checked: 2345 });
    // Paged: one importVerbatim (one transaction) per 1000 events.
    expect(progress).toEqual([
      [1000, 2345],
      [2000, 2345],
      [2345, 2345],
    ]);
    expect(all(destination)).toEqual(all(source));
    expect(thingRows(destination)).toEqual(thingRows(source));
    expect(destination.verify({ projections: true })).toMatchObject({ ok: true });
  });

  test('a copy that stopped part way resumes after the prefix the destination holds; a re-run copies only what is new', () => {
    const source = openStore(newLocation(from));
    seed(source, 1500);
    const destination = openStore(newLocation(to));
    // As if a first run was stopped after its first page.
    destination.importVerbatim(source.readAfter(0, 1000));

    const resumed = migrateEventLog(source, destination);
    expect(resumed).toMatchObject({ ok: true, copied: 500, resumedAfter: 1000 });

    seed(source, 40, 1500);
    const again = migrateEventLog(source, destination);
    expect(again).toMatchObject({ ok: true, copied: 40, resumedAfter: 1500 });
    expect(all(destination)).toEqual(all(source));

    const idle = migrateEventLog(source, destination);
    expect(idle).toMatchObject({ ok: true, copied: 0, resumedAfter: 1540, destinationAhead: 0 });
  });

  test('a destination that already extends the whole source (written to after the switch) is left as it is', () => {
    const source = openStore(newLocation(from));
    seed(source, 30);
    const destination = openStore(newLocation(to));
    migrateEventLog(source, destination);
    seed(destination, 5, 30);

    const report = migrateEventLog(source, destination);
    expect(report).toMatchObject({ ok: true, copied: 0, resumedAfter: 30, destinationAhead: 5 });
    expect(destination.lastSeq()).toBe(35);
  });

  test('two different chains are never merged: the destination is refused before anything is written', () => {
    const source = openStore(newLocation(from));
    seed(source, 50);
    const other = openStore(newLocation(to));
    seed(other, 20, 7);
    const before = other.digest();

    expect(() => migrateEventLog(source, other)).toThrow(MigrationRefusedError);
    expect(() => migrateEventLog(source, other)).toThrow(
      /holds a different log: its head \(seq 20, hash [0-9a-f]{12}…\) is not in the source .*whose event at seq 20 has hash [0-9a-f]{12}…\. Refusing to merge two chains; nothing was written/,
    );
    expect(other.digest()).toEqual(before);

    // Longer than the source and not extending it: refused too.
    const longer = openStore(newLocation(to));
    seed(longer, 80, 3);
    expect(() => migrateEventLog(source, longer)).toThrow(/holds a different log: it has 80 events/);
    expect(longer.lastSeq()).toBe(80);
  });

  test('a source that does not verify, or lost heads this machine witnessed, is not copied', () => {
    const path = newLocation(from);
    const source = openStore(path);
    seed(source, 40);
    source.close();
    editEventData(from, path, 12, '{"count":999,"name":"t12"}');
    const broken = openStore(path, true);
    const destination = openStore(newLocation(to));
    expect(() => migrateEventLog(broken, destination)).toThrow(/does not verify at seq 12.*Nothing was copied/);
    expect(destination.lastSeq()).toBe(0);

    // A truncated log is a valid chain; the witness head it no longer holds gives it away.
    const truncatedPath = newLocation(from);
    const full = openStore(truncatedPath);
    seed(full, 40);
    const head = full.digest();
    full.close();
    truncate(from, truncatedPath, 25);
    const truncated = openStore(truncatedPath, true);
    expect(() =>
      migrateEventLog(truncated, destination, {
        sourceAnchors: [{ seq: head.seq, hash: head.hash, source: 'the witness line 1' }],
      }),
    ).toThrow(/does not verify/);
    expect(destination.lastSeq()).toBe(0);
  });

  test('an empty source copies nothing and both sides verify', () => {
    const source = openStore(newLocation(from));
    const destination = openStore(newLocation(to));
    expect(migrateEventLog(source, destination)).toMatchObject({ ok: true, copied: 0, resumedAfter: 0 });
  });
});
