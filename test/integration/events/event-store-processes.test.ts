import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { config } from 'rxjs';
import { createEventStream } from '../../../src/events/event-stream.js';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { EventStore } from '../../../src/events/event-store.js';
import {
  appendThing,
  removeTempDirs,
  tempStorePath,
  testCatalog,
  thingsProjection,
} from '../../support/event-store-fixtures.js';
import { bundleWorker } from './bundle-worker.js';
import { sleep } from '../../support/wait.js';

let worker: string;
beforeAll(async () => {
  worker = await bundleWorker();
});
afterAll(() => {
  rmSync(dirname(worker), { recursive: true, force: true });
  removeTempDirs();
});

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

function start(...args: string[]): ChildProcess {
  const child = spawn(process.execPath, [worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function finished(child: ChildProcess, onStdout?: (text: string) => void): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    onStdout?.(stdout);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

function tableContents(store: EventStore, table: string): unknown[] {
  return store.prepareRead(`SELECT * FROM ${table} ORDER BY 1`).all();
}

it('two processes appending 10,000 events each concurrently keep seq gapless and the chain valid', async () => {
  const path = tempStorePath();
  const [a, b] = await Promise.all([
    finished(start('concurrent', path, '10000', 'A')),
    finished(start('concurrent', path, '10000', 'B')),
  ]);
  for (const result of [a, b]) {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ appended: 10000, busyErrors: 0, otherErrors: [] });
  }

  const store = EventStore.open({ path, catalog: testCatalog(), projections: [thingsProjection()] });
  try {
    expect(store.prepareRead('SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM events').get()).toEqual({
      n: 20000,
      lo: 1,
      hi: 20000,
    });
    expect(store.verify()).toEqual({ ok: true, checked: 20000, lastSeq: 20000 });
    // Each writer's events are all there, in the order it appended them.
    const sessions = store.prepareRead('SELECT DISTINCT actor_session AS s FROM events').all() as { s: string }[];
    expect(sessions).toHaveLength(2);
    for (const { s } of sessions) {
      const counts = store
        .prepareRead(`SELECT json_extract(data, '$.count') AS c FROM events WHERE actor_session = ? ORDER BY seq`)
        .all(s)
        .map((r) => (r as { c: number }).c);
      expect(counts).toEqual(Array.from({ length: 10000 }, (_, i) => i));
    }
    const live = tableContents(store, 'test_things');
    store.rebuildProjections();
    expect(tableContents(store, 'test_things')).toEqual(live);
  } finally {
    store.close();
  }
});

it('writers killed with SIGKILL at random moments, 20 times, never lose an acknowledged event', async () => {
  const path = tempStorePath();
  const acknowledged = new Map<number, string>();
  const killOneWriter = async () => {
    const child = start('ack', path);
    let timer: NodeJS.Timeout | undefined;
    const result = await finished(child, (stdout) => {
      if (!timer && stdout.startsWith('ready\n'))
        timer = setTimeout(() => child.kill('SIGKILL'), 5 + Math.random() * 60);
    });
    expect({ signal: result.signal, stderr: result.stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
    // Only whole lines: the kill may cut the last one.
    for (const line of result.stdout.split('\n').slice(0, -1)) {
      const [word, seq, hash] = line.split(' ');
      if (word === 'ack') acknowledged.set(Number(seq), hash);
    }
  };
  // Two lanes of ten: halves the wall time, and each victim competes with another writer for the lock.
  const lane = async () => {
    for (let round = 0; round < 10; round++) await killOneWriter();
  };
  await Promise.all([lane(), lane()]);
  expect(acknowledged.size).toBeGreaterThan(0);

  const store = EventStore.open({ path, catalog: testCatalog(), projections: [thingsProjection()] });
  try {
    const result = store.verify({ full: true });
    expect(result).toMatchObject({ ok: true });
    expect(result.lastSeq).toBeGreaterThanOrEqual(Math.max(...acknowledged.keys()));
    const byseq = store.prepareRead('SELECT hash FROM events WHERE seq = ?');
    const missing = [...acknowledged].filter(
      ([seq, hash]) => (byseq.get(seq) as { hash: string } | undefined)?.hash !== hash,
    );
    expect(missing).toEqual([]);
    // The read model committed with the events, so it still equals a replay of the log.
    const live = tableContents(store, 'test_things');
    store.rebuildProjections();
    expect(tableContents(store, 'test_things')).toEqual(live);
  } finally {
    store.close();
  }
});

it("events$ delivers own appends at once and another process's appends promptly; a throwing subscriber stops no one", async () => {
  const path = tempStorePath();
  const store = EventStore.open({ path, catalog: testCatalog() });
  const stream = createEventStream(store, { pollMs: 200 });
  const unhandled: unknown[] = [];
  const previous = config.onUnhandledError;
  config.onUnhandledError = (error) => unhandled.push(error);
  try {
    const received: StoredEvent[] = [];
    const arrivedAt = new Map<number, number>();
    stream.events$.subscribe(() => {
      throw new Error('a buggy subscriber');
    });
    stream.subscribe((e) => {
      received.push(e);
      arrivedAt.set(e.seq, Date.now());
    });

    const own = appendThing(store, 'own');
    expect(received.map((e) => e.seq)).toEqual([own.seq]);

    const burst = await finished(start('burst', path, '5'));
    expect(burst).toMatchObject({ code: 0, stderr: '' });
    const exitedAt = Date.now();
    const deadline = exitedAt + 2000;
    while (received.length < 6 && Date.now() < deadline) await sleep(20);
    expect(received.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(received.slice(1).every((e) => e.actor.kind === 'agent')).toBe(true);
    expect(Math.max(...[2, 3, 4, 5, 6].map((s) => arrivedAt.get(s)! - exitedAt))).toBeLessThan(2000);

    appendThing(store, 'after');
    expect(received.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await sleep(10);
    expect(unhandled).toHaveLength(7);
  } finally {
    config.onUnhandledError = previous;
    stream.close();
    store.close();
  }
});
