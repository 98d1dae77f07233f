import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuildLock } from '../../../src/plugins/build/services/build-lock.js';
import { BuildLogWriter, MAX_LOG_LINE_BYTES } from '../../../src/plugins/build/services/build-log-writer.js';

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
    expect(lock.acquire('/p', 'b1', 111, () => true)).toEqual({ acquired: true, staleHolder: null });
    expect(lock.acquire('/p', 'b2', 222, () => true)).toMatchObject({ acquired: false, holder: { buildId: 'b1', pid: 111 } });
    expect(lock.acquire('/other', 'b3', 222, () => true)).toMatchObject({ acquired: true });
    lock.release('/p', 'b1');
    expect(lock.acquire('/p', 'b2', 222, () => true)).toMatchObject({ acquired: true });
  });

  it('takes over a dead holder and reports it; a takeover survives the old holder releasing', () => {
    const lock = new BuildLock(db);
    lock.acquire('/p', 'b1', 111, () => true);
    expect(lock.acquire('/p', 'b2', 222, (pid) => pid !== 111)).toMatchObject({ acquired: true, staleHolder: { buildId: 'b1', pid: 111 } });
    lock.release('/p', 'b1');
    expect(lock.holder('/p')).toMatchObject({ buildId: 'b2' });
  });

  it('lets exactly one caller reap an orphaned lock', () => {
    const lock = new BuildLock(db);
    lock.acquire('/p', 'b1', 111, () => true);
    expect(lock.reapIfDead('b1', () => true)).toBe(false);
    expect(lock.reapIfDead('b1', () => false)).toBe(true);
    expect(lock.reapIfDead('b1', () => false)).toBe(false);
    expect(lock.holder('/p')).toBeNull();
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
});
