import type { ShellIO, ShellMode, SimulatedAndroid } from '../simulated-android.js';
import { readFileSync } from 'node:fs';
import { procMeminfo } from './commands/peer-commands.js';
import { COMMANDS } from './commands/command-table.js';
import { type InputHelper, inputHelperApp } from './input-methods.js';
import { LogcatReplayError, readLogcatReplay } from './logcat/logcat-replay.js';
import { loadScenario } from './scenario/load-scenario.js';
import type { Scenario, ScenarioInput } from './scenario/scenario-schema.js';
import type { ExecutedCommand } from './shell/command.js';
import { Shell } from './shell/shell.js';
import { SimulatedDevice } from './simulated-device.js';

export interface SimulatedAndroidOptions {
  /** Emulator mode: the AVD name (also sets ro.kernel.qemu and emulator-style build props). */
  avd?: string;
  model?: string;
  api?: number;
  abi?: string;
  /** ro.serialno; the transport decides the adb serial. */
  serialHint?: string;
  /** A scenario object, a scenario name from scenarios/ ("notes-app"), or a path to a JSON file. */
  scenario?: Scenario | ScenarioInput | string;
  locked?: boolean;
  screenOff?: boolean;
  seed?: number;
  /** Background logcat lines per second (0 disables). */
  backgroundLogRate?: number;
  /** Flood for benchmarks: this many lines a second from com.droidwright.logflood, each `seq=<n> …` (0 disables). */
  logRate?: number;
  /** A captured log (file path) loaded into the buffers, with processes for the pids it names. */
  logcatReplay?: string;
  width?: number;
  height?: number;
  density?: number;
  /** Epoch milliseconds; inject a fake clock for deterministic timestamps and delayed screens. */
  clock?: () => number;
  /** Apps that let tools type any Unicode text: ADBKeyboard (an input method taking broadcasts), Clipper (clipboard). */
  inputHelpers?: readonly InputHelper[];
  /** adb features advertised in the CNXN banner. */
  features?: readonly string[];
}

function readReplayFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new LogcatReplayError(`cannot read the logcat capture to replay, ${path}: ${(error as Error).message}`);
  }
}

/** The device state, for tests that need to look behind the shell. */
export type DeviceState = SimulatedDevice;

export type SimulatedAndroidHandle = SimulatedAndroid & {
  readonly state: DeviceState;
  readonly commandLog: readonly ExecutedCommand[];
};

/** The features the simulated adbd speaks; abb/abb_exec are left out so `adb install` goes through `exec:cmd package`. */
export const DEFAULT_FEATURES = [
  'shell_v2',
  'cmd',
  'stat_v2',
  'ls_v2',
  'fixed_push_mkdir',
  'apex',
  'fixed_push_symlink_timestamp',
] as const;

export function createSimulatedAndroid(options: SimulatedAndroidOptions = {}): SimulatedAndroidHandle {
  const loaded = loadScenario(options.scenario);
  const helpers = [...new Set(options.inputHelpers ?? [])];
  const scenario =
    helpers.length === 0 ? loaded : { ...loaded, apps: [...loaded.apps, ...helpers.map(inputHelperApp)] };
  const clock = options.clock ?? Date.now;
  const logcatReplay =
    options.logcatReplay === undefined
      ? undefined
      : readLogcatReplay(readReplayFile(options.logcatReplay), {
          year: new Date(clock()).getUTCFullYear(),
          fallbackTimeMs: clock(),
          source: options.logcatReplay,
        });
  const abi = options.abi ?? (options.avd !== undefined ? 'x86_64' : 'arm64-v8a');
  const device = new SimulatedDevice({
    avd: options.avd,
    model: options.model ?? 'Pixel 7',
    api: options.api ?? 34,
    abi,
    serial: options.serialHint ?? (options.avd !== undefined ? 'EMULATOR34X1X1X0' : '2B161FDH2001Q3'),
    scenario,
    locked: options.locked ?? false,
    screenOff: options.screenOff ?? false,
    seed: options.seed ?? 1,
    backgroundLogRate: options.backgroundLogRate ?? 2,
    floodLogRate: options.logRate ?? 0,
    ...(logcatReplay ? { logcatReplay } : {}),
    width: options.width ?? 1080,
    height: options.height ?? 2400,
    density: options.density ?? 420,
    clock,
  });
  device.registerCommands([...COMMANDS.keys(), 'sh']);
  device.fs.putSystemFile('/proc/meminfo', Buffer.from(procMeminfo(device)), 0o444, 'root');
  const shell = new Shell(device, COMMANDS);
  const features = options.features ?? DEFAULT_FEATURES;

  return {
    state: device,
    commandLog: shell.commandLog,
    fs: device.fs,
    avdName: options.avd,
    banner() {
      const p = device.props;
      return `device::ro.product.name=${p.get('ro.product.name')};ro.product.model=${p.get('ro.product.model')};ro.product.device=${p.get('ro.product.device')};features=${features.join(',')}`;
    },
    async exec(commandLine: string, io: ShellIO, _mode: ShellMode): Promise<number> {
      device.settle();
      try {
        return await shell.run(commandLine, io);
      } finally {
        device.settle();
      }
    },
    dispose() {
      device.dispose();
    },
  };
}
