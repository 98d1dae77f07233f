import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { config } from 'rxjs';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { EventStore } from '../../../src/events/event-store.js';
import { createEventStream } from '../../../src/events/event-stream.js';
import {
  appendThing,
  removeTempDirs,
  tempStorePath,
  testCatalog,
  thingsProjection,
} from '../../support/event-store-fixtures.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';
import { killTrackedProcesses, trackPid, untrackPid } from '../../support/process-tracker.js';
import { sleep, waitFor } from '../../support/wait.js';
import { bundleWorker } from './bundle-worker.js';

// The same processes, kills and tails against both stores: a SQLite file, and a PostgreSQL database
// (one cluster for the file, a database per test). PostgreSQL adds what only a server can do to a
// writer: terminate its backend mid-transaction, restart under it, and tail it from another machine.

let worker: string;
let cluster: PostgresCluster;
beforeAll(async () => {
  worker = await bundleWorker();
  cluster = await startPostgresCluster();
}, 120_000);
afterAll(() => {
  killTrackedProcesses();
  cluster?.stop();
  if (worker) rmSync(dirname(worker), { recursive: true, force: true });
  removeTempDirs();
});

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) if (child.pid) process.kill(child.pid, 'SIGKILL');
  children.clear();
});

function start(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const child = spawn(process.execPath, [worker, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.add(child);
  if (child.pid) trackPid(child.pid);
  child.on('exit', () => {
    children.delete(child);
    if (child.pid) untrackPid(child.pid);
  });
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

/** The URL with an application_name of its own, so a test can find that process's backends in pg_stat_activity. */
function asApplication(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

/**
 * What every test ends with: seq runs 1..lastSeq without a gap, the whole chain verifies, every event a
 * child acknowledged is there with the hash it was told, and the read model equals a replay of the log.
 */
function expectIntactLog(location: string, acknowledged: ReadonlyMap<number, string>): number {
  const store = EventStore.open({ path: location, catalog: testCatalog(), projections: [thingsProjection()] });
  try {
    const result = store.verify({ full: true });
    expect(result).toMatchObject({ ok: true });
    const lastSeq = store.lastSeq();
    expect(store.prepareRead('SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM events').get()).toEqual({
      n: lastSeq,
      lo: lastSeq === 0 ? null : 1,
      hi: lastSeq === 0 ? null : lastSeq,
    });
    if (acknowledged.size > 0) expect(lastSeq).toBeGreaterThanOrEqual(Math.max(...acknowledged.keys()));
    const bySeq = store.prepareRead('SELECT hash FROM events WHERE seq = ?');
    const missing = [...acknowledged].filter(
      ([seq, hash]) => (bySeq.get(seq) as { hash: string } | undefined)?.hash !== hash,
    );
    expect(missing).toEqual([]);
    // The read model committed with the events, so it still equals a replay of the log.
    const live = tableContents(store, 'test_things');
    store.rebuildProjections();
    expect(tableContents(store, 'test_things')).toEqual(live);
    return lastSeq;
  } finally {
    store.close();
  }
}

/** "ack <seq> <hash>" lines, whole lines only (a kill may cut the last one). */
function collectAcks(stdout: string, into: Map<number, string>): void {
  for (const line of stdout.split('\n').slice(0, -1)) {
    const [word, seq, hash] = line.split(' ');
    if (word === 'ack') into.set(Number(seq), hash);
  }
}

const WRITERS = 8;

describe.each([
  // PostgreSQL serializes appends on one advisory lock across processes and each statement (every
  // projection step too) is a round trip: fewer events per writer keep the wall time near SQLite's while
  // batches still interleave, and a later kill still lands in the middle of an append rather than always
  // before the first one ends (a fresh process's first PostgreSQL append takes tens of milliseconds).
  { kind: 'sqlite', perWriter: 2500, killWithinMs: 60, newLog: () => tempStorePath() },
  { kind: 'postgres', perWriter: 500, killWithinMs: 400, newLog: () => cluster.createDatabase() },
])('$kind store', ({ perWriter, killWithinMs, newLog }) => {
  it(`${WRITERS} processes appending concurrently keep seq gapless and the chain valid`, async () => {
    const location = newLog();
    const results = await Promise.all(
      Array.from({ length: WRITERS }, (_, w) => finished(start(['concurrent', location, String(perWriter), `W${w}`]))),
    );
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ appended: perWriter, busyErrors: 0, otherErrors: [] });
    }

    const total = WRITERS * perWriter;
    expect(expectIntactLog(location, new Map())).toBe(total);
    const store = EventStore.open({ path: location, catalog: testCatalog(), projections: [thingsProjection()] });
    try {
      // Each writer's events are all there, in the order it appended them.
      const sessions = store.prepareRead('SELECT DISTINCT actor_session AS s FROM events').all() as { s: string }[];
      expect(sessions).toHaveLength(WRITERS);
      for (const { s } of sessions) {
        const counts = store
          .query({ actorSession: s, order: 'asc', limit: perWriter + 1 })
          .map((e) => (e.data as { count: number }).count);
        expect(counts).toEqual(Array.from({ length: perWriter }, (_, i) => i));
      }
    } finally {
      store.close();
    }
  }, 180_000);

  it('writers killed with SIGKILL at random moments, 20 times, never lose an acknowledged event', async () => {
    const location = newLog();
    const acknowledged = new Map<number, string>();
    const killOneWriter = async () => {
      const child = start(['ack', location]);
      let timer: NodeJS.Timeout | undefined;
      const result = await finished(child, (stdout) => {
        if (!timer && stdout.startsWith('ready\n'))
          timer = setTimeout(() => child.kill('SIGKILL'), 5 + Math.random() * killWithinMs);
      });
      expect({ signal: result.signal, stderr: result.stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
      collectAcks(result.stdout, acknowledged);
    };
    // Two lanes of ten: halves the wall time, and each victim competes with another writer for the lock.
    const lane = async () => {
      for (let round = 0; round < 10; round++) await killOneWriter();
    };
    await Promise.all([lane(), lane()]);
    expect(acknowledged.size).toBeGreaterThan(0);
    expectIntactLog(location, acknowledged);
  }, 180_000);

  it("events$ delivers own appends at once and another process's appends promptly; a throwing subscriber stops no one", async () => {
    const location = newLog();
    const store = EventStore.open({ path: location, catalog: testCatalog() });
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

      const burst = await finished(start(['burst', location, '5']));
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
});

/** A `resilient` child: appends until killed, through lost connections, reporting each ack and refusal. */
interface ResilientWriter {
  readonly child: ChildProcess;
  readonly acknowledged: Map<number, string>;
  /** Appends refused with STORE_UNAVAILABLE, and acks counted since the last one. */
  unavailable: string[];
  acksSinceUnavailable: number;
  /** Anything other than STORE_UNAVAILABLE, and stderr: each is a failure. */
  errors: string[];
  ready: boolean;
  done: Promise<Finished>;
}

function startResilient(location: string, label: string): ResilientWriter {
  const child = start(['resilient', location, label]);
  const writer: ResilientWriter = {
    child,
    acknowledged: new Map(),
    unavailable: [],
    acksSinceUnavailable: 0,
    errors: [],
    ready: false,
    done: Promise.resolve({ code: null, signal: null, stdout: '', stderr: '' }),
  };
  let buffer = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const space = line.indexOf(' ');
      const word = space < 0 ? line : line.slice(0, space);
      if (word === 'ready') writer.ready = true;
      else if (word === 'ack') {
        const [, seq, hash] = line.split(' ');
        writer.acknowledged.set(Number(seq), hash);
        writer.acksSinceUnavailable++;
      } else if (word === 'unavailable') {
        writer.unavailable.push(line.slice(space + 1));
        writer.acksSinceUnavailable = 0;
      } else writer.errors.push(line);
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  writer.done = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      if (stderr) writer.errors.push(`stderr: ${stderr}`);
      resolve({ code, signal, stdout: '', stderr });
    }),
  );
  return writer;
}

async function stopWriters(writers: readonly ResilientWriter[]): Promise<Map<number, string>> {
  for (const w of writers) if (w.child.pid && w.child.exitCode === null) process.kill(w.child.pid, 'SIGKILL');
  await Promise.all(writers.map((w) => w.done));
  const acknowledged = new Map<number, string>();
  for (const w of writers) for (const [seq, hash] of w.acknowledged) acknowledged.set(seq, hash);
  return acknowledged;
}

describe('postgres store: the server drops a writer, restarts, and is tailed from another machine', () => {
  it('backends terminated mid-transaction fail that append with STORE_UNAVAILABLE; later appends succeed, nothing acknowledged is lost', async () => {
    const database = cluster.createDatabase();
    const run = `dwproof_${process.pid}_${Date.now().toString(36)}`;
    const writers = Array.from({ length: WRITERS }, (_, w) =>
      startResilient(asApplication(database, `${run}_w${w}`), `W${w}`),
    );
    await waitFor(() => writers.every((w) => w.acknowledged.size > 0), { timeoutMs: 30_000, what: 'first acks' });
    // Terminate only backends inside a transaction (waiting for the chain's lock, inserting, projecting,
    // committing): the append running there must fail, never half-commit or leave the next one stuck.
    let terminated = 0;
    for (let round = 0; round < 40; round++) {
      terminated += Number(
        cluster
          .psql(
            `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE application_name LIKE '${run}_w%' AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`,
          )
          .trim(),
      );
      await sleep(25 + Math.random() * 50);
    }
    expect(terminated).toBeGreaterThan(0);
    // Every writer goes on appending after the last termination.
    await waitFor(() => writers.every((w) => w.acksSinceUnavailable >= 3), {
      timeoutMs: 30_000,
      what: 'appends after the terminations',
    });
    const acknowledged = await stopWriters(writers);
    expect(writers.flatMap((w) => w.errors)).toEqual([]);
    const refused = writers.flatMap((w) => w.unavailable);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(terminated);
    expectIntactLog(database, acknowledged);
  }, 180_000);

  it('a server restart while 8 writers run: each sees STORE_UNAVAILABLE, then appends again; the chain stays gapless and verifies', async () => {
    const database = cluster.createDatabase();
    const writers = Array.from({ length: WRITERS }, (_, w) => startResilient(database, `R${w}`));
    await waitFor(() => writers.every((w) => w.acknowledged.size >= 5), { timeoutMs: 30_000, what: 'first acks' });
    cluster.restart();
    await waitFor(() => writers.every((w) => w.unavailable.length > 0 && w.acksSinceUnavailable >= 5), {
      timeoutMs: 60_000,
      what: 'every writer refused once, then appending again',
    });
    const acknowledged = await stopWriters(writers);
    expect(writers.flatMap((w) => w.errors)).toEqual([]);
    for (const w of writers) expect(w.unavailable[0]).toMatch(/PostgreSQL/);
    expectIntactLog(database, acknowledged);
  }, 180_000);

  it("another machine's appends reach events$ in order and once, also after its LISTEN connection was killed", async () => {
    const database = cluster.createDatabase();
    const tailApp = `dwproof_tail_${process.pid}_${Date.now().toString(36)}`;
    // Two machines on one log: a tail on laptop-a, bursts of appends from laptop-b.
    const tail = start(['tail', asApplication(database, tailApp), '200'], { DROIDWRIGHT_HOST: 'laptop-a' });
    const lines: string[] = [];
    let buffer = '';
    let tailErr = '';
    tail.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
    });
    tail.stderr!.setEncoding('utf8').on('data', (chunk: string) => (tailErr += chunk));
    await waitFor(() => lines.includes('ready'), { timeoutMs: 30_000, what: 'the tail to start' });
    const delivered = () => lines.filter((l) => l.startsWith('event ')).map((l) => Number(l.split(' ')[1]));

    const burst = (count: number) =>
      finished(start(['burst', database, String(count)], { DROIDWRIGHT_HOST: 'laptop-b' }));
    expect(await burst(5)).toMatchObject({ code: 0, stderr: '' });
    await waitFor(() => delivered().length >= 5, { timeoutMs: 5000, what: 'the first burst on the tail' });

    // A missed notification: the tail's LISTEN connection dies; the poll (and the re-LISTEN) must carry on.
    const killed = cluster
      .psql(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
         WHERE application_name = '${tailApp}' AND query ILIKE 'LISTEN%'`,
      )
      .trim();
    expect(killed).toBe('1');
    expect(await burst(5)).toMatchObject({ code: 0, stderr: '' });
    await waitFor(() => delivered().length >= 10, { timeoutMs: 5000, what: 'the second burst on the tail' });
    expect(await burst(3)).toMatchObject({ code: 0, stderr: '' });
    await waitFor(() => delivered().length >= 13, { timeoutMs: 5000, what: 'the third burst on the tail' });
    await sleep(300); // a duplicate would arrive with the next poll
    expect(delivered()).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(tailErr).toBe('');
  }, 120_000);
});
