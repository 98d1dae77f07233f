// droidwright benchmarks (not tests: numbers depend on the machine). Run with `npm run bench`.
// Each benchmark is a named async function returning table rows; add yours to `benchmarks` below.
// `node scripts/bench.mjs startup` runs only the named ones.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, pidsWithHome } from './bench-support.mjs';

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

/** The installed @mobilenext/mobile-mcp (`npm run bench:peers`), or undefined. */
function mobileMcpEntry() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  return [
    join(root, 'node_modules/.cache/bench-peers/node_modules/@mobilenext/mobile-mcp/lib/index.js'),
    join(root, 'node_modules/@mobilenext/mobile-mcp/lib/index.js'),
  ].find((path) => existsSync(path));
}

/** One agent start in a fresh SDK client process (scripts/bench-startup-client.mjs); see its header. */
function timeClientStart(command, args, env, cwd) {
  const client = fileURLToPath(new URL('./bench-startup-client.mjs', import.meta.url));
  const out = execFileSync(process.execPath, [client, command, ...args], { env, cwd, timeout: 30_000 });
  return JSON.parse(out.toString('utf8'));
}

function row(name, samples) {
  return {
    name,
    runs: samples.length,
    median: median(samples),
    p90: percentile(samples, 90),
    min: Math.min(...samples),
  };
}

/**
 * Start-up as an agent meets it: spawn → tools/list through the SDK's client, each run a fresh client process
 * (so its validators compile cold, as at an agent's start), every toolset served; and the same for
 * @mobilenext/mobile-mcp, interleaved run by run, with its telemetry off and a HOME of its own (run the bench
 * without network: `unshare -rn sh -c 'ip link set lo up && npm run bench startup'`); the daemon it leaves is
 * stopped by PID. Targets (issue 15): ≤ 150 ms and ≤ 0.55× mobile-mcp, on Node 20. Also the server alone
 * (raw JSON-RPC, no client work) and `node -e 0`.
 */
async function startup() {
  const runs = 15;
  const home = mkdtempSync(join(tmpdir(), 'droidwright-bench-'));
  const peerHome = mkdtempSync(join(tmpdir(), 'droidwright-bench-peer-home-'));
  const env = { ...process.env, DROIDWRIGHT_HOME: home, ANDROID_ADB_SERVER_PORT: String(await freePort()) };
  const peerEnv = { ...process.env, HOME: peerHome, MOBILEMCP_DISABLE_TELEMETRY: '1' };
  const peer = mobileMcpEntry();
  try {
    await timeMcpStartup(env); // warm the file cache and create the database, not counted
    timeClientStart(process.execPath, [CLI, 'mcp'], env, home);
    if (peer) timeClientStart(process.execPath, [peer], peerEnv, peerHome);
    const ours = [];
    const theirs = [];
    for (let i = 0; i < runs; i++) {
      ours.push(timeClientStart(process.execPath, [CLI, 'mcp'], env, home));
      if (peer) theirs.push(timeClientStart(process.execPath, [peer], peerEnv, peerHome));
    }
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
    const catalog = JSON.parse(readFileSync(new URL('../dist/tool-catalog.json', import.meta.url), 'utf8'));
    const catalogTools = catalog.toolsets.reduce((sum, set) => sum + set.tools.length, 0);
    const listed = ours.map((r) => r.listed);
    const rows = [
      row('node -e 0 (baseline)', nodeOnly),
      row('SDK client: spawn → tools/list', listed),
      row(
        '  spawn → initialize result',
        ours.map((r) => r.initialized),
      ),
      { name: `  ${ours[0].tools} tools of ${catalogTools}, list bytes`, median: ours[0].bytes },
    ];
    if (peer) {
      const peerListed = theirs.map((r) => r.listed);
      rows.push(
        row('mobile-mcp: spawn → tools/list', peerListed),
        { name: `  ${theirs[0].tools} tools, list bytes`, median: theirs[0].bytes },
        { name: `ratio droidwright / mobile-mcp (medians): ${(median(listed) / median(peerListed)).toFixed(2)}` },
      );
    } else {
      rows.push({ name: 'mobile-mcp not installed (npm run bench:peers): no ratio' });
    }
    rows.push(row('raw: spawn → initialize reply', init), row('raw: spawn → tools/list reply', list));
    return rows;
  } finally {
    for (const pid of pidsWithHome(peerHome)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(home, { recursive: true, force: true });
    rmSync(peerHome, { recursive: true, force: true });
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
  /** One parser per run over all the lines, timed as a row of the table. */
  const timeParse = (name, input) => {
    const ms = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const parser = new GradleOutputParser();
      for (const line of input) parser.push(line);
      parser.finish();
      ms.push(performance.now() - t0);
    }
    return { name, runs, median: median(ms), p90: percentile(ms, 90), min: Math.min(...ms) };
  };
  // Lines at the parser's length cap built to make a regex backtrack (a path repeated, a prefix then a long run): a
  // build log is whatever a dependency's tooling prints, so its worst line must cost about what an ordinary one does.
  const units = ['/a', 'a:', ' ', 'a.', ':1', '(1, ', '> ', '[a] ', 'A.java:', '\\a', '0:', '`', '**', '&#1;'];
  const prefixes = ['', 'ERROR:', 'e: ', 'error: ', '    at ', 'AAPT: error: ', '/a/A.java:1: error: ', '> Task :a:b '];
  const hostile = prefixes.flatMap((p) => units.map((u) => `${p}${u.repeat(Math.ceil(8000 / u.length))}!`));
  return [
    timeParse(`parse ${lines.length} Gradle output lines`, lines),
    timeParse(`parse ${hostile.length} adversarial 8 KB Gradle output lines`, hostile),
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

// ---------------------------------------------------------------- tui (owner: droidwright tui)
/** CPU ticks (user + system) a process has used, from /proc/<pid>/stat; 100 per second on Linux. */
function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * `droidwright tui` in a private tmux server while another process appends 1,000 events/s for 10 s: the
 * dashboard's CPU (idle, then under the flood), how far behind the log its screen is (the newest seq the
 * header shows, against when that event was appended), and how long it takes to show the last one.
 */
async function tui() {
  const { build: esbuild } = await import('esbuild');
  const { default: Database } = await import('better-sqlite3');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(join(cache, 'droidwright-bench-tui-'));
  const appender = join(scratch, 'appender.mjs');
  await esbuild({
    entryPoints: [join(root, 'test/support/tui-event-appender.ts')],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    outfile: appender,
    logLevel: 'silent',
  });
  const home = mkdtempSync(join(tmpdir(), 'droidwright-bench-tui-'));
  const socket = `dw-bench-tui-${process.pid}`;
  const tmux = (...args) => execFileSync('/usr/bin/tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const newestShown = () => {
    // The status line under the title: trust, devices, the log's verified head, MCP sessions.
    const header = tmux('capture-pane', '-p', '-t', '0').split('\n')[1] ?? '';
    const seqs = [...header.matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
    return seqs.length ? Math.max(...seqs) : 0;
  };
  let db;
  try {
    tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      '120',
      '-y',
      '30',
      `exec env DROIDWRIGHT_HOME=${home} TERM=xterm-256color ${process.execPath} ${CLI} tui`,
    );
    const pid = Number(tmux('display-message', '-p', '-t', '0', '#{pane_pid}').trim());
    for (let i = 0; !tmux('capture-pane', '-p', '-t', '0').includes('log ✓'); i++) {
      if (i > 200) throw new Error(`droidwright tui did not start:\n${tmux('capture-pane', '-p', '-t', '0')}`);
      await sleep(100);
    }
    // V8 keeps compiling in the background for a few seconds after start-up; idle means after that.
    await sleep(8000);
    const idle0 = cpuTicks(pid);
    await sleep(10_000);
    const idleCpu = (cpuTicks(pid) - idle0) / 10; // ticks per second of 100 = percent of one core
    const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
    const idleRss = rssMb();

    const rate = 1000;
    const seconds = 10;
    const flood = spawn(process.execPath, [appender, 'flood', String(rate), String(seconds)], {
      env: { ...process.env, DROIDWRIGHT_HOME: home },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    flood.stdout.on('data', (chunk) => (out += chunk));
    const exited = new Promise((resolve) => flood.once('exit', resolve));
    const busy0 = cpuTicks(pid);
    const floodStart = performance.now();
    db = new Database(join(home, 'events.db'), { readonly: true });
    const atOf = db.prepare('SELECT at FROM events WHERE seq = ?');
    const lags = [];
    let running = true;
    exited.then(() => (running = false));
    while (running) {
      await sleep(250);
      const seq = newestShown();
      const row = atOf.get(seq);
      if (row && seq > 1) lags.push(Date.now() - row.at);
    }
    const floodMs = performance.now() - floodStart;
    const busyCpu = (cpuTicks(pid) - busy0) / (floodMs / 1000);
    const [, last, sent, appendMs] = /done (\d+) (\d+) (\d+)/.exec(out) ?? [];
    const caughtUp0 = performance.now();
    while (newestShown() < Number(last)) {
      if (performance.now() - caughtUp0 > 30_000) throw new Error(`the TUI never showed seq ${last}`);
      await sleep(20);
    }
    const catchUp = performance.now() - caughtUp0;
    return [
      { name: 'tui CPU % idle (10 s, quiet log)', runs: 1, median: idleCpu },
      { name: `tui CPU % at ${rate} events/s (${seconds} s)`, runs: 1, median: busyCpu },
      { name: 'events/s another process appended', runs: 1, median: Number(sent) / (Number(appendMs) / 1000) },
      {
        name: 'screen lag ms (append → status line seq)',
        runs: lags.length,
        median: median(lags),
        p90: percentile(lags, 90),
        min: Math.min(...lags),
      },
      { name: 'ms to show the last event after flood', runs: 1, median: catchUp },
      { name: 'tui RSS MB idle', runs: 1, median: idleRss },
      { name: 'tui RSS MB after the flood', runs: 1, median: rssMb() },
    ];
  } finally {
    db?.close();
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    rmSync(scratch, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/** What recording a build's sources (git state and file hashes, or source-set hashes) adds to its start. */
async function provenance() {
  const { runProvenanceBenchmarks } = await import('./bench-provenance.mjs');
  return runProvenanceBenchmarks(loadSource);
}

// ---------------------------------------------------------------- event stores (SQLite and PostgreSQL side by side)
/** Appends/s, verify of a 100k-event log and the cross-machine tail delay on both stores (issue 17). */
async function eventStores() {
  const { runEventStoreBenchmarks } = await import('./bench-event-stores.mjs');
  return runEventStoreBenchmarks();
}

// ---------------------------------------------------------------- ui (owner: ui toolset)
/** Screen reads through the real server and client on a normal and a 2,397-node screen; screenshot downscale. */
async function ui() {
  const { runUiBenchmarks } = await import('./bench-ui.mjs');
  return runUiBenchmarks();
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
  'event-stores': eventStores,
  build,
  provenance,
  'logcat-store': logcatStore,
  sim,
  logcatWorker,
  tui,
  ui,
};

/** A benchmark comparing alternatives returns { columns, rows: [{ name, values: { column: text } }] }. */
function printColumns(title, { columns, rows }) {
  console.log(`\n## ${title}`);
  console.log(`${'measure'.padEnd(48)} ${columns.map((c) => c.padStart(10)).join(' ')}`);
  for (const row of rows) {
    console.log(`${row.name.padEnd(48)} ${columns.map((c) => String(row.values[c] ?? '').padStart(10)).join(' ')}`);
  }
}

function printTable(title, rows) {
  if (!Array.isArray(rows)) return printColumns(title, rows);
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
