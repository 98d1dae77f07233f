import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { LogcatEntry, LogLevel } from '../../../src/android/logcat/logcat-entry.js';
import {
  InvalidLogPatternError,
  MORE_COUNT_BOUND,
  REGEX_SCAN_BOUND,
  requiredLiteral,
  SqliteLogLineStore,
} from '../../../src/plugins/logcat/services/sqlite-log-line-store.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-line-store-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function openStore(dir: string, maxLines = 1_000_000, maxBytes = 2 ** 30): SqliteLogLineStore {
  return new SqliteLogLineStore({ path: join(dir, 'logcat.db'), retention: () => ({ maxLines, maxBytes }) });
}

function entries(count: number, from: number, shape: (n: number) => Partial<LogcatEntry> = () => ({})): LogcatEntry[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return {
      time: '',
      timeMs: 1_700_000_000_000 + n * 10,
      pid: 100 + (n % 3),
      tid: 7,
      level: (['D', 'I', 'W', 'E'] as LogLevel[])[n % 4]!,
      tag: `Tag${n % 5}`,
      message: `message number ${n}`,
      ...shape(n),
    };
  });
}

const packageOf = (pid: number) => `com.example.p${pid}`;

describe('SqliteLogLineStore', () => {
  test('seqs are per device, strictly increasing, and never reused after eviction or clear', () => {
    const store = openStore(tempDir(), 10_000);
    expect(store.append('A', entries(3, 0), packageOf)).toEqual({ first: 1, last: 3 });
    expect(store.append('B', entries(2, 0), packageOf)).toEqual({ first: 1, last: 2 });
    expect(store.append('A', entries(12_000, 3), packageOf)).toEqual({ first: 4, last: 12_003 });
    const afterEviction = store.counts('A');
    expect(afterEviction.lines).toBeLessThanOrEqual(10_000);
    expect(afterEviction.evicted).toBe(12_003 - afterEviction.lines);
    expect(afterEviction.stored).toBe(12_003);
    expect(afterEviction.newestSeq).toBe(12_003);
    expect(afterEviction.oldestSeq).toBe(12_003 - afterEviction.lines + 1);
    expect(store.clear('A')).toBe(afterEviction.lines);
    expect(store.counts('A')).toMatchObject({ lines: 0, bytes: 0, stored: 12_003, oldestSeq: null, byLevel: {} });
    expect(store.append('A', entries(1, 0), packageOf)).toEqual({ first: 12_004, last: 12_004 });
    store.countDropped('A', 5);
    expect(store.counts('A')).toMatchObject({ lines: 1, dropped: 5, evicted: afterEviction.evicted });
    expect(store.counts('B').lines).toBe(2);
    store.close();
  });

  test('retention by bytes evicts the oldest blocks and counts them', () => {
    const store = openStore(tempDir(), 1_000_000, 100_000);
    const big = 'x'.repeat(100);
    store.append(
      'A',
      entries(5_000, 0, () => ({ message: big })),
      packageOf,
    );
    const counts = store.counts('A');
    expect(counts.bytes).toBeLessThanOrEqual(100_000);
    expect(counts.lines + counts.evicted).toBe(5_000);
    expect(counts.evicted).toBeGreaterThan(0);
    store.close();
  });

  test('filters, the before_seq cursor and after_seq reading', () => {
    const store = openStore(tempDir());
    store.append('A', entries(5_000, 1), packageOf);
    const q = (filter: object, limit = 5) => store.query({ deviceSerial: 'A', ...filter }, limit);
    const newest = q({});
    expect(newest.lines.map((l) => l.seq)).toEqual([5000, 4999, 4998, 4997, 4996]);
    expect(newest).toMatchObject({ more: 4995, moreIsLowerBound: false, nextBeforeSeq: 4996 });
    expect(q({ beforeSeq: 4996 }, 2).lines.map((l) => l.seq)).toEqual([4995, 4994]);
    expect(q({ afterSeq: 4997 }, 10).lines.map((l) => l.seq)).toEqual([4998, 4999, 5000]);
    const errors = q({ minLevel: 'E' }, 10_000);
    expect(errors.lines).toHaveLength(1250);
    expect(errors.lines.every((l) => l.level === 'E')).toBe(true);
    const tagged = q({ tags: ['Tag1', 'Tag2'], packages: ['com.example.p101'], minLevel: 'W' }, 10_000);
    expect(tagged.lines.length).toBeGreaterThan(0);
    expect(
      tagged.lines.every(
        (l) => ['Tag1', 'Tag2'].includes(l.tag) && l.package === 'com.example.p101' && 'WE'.includes(l.level),
      ),
    ).toBe(true);
    const expected = entries(5_000, 1).filter(
      (e) => ['Tag1', 'Tag2'].includes(e.tag) && e.pid === 101 && 'WE'.includes(e.level),
    ).length;
    expect(tagged.lines).toHaveLength(expected);
    expect(q({ pid: 102 }, 10_000).lines.every((l) => l.pid === 102)).toBe(true);
    expect(q({ text: 'NUMBER 4321' }).lines.map((l) => l.seq)).toEqual([4321]);
    expect(q({ text: 'tag3' }, 10_000).lines).toHaveLength(1000);
    expect(q({ text: 'no such words' }).lines).toEqual([]);
    expect(q({ text: '100%_\\' }).lines).toEqual([]);
    const since = 1_700_000_000_000 + 4000 * 10;
    expect(q({ sinceMs: since, untilMs: since + 20 }, 10).lines.map((l) => l.seq)).toEqual([4002, 4001, 4000]);
    expect(q({ tags: ['Unknown'] })).toMatchObject({ lines: [], more: 0, nextBeforeSeq: null });
    expect(q({}, 0).more).toBe(5000);
    store.close();
  });

  test('more is exact up to the bound, then a lower bound', () => {
    const store = openStore(tempDir());
    store.append('A', entries(MORE_COUNT_BOUND + 500, 0), packageOf);
    const page = store.query({ deviceSerial: 'A' }, 100);
    expect(page).toMatchObject({ more: MORE_COUNT_BOUND, moreIsLowerBound: true });
    const some = store.query({ deviceSerial: 'A', text: 'number 1' }, 10);
    expect(some.moreIsLowerBound).toBe(false);
    store.close();
  });

  test('regex: linear-time, bounded scan, invalid patterns refused by name', () => {
    const store = openStore(tempDir());
    store.append('A', entries(REGEX_SCAN_BOUND + 2_000, 0), packageOf);
    const matched = store.query({ deviceSerial: 'A', regex: 'number 12(34|99)$' }, 10);
    expect(matched.lines.map((l) => l.message)).toEqual(['message number 1299', 'message number 1234']);
    // A pattern that backtracks exponentially in a backtracking engine runs in linear time here.
    const hostile = store.query({ deviceSerial: 'A', regex: '(a+)+$', minLevel: 'V' }, 10);
    expect(hostile.lines).toEqual([]);
    expect(hostile.scanLimited).toBe(true);
    expect(hostile.moreIsLowerBound).toBe(true);
    expect(hostile.nextBeforeSeq).toBeLessThan(REGEX_SCAN_BOUND + 2_001);
    expect(() => store.query({ deviceSerial: 'A', regex: '(unclosed' }, 1)).toThrow(InvalidLogPatternError);
    expect(() => store.query({ deviceSerial: 'A', regex: '(a)\\1' }, 1)).toThrow(/Invalid regex/);
    store.close();
  });

  test('the regex pre-filter literal is one every match must contain', () => {
    expect(requiredLiteral('binder (network|gc) id=\\d+5 took 99\\dms')).toBe('5 took 99');
    expect(requiredLiteral('a|bcdef')).toBeUndefined();
    expect(requiredLiteral('abcd?')).toBe('abc');
    expect(requiredLiteral('x[abc]yz')).toBeUndefined();
    expect(requiredLiteral('(?i)FATAL EXCEPTION')).toBe('FATAL EXCEPTION');
    expect(requiredLiteral('abc{0,2}def')).toBe('def');
    expect(requiredLiteral('\\Qa|b\\E')).toBeUndefined();
    const store = openStore(tempDir());
    store.append(
      'A',
      entries(10, 0, (n) => ({ message: n === 3 ? 'FATAL exception here' : 'fine' })),
      packageOf,
    );
    expect(store.query({ deviceSerial: 'A', regex: '(?i)FATAL EXCEPTION' }, 5).lines.map((l) => l.seq)).toEqual([4]);
    store.close();
  });

  test('stats: per level, top tags, packages seen', () => {
    const store = openStore(tempDir());
    store.append('A', entries(400, 0), packageOf);
    const counts = store.counts('A');
    expect(counts.byLevel).toEqual({ D: 100, I: 100, W: 100, E: 100 });
    expect(counts.topTags).toHaveLength(5);
    expect(counts.topTags[0]).toEqual({ tag: 'Tag0', lines: 80 });
    expect(store.packages('A')).toEqual(['com.example.p100', 'com.example.p101', 'com.example.p102']);
    expect(store.counts('nobody')).toMatchObject({ stored: 0, lines: 0, newestSeq: null });
    store.close();
  });

  test('one process writes while this one reads: no busy errors, every line once, in order', async () => {
    const dir = tempDir();
    const sqlite = createRequire(join(process.cwd(), 'package.json')).resolve('better-sqlite3');
    const writer = join(dir, 'line-writer.mjs');
    await build({
      entryPoints: [join(process.cwd(), 'test/integration/logcat/line-writer.ts')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outfile: writer,
      logLevel: 'silent',
      plugins: [
        {
          name: 'pin-better-sqlite3',
          setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true })),
        },
      ],
    });
    const store = openStore(dir);
    store.append('W', entries(1, 0), packageOf);
    const child = spawn(process.execPath, [writer, join(dir, 'logcat.db'), 'W', '40', '1000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let done = false;
    void exited.then(() => (done = true));
    let cursor = 1;
    const seen: number[] = [];
    while (!done || store.query({ deviceSerial: 'W', afterSeq: cursor }, 1).lines.length > 0) {
      const page = store.query({ deviceSerial: 'W', afterSeq: cursor }, 5_000);
      for (const line of page.lines) seen.push(line.seq);
      if (page.lines.length > 0) cursor = page.lines[page.lines.length - 1]!.seq;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(seen).toHaveLength(40_000);
    expect(seen.every((seq, i) => seq === i + 2)).toBe(true);
    store.close();
  }, 60_000);

  test('a database from a newer droidwright is refused with what to do', () => {
    const dir = tempDir();
    const store = openStore(dir);
    store.append('A', entries(1, 0), packageOf);
    store.close();
    const Database = createRequire(join(process.cwd(), 'package.json'))('better-sqlite3');
    const db = new Database(join(dir, 'logcat.db'));
    db.pragma('user_version = 99');
    db.close();
    expect(() => openStore(dir).counts('A')).toThrow(/newer droidwright/);
  });
});
