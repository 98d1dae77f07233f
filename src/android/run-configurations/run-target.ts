import { type ErrorCode, ToolError } from '../../kernel/errors.js';
import type { AdbDeviceEntry } from '../adb-service.js';
import { chooseDevice } from '../device-selector.js';
import type { RunTarget } from './run-configuration.js';

export type ResolvedBy = 'serial' | 'avd' | 'last_used' | 'only_device' | 'argument';

export interface TargetSituation {
  /** What adb lists now. */
  readonly devices: readonly AdbDeviceEntry[];
  /** Online emulators by AVD name. */
  readonly emulatorsByAvd: ReadonlyMap<string, string>;
  /** The device this configuration last ran on, from the log. */
  readonly lastUsed: string | null;
  /** The caller's device_serial, when given. */
  readonly requested?: string;
}

export type TargetResolution =
  | { readonly ok: true; readonly serial: string; readonly resolvedBy: ResolvedBy }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string; readonly hint?: string };

function fromSelection(devices: readonly AdbDeviceEntry[], requested: string | undefined): TargetResolution | string {
  try {
    return chooseDevice(devices, requested);
  } catch (error) {
    if (error instanceof ToolError) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: 'INVALID_ARGUMENT', message: (error as Error).message };
  }
}

/**
 * Which device a configuration runs on now. Never starts anything: an AVD that no running emulator
 * serves is a refusal telling the agent to call launch_avd. `ask` takes the only online device, else lists
 * them; `last_used` takes the device it last ran on while that one is online, else acts as `ask`. A
 * caller's device_serial replaces ask and last_used and must be the device a serial or AVD target names.
 */
export function resolveRunTarget(target: RunTarget, situation: TargetSituation): TargetResolution {
  const { devices, requested } = situation;
  const online = (serial: string) => devices.some((d) => d.serial === serial && d.state === 'device');
  switch (target.kind) {
    case 'serial': {
      if (requested !== undefined && requested !== target.serial)
        return {
          ok: false,
          code: 'INVALID_ARGUMENT',
          message: `This configuration runs on ${target.serial} (its target), not ${requested}. Omit device_serial, or run a configuration whose target is ask or last_used.`,
        };
      const chosen = fromSelection(devices, target.serial);
      return typeof chosen === 'string' ? { ok: true, serial: chosen, resolvedBy: 'serial' } : chosen;
    }
    case 'avd': {
      const serial = situation.emulatorsByAvd.get(target.avd);
      if (!serial)
        return {
          ok: false,
          code: 'AVD_NOT_RUNNING',
          message: `This configuration runs on the AVD ${target.avd}, and no running emulator serves it (droidwright never starts one on its own). Call launch_avd with name "${target.avd}", then run the configuration again.`,
          hint: `call launch_avd {"name": "${target.avd}"}`,
        };
      if (requested !== undefined && requested !== serial)
        return {
          ok: false,
          code: 'INVALID_ARGUMENT',
          message: `This configuration runs on the AVD ${target.avd}, which is ${serial}, not ${requested}. Omit device_serial.`,
        };
      return { ok: true, serial, resolvedBy: 'avd' };
    }
    case 'last_used':
    case 'ask': {
      if (requested !== undefined) {
        const chosen = fromSelection(devices, requested);
        return typeof chosen === 'string' ? { ok: true, serial: chosen, resolvedBy: 'argument' } : chosen;
      }
      if (target.kind === 'last_used' && situation.lastUsed && online(situation.lastUsed))
        return { ok: true, serial: situation.lastUsed, resolvedBy: 'last_used' };
      const chosen = fromSelection(devices, undefined);
      return typeof chosen === 'string' ? { ok: true, serial: chosen, resolvedBy: 'only_device' } : chosen;
    }
  }
}
