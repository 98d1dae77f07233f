/**
 * A simulated Android device the real adb server talks to over TCP, exactly as it talks to a phone
 * over `adb connect` or to an emulator it found by port scan. Everything (adb CLI, adbkit, droidwright's
 * tools) therefore runs its real code path.
 *
 * adbkit 3.3.9 quirks seen with any TCP device, this one included: getSerialNo() answers "unknown";
 * listDevicesWithPaths() misreads `host:port` serials; push() wants a path or a byte stream (an
 * object-mode stream sends chunks over 64 KiB, which adbd refuses); a failed pull() is an 'error' event
 * on the transfer, not a rejected readAll().
 */
import { createServer } from 'node:net';
import { adbHostRequest, freePort } from '../android/adb-server-process.js';
import { AdbDeviceServer } from './adb/adb-device-server.js';
import { EmulatorConsole } from './emulator-console.js';
import type { SimulatedAndroid } from './simulated-android.js';

export interface SimulatedDeviceOptions {
  /** TCP mode: the port `adb connect` dials; 0 (the default) picks a free one. */
  port?: number;
  /** Emulator mode: an odd port (5555–5585 for adb's start-up scan); the console listens on port-1. */
  emulatorPort?: number;
  /** Interface to listen on; 127.0.0.1 unless you mean to expose the device. */
  host?: string;
  /** The Android to simulate; by default one built by createSimulatedAndroid(androidOptions). */
  android?: SimulatedAndroid;
  /** Passed to createSimulatedAndroid: avd, model, api, scenario, locked, screenOff, seed… */
  androidOptions?: Record<string, unknown>;
  /** Log every adb packet to stderr. */
  trace?: boolean;
}

export interface RunningSimulatedDevice {
  /** `127.0.0.1:<port>` in TCP mode, `emulator-<port-1>` in emulator mode. */
  serial: string;
  port: number;
  consolePort?: number;
  android: SimulatedAndroid;
  stop(): Promise<void>;
  /** Resolves once the device stopped, whether by stop() or by `adb emu kill`. */
  stopped: Promise<void>;
}

const DEFAULT_AVD_NAME = 'droidwright_sim';

export async function startSimulatedDevice(options: SimulatedDeviceOptions = {}): Promise<RunningSimulatedDevice> {
  const host = options.host ?? '127.0.0.1';
  if (options.port !== undefined && options.emulatorPort !== undefined) {
    throw new Error('Give either port (TCP mode) or emulatorPort (emulator mode), not both.');
  }
  const emulatorPort = options.emulatorPort;
  if (
    emulatorPort !== undefined &&
    (!Number.isInteger(emulatorPort) || emulatorPort % 2 === 0 || emulatorPort < 1025 || emulatorPort > 65535)
  ) {
    throw new Error(`emulatorPort must be an odd port number (adb scans 5555–5585), got ${emulatorPort}.`);
  }
  if (options.port !== undefined && (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)) {
    throw new Error(`port must be 0 (any free port) or a port number, got ${options.port}.`);
  }

  const ownsAndroid = !options.android;
  // An emulator has an AVD name; the Android uses it for emulator-style properties too.
  const androidOptions =
    emulatorPort !== undefined ? { avd: DEFAULT_AVD_NAME, ...options.androidOptions } : (options.androidOptions ?? {});
  const android = options.android ?? (await createDefaultAndroid(androidOptions));
  let label = 'sim';
  const trace = options.trace ? (line: string) => process.stderr.write(`[${label}] ${line}\n`) : undefined;
  const adbServer = new AdbDeviceServer({ android, trace });

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping: Promise<void> | null = null;
  let emulatorConsole: EmulatorConsole | null = null;

  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await Promise.all([adbServer.close(), emulatorConsole?.close()]);
      if (ownsAndroid) android.dispose();
      resolveStopped();
    })();
    return stopping;
  };

  try {
    if (emulatorPort !== undefined) {
      emulatorConsole = new EmulatorConsole({
        avdName: android.avdName ?? DEFAULT_AVD_NAME,
        onKill: () => void stop(),
      });
      // The console first: adb asks it for the AVD name as soon as it sees the device.
      await emulatorConsole.listen(emulatorPort - 1, host);
      await adbServer.listen(emulatorPort, host);
      label = `emulator-${emulatorPort - 1}`;
      return { serial: label, port: emulatorPort, consolePort: emulatorPort - 1, android, stop, stopped };
    }
    const port = await adbServer.listen(options.port ?? 0, host);
    label = `${host}:${port}`;
    return { serial: label, port, android, stop, stopped };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function createDefaultAndroid(androidOptions: Record<string, unknown>): Promise<SimulatedAndroid> {
  // Loaded on demand so the transport (and its tests) do not pull in the whole simulated Android.
  const { createSimulatedAndroid } = await import('./android/create-simulated-android.js');
  return createSimulatedAndroid(androidOptions as Parameters<typeof createSimulatedAndroid>[0]);
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * An odd adb port whose console port (one below) is free too, for emulator mode behind an adb server that is told
 * about the device (`host:emulator:<port>`). Chosen among the OS's free ports, outside adb's start-up scan range
 * (5554-5585), so other adb servers on the machine do not also pick the device up.
 */
export async function freeEmulatorPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort();
    const consolePort = port - (port % 2);
    if (consolePort >= 5554 && consolePort <= 5585) continue;
    if (consolePort < 1024 || consolePort + 1 > 65535) continue;
    if ((await isPortFree(consolePort)) && (await isPortFree(consolePort + 1))) return consolePort + 1;
  }
  throw new Error('found no free pair of ports for an emulator console and its adb port');
}

/** Polls the adb server on `adbPort` until it lists `serial` as an online device. */
export async function waitUntilListed(adbPort: number, serial: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const listing = await adbHostRequest(adbPort, 'host:devices');
    if (listing.split('\n').some((line) => line.trim() === `${serial}\tdevice`)) return;
    if (Date.now() > deadline)
      throw new Error(
        `the adb server on port ${adbPort} did not list ${serial} within ${timeoutMs} ms (it lists: ${listing.trim() || 'nothing'})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
