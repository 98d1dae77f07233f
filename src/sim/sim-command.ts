/**
 * `droidwright sim`: runs a simulated Android device the real adb server can use, for demos, CI and
 * trying the tools without a phone. Stays up until SIGINT/SIGTERM or `adb emu kill`.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { adbHostRequest } from '../android/adb-server-process.js';
import { UsageError } from '../kernel/usage-error.js';
import { LogcatReplayError } from './android/logcat/logcat-replay.js';
import { CAPTURED_ACTIVITY, capturedScreenScenario } from './android/scenario/load-scenario.js';
import type { SimulatedDevice } from './android/simulated-device.js';
import {
  startSimulatedDevice,
  type RunningSimulatedDevice,
  type SimulatedDeviceOptions,
} from './start-simulated-device.js';

export const SIM_USAGE = `Usage: droidwright sim [options]

Runs a simulated Android device that adb and every droidwright tool can use like a phone.

  --port N            TCP mode: listen on port N (default: a free port) and \`adb connect\` to it
  --emulator-port N   emulator mode: odd port N in 5555-5585, console on N-1; serial emulator-<N-1>
  --avd NAME          AVD name the emulator console reports
  --model NAME        ro.product.model (default Pixel 7)
  --api N             Android API level
  --scenario S        scenario name from scenarios/ (e.g. notes-app) or a JSON file: the app's screens, logs, crashes
  --screen FILE.xml   show a captured UI Automator dump (adb exec-out uiautomator dump /dev/tty) in the foreground:
                      uiautomator dump answers it as captured, screencap draws it, taps and typing act on its nodes
  --locked            start with the keyguard up
  --screen-off        start with the display off
  --seed N            seed for reproducible pids, timings and log traffic
  --log-rate N        flood for benchmarks: log N lines a second (paced in 5 ms batches) from the app
                      com.droidwright.logflood, tag LogFlood, main buffer; each message starts \`seq=<n>\`
                      counting 1, 2, 3… with no gaps, so a reader counts the lines it lost
  --logcat-replay F   load captured log F (threadtime, brief, time, long or Android Studio's copy formats) into
                      the log buffers with its pids, tids, levels, tags and times (crash lines in the crash buffer),
                      and run a process for every pid it names, under the package the log reveals
  --trace             log every adb packet to stderr
  --adb-port N        adb server to announce the device to (default $ANDROID_ADB_SERVER_PORT or 5037)
  --no-connect        do not announce the device to an adb server
  --host ADDR         interface to listen on (default 127.0.0.1)
`;

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return Number(value);
}

/** Parses the command line into device options and the adb server to announce to (null: none). */
export function parseSimArguments(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { device: SimulatedDeviceOptions; adbPort: number | null; help: boolean; launch?: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      allowPositionals: false,
      strict: true,
      options: {
        port: { type: 'string' },
        'emulator-port': { type: 'string' },
        avd: { type: 'string' },
        model: { type: 'string' },
        api: { type: 'string' },
        scenario: { type: 'string' },
        screen: { type: 'string' },
        locked: { type: 'boolean' },
        'screen-off': { type: 'boolean' },
        seed: { type: 'string' },
        'log-rate': { type: 'string' },
        'logcat-replay': { type: 'string' },
        trace: { type: 'boolean' },
        'adb-port': { type: 'string' },
        'no-connect': { type: 'boolean' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(
      `${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '.')}\n\n${SIM_USAGE}`,
    );
  }
  if (values.port !== undefined && values['emulator-port'] !== undefined) {
    throw new UsageError('Give --port (TCP mode) or --emulator-port (emulator mode), not both.');
  }
  const emulatorPort = integer('emulator-port', values['emulator-port'], 1025, 65535);
  if (emulatorPort !== undefined && emulatorPort % 2 === 0) {
    throw new UsageError(
      `--emulator-port must be odd (adb port; the console takes the even port below), got ${emulatorPort}.`,
    );
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

  const adbPort = values['no-connect']
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
  return { device, adbPort, help: values.help ?? false, ...(launch ? { launch } : {}) };
}

/** Tells the adb server about the device: `connect` in TCP mode, the emulator's own `host:emulator` notice otherwise. */
async function announce(device: RunningSimulatedDevice, adbPort: number, out: (line: string) => void): Promise<void> {
  const service = device.consolePort !== undefined ? `host:emulator:${device.port}` : `host:connect:${device.serial}`;
  try {
    const reply = await adbHostRequest(adbPort, service);
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

export async function runSimCommand(argv: string[]): Promise<number> {
  const { device: options, adbPort, help, launch } = parseSimArguments(argv);
  if (help) {
    process.stdout.write(SIM_USAGE);
    return 0;
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  let device: RunningSimulatedDevice;
  try {
    device = await startSimulatedDevice(options);
  } catch (error) {
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
  if (adbPort !== null) await announce(device, adbPort, out);
  out(`try: adb -s ${device.serial} shell getprop ro.product.model`);
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
  if (adbPort !== null && device.consolePort === undefined) {
    // Drop the device from the adb server, or it lingers there as offline.
    await adbHostRequest(adbPort, `host:disconnect:${device.serial}`, 2000).catch(() => undefined);
  }
  out(
    signalled
      ? `simulated device ${device.serial} stopped`
      : `simulated device ${device.serial} was killed through its console`,
  );
  return 0;
}
