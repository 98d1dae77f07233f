import { inject, injectable } from 'inversify';
import { ToolError } from '../kernel/errors.js';
import { validateSerial } from '../kernel/validation.js';
import { AdbService, type AdbDeviceEntry } from './adb-service.js';

export interface SelectedDevice {
  readonly serial: string;
  /** Every entry adb listed when the choice was made (trackers record changes from it). */
  readonly listed: readonly AdbDeviceEntry[];
}

function describe(entries: readonly AdbDeviceEntry[]): string {
  if (entries.length === 0) return 'adb lists no devices';
  return `adb lists ${entries.map((e) => `${e.serial} (${e.state})`).join(', ')}`;
}

const NO_DEVICE_HINT =
  'Start an emulator (launch_avd, or `emulator -avd NAME`), connect a phone with USB debugging on, or run `droidwright sim` for a simulated device.';

/**
 * The one device-selection rule for every tool. An explicit serial must be listed and online. Without a
 * serial, exactly one online device is used; none or several is an error that says what adb sees. Never guesses.
 */
export function chooseDevice(entries: readonly AdbDeviceEntry[], requested: string | undefined | null): string {
  if (requested !== undefined && requested !== null) {
    const serial = validateSerial(requested);
    const entry = entries.find((e) => e.serial === serial);
    if (!entry) {
      throw new ToolError(
        'DEVICE_NOT_FOUND',
        `Device ${serial} is not connected: ${describe(entries)}. Pass one of those serials (see list_devices).`,
        {
          devices: entries.map((e) => ({ serial: e.serial, state: e.state })),
        },
      );
    }
    if (entry.state === 'device') return serial;
    if (entry.state === 'unauthorized') {
      throw new ToolError(
        'DEVICE_UNAUTHORIZED',
        `Device ${serial} has not authorized this computer for USB debugging. Unlock it and accept the "Allow USB debugging?" prompt, then retry.`,
      );
    }
    throw new ToolError(
      'DEVICE_OFFLINE',
      `Device ${serial} is ${entry.state}, not online. Reconnect it (or restart the emulator) and retry; ${describe(entries)}.`,
      {
        state: entry.state,
      },
    );
  }
  const online = entries.filter((e) => e.state === 'device');
  if (online.length === 1) return online[0]!.serial;
  if (online.length === 0) {
    const code = entries.some((e) => e.state === 'unauthorized') ? 'DEVICE_UNAUTHORIZED' : 'NO_DEVICE';
    throw new ToolError(code, `No online device: ${describe(entries)}. ${NO_DEVICE_HINT}`, {
      devices: entries.map((e) => ({ serial: e.serial, state: e.state })),
    });
  }
  throw new ToolError(
    'MULTIPLE_DEVICES',
    `${online.length} devices are online (${online.map((e) => e.serial).join(', ')}); pass device_serial to choose one.`,
    { devices: online.map((e) => e.serial) },
  );
}

@injectable()
export class DeviceSelector {
  constructor(@inject(AdbService) private readonly adb: AdbService) {}

  async select(requested: string | undefined | null): Promise<SelectedDevice> {
    if (requested !== undefined && requested !== null) validateSerial(requested);
    const listed = await this.adb.listDevices();
    return { serial: chooseDevice(listed, requested), listed };
  }
}
