import { spawn } from 'node:child_process';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { adbHostRequest, bundleSources, freePort } from './bench-support.mjs';

const _root = fileURLToPath(new URL('..', import.meta.url));
const rate = Number(process.argv[2] ?? 100_000);
const seconds = Number(process.argv[3] ?? 10);
const mode = process.argv[4] ?? 'binary';
if (!Number.isInteger(rate) || rate < 1 || !(seconds > 0) || !['binary', 'text'].includes(mode)) {
  console.error('usage: node scripts/measure-sim-flood.mjs [lines-per-second] [seconds] [binary|text]');
  process.exit(2);
}

/** Bundles the simulator and the binary decoder, so no full build is needed. */
async function bundle() {
  return bundleSources(
    'droidwright-measure-flood/flood',
    "export { startSimulatedDevice } from './src/sim/start-simulated-device.ts';\n" +
      "export { LogcatBinaryDecoder } from './src/android/logcat/logcat-binary-decoder.ts';\n" +
      "export { LogcatTextParser } from './src/android/logcat/logcat-text-parser.ts';\n",
  );
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const children = [];

function start(command, args, options) {
  const child = spawn(command, args, options);
  children.push(child);
  return child;
}

/** Kills every child this script started, by its PID. */
function stopAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

async function main() {
  const outfile = await bundle();
  const { LogcatBinaryDecoder, LogcatTextParser } = await import(pathToFileURL(outfile).href);
  const adbPort = await freePort();
  start('adb', ['-P', String(adbPort), 'nodaemon', 'server'], { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    if ((await adbHostRequest(adbPort, 'host:version').catch(() => '')).startsWith('OKAY')) break;
    if (i > 100) throw new Error('the adb server did not start');
    await sleep(100);
  }
  const sim = start(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(pathToFileURL(outfile).href)});
       const d = await m.startSimulatedDevice({ port: 0, androidOptions: { backgroundLogRate: 0, logRate: ${rate} } });
       console.log(d.serial);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const serial = await new Promise((resolve, reject) => {
    sim.stdout.once('data', (c) => resolve(c.toString().trim()));
    sim.once('exit', () => reject(new Error('the simulated device exited')));
  });
  const connected = await adbHostRequest(adbPort, `host:connect:${serial}`);
  if (!connected.includes('connected')) throw new Error(`adb connect ${serial}: ${connected}`);
  for (let i = 0; !(await adbHostRequest(adbPort, 'host:devices')).includes(`${serial}\tdevice`); i++) {
    if (i > 100) throw new Error(`${serial} did not come online`);
    await sleep(100);
  }

  const command = mode === 'binary' ? ['exec-out', 'logcat', '-B'] : ['logcat', '-v', 'threadtime'];
  const reader = start('adb', ['-P', String(adbPort), '-s', serial, ...command], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const decoder = new LogcatBinaryDecoder();
  const text = new LogcatTextParser({ format: 'threadtime' });
  if (mode === 'text') reader.stdout.setEncoding('utf8');
  let first = null;
  let last = null;
  let lines = 0;
  let gaps = 0;
  let missing = 0;
  let firstAt = 0;
  reader.stdout.on('data', (chunk) => {
    for (const e of mode === 'binary' ? decoder.push(chunk) : text.push(chunk)) {
      if (e.tag !== 'LogFlood') continue;
      const seq = Number(e.message.slice(4, e.message.indexOf(' ')));
      if (first === null) {
        first = seq;
        firstAt = performance.now();
      } else if (seq !== last + 1) {
        gaps++;
        missing += seq - last - 1;
      }
      last = seq;
      lines++;
    }
  });
  const began = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - Math.max(began, firstAt)) / 1000;
  process.kill(reader.pid, 'SIGTERM');
  const delivered = Math.round(lines / elapsed);
  console.log(
    JSON.stringify(
      {
        mode,
        requested_lines_per_second: rate,
        seconds: Number(elapsed.toFixed(2)),
        lines_read: lines,
        delivered_lines_per_second: delivered,
        sequence_gaps: gaps,
        lines_missing_in_gaps: missing,
        first_seq: first,
        last_seq: last,
        skipped_bytes: decoder.stats.skippedBytes,
        unparsed_text_lines: text.stats.unparsed,
      },
      null,
      2,
    ),
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(stopAll);
