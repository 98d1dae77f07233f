/**
 * Every test's adb server: the real `adb` binary on its own free port (never 5037), spawned as
 * `adb -P <port> nodaemon server` so the test owns its PID and can always kill it.
 */
import { spawn } from 'node:child_process';
import { adbHostRequest } from '../../src/android/adb-server-process.js';
import { freePort } from './free-port.js';
import { trackPid, untrackPid } from './process-tracker.js';
import { isAlive, sleep } from './wait.js';

export interface AdbResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  stdoutBuffer: Buffer;
}

export interface TestAdbServer {
  port: number;
  pid: number;
  adb(args: string[], opts?: { input?: Buffer | string; timeoutMs?: number }): Promise<AdbResult>;
  /** `adb connect` and wait until the device is in the `device` state. */
  connect(serial: string): Promise<void>;
  waitForDevice(serial: string, timeoutMs?: number): Promise<void>;
  /** Serial → state (`device`, `offline`, …) as the server lists them now. */
  devices(): Promise<Map<string, string>>;
  stop(): Promise<void>;
}

/** Waits for `promise` at most `ms`, without leaving a timer behind to hold the test process open. */
function within(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export { adbHostRequest };

export async function startAdbServer(): Promise<TestAdbServer> {
  const port = await freePort();
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(port) };
  const child = spawn('adb', ['-P', String(port), 'nodaemon', 'server'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (!child.pid) throw new Error('could not spawn adb; is the adb binary on PATH?');
  const pid = child.pid;
  trackPid(pid);
  let serverLog = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (serverLog.length < 64 * 1024) serverLog += chunk.toString('utf8');
  });
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      untrackPid(pid);
      resolve();
    }),
  );

  const deadline = Date.now() + 15000;
  for (;;) {
    if (exited) throw new Error(`adb server on port ${port} exited during start-up:\n${serverLog}`);
    try {
      await adbHostRequest(port, 'host:version', 1000);
      break;
    } catch {
      if (Date.now() > deadline) {
        process.kill(pid, 'SIGKILL');
        throw new Error(`adb server on port ${port} did not answer within 15 s:\n${serverLog}`);
      }
      await sleep(50);
    }
  }

  const devices = async (): Promise<Map<string, string>> => {
    const text = await adbHostRequest(port, 'host:devices');
    const map = new Map<string, string>();
    for (const line of text.split('\n')) {
      const [serial, state] = line.split('\t');
      if (serial && state) map.set(serial, state.trim());
    }
    return map;
  };

  const waitForDevice = async (serial: string, timeoutMs = 15000): Promise<void> => {
    const until = Date.now() + timeoutMs;
    let last = 'absent';
    while (Date.now() < until) {
      last = (await devices()).get(serial) ?? 'absent';
      if (last === 'device') return;
      await sleep(50);
    }
    throw new Error(`device ${serial} is still ${last} after ${timeoutMs} ms`);
  };

  const adb: TestAdbServer['adb'] = (args, opts = {}) => {
    // A command run after the server died would silently start a daemon nobody tracks.
    if (exited) return Promise.reject(new Error(`adb server on port ${port} is not running`));
    return new Promise((resolve, reject) => {
      const run = spawn('adb', ['-P', String(port), ...args], {
        env,
        stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      if (run.pid) trackPid(run.pid);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      run.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
      run.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
      const timer = setTimeout(() => run.kill('SIGKILL'), opts.timeoutMs ?? 30000);
      run.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      run.on('close', (code, signal) => {
        clearTimeout(timer);
        if (run.pid) untrackPid(run.pid);
        const stdoutBuffer = Buffer.concat(out);
        resolve({
          stdout: stdoutBuffer.toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
          exitCode: code ?? (signal ? 128 + 9 : 1),
          stdoutBuffer,
        });
      });
      if (opts.input !== undefined && run.stdin) {
        run.stdin.on('error', () => undefined);
        run.stdin.end(opts.input);
      }
    });
  };

  return {
    port,
    pid,
    adb,
    devices,
    waitForDevice,
    async connect(serial: string) {
      const reply = await adbHostRequest(port, `host:connect:${serial}`, 10000);
      if (!/connected to/.test(reply)) throw new Error(`adb connect ${serial} failed: ${reply}`);
      await waitForDevice(serial);
    },
    async stop() {
      if (!exited) {
        await adbHostRequest(port, 'host:kill', 2000).catch(() => undefined);
        await within(exitedPromise, 3000);
      }
      if (!exited && isAlive(pid)) process.kill(pid, 'SIGKILL');
      await within(exitedPromise, 2000);
    },
  };
}
