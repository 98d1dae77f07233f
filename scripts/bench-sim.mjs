import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adbHostRequest, freePort, loadSources } from './bench-support.mjs';

const _root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles the simulator entry point on its own, so the benchmark needs no full build. */
async function loadSimulator() {
  return loadSources(
    'droidwright-bench-sim/sim',
    "export { startSimulatedDevice } from './src/sim/start-simulated-device.ts';\n" +
      "export { createSimulatedAndroid } from './src/sim/android/create-simulated-android.ts';\n",
  );
}

/** Opens `service` on `serial` and resolves with the bytes received until the device closes the stream. */
function deviceService(port, serial, service) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let stage = 0;
    let pending = Buffer.alloc(0);
    let received = 0;
    socket.on('connect', () =>
      socket.write(`${`host:transport:${serial}`.length.toString(16).padStart(4, '0')}host:transport:${serial}`),
    );
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
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`adb ${args.join(' ')} exited ${code}`)),
    );
  });
}

/** A transport-only Android: `lines N` writes N logcat-sized lines, `echo` echoes; an in-memory fs takes pushes. */
function benchAndroid() {
  const files = new Map();
  const line = '11-30 06:41:58.123  1234  1250 I ActivityManager: Displayed com.example.app/.MainActivity: +412ms\n';
  return {
    banner: () =>
      'device::ro.product.name=bench;ro.product.model=Bench;ro.product.device=bench;features=cmd,shell_v2,stat_v2,ls_v2,fixed_push_mkdir',
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
      stat: (p) =>
        files.has(p)
          ? { mode: 0o100644, size: files.get(p).length, mtimeSec: 0 }
          : p === '/data/local/tmp'
            ? { mode: 0o040771, size: 4096, mtimeSec: 0 }
            : null,
      list: () => [],
      readFile: (p) => files.get(p) ?? null,
      writeFile: (p, data) => void files.set(p, data),
    },
    lineBytes: Buffer.byteLength(line),
    dispose() {},
  };
}

function stats(name, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { name, runs: samples.length, median: at(0.5), p90: at(0.9), min: sorted[0] };
}

async function withSetup(body) {
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-bench-sim-'));
  const simulator = await loadSimulator();
  const port = await freePort();
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(port) };
  const server = spawn('adb', ['-P', String(port), 'nodaemon', 'server'], { env, stdio: 'ignore' });
  const devices = [];
  const addDevice = async (android) => {
    const device = await simulator.startSimulatedDevice({ port: 0, android });
    devices.push(device);
    await adbHostRequest(port, `host:connect:${device.serial}`);
    for (let i = 0; !(await adbHostRequest(port, 'host:devices')).includes(`${device.serial}\tdevice`); i++) {
      if (i > 300) throw new Error('device did not come online');
      await new Promise((r) => setTimeout(r, 20));
    }
    return device.serial;
  };
  try {
    for (let i = 0; ; i++) {
      try {
        await adbHostRequest(port, 'host:version');
        break;
      } catch (error) {
        if (i > 300) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const android = benchAndroid();
    const serial = await addDevice(android);
    return await body({ port, env, serial, android, dir, simulator, addDevice });
  } finally {
    for (const device of devices) await device.stop();
    await adbHostRequest(port, 'host:kill').catch(() => undefined);
    setTimeout(() => server.kill('SIGKILL'), 2000).unref();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `once` `times` times and returns the durations in ms. */
async function timeRepeated(times, once) {
  const samples = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await once();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** Follows `logcat` on the real simulated Android while entries are appended as fast as the loop allows. */
async function followLogcat(port, serial, state, count) {
  state.logs.clear(['main', 'system', 'crash', 'events', 'radio', 'kernel']);
  return new Promise((resolve, reject) => {
    const service = 'exec:logcat -v threadtime';
    const socket = connect(port, '127.0.0.1');
    let stage = 0;
    let lines = 0;
    let started = 0;
    socket.on('connect', () =>
      socket.write(`${`host:transport:${serial}`.length.toString(16).padStart(4, '0')}host:transport:${serial}`),
    );
    const count_ = (buf) => {
      for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
      if (lines >= count) {
        socket.destroy();
        resolve(performance.now() - started);
      }
    };
    socket.on('data', (chunk) => {
      if (stage === 2) return count_(chunk);
      let rest = chunk;
      while (stage < 2 && rest.length >= 4) {
        if (rest.toString('latin1', 0, 4) !== 'OKAY') return reject(new Error('logcat refused'));
        rest = rest.subarray(4);
        stage++;
        if (stage === 1) socket.write(service.length.toString(16).padStart(4, '0') + service);
        else {
          started = performance.now();
          let appended = 0;
          const burst = () => {
            for (let i = 0; i < 2000 && appended < count; i++, appended++) {
              state.logs.append({
                buffer: 'main',
                priority: 4,
                tag: 'BenchTag',
                message: `bench line ${appended} with a typical amount of text`,
                pid: 4242,
              });
            }
            if (appended < count) setImmediate(burst);
          };
          setImmediate(burst);
        }
      }
      if (stage === 2 && rest.length) count_(rest);
    });
    socket.on('error', reject);
  });
}

/** Each returns rows for scripts/bench.mjs's table (times in ms); throughput goes in the row name. */
export const simBenchmarks = [
  {
    name: 'shell round trip',
    async run({ port, serial }) {
      const inProtocol = await timeRepeated(200, () => deviceService(port, serial, 'shell,v2,raw:echo hi'));
      const cli = await timeRepeated(20, () =>
        run(['-P', String(port), '-s', serial, 'shell', 'echo', 'hi'], process.env),
      );
      return [
        stats('sim: shell echo, adb server↔device', inProtocol),
        stats('sim: `adb shell echo` incl. adb client', cli),
      ];
    },
  },
  {
    name: 'line throughput',
    async run({ port, serial, android }) {
      const count = 200_000;
      const samples = await timeRepeated(3, async () => {
        const bytes = await deviceService(port, serial, `exec:lines ${count}`);
        if (bytes !== count * android.lineBytes)
          throw new Error(`expected ${count * android.lineBytes} bytes, got ${bytes}`);
      });
      const rate = Math.round(count / (Math.min(...samples) / 1000));
      return [stats(`sim: 200k lines via adb (${(rate / 1000).toFixed(0)}k lines/s)`, samples)];
    },
  },
  {
    name: 'logcat follow',
    async run({ port, simulator, addDevice }) {
      if (!simulator.createSimulatedAndroid) return [];
      const android = simulator.createSimulatedAndroid({ backgroundLogRate: 0 });
      try {
        const serial = await addDevice(android);
        const count = 50_000;
        const samples = [];
        for (let i = 0; i < 3; i++) samples.push(await followLogcat(port, serial, android.state, count));
        const rate = Math.round(count / (Math.min(...samples) / 1000));
        return [stats(`sim: logcat -f 50k entries (${(rate / 1000).toFixed(0)}k lines/s)`, samples)];
      } finally {
        android.dispose();
      }
    },
  },
  {
    name: 'push',
    async run({ port, serial, dir }) {
      const file = join(dir, 'push.bin');
      writeFileSync(file, Buffer.alloc(64 * 1024 * 1024, 0x5a));
      const samples = await timeRepeated(3, () =>
        run(['-P', String(port), '-s', serial, 'push', file, '/data/local/tmp/push.bin'], process.env),
      );
      return [stats(`sim: adb push 64 MB (${(64 / (Math.min(...samples) / 1000)).toFixed(0)} MB/s)`, samples)];
    },
  },
];

/** Runs every sim benchmark against one adb server; resolves with table rows. */
export function runSimBenchmarks() {
  return withSetup(async (context) => {
    const rows = [];
    for (const bench of simBenchmarks) rows.push(...(await bench.run(context)));
    return rows;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const row of await runSimBenchmarks()) {
    console.log(
      `${row.name.padEnd(48)} runs=${row.runs} median=${row.median.toFixed(2)} ms p90=${row.p90.toFixed(2)} ms min=${row.min.toFixed(2)} ms`,
    );
  }
}
