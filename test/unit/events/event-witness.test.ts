import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventStore } from '../../../src/events/event-store.js';
import { EventWitness, ROTATED_WITNESS_FILE, WITNESS_FILE, readWitness } from '../../../src/events/event-witness.js';
import { appendThing, removeTempDirs, tempDir, testCatalog, thing } from '../../support/event-store-fixtures.js';
import { rechainLog, truncateLog } from '../../support/log-tampering.js';

const closers: { close(): void }[] = [];
afterEach(() => {
  for (const item of closers.splice(0).reverse()) item.close();
});
afterAll(removeTempDirs);

function setUp(options: { intervalMs?: number; maxBytes?: number } = {}) {
  const dir = tempDir();
  const store = EventStore.open({ path: join(dir, 'events.db'), catalog: testCatalog() });
  const witness = EventWitness.attach(store, join(dir, WITNESS_FILE), { intervalMs: 60_000, ...options });
  closers.push(store, witness);
  return { dir, store, witness, path: join(dir, WITNESS_FILE) };
}

function lines(path: string): { seq: number; hash: string; pid: number }[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { seq: number; hash: string; pid: number });
}

describe('EventWitness', () => {
  it('writes the head soon after the first append, then at most once per interval, and on close', async () => {
    const { store, witness, path } = setUp();
    appendThing(store, 'a');
    // Not written on the append's own path.
    expect(existsSync(path)).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(lines(path).map((l) => l.seq)).toEqual([1]);
    const last = store.appendMany([thing('b'), thing('c'), thing('d')]).at(-1)!;
    await new Promise((r) => setTimeout(r, 20));
    expect(lines(path)).toHaveLength(1);
    witness.close();
    expect(lines(path).at(-1)).toMatchObject({ seq: 4, hash: last.hash, pid: process.pid });
    witness.close();
    expect(lines(path)).toHaveLength(2);
  });

  it('rotates a large file once and reads both, newest head included', () => {
    const { store, witness, path, dir } = setUp({ maxBytes: 400 });
    for (let i = 0; i < 8; i++) {
      appendThing(store, `t${i}`);
      witness.flush();
    }
    expect(existsSync(join(dir, ROTATED_WITNESS_FILE))).toBe(true);
    expect(readFileSync(path, 'utf8').length).toBeLessThan(800);
    const reading = readWitness(path);
    expect(reading.files).toHaveLength(2);
    expect(Math.max(...reading.anchors.map((a) => a.seq))).toBe(8);
    expect(store.verify({ anchors: reading.anchors })).toMatchObject({ ok: true, lastSeq: 8 });
  });

  it('skips torn lines and reports a write failure once without failing appends', () => {
    const { path } = setUp();
    writeFileSync(path, `${JSON.stringify({ seq: 1, hash: 'a'.repeat(64) })}\n{"seq":2,"ha\nnot json\n`);
    expect(readWitness(path)).toMatchObject({ lines: 3, unreadable: 2, anchors: [{ seq: 1 }] });

    const dir = tempDir();
    const store = EventStore.open({ path: join(dir, 'events.db'), catalog: testCatalog() });
    const errors: unknown[] = [];
    const broken = EventWitness.attach(store, join(dir, 'missing-dir', WITNESS_FILE), {
      onError: (e) => errors.push(e),
    });
    closers.push(store, broken);
    appendThing(store, 'a');
    broken.flush();
    appendThing(store, 'b');
    broken.flush();
    expect(errors).toHaveLength(1);
    expect(store.lastSeq()).toBe(2);
  });
});

describe('verify against the witness', () => {
  function witnessedLog() {
    const setup = setUp();
    setup.store.appendMany(Array.from({ length: 6 }, (_, i) => thing(`t${i}`, i)));
    setup.witness.close();
    return setup;
  }

  it('fails a log that was re-chained with valid hashes, which verifies on its own', () => {
    const { store, path } = witnessedLog();
    rechainLog(store.path, (seq, data) => (seq === 2 ? { ...(data as object), count: 1000 } : data));
    expect(store.verify()).toMatchObject({ ok: true, lastSeq: 6 });
    const result = store.verify({ anchors: readWitness(path).anchors });
    expect(result).toMatchObject({ ok: false, firstBadSeq: 6 });
    expect(result.reason).toMatch(/the witness witness\.jsonl line 1: the log was rewritten at or before seq 6/);
  });

  it('fails a truncated log', () => {
    const { store, path } = witnessedLog();
    truncateLog(store.path, 4);
    expect(store.verify()).toMatchObject({ ok: true, lastSeq: 4 });
    expect(store.verify({ anchors: readWitness(path).anchors })).toMatchObject({
      ok: false,
      firstBadSeq: 6,
      reason: expect.stringContaining('the log ends at seq 4 but the witness witness.jsonl line 1 covers seq 6'),
    });
  });
});
