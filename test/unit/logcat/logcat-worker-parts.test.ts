import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogcatEntry } from '../../../src/android/logcat/logcat-entry.js';
import { EventStore } from '../../../src/events/event-store.js';
import type { ProcessIdentity } from '../../../src/kernel/process-identity.js';
import { logcatTables, logcatWorkersTable } from '../../../src/plugins/logcat/logcat-tables.js';
import { LogcatLease } from '../../../src/plugins/logcat/services/logcat-lease.js';
import { logcatCommand, ResumeBoundary } from '../../../src/plugins/logcat/services/logcat-worker.js';
import {
  parseProcessTable,
  PidPackages,
  PS_REFRESH_MIN_MS,
} from '../../../src/plugins/logcat/services/pid-packages.js';
import { agentActor, testActor, testCatalog } from '../../support/event-store-fixtures.js';

const SERVER: ProcessIdentity = { pid: 111, startTime: '5000' };
const WORKER: ProcessIdentity = { pid: 222, startTime: '6000' };
const OTHER: ProcessIdentity = { pid: 333, startTime: '7000' };
const alive = () => true;
const dead = () => false;

describe('LogcatLease', () => {
  let dir: string;
  let store: EventStore;
  let lease: LogcatLease;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-logcat-lease-'));
    store = EventStore.open({ path: join(dir, 'events.db'), catalog: testCatalog(), tables: logcatTables });
    lease = new LogcatLease(store);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives a device to one process, hands it to the worker, and refuses a second claimant while it lives', () => {
    expect(lease.claim('emulator-5554', SERVER, agentActor, alive)).toEqual({ claimed: true, previous: null });
    expect(lease.claim('emulator-5554', OTHER, testActor, alive)).toMatchObject({
      claimed: false,
      holder: { pid: 111, state: 'starting', actor: agentActor },
    });
    expect(lease.handOver('emulator-5554', OTHER, WORKER)).toBe(false);
    expect(lease.handOver('emulator-5554', SERVER, WORKER)).toBe(true);
    expect(lease.markStreaming('emulator-5554', SERVER)).toBe(false);
    expect(lease.markStreaming('emulator-5554', WORKER)).toBe(true);
    expect(lease.read('emulator-5554')).toMatchObject({
      pid: 222,
      startTime: '6000',
      state: 'streaming',
      tookOver: null,
    });
    // Another device is free.
    expect(lease.claim('emulator-5556', OTHER, testActor, alive)).toMatchObject({ claimed: true });
  });

  it("takes over a dead streaming worker's lease, names it, and keeps where the stream got to", () => {
    lease.claim('s1', SERVER, agentActor, alive);
    lease.handOver('s1', SERVER, WORKER);
    lease.markStreaming('s1', WORKER);
    lease.progress('s1', WORKER, 1_700_000_000_123, 99);
    const taken = lease.claim('s1', OTHER, testActor, dead);
    expect(taken).toMatchObject({ claimed: true, previous: { pid: 222, state: 'streaming' } });
    expect(lease.read('s1')).toMatchObject({
      pid: 333,
      state: 'starting',
      tookOver: 222,
      resumeMs: 1_700_000_000_123,
      lastLineAt: 99,
      actor: testActor,
    });
    // A requester that died before its hand-over passes the dead worker's name on to the next claimant.
    expect(lease.claim('s1', SERVER, agentActor, dead)).toMatchObject({ claimed: true });
    expect(lease.read('s1')).toMatchObject({ pid: 111, tookOver: 222 });
  });

  it('a finished lease is free without a take-over; stop requests and touches reach only a live row', () => {
    lease.claim('s1', SERVER, agentActor, alive);
    lease.handOver('s1', SERVER, WORKER);
    lease.markStreaming('s1', WORKER);
    lease.touch('s1', 5);
    expect(lease.read('s1')!.touchedAt).toBeGreaterThan(5);
    lease.touch('s1', Date.now() + 60_000);
    expect(lease.read('s1')!.touchedAt).toBeGreaterThan(Date.now());
    expect(lease.requestStop('s1', testActor)).toBe(true);
    expect(lease.read('s1')!.stopActor).toEqual(testActor);
    lease.finish('s1', WORKER);
    expect(lease.read('s1')).toMatchObject({ state: 'stopped' });
    expect(lease.requestStop('s1', testActor)).toBe(false);
    expect(lease.claim('s1', OTHER, agentActor, alive)).toMatchObject({ claimed: true });
    expect(lease.read('s1')).toMatchObject({ pid: 333, tookOver: null, stopActor: null });
  });

  it('keeps one worker per device and host: the same serial on two machines is two devices', () => {
    const laptopA = new LogcatLease(store, 'laptop-a');
    const laptopB = new LogcatLease(store, 'laptop-b');
    expect(laptopA.claim('emulator-5554', SERVER, agentActor, alive)).toEqual({ claimed: true, previous: null });
    expect(laptopB.claim('emulator-5554', OTHER, testActor, alive)).toEqual({ claimed: true, previous: null });
    // The same host twice cannot.
    expect(new LogcatLease(store, 'laptop-a').claim('emulator-5554', OTHER, testActor, alive)).toMatchObject({
      claimed: false,
      holder: { host: 'laptop-a', pid: 111 },
    });
    // Hand-overs, stop requests, touches and ends reach only the row of their own host.
    expect(laptopB.handOver('emulator-5554', SERVER, WORKER)).toBe(false);
    expect(laptopA.handOver('emulator-5554', SERVER, WORKER)).toBe(true);
    expect(laptopA.markStreaming('emulator-5554', WORKER)).toBe(true);
    expect(laptopB.requestStop('emulator-5554', testActor)).toBe(true);
    expect(laptopA.read('emulator-5554')).toMatchObject({ state: 'streaming', stopActor: null });
    laptopB.finish('emulator-5554', WORKER);
    expect(laptopA.read('emulator-5554')).toMatchObject({ host: 'laptop-a', pid: 222, state: 'streaming' });
    expect(laptopB.read('emulator-5554')).toMatchObject({ host: 'laptop-b', pid: 333, state: 'starting' });
  });

  it("never takes over another machine's worker because its pid is absent here", () => {
    const laptopA = new LogcatLease(store, 'laptop-a');
    const far = { pid: 2 ** 22 + 4321, startTime: '1' };
    laptopA.claim('s1', far, agentActor, alive);
    laptopA.handOver('s1', far, far);
    laptopA.markStreaming('s1', far);
    // Laptop B does not see laptop A's row at all: its claim is of its own device, with nothing taken over.
    expect(new LogcatLease(store, 'laptop-b').claim('s1', OTHER, testActor, dead)).toEqual({
      claimed: true,
      previous: null,
    });
    expect(laptopA.read('s1')).toMatchObject({ pid: far.pid, state: 'streaming' });
    // On its own host the dead worker is taken over and named.
    expect(laptopA.claim('s1', SERVER, agentActor)).toMatchObject({ claimed: true, previous: { pid: far.pid } });
    expect(laptopA.read('s1')).toMatchObject({ pid: 111, tookOver: far.pid });
  });

  it('adopts a lease written before hosts were recorded, keeping its worker and resume point', () => {
    const path = join(dir, 'old.db');
    EventStore.open({ path, catalog: testCatalog(), tables: [] }).close();
    const old = new Database(path);
    old.exec(logcatWorkersTable.migrations[0] as string);
    old
      .prepare(
        "INSERT INTO store_table_steps (table_name, step, owner, applied_at) VALUES ('logcat_workers', 1, 'logcat', 0)",
      )
      .run();
    old
      .prepare(
        "INSERT INTO logcat_workers (device_serial, pid, pid_start, state, actor, started_at, touched_at, resume_ms) VALUES ('s1', 222, '6000', 'streaming', '{}', 1, 1, 1700000000123)",
      )
      .run();
    old.close();
    const upgraded = EventStore.open({ path, catalog: testCatalog(), tables: logcatTables });
    try {
      const here = new LogcatLease(upgraded, 'laptop-a');
      expect(here.read('s1')).toBeNull();
      expect(here.claim('s1', SERVER, agentActor, alive)).toMatchObject({
        claimed: false,
        holder: { host: 'laptop-a', pid: 222, state: 'streaming' },
      });
      expect(here.claim('s1', SERVER, agentActor, dead)).toMatchObject({ claimed: true });
      expect(here.read('s1')).toMatchObject({ pid: 111, tookOver: 222, resumeMs: 1_700_000_000_123 });
    } finally {
      upgraded.close();
    }
  });
});

function entry(timeMs: number, message: string, extra: Partial<LogcatEntry> = {}): LogcatEntry {
  return { time: '', timeMs, pid: 10, tid: 11, level: 'I', tag: 'T', message, ...extra };
}

describe('ResumeBoundary', () => {
  it('skips each stored line of the resume millisecond once, and nothing after it', () => {
    const stored = [entry(1000, 'a'), entry(1000, 'b'), entry(1000, 'b'), entry(999, 'old')];
    const boundary = new ResumeBoundary(1000, stored);
    expect(boundary.repeats(entry(1000, 'a'))).toBe(true);
    expect(boundary.repeats(entry(1000, 'a'))).toBe(false);
    expect(boundary.repeats(entry(1000, 'b'))).toBe(true);
    expect(boundary.repeats(entry(1000, 'b', { tid: 12 }))).toBe(false);
    expect(boundary.repeats(entry(1000, 'b'))).toBe(true);
    expect(boundary.repeats(entry(1000, 'b'))).toBe(false);
    expect(boundary.repeats(entry(1001, 'c'))).toBe(false);
    // Once past the millisecond, even a line equal to a stored one is new.
    const again = new ResumeBoundary(1000, [entry(1000, 'x')]);
    expect(again.repeats(entry(1001, 'y'))).toBe(false);
    expect(again.repeats(entry(1000, 'x'))).toBe(false);
  });
});

describe('logcatCommand', () => {
  it('reads the default buffers in binary, from an epoch time when resuming', () => {
    expect(logcatCommand(null).text).toBe("logcat -B -b 'main,system,crash'");
    expect(logcatCommand(1_700_000_000_007).text).toBe("logcat -B -b 'main,system,crash' -T '1700000000.007'");
  });
});

describe('PidPackages', () => {
  it('reads app processes from ps, leaves daemons without a package and strips process suffixes', () => {
    const table = parseProcessTable(
      '  PID NAME\n    1 init\n  612 /system/bin/surfaceflinger\n  901 system_server\n 4242 com.example.notes\n 4243 com.example.notes:sync\n garbage\n',
    );
    expect([...table]).toEqual([
      [1, null],
      [612, null],
      [901, null],
      [4242, 'com.example.notes'],
      [4243, 'com.example.notes'],
    ]);
  });

  it('reads ps again for an unknown pid, waiting out the interval since the last read', async () => {
    let now = 0;
    let runs = 0;
    const waits: number[] = [];
    let output = '  PID NAME\n 100 com.a\n';
    const pids = new PidPackages(
      async () => {
        runs++;
        return output;
      },
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
    );
    await pids.refreshFor(new Set([100]));
    expect(runs).toBe(1);
    expect(pids.packageOf(100)).toBe('com.a');
    await pids.refreshFor(new Set([100]));
    expect(runs).toBe(1);
    output += ' 200 com.b\n';
    now += 100;
    await pids.refreshFor(new Set([200]));
    expect(runs).toBe(2);
    expect(waits).toEqual([PS_REFRESH_MIN_MS - 100]);
    expect(pids.packageOf(200)).toBe('com.b');
    // A pid ps does not list is not asked about again.
    now += PS_REFRESH_MIN_MS;
    await pids.refreshFor(new Set([300]));
    await pids.refreshFor(new Set([300]));
    expect(runs).toBe(3);
    expect(pids.packageOf(300)).toBeNull();
  });
});
