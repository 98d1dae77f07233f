/**
 * `droidwright sim`: runs a simulated Android device the real adb server can use, for demos, CI and
 * trying the tools without a phone. Stays up until SIGINT/SIGTERM or `adb emu kill`.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { adbHostRequest, startOwnedAdbServer, type OwnedAdbServer } from '../android/adb-server-process.js';
import { locateAdb } from '../android/sdk-locator.js';
import { parseCommandArguments } from '../cli/command-line.js';
import type { CommandInput, FlagValues } from '../cli/command-spec.js';
import { findCommandSpec, type simFlags } from '../cli/command-specs.js';
import { UsageError } from '../kernel/usage-error.js';
import { LogcatReplayError } from './android/logcat/logcat-replay.js';
import { CAPTURED_ACTIVITY, capturedScreenScenario } from './android/scenario/load-scenario.js';
import type { SimulatedDevice } from './android/simulated-device.js';
import {
  startSimulatedDevice,
  waitUntilListed,
  type RunningSimulatedDevice,
  type SimulatedDeviceOptions,
} from './start-simulated-device.js';

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return Number(value);
}

export interface SimArguments {
  readonly device: SimulatedDeviceOptions;
  /** The adb server to announce the device to; null: none. */
  readonly adbPort: number | null;
  /** Start a private adb server on a free port and announce the device there. */
  readonly adbServer: boolean;
  readonly json: boolean;
  /** The package whose captured screen shows from the start. */
  readonly launch?: string;
}

/** The command line (after `sim`) read by the sim's definition, as `droidwright sim` reads it. */
export function parseSimArguments(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): SimArguments {
  return simArguments(parseCommandArguments(findCommandSpec(['sim'])!, argv).input.values, env);
}

/**
 * `--emulator-port N` as the emulator's own `-port` takes it: the even console port (adb on N+1); an odd N is
 * the adb port itself (console on N-1), as droidwright always accepted. Returns the adb port.
 */
function emulatorAdbPort(text: string | undefined): number | undefined {
  const port = integer('emulator-port', text, 1024, 65535);
  if (port === undefined) return undefined;
  if (port % 2 === 1) return port;
  return port + 1;
}

/** Device options and where to announce the device, from the parsed flags. */
export function simArguments(values: FlagValues<typeof simFlags>, env: NodeJS.ProcessEnv = process.env): SimArguments {
  if (values.port !== undefined && values['emulator-port'] !== undefined) {
    throw new UsageError('Give --port (TCP mode) or --emulator-port (emulator mode), not both.');
  }
  const emulatorPort = emulatorAdbPort(values['emulator-port']);
  if (values['adb-server'] && (values['adb-port'] !== undefined || values['no-connect'])) {
    throw new UsageError('--adb-server starts an adb server for the device: leave out --adb-port and --no-connect.');
  }
  const androidOptions: Record<string, unknown> = {};
  if (values.avd !== undefined) androidOptions.avd = values.avd;
  if (values.model !== undefined) androidOptions.model = values.model;
  const api = integer('api', values.api, 21, 40);
  if (api !== undefined) androidOptions.api = api;
  if (values.scenario !== undefined) androidOptions.scenario = values.scenario;
  let launch: string | null = null;
  if (values.screen !== undefined) {
    if (values.scenario !== undefined) throw new UsageError('Give --scenario or --screen, not both.');
    if (!existsSync(values.screen) || !statSync(values.screen).isFile()) {
      throw new UsageError(
        `--screen: no file at "${values.screen}". Give a UI Automator dump (adb exec-out uiautomator dump /dev/tty > screen.xml).`,
      );
    }
    let captured: ReturnType<typeof capturedScreenScenario>;
    try {
      captured = capturedScreenScenario(values.screen);
    } catch (error) {
      throw new UsageError(`--screen: ${(error as Error).message}`);
    }
    androidOptions.scenario = captured.scenario;
    androidOptions.width = captured.width;
    androidOptions.height = captured.height;
    launch = captured.packageName;
  }
  if (values.locked) androidOptions.locked = true;
  if (values['screen-off']) androidOptions.screenOff = true;
  const seed = integer('seed', values.seed, 0, 2 ** 31 - 1);
  if (seed !== undefined) androidOptions.seed = seed;
  const logRate = integer('log-rate', values['log-rate'], 0, 1_000_000);
  if (logRate !== undefined) androidOptions.logRate = logRate;
  const replay = values['logcat-replay'];
  if (replay !== undefined) {
    if (!existsSync(replay) || !statSync(replay).isFile()) {
      throw new UsageError(`--logcat-replay: no file at "${replay}". Give the path of a captured log (adb logcat -d).`);
    }
    androidOptions.logcatReplay = resolve(replay);
  }

  const adbPort =
    values['no-connect'] || values['adb-server']
      ? null
      : (integer('adb-port', values['adb-port'], 1, 65535) ??
        integer('ANDROID_ADB_SERVER_PORT', env.ANDROID_ADB_SERVER_PORT, 1, 65535) ??
        5037);
  const device: SimulatedDeviceOptions = {
    androidOptions,
    trace: values.trace ?? false,
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(emulatorPort !== undefined ? { emulatorPort } : { port: integer('port', values.port, 0, 65535) ?? 0 }),
  };
  return {
    device,
    adbPort,
    adbServer: values['adb-server'] === true,
    json: values.json === true,
    ...(launch ? { launch } : {}),
  };
}

/** Tells the adb server about the device: `connect` in TCP mode, the emulator's own `host:emulator` notice otherwise. */
async function announce(
  device: RunningSimulatedDevice,
  adbPort: number,
  out: (line: string) => void,
  waitOnline: boolean,
): Promise<void> {
  const service = device.consolePort !== undefined ? `host:emulator:${device.port}` : `host:connect:${device.serial}`;
  try {
    const reply = await adbHostRequest(adbPort, service);
    // A server started for this device: whoever reads the export line next runs adb at once, so it must list it.
    if (waitOnline) await waitUntilListed(adbPort, device.serial);
    out(reply ? `adb server on port ${adbPort}: ${reply}` : `announced to the adb server on port ${adbPort}`);
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ECONNREFUSED'
        ? 'no adb server is running there'
        : (error as Error).message;
    out(
      `could not announce the device to the adb server on port ${adbPort} (${reason}). ` +
        (device.consolePort !== undefined
          ? 'Start the adb server now and it will find the emulator, or run `adb start-server` and restart the simulator.'
          : `Run \`adb connect ${device.serial}\` once an adb server is up.`),
    );
  }
}

export async function runSimCommand({ values }: CommandInput<typeof simFlags>): Promise<number> {
  const { device: options, adbPort: givenAdbPort, adbServer, json, launch } = simArguments(values);
  // With --json, stdout carries the one JSON line a script reads; what people read goes to stderr.
  const out = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  let server: OwnedAdbServer | null = null;
  if (adbServer) {
    const adb = locateAdb({ env: process.env });
    if (!adb) {
      throw new UsageError(
        '--adb-server needs adb. Install it (Debian: apt-get install adb) or set ANDROID_HOME, or leave out --adb-server.',
      );
    }
    server = await startOwnedAdbServer(adb.path);
  }
  const adbPort = server ? server.port : givenAdbPort;
  let device: RunningSimulatedDevice;
  try {
    device = await startSimulatedDevice(options);
  } catch (error) {
    await server?.stop();
    if (error instanceof LogcatReplayError) throw new UsageError(`--logcat-replay: ${error.message}`);
    throw error;
  }
  out(
    `simulated device ${device.serial} is up (adb port ${device.port}${device.consolePort !== undefined ? `, console port ${device.consolePort}` : ''})`,
  );
  if (launch) {
    // The captured screen is what the device shows from the start, as when it was captured.
    (device.android as { state?: SimulatedDevice }).state?.am.launch(launch, CAPTURED_ACTIVITY);
    out(`showing the captured screen of ${launch}`);
  }
  const replayed = (device.android as { state?: { replayed?: SimulatedDevice['replayed'] } }).state?.replayed;
  if (replayed) {
    out(
      `replayed ${replayed.entries} log ${replayed.entries === 1 ? 'entry' : 'entries'} (${replayed.format} format), ` +
        `${replayed.processes} ${replayed.processes === 1 ? 'process' : 'processes'} running at their pids` +
        (replayed.unparsed ? `; ${replayed.unparsed} lines read as no logcat format were left out` : ''),
    );
  }
  const logRate = options.androidOptions?.logRate;
  if (typeof logRate === 'number' && logRate > 0) {
    out(`flooding the main buffer at ${logRate} lines/s from com.droidwright.logflood (tag LogFlood, seq=<n>)`);
  }
  if (adbPort !== null) await announce(device, adbPort, out, server !== null);
  if (server) {
    out(`a private adb server for it on port ${server.port} (pid ${server.pid}); point adb and your agent at it:`);
    // The line to paste (or eval); with --json the JSON document carries the port instead.
    if (!json) process.stdout.write(`export ANDROID_ADB_SERVER_PORT=${server.port}\n`);
  }
  if (json) {
    process.stdout.write(
      `${JSON.stringify({
        serial: device.serial,
        adb_port: device.port,
        console_port: device.consolePort ?? null,
        adb_server: adbPort === null ? null : { port: adbPort, pid: server?.pid ?? null, started: server !== null },
        pid: process.pid,
      })}\n`,
    );
  }
  out(
    `try: ${server ? `ANDROID_ADB_SERVER_PORT=${server.port} ` : ''}adb -s ${device.serial} shell getprop ro.product.model`,
  );
  out(
    `use it from droidwright with device_serial "${device.serial}"; stop with Ctrl-C${device.consolePort !== undefined ? ` or \`adb -s ${device.serial} emu kill\`` : ''}`,
  );

  let signalled = false;
  const onSignal = () => {
    signalled = true;
    void device.stop();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await device.stopped;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (adbPort !== null && device.consolePort === undefined && !server) {
    // Drop the device from the adb server, or it lingers there as offline.
    await adbHostRequest(adbPort, `host:disconnect:${device.serial}`, 2000).catch(() => undefined);
  }
  await server?.stop();
  out(
    signalled
      ? `simulated device ${device.serial} stopped`
      : `simulated device ${device.serial} was killed through its console`,
  );
  return 0;
}
