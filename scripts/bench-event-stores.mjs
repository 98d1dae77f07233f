// The two event stores side by side (issue 17): appends/s one event per transaction and in batches, filling
// and verifying a 100,000-event log, and how long an append on one machine takes to reach another machine's
// events$ tail. SQLite is a file in a temp dir; PostgreSQL a cluster of its own (the test harness's initdb and
// pg_ctl on a free port, as user postgres when root, fsync on as SQLite syncs each commit), stopped by PID.
// Without the PostgreSQL binaries the postgres column says so and stays empty instead of failing the bench.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleSources } from './bench-support.mjs';

const VERIFY_EVENTS = 100_000;
const TAIL_EVENTS = 200;
/** Issue 17: the TUI and `events tail -f` show events from every machine within 250 ms. */
const TAIL_TARGET_MS = 250;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Appends and verify on one store; each figure keyed by the row it fills. */
function measureStore(m, location) {
  const store = m.EventStore.open({ path: location, catalog: m.benchCatalog() });
  const actor = { kind: 'system', pid: process.pid };
  const event = (n) => ({ ...m.benchEvent(n), actor });
  const figures = {};
  try {
    for (let i = 0; i < 20; i++) store.appendMany([event(i)]); // warm statements and connections
    const single = [];
    const t0 = performance.now();
    for (let i = 0; i < 500; i++) {
      const s = performance.now();
      store.appendMany([event(i)]);
      single.push(performance.now() - s);
    }
    figures.single = (500 / (performance.now() - t0)) * 1000;
    figures.singleMedian = median(single);
    figures.singleP95 = percentile(single, 95);
    for (const size of [25, 100]) {
      const t = performance.now();
      for (let i = 0; i < 2000 / size; i++) store.appendMany(Array.from({ length: size }, (_, k) => event(k)));
      figures[`batch${size}`] = (2000 / (performance.now() - t)) * 1000;
    }
    const fillFrom = store.lastSeq();
    const tf = performance.now();
    while (store.lastSeq() < VERIFY_EVENTS) {
      store.appendMany(Array.from({ length: Math.min(1000, VERIFY_EVENTS - store.lastSeq()) }, (_, k) => event(k)));
    }
    figures.batch1000 = ((store.lastSeq() - fillFrom) / (performance.now() - tf)) * 1000;
    const verify = [];
    for (let i = 0; i < 3; i++) {
      const tv = performance.now();
      const result = store.verify();
      if (!result.ok) throw new Error(`verify failed on ${store.kind}: ${result.reason}`);
      verify.push(performance.now() - tv);
    }
    figures.verify = median(verify);
    figures.megabytes = store.stats().fileBytes / 2 ** 20;
  } finally {
    store.close();
  }
  return figures;
}

/**
 * Another machine appends (a child process with its own DROIDWRIGHT_HOST, one event every 25 ms); this
 * process tails with createEventStream at its default poll, and times each event from the appender's
 * acknowledgement to its delivery here. Same host, so both sides read one clock.
 */
async function measureTail(m, bundle, location) {
  const store = m.EventStore.open({ path: location, catalog: m.benchCatalog() });
  const stream = m.createEventStream(store);
  const deliveredAt = new Map();
  stream.subscribe((e) => deliveredAt.set(e.seq, performance.timeOrigin + performance.now()));
  const ackedAt = new Map();
  const appender = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./bench-store-appender.mjs', import.meta.url)),
      bundle,
      location,
      String(TAIL_EVENTS),
      '25',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DROIDWRIGHT_HOST: 'bench-other-machine' } },
  );
  try {
    let buffer = '';
    appender.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) {
        const [word, seq, at] = line.split(' ');
        if (word === 'ack') ackedAt.set(Number(seq), Number(at));
      }
    });
    const code = await new Promise((resolve) => appender.once('exit', resolve));
    if (code !== 0) throw new Error(`the appender exited with ${code}`);
    const deadline = Date.now() + 5000;
    while ([...ackedAt.keys()].some((seq) => !deliveredAt.has(seq)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const delays = [...ackedAt].map(([seq, at]) => (deliveredAt.get(seq) ?? Number.POSITIVE_INFINITY) - at);
    // Delivery can beat the appender's own "ack" line by a fraction of a millisecond (NOTIFY fires at commit).
    return { median: Math.max(0, median(delays)), p95: Math.max(0, percentile(delays, 95)), max: Math.max(...delays) };
  } finally {
    if (appender.exitCode === null && appender.pid) process.kill(appender.pid, 'SIGKILL');
    stream.close();
    store.close();
  }
}

export async function runEventStoreBenchmarks() {
  const bundle = await bundleSources(
    'droidwright-bench-event-stores',
    "export * from './scripts/bench-store-sources.ts';",
  );
  const m = await import(pathToFileURL(bundle).href);
  const home = mkdtempSync(join(tmpdir(), 'droidwright-bench-stores-'));
  const columns = { sqlite: {}, postgres: {} };
  const notes = [];
  let cluster;
  try {
    columns.sqlite = measureStore(m, join(home, 'events.db'));
    Object.assign(columns.sqlite, { tail: await measureTail(m, bundle, join(home, 'tail.db')) });
    if (m.postgresBinDir()) {
      cluster = await m.startPostgresCluster({ durable: true });
      columns.postgres = measureStore(m, cluster.createDatabase('droidwright_bench'));
      columns.postgres.tail = await measureTail(m, bundle, cluster.createDatabase('droidwright_bench_tail'));
    } else {
      notes.push('postgres: skipped, no initdb/pg_ctl found (install the postgresql package: scripts/setup.sh)');
    }
  } finally {
    cluster?.stop();
    rmSync(home, { recursive: true, force: true });
  }
  const row = (name, pick, digits = 0) => ({
    name,
    values: Object.fromEntries(
      Object.entries(columns).map(([store, f]) => {
        const v = pick(f);
        return [store, typeof v === 'number' ? v.toFixed(digits) : '-'];
      }),
    ),
  });
  for (const [store, f] of Object.entries(columns)) {
    if (f.tail && !(f.tail.p95 <= TAIL_TARGET_MS)) {
      notes.push(`${store}: tail p95 ${f.tail.p95.toFixed(1)} ms is over the ${TAIL_TARGET_MS} ms target`);
      process.exitCode = 1;
    }
  }
  return {
    columns: ['sqlite', 'postgres'],
    rows: [
      row('append 1 event per transaction, events/s', (f) => f.single),
      row('  latency median ms', (f) => f.singleMedian, 2),
      row('  latency p95 ms', (f) => f.singleP95, 2),
      row('append 25 per transaction, events/s', (f) => f.batch25),
      row('append 100 per transaction, events/s', (f) => f.batch100),
      row('append 1000 per transaction, events/s', (f) => f.batch1000),
      row(`verify ${VERIFY_EVENTS / 1000}k events, ms (median of 3)`, (f) => f.verify),
      row(`log size, ${VERIFY_EVENTS / 1000}k events, MB`, (f) => f.megabytes, 1),
      row(`tail from another process, median ms (${TAIL_EVENTS})`, (f) => f.tail?.median, 1),
      row('tail from another process, p95 ms', (f) => f.tail?.p95, 1),
      row('tail from another process, max ms', (f) => f.tail?.max, 1),
      ...notes.map((name) => ({ name, values: {} })),
    ],
  };
}
