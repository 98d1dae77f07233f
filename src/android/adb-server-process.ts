import { spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { isAbsolute } from 'node:path';
import { hostChildPath } from '../kernel/host-executable.js';

/** An adb server this process started on its own port, so the demo never disturbs the user's server on 5037. */
export interface OwnedAdbServer {
  readonly port: number;
  readonly pid: number;
  readonly adbPath: string;
  stop(): Promise<void>;
}

/** A port the OS says is free now on 127.0.0.1 (bind to 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

/**
 * One request on adb's smart-socket protocol (`%04x<service>` → `OKAY`/`FAIL` + hex length + text).
 * Resolves with the reply text (empty when the server sends none, as for `host:emulator:`); rejects on FAIL.
 * Talking to the server directly, rather than running `adb`, never auto-starts a stray daemon.
 */
export function adbHostRequest(port: number, service: string, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`adb server on port ${port} did not answer ${service} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(service.length.toString(16).padStart(4, '0') + service));
    socket.on('data', (chunk: Buffer) => (data = Buffer.concat([data, chunk])));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const status = data.toString('latin1', 0, 4);
      const length = Number.parseInt(data.toString('latin1', 4, 8), 16);
      const text = Number.isFinite(length) ? data.toString('utf8', 8, 8 + length) : '';
      if (status === 'FAIL') reject(new Error(`adb server refused ${service}: ${text || 'no reason given'}`));
      else resolve(text);
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spawns `adb -P <port> nodaemon server` (we own the PID) and waits until it answers. */
export async function startOwnedAdbServer(adbPath: string, port?: number): Promise<OwnedAdbServer> {
  // Host tools are run by absolute path only (see kernel/host-executable): a bare name would be looked up
  // from PATH entries such as "." that the working directory answers.
  if (!isAbsolute(adbPath)) throw new Error(`startOwnedAdbServer needs the absolute path of adb, not ${adbPath}.`);
  const chosen = port ?? (await freePort());
  const child = spawn(adbPath, ['-P', String(chosen), 'nodaemon', 'server'], {
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, PATH: hostChildPath(process.env.PATH), ANDROID_ADB_SERVER_PORT: String(chosen) },
  });
  if (!child.pid) throw new Error(`Could not start ${adbPath}. Check that adb is installed and executable.`);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const deadline = Date.now() + 15000;
  for (;;) {
    try {
      await adbHostRequest(chosen, 'host:version', 1000);
      break;
    } catch (error) {
      if (exited || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`The adb server on port ${chosen} did not start: ${(error as Error).message}`);
      }
      await sleep(100);
    }
  }
  const pid = child.pid;
  return {
    port: chosen,
    pid,
    adbPath,
    async stop() {
      if (exited) return;
      await adbHostRequest(chosen, 'host:kill', 2000).catch(() => undefined);
      // The grace timer must not outlive the race: a pending 3 s timer would keep the process alive after stop().
      let grace: NodeJS.Timeout | undefined;
      const killed = await Promise.race([
        exit.then(() => true),
        new Promise<boolean>((resolve) => (grace = setTimeout(() => resolve(false), 3000))),
      ]);
      clearTimeout(grace);
      if (!killed) {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
}

/** `adb connect` through the host protocol, then waits until the serial is online. */
export async function connectDevice(port: number, serial: string, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const [host, devicePort] = serial.split(':');
  await adbHostRequest(port, `host:connect:${host}:${devicePort}`);
  for (;;) {
    const listing = await adbHostRequest(port, 'host:devices');
    if (listing.split('\n').some((line) => line.trim() === `${serial}\tdevice`)) return;
    if (Date.now() > deadline)
      throw new Error(
        `${serial} did not come online within ${timeoutMs} ms (adb lists: ${listing.trim() || 'nothing'})`,
      );
    await sleep(100);
  }
}
