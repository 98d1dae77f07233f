// droidwright benchmarks (not tests: numbers depend on the machine). Run with `npm run bench`.
// Each benchmark is a named async function returning table rows; add yours to `benchmarks` below.
// `node scripts/bench.mjs startup` runs only the named ones.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './bench-support.mjs';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Spawns `droidwright mcp`, sends initialize then tools/list, returns ms from spawn to each reply. */
async function timeMcpStartup(env) {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'mcp'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
    cwd: env.DROIDWRIGHT_HOME,
  });
  const times = {};
  let buffer = '';
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no reply within 20 s')), 20_000);
    child.stdout.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let newline;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const message = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (message.id === 0) {
          times.initialize = performance.now() - started;
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`);
        } else if (message.id === 1) {
          times.toolsList = performance.now() - started;
          clearTimeout(timer);
          resolve();
        }
      }
    });
    child.once('exit', () => reject(new Error('server exited early')));
  });
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } })}\n`,
  );
  try {
    await done;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(kill);
  }
  return times;
}

/** spawn → initialize reply and → tools/list reply of `droidwright mcp`; target: tools/list median under 200 ms. */
async function startup() {
  const runs = 15;
  const home = mkdtempSync(join(tmpdir(), 'droidwright-bench-'));
  const env = { ...process.env, DROIDWRIGHT_HOME: home, ANDROID_ADB_SERVER_PORT: String(await freePort()) };
  try {
    await timeMcpStartup(env); // warm the file cache and create the database, not counted
    const init = [];
    const list = [];
    for (let i = 0; i < runs; i++) {
      const t = await timeMcpStartup(env);
      init.push(t.initialize);
      list.push(t.toolsList);
    }
    const nodeOnly = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await new Promise((resolve) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).once('exit', resolve));
      nodeOnly.push(performance.now() - t0);
    }
    return [
      {
        name: 'node -e 0 (baseline)',
        runs,
        median: median(nodeOnly),
        p90: percentile(nodeOnly, 90),
        min: Math.min(...nodeOnly),
      },
      {
        name: 'mcp spawn → initialize reply',
        runs,
        median: median(init),
        p90: percentile(init, 90),
        min: Math.min(...init),
      },
      {
        name: 'mcp spawn → tools/list reply',
        runs,
        median: median(list),
        p90: percentile(list, 90),
        min: Math.min(...list),
      },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- build (owner: build toolset)
/** Gradle output parser throughput on the real captures (test/fixtures/gradle-output), repeated to ~200k lines. */
async function build() {
  const { build: esbuild } = await import('esbuild');
  const { readdirSync, readFileSync } = await import('node:fs');
  const bundled = await esbuild({
    entryPoints: [fileURLToPath(new URL('../src/plugins/build/services/gradle-output-parser.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
  });
  const { GradleOutputParser } = await import(
    `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`
  );
  const dir = fileURLToPath(new URL('../test/fixtures/gradle-output/', import.meta.url));
  const corpus = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'));
  const lines = [];
  while (lines.length < 200_000) lines.push(...corpus);
  const runs = 5;
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const parser = new GradleOutputParser();
    for (const line of lines) parser.push(line);
    parser.finish();
    ms.push(performance.now() - t0);
  }
  return [
    {
      name: `parse ${lines.length} Gradle output lines`,
      runs,
      median: median(ms),
      p90: percentile(ms, 90),
      min: Math.min(...ms),
    },
  ];
}

// ---------------------------------------------------------------- events (the log every call writes to)
/** Bundles a TypeScript module of ours into a temp .mjs (better-sqlite3 stays a normal import) and loads it. */
async function loadSource(relative) {
  const { build: esbuild } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-bench-src-'));
  const outfile = join(dir, 'module.mjs');
  const root = fileURLToPath(new URL('..', import.meta.url));
  await esbuild({
    entryPoints: [join(root, relative)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'silent',
    plugins: [
      {
        name: 'native-from-checkout',
        setup: (b) =>
          b.onResolve({ filter: /^better-sqlite3$/ }, () => ({
            path: join(root, 'node_modules/better-sqlite3/lib/index.js'),
            external: true,
          })),
      },
    ],
  });
  return import(outfile);
}

/** Append latency (one event per transaction, and batches), query and full-chain verify on a real file. */
async function events() {
  const { EventStore } = await loadSource('src/events/event-store.ts');
  const { EventCatalog } = await loadSource('src/events/event-catalog.ts');
  const { z } = await import('zod');
  const home = mkdtempSync(join(tmpdir(), 'droidwright-bench-events-'));
  const thingHappened = {
    type: 'bench.thing_happened',
    version: 1,
    description: 'benchmark event',
    schema: z.object({ n: z.number(), text: z.string() }),
  };
  const catalog = new EventCatalog([thingHappened]);
  const store = EventStore.open({ path: join(home, 'events.db'), catalog });
  const actor = { kind: 'system', pid: process.pid };
  const event = (n) => ({
    type: 'bench.thing_happened',
    stream: 'bench:1',
    device: 'emulator-5554',
    package: 'com.example.app',
    data: { n, text: 'x'.repeat(200) },
    actor,
  });
  try {
    const rows = [];
    const single = [];
    for (let i = 0; i < 300; i++) {
      const t0 = performance.now();
      const { type: _type, data, ...meta } = event(i);
      store.append(thingHappened, data, meta);
      single.push(performance.now() - t0);
    }
    rows.push({
      name: 'append 1 event (own transaction)',
      runs: single.length,
      median: median(single),
      p90: percentile(single, 90),
      min: Math.min(...single),
    });
    // The witness (witness.jsonl) every droidwright process keeps: what it adds to an append.
    const { EventWitness } = await loadSource('src/events/event-witness.ts');
    const witness = EventWitness.attach(store, join(home, 'witness.jsonl'));
    const witnessed = [];
    for (let i = 0; i < 300; i++) {
      const t0 = performance.now();
      const { type: _type, data, ...meta } = event(i);
      store.append(thingHappened, data, meta);
      witnessed.push(performance.now() - t0);
    }
    witness.close();
    rows.push({
      name: 'append 1 event, witness attached',
      runs: witnessed.length,
      median: median(witnessed),
      p90: percentile(witnessed, 90),
      min: Math.min(...witnessed),
    });
    const probe = new EventWitness(join(home, 'witness-probe.jsonl'), { intervalMs: 60_000 });
    const notes = 1_000_000;
    const probeHash = 'a'.repeat(64);
    const t0 = performance.now();
    for (let i = 1; i <= notes; i++) probe.note({ seq: i, hash: probeHash, at: i });
    const noteMs = performance.now() - t0;
    const flushes = [];
    for (let i = 1; i <= 200; i++) {
      probe.note({ seq: notes + i, hash: 'b'.repeat(64), at: i });
      const f0 = performance.now();
      probe.flush();
      flushes.push(performance.now() - f0);
    }
    probe.close();
    rows.push({ name: 'witness note() per append (µs, 1e6 calls)', runs: notes, median: (noteMs * 1000) / notes });
    rows.push({
      name: 'witness line write µs (timer, off append)',
      runs: flushes.length,
      median: median(flushes) * 1000,
      p90: percentile(flushes, 90) * 1000,
      min: Math.min(...flushes) * 1000,
    });
    const batch = [];
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      store.appendMany(Array.from({ length: 25 }, (_, k) => event(k)));
      batch.push(performance.now() - t0);
    }
    rows.push({
      name: 'append 25 events (one transaction)',
      runs: batch.length,
      median: median(batch),
      p90: percentile(batch, 90),
      min: Math.min(...batch),
    });
    while (store.lastSeq() < 20_000) store.appendMany(Array.from({ length: 500 }, (_, k) => event(k)));
    const query = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      store.query({ types: ['bench.*'], package: 'com.example.app', limit: 50 });
      query.push(performance.now() - t0);
    }
    rows.push({
      name: 'query 50 newest of 20k (type glob + package)',
      runs: query.length,
      median: median(query),
      p90: percentile(query, 90),
      min: Math.min(...query),
    });
    const verify = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const result = store.verify();
      if (!result.ok) throw new Error(`verify failed: ${result.reason}`);
      verify.push(performance.now() - t0);
    }
    rows.push({
      name: `verify the whole chain (${store.lastSeq()} events)`,
      runs: verify.length,
      median: median(verify),
      p90: percentile(verify, 90),
      min: Math.min(...verify),
    });
    return rows;
  } finally {
    store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- logcat store (the device log lines)
/** Deterministic, logcat-like lines: skewed tags and levels, a few dozen processes, 40–160 character messages. */
function syntheticLogLines(count, startSeq) {
  const levels = ['V', 'V', 'D', 'D', 'D', 'D', 'I', 'I', 'I', 'W', 'W', 'E', 'D', 'I', 'D', 'I', 'D', 'I', 'D', 'F'];
  const words = ['activity', 'surface', 'binder', 'network', 'request', 'layout', 'choreographer', 'frames', 'gc'];
  const lines = [];
  let x = (startSeq * 2654435761) | 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 1;
  };
  for (let i = 0; i < count; i++) {
    const r = next();
    const seq = startSeq + i;
    const tag = `Tag${Math.floor(Math.sqrt(r % 40000))}`; // 200 tags, low numbers rare, high ones common
    const pid = 1000 + (r % 40);
    const words3 = `${words[r % 9]} ${words[(r >> 3) % 9]} ${words[(r >> 6) % 9]}`;
    lines.push({
      time: '',
      timeMs: 1_760_000_000_000 + seq,
      pid,
      tid: pid + (r % 7),
      level: levels[(r >> 4) % levels.length],
      tag,
      message: `${words3} id=${seq} took ${r % 997}ms ${'x'.repeat(20 + (r % 100))}`,
    });
  }
  return lines;
}

/**
 * The line store at its retention bound: ingest rate in worker-sized batches, then reads over 1,000,000 stored
 * lines. Targets: ingest well over 100,000 lines/s, filtered query < 50 ms, text search < 200 ms.
 */
async function logcatStore() {
  const { SqliteLogLineStore } = await loadSource('src/plugins/logcat/services/sqlite-log-line-store.ts');
  const home = mkdtempSync(join(tmpdir(), 'droidwright-bench-logcat-'));
  const total = 1_000_000;
  const store = new SqliteLogLineStore({
    path: join(home, 'logcat.db'),
    retention: () => ({ maxLines: total, maxBytes: 256 * 2 ** 20 }),
  });
  const serial = 'emulator-5554';
  const packageOf = (pid) => `com.example.app${pid % 20}`;
  const time = (fn, runs) => {
    const ms = [];
    let result;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      result = fn();
      ms.push(performance.now() - t0);
    }
    return { runs, median: median(ms), p90: percentile(ms, 90), min: Math.min(...ms), result };
  };
  try {
    const rows = [];
    const batchSize = 2_000;
    let ingestMs = 0;
    let ingestCpuMs = 0;
    for (let seq = 1; seq <= total; seq += batchSize) {
      const batch = syntheticLogLines(batchSize, seq);
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      store.append(serial, batch, packageOf);
      const c = process.cpuUsage(c0);
      ingestCpuMs += (c.user + c.system) / 1000;
      ingestMs += performance.now() - t0;
    }
    rows.push({
      name: `ingest lines/s (${total}, batches of ${batchSize})`,
      runs: 1,
      median: total / (ingestMs / 1000),
    });
    // The box is shared: lines per CPU-second says what one core sustains when it is not taken by others.
    rows.push({ name: 'ingest lines per CPU-second', runs: 1, median: total / (ingestCpuMs / 1000) });
    // At the bound every batch also evicts: the steady state a long-running worker lives in.
    let evictMs = 0;
    for (let seq = total + 1; seq <= total + 200_000; seq += batchSize) {
      const batch = syntheticLogLines(batchSize, seq);
      const t0 = performance.now();
      store.append(serial, batch, packageOf);
      evictMs += performance.now() - t0;
    }
    rows.push({ name: 'ingest lines/s at retention (evicting)', runs: 1, median: 200_000 / (evictMs / 1000) });
    const stored = store.counts(serial).lines;
    const q = (filter, limit = 200) => store.query({ deviceSerial: serial, ...filter }, limit);
    const cases = [
      ['newest 200, no filter', {}],
      ['min_level W + tag + package', { minLevel: 'W', tags: ['Tag150'], packages: ['com.example.app7'] }],
      ['min_level E + rare tag', { minLevel: 'E', tags: ['Tag3'] }],
      ['package + pid', { packages: ['com.example.app7'], pid: 1027 }],
      ['text, match among the oldest lines', { text: `id=${total + 200_000 - stored + 5} ` }],
      ['text, no match', { text: 'no such text anywhere' }],
      ['regex', { regex: 'binder (network|gc) id=\\d+5 took 99\\dms' }],
      ['regex, no match (scan bound)', { regex: 'nomatch\\d+' }],
    ];
    for (const [name, filter] of cases) {
      const c0 = process.cpuUsage();
      const timed = time(() => q(filter), 7);
      const c = process.cpuUsage(c0);
      rows.push({ name: `${name} (${timed.result.lines.length}+${timed.result.more})`, ...timed });
      // On a shared box wall time includes waiting for a core; CPU time per query is what the code costs.
      rows.push({ name: '  cpu ms per query', runs: timed.runs, median: (c.user + c.system) / 1000 / timed.runs });
    }
    rows.push({ name: `(${stored} lines stored)`, runs: 0 });
    const stats = time(() => store.counts(serial), 7);
    rows.push({ name: 'counts (stats)', ...stats });
    return rows;
  } finally {
    store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- sim (owner: simulated device transport)
/** The simulated device through a real adb server: shell round trips, line and logcat throughput, push speed. */
async function sim() {
  const { runSimBenchmarks } = await import('./bench-sim.mjs');
  return runSimBenchmarks();
}

// ---------------------------------------------------------------- logcat worker (owner: logcat streaming)
/** The worker under the sim's flood at 100,000 lines/s for 30 s: stored rate, lines lost by sequence, peak RSS. */
async function logcatWorker() {
  const { runLogcatWorkerBenchmark } = await import('./bench-logcat-worker.mjs');
  const r = await runLogcatWorkerBenchmark({ rate: 100_000, seconds: 30 });
  return [
    { name: `flood ${r.requested_lines_per_second}/s ${r.seconds} s: stored ${r.stored_lines_per_second}/s` },
    { name: `lost by seq ${r.lost_by_sequence}, twice ${r.stored_twice}, dropped ${r.worker_dropped}` },
    { name: `worker peak RSS ${r.worker_peak_rss_mb} MB` },
  ];
}

const benchmarks = {
  startup,
  events,
  build,
  'logcat-store': logcatStore,
  sim,
  logcatWorker,
};

function printTable(title, rows) {
  console.log(`\n## ${title}`);
  console.log(
    `${'measure'.padEnd(40)} ${'runs'.padStart(5)} ${'median ms'.padStart(10)} ${'p90 ms'.padStart(8)} ${'min ms'.padStart(8)}`,
  );
  for (const row of rows) {
    const fmt = (v) => (typeof v === 'number' ? v.toFixed(1) : String(v ?? '-'));
    console.log(
      `${row.name.padEnd(40)} ${String(row.runs ?? '-').padStart(5)} ${fmt(row.median).padStart(10)} ${fmt(row.p90).padStart(8)} ${fmt(row.min).padStart(8)}`,
    );
  }
}

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(benchmarks)) {
  if (only.length > 0 && !only.includes(name)) continue;
  printTable(name, await run());
}
