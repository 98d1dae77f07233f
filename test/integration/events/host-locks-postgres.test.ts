// The per-machine locks (build lock, UI capture lock, logcat lease) on a PostgreSQL store that several machines
// share: their tables made by their steps on a fresh database, their SQL through the PostgreSQL adapter, and two
// hosts playing two laptops. One cluster for this file, a database per test.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { EventStore } from '../../../src/events/event-store.js';
import type { ProcessIdentity } from '../../../src/kernel/process-identity.js';
import { buildTables } from '../../../src/plugins/build/build-tables.js';
import { BuildLock } from '../../../src/plugins/build/services/build-lock.js';
import { logcatTables } from '../../../src/plugins/logcat/logcat-tables.js';
import { LogcatLease } from '../../../src/plugins/logcat/services/logcat-lease.js';
import { UiCaptureLock } from '../../../src/plugins/ui/services/ui-capture-lock.js';
import { uiTables } from '../../../src/plugins/ui/ui-tables.js';
import { agentActor, testActor, testCatalog } from '../../support/event-store-fixtures.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';

let cluster: PostgresCluster;
const open: EventStore[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(() => {
  for (const store of open) store.close();
  cluster?.stop();
});

/** Two connections to one database: laptop A's process and laptop B's. */
function twoMachines(): [EventStore, EventStore] {
  const url = cluster.createDatabase();
  const options = { path: url, catalog: testCatalog(), tables: [...buildTables, ...uiTables, ...logcatTables] };
  const a = EventStore.open(options);
  open.push(a);
  const b = EventStore.open(options);
  open.push(b);
  return [a, b];
}

const P1: ProcessIdentity = { pid: 111, startTime: '5000' };
const P2: ProcessIdentity = { pid: 222, startTime: null };
/** A pid above Linux's largest: absent on every machine, as another machine's holder is here. */
const ELSEWHERE: ProcessIdentity = { pid: 2 ** 22 + 777, startTime: '1' };
const alive = () => true;

test('build lock: one per project and host; another host never breaks it', () => {
  const [storeA, storeB] = twoMachines();
  const laptopA = new BuildLock(storeA, 'laptop-a');
  const laptopB = new BuildLock(storeB, 'laptop-b');
  expect(laptopA.acquire('/home/dev/app', 'a1', ELSEWHERE, alive)).toEqual({ acquired: true, staleHolder: null });
  // Same path on another machine: another project. The holder's pid is absent here and is not judged.
  expect(laptopB.acquire('/home/dev/app', 'b1', P2)).toEqual({ acquired: true, staleHolder: null });
  expect(laptopB.reapIfDead('a1')).toBeNull();
  // Same host twice: refused while the holder lives, taken over when it is dead.
  expect(new BuildLock(storeB, 'laptop-a').acquire('/home/dev/app', 'a2', P1, alive)).toMatchObject({
    acquired: false,
    holder: { host: 'laptop-a', buildId: 'a1' },
  });
  expect(laptopA.handOver('a1', ELSEWHERE, P1)).toBe(true);
  laptopA.setGradle('a1', P2);
  expect(laptopA.holderOf('a1')).toMatchObject({ pid: 111, startTime: '5000', gradle: { pid: 222, startTime: null } });
  expect(laptopA.reapIfDead('a1', () => false)).toMatchObject({ host: 'laptop-a', buildId: 'a1' });
  laptopB.release('/home/dev/app', 'b1');
  expect(laptopB.holder('/home/dev/app')).toBeNull();
});

test('UI capture lock: one per device and host; another host never breaks it', () => {
  const [storeA, storeB] = twoMachines();
  const held = new UiCaptureLock(storeA, ELSEWHERE, alive, 'laptop-a').tryAcquire('emulator-5554');
  expect(held.acquired).toBe(true);
  expect(new UiCaptureLock(storeB, P2, undefined, 'laptop-b').tryAcquire('emulator-5554').acquired).toBe(true);
  expect(new UiCaptureLock(storeB, P1, alive, 'laptop-a').tryAcquire('emulator-5554')).toMatchObject({
    acquired: false,
    holder: { host: 'laptop-a', pid: ELSEWHERE.pid },
  });
  if (held.acquired) new UiCaptureLock(storeA, ELSEWHERE, alive, 'laptop-a').release('emulator-5554', held.token);
  expect(new UiCaptureLock(storeB, P1, alive, 'laptop-a').tryAcquire('emulator-5554').acquired).toBe(true);
});

test('logcat lease: one worker per device and host; another host never takes it over', () => {
  const [storeA, storeB] = twoMachines();
  const laptopA = new LogcatLease(storeA, 'laptop-a');
  const laptopB = new LogcatLease(storeB, 'laptop-b');
  expect(laptopA.claim('emulator-5554', P1, agentActor, alive)).toEqual({ claimed: true, previous: null });
  expect(laptopA.handOver('emulator-5554', P1, ELSEWHERE)).toBe(true);
  expect(laptopA.markStreaming('emulator-5554', ELSEWHERE)).toBe(true);
  laptopA.progress('emulator-5554', ELSEWHERE, 1_700_000_000_123, 5);
  laptopA.touch('emulator-5554', Date.now() + 60_000);
  expect(laptopB.claim('emulator-5554', P2, testActor)).toEqual({ claimed: true, previous: null });
  expect(laptopB.requestStop('emulator-5554', testActor)).toBe(true);
  expect(laptopA.read('emulator-5554')).toMatchObject({
    host: 'laptop-a',
    pid: ELSEWHERE.pid,
    state: 'streaming',
    stopActor: null,
    resumeMs: 1_700_000_000_123,
  });
  // On its own host the dead worker is taken over, named, and its resume point kept.
  expect(laptopA.claim('emulator-5554', P1, agentActor)).toMatchObject({ claimed: true });
  laptopA.finish('emulator-5554', P1);
  expect(laptopA.read('emulator-5554')).toMatchObject({ state: 'stopped', resumeMs: 1_700_000_000_123 });
});
