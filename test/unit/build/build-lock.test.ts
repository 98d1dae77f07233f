import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import {
  BuildLock,
  currentProcess,
  identityOf,
  isProcessAlive,
  isSameProcessAlive,
  parseProcStat,
  processStartTime,
  type ProcessIdentity,
} from '../../../src/plugins/build/services/build-lock.js';
import {
  BuildLogWriter,
  MAX_LOG_LINE_BYTES,
  pruneBuildLogs,
} from '../../../src/plugins/build/services/build-log-writer.js';
import { itWhen, probeProcStat } from '../../support/capabilities.js';
import { sleep } from '../../support/wait.js';

// Start times and zombie states come from /proc; where there is none, those tests skip and say so.
const itWithProcStat = itWhen(probeProcStat());

const P1: ProcessIdentity = { pid: 111, startTime: '5000' };
const P2: ProcessIdentity = { pid: 222, startTime: '6000' };
const alive = () => true;

describe('BuildLock', () => {
  let dir: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-lock-'));
    db = new Database(join(dir, 'locks.db'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives one project to one build and names the holder', () => {
    const lock = new BuildLock(db);
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
    const lock = new BuildLock(db);
    lock.acquire('/p', 'b1', P1, alive);
    expect(lock.acquire('/p', 'b2', P2, (h) => h.pid !== 111)).toMatchObject({
      acquired: true,
      staleHolder: { buildId: 'b1', pid: 111 },
    });
    lock.release('/p', 'b1');
    expect(lock.holder('/p')).toMatchObject({ buildId: 'b2' });
  });

  it('lets exactly one caller reap an orphaned lock and hands it the Gradle group to stop', () => {
    const lock = new BuildLock(db);
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
    const lock = new BuildLock(db);
    lock.acquire('/p', 'b1', P1, alive);
    expect(lock.handOver('b1', { pid: 111, startTime: '9999' }, P2)).toBe(false);
    expect(lock.handOver('b1', P1, P2)).toBe(true);
    expect(lock.holderOf('b1')).toMatchObject({ pid: 222, startTime: '6000', gradle: null });
    expect(lock.handOver('b1', P1, P2)).toBe(false);
  });

  it('treats a reused pid (same pid, other start time) as a dead holder', () => {
    const lock = new BuildLock(db);
    const me = currentProcess();
    expect(isSameProcessAlive(me)).toBe(true);
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
      expect(isSameProcessAlive(previousOwner)).toBe(false);
      expect(result).toMatchObject({ acquired: true, staleHolder: { buildId: 'b1', pid: process.pid } });
    }
  });

  it('adds the identity columns to a lock table from an older droidwright', () => {
    db.exec(
      'CREATE TABLE build_locks (project_root TEXT PRIMARY KEY, build_id TEXT NOT NULL, pid INTEGER NOT NULL, started_at INTEGER NOT NULL)',
    );
    db.prepare('INSERT INTO build_locks VALUES (?, ?, ?, ?)').run('/p', 'old', 424242, 1);
    const lock = new BuildLock(db);
    new BuildLock(db);
    expect(lock.holder('/p')).toMatchObject({ buildId: 'old', pid: 424242, startTime: null, gradle: null });
  });
});

describe('process identity', () => {
  it('reads the start time of a live process from /proc and none for a missing one', () => {
    const start = processStartTime(process.pid);
    if (process.platform === 'linux') expect(start).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(start);
    expect(processStartTime(2 ** 22 + 12345)).toBeNull();
    expect(isSameProcessAlive({ pid: 2 ** 22 + 12345, startTime: null })).toBe(false);
  });

  itWithProcStat('tells a child from a later process with its pid by the start time', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const identity = identityOf(child.pid!);
      expect(isSameProcessAlive(identity)).toBe(true);
      expect(isSameProcessAlive({ pid: child.pid!, startTime: String(Number(identity.startTime) + 1) })).toBe(false);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  });
});

describe('process liveness', () => {
  it('reads state and start time from a stat line whose command name has spaces and parentheses', () => {
    const line =
      '4242 (java (gradle) x) Z 1 4242 4242 0 -1 4194560 100 0 0 0 5 1 0 0 20 0 1 0 987654 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n';
    expect(parseProcStat(line)).toEqual({ state: 'Z', startTime: '987654' });
    expect(parseProcStat('garbage')).toEqual({ state: null, startTime: null });
    expect(parseProcStat(readFileSync(`/proc/${process.pid}/stat`, 'utf8'))).toEqual({
      state: expect.stringMatching(/^[RS]$/),
      startTime: processStartTime(process.pid),
    });
  });

  itWithProcStat('counts a zombie (exited, never reaped by its parent) as dead', async () => {
    // `true` exits at once; its parent becomes `sleep` through exec, which never waits for it.
    const parent = spawn('sh', ['-c', 'true & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(
        await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()))),
      );
      let state: string | null = null;
      for (let i = 0; i < 100 && state !== 'Z'; i++) {
        state = parseProcStat(readFileSync(`/proc/${zombie}/stat`, 'utf8')).state;
        if (state !== 'Z') await sleep(20);
      }
      expect(state).toBe('Z');
      expect(isProcessAlive(zombie)).toBe(false);
      expect(isProcessAlive(parent.pid!)).toBe(true);
    } finally {
      const exited = new Promise((resolve) => parent.once('exit', resolve));
      parent.kill('SIGKILL');
      await exited;
    }
  });
});

describe('BuildLock store failures', () => {
  it('reports a database locked by another writer as STORE_UNAVAILABLE, and refuses a live holder without a write transaction', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-lock-busy-'));
    const file = join(dir, 'locks.db');
    const db = new Database(file, { timeout: 50 });
    db.pragma('journal_mode = WAL');
    const other = new Database(file, { timeout: 50 });
    try {
      const lock = new BuildLock(db);
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
      db.close();
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
