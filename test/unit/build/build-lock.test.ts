import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS } from '../../../src/events/event-schema.js';
import { EventStore } from '../../../src/events/event-store.js';
import { buildTables } from '../../../src/plugins/build/build-tables.js';
import { currentProcess, isProcessAlive, type ProcessIdentity } from '../../../src/kernel/process-identity.js';
import { BuildLock } from '../../../src/plugins/build/services/build-lock.js';
import {
  BuildLogWriter,
  MAX_LOG_LINE_BYTES,
  pruneBuildLogs,
} from '../../../src/plugins/build/services/build-log-writer.js';

import { testCatalog } from '../../support/event-store-fixtures.js';

function openLockStore(path: string, busyTimeoutMs?: number): EventStore {
  return EventStore.open({ path, catalog: testCatalog(), tables: buildTables, busyTimeoutMs });
}

const P1: ProcessIdentity = { pid: 111, startTime: '5000' };
const P2: ProcessIdentity = { pid: 222, startTime: '6000' };
const alive = () => true;

describe('BuildLock', () => {
  let dir: string;
  let store: EventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-lock-'));
    store = openLockStore(join(dir, 'events.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives one project to one build and names the holder', () => {
    const lock = new BuildLock(store);
    expect(lock.acquire('/p', 'b1', P1, alive)).toEqual({ acquired: true, staleHolder: null });
    expect(lock.acquire('/p', 'b2', P2, alive)).toMatchObject({
      acquired: false,
      holder: { buildId: 'b1', pid: 111, startTime: '5000' },
    });
    expect(lock.acquire('/other', 'b3', P2, alive)).toMatchObject({ acquired: true });
    lock.release('/p', 'b1');
    expect(lock.acquire('/p', 'b2', P2, alive)).toMatchObject({ acquired: true });
  });

  it('takes over a dead holder and reports it; a takeover survives the old holder releasing', () => {
    const lock = new BuildLock(store);
    lock.acquire('/p', 'b1', P1, alive);
    expect(lock.acquire('/p', 'b2', P2, (h) => h.pid !== 111)).toMatchObject({
      acquired: true,
      staleHolder: { buildId: 'b1', pid: 111 },
    });
    lock.release('/p', 'b1');
    expect(lock.holder('/p')).toMatchObject({ buildId: 'b2' });
  });

  it('lets exactly one caller reap an orphaned lock and hands it the Gradle group to stop', () => {
    const lock = new BuildLock(store);
    lock.acquire('/p', 'b1', P1, alive);
    lock.setGradle('b1', { pid: 333, startTime: '7000' });
    expect(lock.reapIfDead('b1', alive)).toBeNull();
    expect(lock.reapIfDead('b1', () => false)).toMatchObject({
      buildId: 'b1',
      gradle: { pid: 333, startTime: '7000' },
    });
    expect(lock.reapIfDead('b1', () => false)).toBeNull();
    expect(lock.holder('/p')).toBeNull();
  });

  it('hands a build over to its worker only from the process that holds it', () => {
    const lock = new BuildLock(store);
    lock.acquire('/p', 'b1', P1, alive);
    expect(lock.handOver('b1', { pid: 111, startTime: '9999' }, P2)).toBe(false);
    expect(lock.handOver('b1', P1, P2)).toBe(true);
    expect(lock.holderOf('b1')).toMatchObject({ pid: 222, startTime: '6000', gradle: null });
    expect(lock.handOver('b1', P1, P2)).toBe(false);
  });

  it('treats a reused pid (same pid, other start time) as a dead holder', () => {
    const lock = new BuildLock(store);
    const me = currentProcess();
    expect(isProcessAlive(me.pid, me.startTime)).toBe(true);
    // This test process's pid, recorded with another start time: the pid was reused since.
    const previousOwner: ProcessIdentity = {
      pid: process.pid,
      startTime: me.startTime === null ? null : String(Number(me.startTime) - 1),
    };
    lock.acquire('/p', 'b1', previousOwner, alive);
    const result = lock.acquire('/p', 'b2', me);
    if (me.startTime === null) {
      // No /proc: only the pid can be checked, and it is alive.
      expect(result.acquired).toBe(false);
    } else {
      expect(isProcessAlive(previousOwner.pid, previousOwner.startTime)).toBe(false);
      expect(result).toMatchObject({ acquired: true, staleHolder: { buildId: 'b1', pid: process.pid } });
    }
  });

  it.each([
    ['before holder identities', ''],
    ['with holder identities, made by BuildLock itself', ', pid_start TEXT, gradle_pgid INTEGER, gradle_start TEXT'],
  ])('opens a log whose lock table an older droidwright made (%s), adopting it once', (_, columns) => {
    // A log exactly as that droidwright left it: schema 1, and build_locks outside the store's contract.
    const path = join(dir, `old-${columns.length}.db`);
    const old = new Database(path);
    MIGRATIONS[0]!.up(old);
    old.exec(
      'CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    old.prepare('INSERT INTO schema_version VALUES (1, ?, 0)').run(MIGRATIONS[0]!.description);
    old.exec(
      `CREATE TABLE build_locks (project_root TEXT PRIMARY KEY, build_id TEXT NOT NULL, pid INTEGER NOT NULL, started_at INTEGER NOT NULL${columns})`,
    );
    old
      .prepare('INSERT INTO build_locks (project_root, build_id, pid, started_at) VALUES (?, ?, ?, ?)')
      .run('/p', 'old', 424242, 1);
    old.close();
    for (let open = 1; open <= 2; open++) {
      const upgraded = openLockStore(path);
      try {
        const lock = new BuildLock(upgraded, 'laptop-a');
        expect(upgraded.prepareRead('SELECT table_name, step FROM store_table_steps ORDER BY 1, 2').all()).toEqual([
          { table_name: 'build_live', step: 1 },
          ...[1, 2, 3, 4, 5, 6, 7, 8].map((step) => ({ table_name: 'build_locks', step })),
        ]);
        expect(
          (upgraded.prepareRead('PRAGMA table_info(build_locks)').all() as { name: string }[]).map((c) => c.name),
        ).toEqual([
          'host',
          'project_root',
          'build_id',
          'pid',
          'pid_start',
          'started_at',
          'gradle_pgid',
          'gradle_start',
        ]);
        if (open === 1) {
          // The old row was written on this machine before hosts were named: kept with host '', and the
          // first acquire of its project adopts it as this host's and judges its holder.
          expect(upgraded.prepareRead('SELECT host, build_id FROM build_locks').all()).toEqual([
            { host: '', build_id: 'old' },
          ]);
          expect(lock.acquire('/p', 'new', P1, alive)).toMatchObject({
            acquired: false,
            holder: { host: 'laptop-a', buildId: 'old', pid: 424242, startTime: null, gradle: null },
          });
          // The old holder (pid 424242) is gone: the lock is taken over and works with the new columns.
          expect(lock.acquire('/p', 'new', P1, (h) => h.pid !== 424242)).toMatchObject({
            acquired: true,
            staleHolder: { buildId: 'old' },
          });
          lock.setGradle('new', P2);
          expect(lock.holderOf('new')).toMatchObject({ pid: 111, startTime: '5000', gradle: P2 });
          lock.release('/p', 'new');
          lock.acquire('/p', 'old', { pid: 424242, startTime: null }, alive);
        } else {
          expect(lock.holder('/p')).toMatchObject({ host: 'laptop-a', buildId: 'old', pid: 424242, startTime: null });
        }
      } finally {
        upgraded.close();
      }
    }
  });

  it('keeps one lock per project and host: the same path on two machines is two projects', () => {
    const laptopA = new BuildLock(store, 'laptop-a');
    const laptopB = new BuildLock(store, 'laptop-b');
    expect(laptopA.acquire('/home/dev/app', 'a1', P1, alive)).toEqual({ acquired: true, staleHolder: null });
    expect(laptopB.acquire('/home/dev/app', 'b1', P2, alive)).toEqual({ acquired: true, staleHolder: null });
    // The same host twice cannot.
    expect(new BuildLock(store, 'laptop-a').acquire('/home/dev/app', 'a2', P2, alive)).toMatchObject({
      acquired: false,
      holder: { host: 'laptop-a', buildId: 'a1', pid: 111 },
    });
    expect(laptopA.holder('/home/dev/app')).toMatchObject({ buildId: 'a1' });
    expect(laptopB.holder('/home/dev/app')).toMatchObject({ buildId: 'b1' });
    // Each machine sees, hands over, reaps and releases only its own rows.
    expect(laptopB.holderOf('a1')).toBeNull();
    expect(laptopB.handOver('a1', P1, P2)).toBe(false);
    laptopB.release('/home/dev/app', 'a1');
    expect(laptopA.holderOf('a1')).toMatchObject({ pid: 111 });
    laptopA.release('/home/dev/app', 'a1');
    expect(laptopA.holder('/home/dev/app')).toBeNull();
    expect(laptopB.holder('/home/dev/app')).toMatchObject({ buildId: 'b1' });
  });

  it('never breaks a lock held on another machine because its pid is absent here', () => {
    const deadHere = () => false;
    const laptopA = new BuildLock(store, 'laptop-a');
    const laptopB = new BuildLock(store, 'laptop-b');
    // A pid no process has here (and a start time no process had).
    laptopA.acquire('/p', 'a1', { pid: 2 ** 22 + 12345, startTime: '1' }, alive);
    expect(laptopB.reapIfDead('a1', deadHere)).toBeNull();
    expect(laptopB.reapIfDead('a1')).toBeNull();
    expect(laptopB.acquire('/p', 'b1', P2, deadHere)).toMatchObject({ acquired: true, staleHolder: null });
    expect(laptopA.holderOf('a1')).toMatchObject({ host: 'laptop-a', pid: 2 ** 22 + 12345 });
    // On its own host the dead holder is reaped, once.
    expect(laptopA.reapIfDead('a1')).toMatchObject({ host: 'laptop-a', buildId: 'a1' });
    expect(laptopA.holderOf('a1')).toBeNull();
  });

  it('names this machine by DROIDWRIGHT_HOST', () => {
    const saved = process.env.DROIDWRIGHT_HOST;
    try {
      process.env.DROIDWRIGHT_HOST = 'ci-runner-1';
      expect(new BuildLock(store).acquire('/p', 'c1', P1, alive)).toMatchObject({ acquired: true });
      process.env.DROIDWRIGHT_HOST = 'ci-runner-2';
      expect(new BuildLock(store).acquire('/p', 'c2', P2, alive)).toMatchObject({ acquired: true });
      expect(new BuildLock(store).acquire('/p', 'c3', P2, alive)).toMatchObject({
        acquired: false,
        holder: { host: 'ci-runner-2', buildId: 'c2' },
      });
      expect(store.prepareRead('SELECT host, build_id FROM build_locks ORDER BY host').all()).toEqual([
        { host: 'ci-runner-1', build_id: 'c1' },
        { host: 'ci-runner-2', build_id: 'c2' },
      ]);
    } finally {
      if (saved === undefined) delete process.env.DROIDWRIGHT_HOST;
      else process.env.DROIDWRIGHT_HOST = saved;
    }
  });
});

describe('BuildLock store failures', () => {
  it('reports a database locked by another writer as STORE_UNAVAILABLE, and refuses a live holder without a write transaction', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-lock-busy-'));
    const file = join(dir, 'events.db');
    const store = openLockStore(file, 50);
    const other = new Database(file, { timeout: 50 });
    try {
      const lock = new BuildLock(store);
      lock.acquire('/p', 'b1', P1, alive);
      other.exec('BEGIN IMMEDIATE');
      // The holder lives: answered from a read while another process holds the write lock.
      expect(lock.acquire('/p', 'b2', P2, alive)).toMatchObject({ acquired: false });
      expect(lock.reapIfDead('b1', alive)).toBeNull();
      let failure: unknown;
      try {
        lock.acquire('/q', 'b3', P2, alive);
      } catch (error) {
        failure = error;
      }
      expect(failure).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect((failure as Error).message).toMatch(/locked by another process/);
    } finally {
      other.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('BuildLogWriter', () => {
  it('hashes exactly what it wrote and truncates huge lines with a note', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-log-'));
    try {
      const writer = new BuildLogWriter(join(dir, 'logs', 'b.log'));
      writer.write('> Task :app:preBuild');
      writer.write('x'.repeat(MAX_LOG_LINE_BYTES + 10));
      const info = writer.close();
      const bytes = readFileSync(info.path);
      expect(info.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(info).toMatchObject({ lines: 2, truncated_lines: 1, bytes: bytes.length });
      expect(bytes.toString()).toContain('[droidwright: line truncated at 64 KiB]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the files of the newest builds and of running ones, and nothing else is touched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-prune-'));
    try {
      const ids = ['000000000001', '000000000002', '000000000003', '000000000004'];
      ids.forEach((id, i) => {
        for (const name of [`${id}.log`, `${id}.worker.log`]) {
          writeFileSync(join(dir, name), 'x');
          utimesSync(join(dir, name), 1000 + i, 1000 + i);
        }
      });
      writeFileSync(join(dir, 'notes.txt'), 'not a build file');
      // Keep 2: builds 3 and 4 are newest; build 1 is still running.
      expect(pruneBuildLogs(dir, (id) => id === '000000000001', 2)).toEqual(['000000000002']);
      expect(readdirSync(dir).sort()).toEqual([
        '000000000001.log',
        '000000000001.worker.log',
        '000000000003.log',
        '000000000003.worker.log',
        '000000000004.log',
        '000000000004.worker.log',
        'notes.txt',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
