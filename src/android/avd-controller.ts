import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject, injectable } from 'inversify';
import { ToolError } from '../kernel/errors.js';
import { identityOf, isProcessAlive } from '../kernel/process-identity.js';
import { ProcessRunner } from '../kernel/process-runner.js';
import { SelectedProject } from '../kernel/project-selection.js';
import { RuntimeOptions } from '../kernel/runtime-options.js';
import { Settings } from '../kernel/settings.js';
import { AdbService } from './adb-service.js';
import { AVD_NAME, listAvds, type AvdEntry } from './avd-catalog.js';
import { sh } from './device-command.js';
import { emulatorConsolePort } from './device-kind.js';
import { DeviceInspector } from './device-inspector.js';
import { locateEmulator } from './sdk-locator.js';

export interface AvdLaunch {
  readonly serial: string;
  readonly avdName: string;
  readonly alreadyRunning: boolean;
  /** Pid of the emulator this call started; null when it was already running. */
  readonly pid: number | null;
  readonly waitedMs: number;
}

export const LAUNCH_TIMEOUT_MS = 60_000;
export const STOP_TIMEOUT_MS = 30_000;
const POLL_MS = 500;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function tail(path: string, lines = 5): string {
  try {
    return readFileSync(path, 'utf8')
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .slice(-lines)
      .join(' | ')
      .slice(0, 600);
  } catch {
    return '';
  }
}

/** Starts and stops SDK emulators and finds which adb serial belongs to which AVD. */
@injectable()
export class AvdController {
  /** Launches in flight in this process, so a second call waits for the first instead of starting a twin. */
  private readonly launching = new Map<string, Promise<AvdLaunch>>();
  /** Serial → AVD name; a serial keeps its AVD for as long as adb lists it. */
  private readonly avdBySerial = new Map<string, string>();

  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    @inject(DeviceInspector) private readonly inspector: DeviceInspector,
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
    @inject(Settings) private readonly settings: Settings,
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(SelectedProject) private readonly project: SelectedProject,
  ) {}

  list(): AvdEntry[] {
    return listAvds(this.options.env);
  }

  /** The AVD name of an online emulator serial, from its properties or its console. */
  async avdNameOf(serial: string): Promise<string | null> {
    const cached = this.avdBySerial.get(serial);
    if (cached) return cached;
    let name: string | null = null;
    try {
      const out = await this.adb.shell(serial, sh`getprop ro.boot.qemu.avd_name; getprop ro.kernel.qemu.avd_name`, {
        timeoutMs: 5000,
        maxOutputBytes: 1024,
      });
      name =
        out.output
          .split(/\r?\n/)
          .map((l) => l.trim())
          .find((l) => l.length > 0) ?? null;
    } catch {
      name = null;
    }
    name ??= await this.inspector.consoleAvdName(serial);
    if (name) this.avdBySerial.set(serial, name);
    return name;
  }

  /** Online emulators by AVD name. */
  async runningEmulators(): Promise<Map<string, string>> {
    const entries = await this.adb.listDevices();
    const listed = new Set(entries.map((e) => e.serial));
    for (const serial of [...this.avdBySerial.keys()]) if (!listed.has(serial)) this.avdBySerial.delete(serial);
    const byName = new Map<string, string>();
    for (const e of entries) {
      if (e.state !== 'device' || emulatorConsolePort(e.serial) === null) continue;
      const name = await this.avdNameOf(e.serial);
      if (name && !byName.has(name)) byName.set(name, e.serial);
    }
    return byName;
  }

  launch(name: string, signal?: AbortSignal): Promise<AvdLaunch> {
    if (!AVD_NAME.test(name))
      throw new ToolError(
        'INVALID_ARGUMENT',
        `AVD name ${JSON.stringify(name.slice(0, 60))} is not valid. Use a name list_avds shows.`,
      );
    const pending = this.launching.get(name);
    if (pending) return pending.then((r) => ({ ...r, alreadyRunning: true, pid: null }));
    const started = this.doLaunch(name, signal).finally(() => this.launching.delete(name));
    this.launching.set(name, started);
    return started;
  }

  private async doLaunch(name: string, signal?: AbortSignal): Promise<AvdLaunch> {
    const began = Date.now();
    const avds = this.list();
    if (!avds.some((a) => a.name === name)) {
      const known = avds.map((a) => a.name);
      throw new ToolError(
        'NOT_FOUND',
        `No AVD named ${name}. ${known.length ? `Available: ${known.join(', ')}.` : "No AVDs are defined; create one in Android Studio's Device Manager or with avdmanager."}`,
      );
    }
    const running = await this.runningEmulators();
    const existing = running.get(name);
    if (existing)
      return { serial: existing, avdName: name, alreadyRunning: true, pid: null, waitedMs: Date.now() - began };

    const settings = this.settings.get();
    const emulator = locateEmulator({
      adbPath: settings.adbPath,
      androidSdk: settings.androidSdk,
      env: this.options.env,
      projectRoot: this.project.root,
    });
    if (!emulator) {
      throw new ToolError(
        'NOT_FOUND',
        'The Android emulator was not found in the SDK (looked in settings.json androidSdk, $ANDROID_HOME, $ANDROID_SDK_ROOT and ~/Android/Sdk). Install the "Android Emulator" SDK package.',
      );
    }
    const logDir = join(this.options.home, 'emulator-logs');
    mkdirSync(logDir, { recursive: true });
    const logPath = join(logDir, `${name}.log`);
    const fd = openSync(logPath, 'w');
    let pid: number;
    try {
      pid = await this.runner.spawnDetached(emulator.path, ['-avd', name], {
        env: { ANDROID_ADB_SERVER_PORT: String(this.adb.port) },
        logFd: fd,
      });
    } finally {
      closeSync(fd);
    }
    // Taken at once, so the wait below cannot mistake a later process that reuses the pid for the emulator.
    const emulatorProcess = identityOf(pid);
    const before = new Set(running.values());
    while (Date.now() - began < LAUNCH_TIMEOUT_MS) {
      if (signal?.aborted)
        throw new ToolError(
          'CANCELLED',
          `Stopped waiting for ${name}; the emulator (pid ${pid}) keeps starting. Call launch_avd again to wait for it, or stop_avd once it is listed.`,
        );
      const now = await this.runningEmulators();
      const serial = now.get(name);
      if (serial && !before.has(serial))
        return { serial, avdName: name, alreadyRunning: false, pid, waitedMs: Date.now() - began };
      if (!isProcessAlive(pid, emulatorProcess.startTime)) {
        const why = tail(logPath);
        throw new ToolError(
          'COMMAND_FAILED',
          `The emulator for ${name} exited before it came online${why ? `: ${why}` : ''}. See ${logPath}; check the AVD in Android Studio's Device Manager.`,
        );
      }
      await sleep(POLL_MS);
    }
    throw new ToolError(
      'TIMEOUT',
      `${name} did not come online within ${LAUNCH_TIMEOUT_MS / 1000} s (emulator pid ${pid} is still starting; log: ${logPath}). Call launch_avd again to keep waiting.`,
    );
  }

  /** `adb -s emulator-N emu kill`, then waits until adb no longer lists it. */
  async stop(
    serial: string,
    signal?: AbortSignal,
  ): Promise<{ serial: string; avdName: string | null; waitedMs: number }> {
    const began = Date.now();
    if (emulatorConsolePort(serial) === null) {
      throw new ToolError(
        'INVALID_ARGUMENT',
        `${serial} is not an emulator serial (emulator-NNNN); stop_avd only stops emulators. Use list_devices to find one.`,
      );
    }
    const entries = await this.adb.listDevices();
    if (!entries.some((e) => e.serial === serial)) {
      throw new ToolError(
        'DEVICE_NOT_FOUND',
        `${serial} is not listed by adb (${entries.map((e) => e.serial).join(', ') || 'no devices'}); it may already be stopped.`,
      );
    }
    const avdName = this.avdBySerial.get(serial) ?? (await this.avdNameOf(serial).catch(() => null));
    const result = await this.adb.runCli(['-s', serial, 'emu', 'kill'], { timeoutMs: 10_000, signal });
    const said = `${result.stdout}\n${result.stderr}`.trim();
    if (result.exitCode !== 0 || /KO|error|could not|unable/i.test(said.replace(/^OK.*$/gm, ''))) {
      throw new ToolError(
        'COMMAND_FAILED',
        `The emulator console refused \`emu kill\` for ${serial} (${said.slice(0, 300) || `exit ${result.exitCode}`}). Close the emulator window, or retry.`,
      );
    }
    while (Date.now() - began < STOP_TIMEOUT_MS) {
      const now = await this.adb.listDevices();
      if (!now.some((e) => e.serial === serial)) {
        this.avdBySerial.delete(serial);
        return { serial, avdName, waitedMs: Date.now() - began };
      }
      if (signal?.aborted)
        throw new ToolError('CANCELLED', `Stopped waiting for ${serial} to disappear; it was told to exit.`);
      await sleep(POLL_MS);
    }
    throw new ToolError(
      'TIMEOUT',
      `${serial} was told to exit but adb still lists it after ${STOP_TIMEOUT_MS / 1000} s. Check the emulator window; it may be saving a snapshot.`,
    );
  }
}
