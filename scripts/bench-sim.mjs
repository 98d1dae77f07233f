// Benchmarks of the simulated device through the real adb server: shell round trip, line throughput
// (the shape of logcat traffic) and push speed. Run: node scripts/bench-sim.mjs
// Exports `simBenchmarks` (a list of named benchmarks) for scripts/bench.mjs to include.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const optionalAndroid = {
  name: 'optional-android',
  setup(builder) {
    builder.onResolve({ filter: /create-simulated-android\.js$/ }, (args) =>
      existsSync(join(args.resolveDir, args.path.replace(/\.js$/, '.ts'))) ? undefined : { path: args.path, external: true },
    );
  },
};

/** Bundles the simulator entry point on its own, so the benchmark needs no full build. */
async function loadSimulator(dir) {
  const outfile = join(dir, 'sim.mjs');
  await build({
    entryPoints: [join(root, 'src/sim/start-simulated-device.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    external: ['better-sqlite3', 'sharp', '@devicefarmer/adbkit', '@devicefarmer/adbkit-apkreader'],
    // The benchmarks bring their own transport-only Android; the real one is only bundled when present.
    plugins: [optionalAndroid],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return import(pathToFileURL(outfile).href);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function hostRequest(port, service) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks = [];
    socket.on('connect', () => socket.write(service.length.toString(16).padStart(4, '0') + service));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const data = Buffer.concat(chunks);
      if (data.toString('latin1', 0, 4) !== 'OKAY') return reject(new Error(`${service}: ${data}`));
      resolve(data.toString('utf8', 8, 8 + Number.parseInt(data.toString('latin1', 4, 8), 16)));
    });
  });
}

/** Opens `service` on `serial` and resolves with the bytes received until the device closes the stream. */
function deviceService(port, serial, service) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let stage = 0;
    let pending = Buffer.alloc(0);
    let received = 0;
    socket.on('connect', () => socket.write(`host:transport:${serial}`.length.toString(16).padStart(4, '0') + `host:transport:${serial}`));
    socket.on('data', (chunk) => {
      if (stage === 2) {
        received += chunk.length;
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      while (stage < 2 && pending.length >= 4) {
        if (pending.toString('latin1', 0, 4) !== 'OKAY') return reject(new Error(`${service} refused`));
        pending = pending.subarray(4);
        stage++;
        if (stage === 1) socket.write(service.length.toString(16).padStart(4, '0') + service);
      }
      if (stage === 2) received += pending.length;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

function run(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('adb', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`adb ${args.join(' ')} exited ${code}`))));
  });
}

/** A transport-only Android: `lines N` writes N logcat-sized lines, `echo` echoes; an in-memory fs takes pushes. */
function benchAndroid() {
  const files = new Map();
  const line = '11-30 06:41:58.123  1234  1250 I ActivityManager: Displayed com.example.app/.MainActivity: +412ms\n';
  return {
    banner: () => 'device::ro.product.name=bench;ro.product.model=Bench;ro.product.device=bench;features=cmd,shell_v2,stat_v2,ls_v2,fixed_push_mkdir',
    async exec(commandLine, io) {
      const [command, arg] = commandLine.trim().split(/\s+/);
      if (command === 'echo') {
        await io.stdout(`${commandLine.slice(5)}\n`);
        return 0;
      }
      if (command === 'lines') {
        for (let i = 0; i < Number(arg) && !io.signal.aborted; i++) await io.stdout(line);
        return 0;
      }
      return 127;
    },
    fs: {
      stat: (p) => (files.has(p) ? { mode: 0o100644, size: files.get(p).length, mtimeSec: 0 } : p === '/data/local/tmp' ? { mode: 0o040771, size: 4096, mtimeSec: 0 } : null),
      list: () => [],
      readFile: (p) => files.get(p) ?? null,
      writeFile: (p, data) => void files.set(p, data),
    },
    lineBytes: Buffer.byteLength(line),
    dispose() {},
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function withSetup(body) {
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-bench-sim-'));
  const { startSimulatedDevice } = await loadSimulator(dir);
  const port = await freePort();
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(port) };
  const server = spawn('adb', ['-P', String(port), 'nodaemon', 'server'], { env, stdio: 'ignore' });
  const android = benchAndroid();
  let device;
  try {
    for (let i = 0; ; i++) {
      try {
        await hostRequest(port, 'host:version');
        break;
      } catch (error) {
        if (i > 300) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    device = await startSimulatedDevice({ port: 0, android });
    await hostRequest(port, `host:connect:${device.serial}`);
    for (let i = 0; !(await hostRequest(port, 'host:devices')).includes(`${device.serial}\tdevice`); i++) {
      if (i > 300) throw new Error('device did not come online');
      await new Promise((r) => setTimeout(r, 20));
    }
    return await body({ port, env, serial: device.serial, android, dir });
  } finally {
    await device?.stop();
    await hostRequest(port, 'host:kill').catch(() => undefined);
    setTimeout(() => server.kill('SIGKILL'), 2000).unref();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const simBenchmarks = [
  {
    name: 'sim: shell echo round trip (adb server ↔ device, no adb process)',
    unit: 'ms (median)',
    run: ({ port, serial }) => timeRepeated(200, () => deviceService(port, serial, 'shell,v2,raw:echo hi')),
  },
  {
    name: 'sim: `adb shell echo` (includes starting the adb client)',
    unit: 'ms (median)',
    run: ({ port, env, serial }) => timeRepeated(20, () => run(['-P', String(port), '-s', serial, 'shell', 'echo', 'hi'], env)),
  },
  {
    name: 'sim: logcat-sized lines through adb, one write per line',
    unit: 'lines/s',
    async run({ port, serial, android }) {
      const count = 200_000;
      const start = process.hrtime.bigint();
      const bytes = await deviceService(port, serial, `exec:lines ${count}`);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (bytes !== count * android.lineBytes) throw new Error(`expected ${count * android.lineBytes} bytes, got ${bytes}`);
      return Math.round(count / seconds);
    },
  },
  {
    name: 'sim: adb push 64 MB',
    unit: 'MB/s',
    async run({ port, env, serial, dir }) {
      const file = join(dir, 'push.bin');
      writeFileSync(file, Buffer.alloc(64 * 1024 * 1024, 0x5a));
      const start = process.hrtime.bigint();
      await run(['-P', String(port), '-s', serial, 'push', file, '/data/local/tmp/push.bin'], env);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      return Math.round((64 / seconds) * 10) / 10;
    },
  },
];

async function timeRepeated(times, once) {
  const samples = [];
  for (let i = 0; i < times; i++) {
    const start = process.hrtime.bigint();
    await once();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return Math.round(median(samples) * 100) / 100;
}

/** Runs every sim benchmark against one adb server and one simulated device; resolves with the results. */
export function runSimBenchmarks() {
  return withSetup(async (context) => {
    const results = [];
    for (const bench of simBenchmarks) results.push({ name: bench.name, value: await bench.run(context), unit: bench.unit });
    return results;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!existsSync(join(root, 'node_modules/esbuild'))) throw new Error('run npm install first');
  for (const result of await runSimBenchmarks()) console.log(`${result.name}: ${result.value} ${result.unit}`);
}
