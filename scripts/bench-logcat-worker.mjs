// The logcat worker under the simulated device's flood, through the real adb server: `droidwright sim --log-rate N`
// in its own process, `droidwright logcat-worker <serial>` (the built CLI, as start_logcat runs it) storing into the
// line store, this script reading the stored flood lines back after the run and counting their sequence numbers
// (a gap is a line lost between the device and the store). Reports lines stored per second, lines lost, lines
// stored twice, and the worker's peak RSS (VmHWM).
// Run: node scripts/bench-logcat-worker.mjs [rate=100000] [seconds=30]   (needs `npm run build` first)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { adbHostRequest, freePort, loadSources } from './bench-support.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(root, 'dist', 'cli.js');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Bundles the line store so the script reads it the way the tools do (better-sqlite3 stays a normal import). */
async function loadLineStore() {
  return loadSources(
    'droidwright-bench-logcat/line-store',
    "export * from './src/plugins/logcat/services/sqlite-log-line-store.ts';\n",
  );
}

/** Peak and current resident set of a process, in MB (Linux /proc). */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
  } catch {
    return { peakMb: Number.NaN, rssMb: Number.NaN };
  }
}

/** Counts the flood's sequence numbers as they are stored: gaps, repeats, first and last. */
class SequenceCounter {
  first = null;
  last = null;
  lines = 0;
  missing = 0;
  repeated = 0;
  add(seq) {
    this.lines++;
    if (this.last === null) this.first = seq;
    else if (seq <= this.last) this.repeated++;
    else if (seq > this.last + 1) this.missing += seq - this.last - 1;
    if (this.last === null || seq > this.last) this.last = seq;
  }
}

export async function runLogcatWorkerBenchmark({ rate = 100_000, seconds = 30 } = {}) {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  const { SqliteLogLineStore } = await loadLineStore();
  const home = mkdtempSync(join(tmpdir(), 'droidwright-bench-logcat-'));
  // Keep every line of the run, so every sequence number can be checked (the default keeps 1,000,000).
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ logcatRetentionLines: rate * (seconds + 30), logcatRetentionBytes: 16 * 2 ** 30 }),
  );
  const children = [];
  const start = (args, env, nodeArgs = []) => {
    const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
      env: { ...process.env, DROIDWRIGHT_HOME: home, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    return child;
  };
  let store = null;
  try {
    const adbPort = await freePort();
    const env = { ANDROID_ADB_SERVER_PORT: String(adbPort) };
    children.push(spawn('adb', ['-P', String(adbPort), 'nodaemon', 'server'], { stdio: 'ignore' }));
    for (let i = 0; !(await adbHostRequest(adbPort, 'host:version').catch(() => '')).startsWith('OKAY'); i++) {
      if (i > 100) throw new Error('the adb server did not start');
      await sleep(100);
    }
    const sim = start(['sim', '--log-rate', String(rate), '--adb-port', String(adbPort)], env);
    const serial = await new Promise((resolve, reject) => {
      let out = '';
      sim.stdout.on('data', (c) => {
        out += c.toString();
        const m = /simulated device (\S+) is up/.exec(out);
        if (m) resolve(m[1]);
      });
      sim.once('exit', () => reject(new Error(`the simulated device exited: ${out}`)));
    });
    for (let i = 0; !(await adbHostRequest(adbPort, 'host:devices')).includes(`${serial}\tdevice`); i++) {
      if (i > 100) throw new Error(`${serial} did not come online`);
      await sleep(100);
    }

    // The V8 flags DetachedLogcatWorkerLauncher starts it with (LOGCAT_WORKER_NODE_FLAGS).
    const worker = start(['logcat-worker', serial], env, ['--max-old-space-size=64', '--max-semi-space-size=16']);
    let workerLog = '';
    worker.stderr.on('data', (c) => (workerLog += c.toString()));
    const counter = new SequenceCounter();
    let afterSeq = 0;
    let peakMb = 0;
    const drainStore = () => {
      for (;;) {
        const page = store.range(serial, afterSeq + 1, afterSeq + 50_000, 50_000);
        if (page.length === 0) return;
        for (const line of page) {
          afterSeq = line.seq;
          if (line.tag === 'LogFlood') counter.add(Number(line.message.slice(4, line.message.indexOf(' '))));
        }
      }
    };
    // Wait for the first stored line, then measure a window of `seconds`.
    for (let i = 0; ; i++) {
      if (existsSync(join(home, 'logcat.db'))) {
        store ??= new SqliteLogLineStore({
          path: join(home, 'logcat.db'),
          retention: () => ({ maxLines: rate * (seconds + 30), maxBytes: 16 * 2 ** 30 }),
        });
        drainStore();
        if (counter.lines > 0) break;
      }
      if (worker.exitCode !== null) throw new Error(`the logcat worker exited: ${workerLog}`);
      if (i > 200) throw new Error(`no line was stored within 20 s: ${workerLog}`);
      await sleep(100);
    }
    const began = performance.now();
    const storedAtStart = store.counts(serial).stored;
    // Lines are checked after the run (retention keeps them all), so this script takes no CPU from the worker.
    while (performance.now() - began < seconds * 1000) {
      await sleep(500);
      peakMb = Math.max(peakMb, memoryOf(worker.pid).peakMb);
    }
    const elapsed = (performance.now() - began) / 1000;
    const storedInWindow = store.counts(serial).stored - storedAtStart;
    peakMb = Math.max(peakMb, memoryOf(worker.pid).peakMb);
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    process.kill(worker.pid, 'SIGTERM');
    await exited;
    drainStore();
    const stopped = /stopped \(signal[^)]*\): read (\d+), stored (\d+), evicted (\d+), dropped (\d+)/.exec(workerLog);
    const result = {
      requested_lines_per_second: rate,
      seconds: Number(elapsed.toFixed(1)),
      stored_lines_per_second: Math.round(storedInWindow / elapsed),
      flood_lines_checked: counter.lines,
      first_seq: counter.first,
      last_seq: counter.last,
      lost_by_sequence: counter.missing,
      stored_twice: counter.repeated,
      worker_dropped: stopped ? Number(stopped[4]) : null,
      worker_read: stopped ? Number(stopped[1]) : null,
      worker_stored: stopped ? Number(stopped[2]) : null,
      worker_peak_rss_mb: Number(peakMb.toFixed(1)),
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    store?.close();
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rate = Number(process.argv[2] ?? 100_000);
  const seconds = Number(process.argv[3] ?? 30);
  runLogcatWorkerBenchmark({ rate, seconds }).catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
