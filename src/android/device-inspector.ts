import { inject, injectable } from 'inversify';
import { AdbService, type AdbDeviceEntry } from './adb-service.js';
import { sh } from './device-command.js';
import { deviceKindOf, type DeviceKind } from './device-kind.js';
import { DeviceSelector, chooseDevice } from './device-selector.js';
import { DeviceTracker, type DeviceObserver, type ObservedDevice } from './device-tracker.js';
import { intProp } from './parsers/getprop.js';
import {
  parseBattery,
  parseSettingValue,
  parseWmDensity,
  parseWmSize,
  type BatteryInfo,
  type ScreenSize,
} from './parsers/device-state.js';

export interface DeviceSummary extends ObservedDevice {
  readonly androidVersion: string | null;
}

export interface NetworkState {
  /** From global settings; null when the device does not report it. */
  readonly wifi: boolean | null;
  readonly mobileData: boolean | null;
  readonly airplaneMode: boolean | null;
}

export interface DeviceInfo {
  readonly serial: string;
  readonly summary: DeviceSummary;
  /** A bounded selection of build properties. */
  readonly properties: Readonly<Record<string, string>>;
  readonly screen: ScreenSize & { density: { physical: number | null; override: number | null } };
  readonly battery: BatteryInfo | null;
  readonly network: NetworkState;
}

/** Build properties worth showing an agent; the full getprop list is hundreds of lines of noise. */
const INTERESTING_PROPS = [
  'ro.product.model',
  'ro.product.manufacturer',
  'ro.product.brand',
  'ro.product.device',
  'ro.product.name',
  'ro.build.version.release',
  'ro.build.version.sdk',
  'ro.build.version.security_patch',
  'ro.build.id',
  'ro.build.type',
  'ro.build.fingerprint',
  'ro.product.cpu.abi',
  'ro.product.cpu.abilist',
  'ro.debuggable',
  'ro.secure',
  'ro.kernel.qemu',
  'ro.boot.qemu',
  'ro.boot.qemu.avd_name',
  'ro.kernel.qemu.avd_name',
  'persist.sys.locale',
  'persist.sys.timezone',
  'sys.boot_completed',
  'ro.sf.lcd_density',
];

function flag(value: string | null): boolean | null {
  if (value === null) return null;
  if (value === '1') return true;
  if (value === '0') return false;
  return null;
}

export function summarize(serial: string, state: string, props: Record<string, string> | null): DeviceSummary {
  const p = props ?? {};
  const kind: DeviceKind = deviceKindOf(serial);
  return {
    serial,
    state,
    kind,
    model: p['ro.product.model'] || null,
    manufacturer: p['ro.product.manufacturer'] || null,
    apiLevel: intProp(p, 'ro.build.version.sdk'),
    abi: p['ro.product.cpu.abi'] || null,
    avdName: p['ro.boot.qemu.avd_name'] || p['ro.kernel.qemu.avd_name'] || null,
    androidVersion: p['ro.build.version.release'] || null,
  };
}

/** Reads devices: who is connected, what they are, their screen, battery and network. Records device changes it sees. */
@injectable()
export class DeviceInspector {
  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    @inject(DeviceSelector) private readonly selector: DeviceSelector,
    @inject(DeviceTracker) private readonly tracker: DeviceTracker,
  ) {}

  /** Every device adb lists, with details for the online ones; device changes since the last look are recorded. */
  async listDevices(observer: DeviceObserver, signal?: AbortSignal): Promise<DeviceSummary[]> {
    const entries = await this.adb.listDevices();
    const summaries = await Promise.all(entries.map((e) => this.describe(e, signal)));
    try {
      this.tracker.record(summaries, observer);
    } catch {
      // An unwritable log must not hide the devices; the next listing records the changes.
    }
    return summaries;
  }

  private async describe(entry: AdbDeviceEntry, signal?: AbortSignal): Promise<DeviceSummary> {
    if (entry.state !== 'device') return summarize(entry.serial, entry.state, null);
    let props: Record<string, string> | null = null;
    try {
      props = await this.adb.properties(entry.serial, { signal, timeoutMs: 10_000 });
    } catch {
      // A device that stops answering still belongs in the list, just without details.
    }
    const summary = summarize(entry.serial, entry.state, props);
    if (summary.kind === 'emulator' && summary.avdName === null)
      return { ...summary, avdName: await this.consoleAvdName(entry.serial) };
    return summary;
  }

  /** Asks the emulator console (`adb emu avd name`) when the system image does not expose the AVD name as a property. */
  async consoleAvdName(serial: string): Promise<string | null> {
    try {
      const result = await this.adb.runCli(['-s', serial, 'emu', 'avd', 'name'], { timeoutMs: 5000 });
      if (result.exitCode !== 0) return null;
      const name = result.stdout
        .split(/\r?\n/)
        .map((l) => l.trim())
        .find((l) => l.length > 0 && l !== 'OK');
      return name && /^[\w.-]+$/.test(name) ? name : null;
    } catch {
      return null;
    }
  }

  /** Resolves the device for a tool call (the one selection rule), recording device changes seen on the way. */
  async select(requested: string | undefined | null, observer?: DeviceObserver): Promise<string> {
    if (!observer) return (await this.selector.select(requested)).serial;
    const entries = await this.adb.listDevices();
    const serial = chooseDevice(entries, requested);
    try {
      // Only arrivals need details; a known device's state change costs nothing extra.
      const known = new Map(this.tracker.known().map((r) => [r.serial, r]));
      const observed = await Promise.all(
        entries.map((e) =>
          known.get(e.serial)?.connected === 1 ? Promise.resolve(summarize(e.serial, e.state, null)) : this.describe(e),
        ),
      );
      this.tracker.record(observed, observer);
    } catch {
      // Tracking is bookkeeping; it must never stop the tool the agent asked for.
    }
    return serial;
  }

  async deviceInfo(serial: string, signal?: AbortSignal): Promise<DeviceInfo> {
    const opts = { signal, timeoutMs: 15_000, maxOutputBytes: 256 * 1024 };
    const [props, size, density, battery, wifi, mobile, airplane] = await Promise.all([
      this.adb.properties(serial, { signal }),
      this.adb.shell(serial, sh`wm size`, opts),
      this.adb.shell(serial, sh`wm density`, opts),
      this.adb.shell(serial, sh`dumpsys battery`, opts),
      this.adb.shell(serial, sh`settings get global wifi_on`, opts),
      this.adb.shell(serial, sh`settings get global mobile_data`, opts),
      this.adb.shell(serial, sh`settings get global airplane_mode_on`, opts),
    ]);
    let summary = summarize(serial, 'device', props);
    if (summary.kind === 'emulator' && summary.avdName === null)
      summary = { ...summary, avdName: await this.consoleAvdName(serial) };
    const properties: Record<string, string> = {};
    for (const key of INTERESTING_PROPS) if (props[key] !== undefined) properties[key] = props[key]!.slice(0, 300);
    return {
      serial,
      summary,
      properties,
      screen: { ...parseWmSize(size.output), density: parseWmDensity(density.output) },
      battery: parseBattery(battery.output),
      network: {
        wifi: flag(parseSettingValue(wifi.output)),
        mobileData: flag(parseSettingValue(mobile.output)),
        airplaneMode: flag(parseSettingValue(airplane.output)),
      },
    };
  }

  async networkState(serial: string, signal?: AbortSignal): Promise<NetworkState> {
    const opts = { signal, timeoutMs: 15_000, maxOutputBytes: 4096 };
    const [wifi, mobile, airplane] = await Promise.all([
      this.adb.shell(serial, sh`settings get global wifi_on`, opts),
      this.adb.shell(serial, sh`settings get global mobile_data`, opts),
      this.adb.shell(serial, sh`settings get global airplane_mode_on`, opts),
    ]);
    return {
      wifi: flag(parseSettingValue(wifi.output)),
      mobileData: flag(parseSettingValue(mobile.output)),
      airplaneMode: flag(parseSettingValue(airplane.output)),
    };
  }
}
