import { inject, injectable } from 'inversify';
import { ToolError } from '../../kernel/errors.js';
import { AdbService, type AdbDeviceEntry } from '../adb-service.js';
import { AvdController } from '../avd-controller.js';
import type { RunConfiguration } from './run-configuration.js';
import { RunConfigurationCatalog } from './run-configuration-catalog.js';
import { resolveRunTarget, type TargetResolution } from './run-target.js';

/** The devices adb sees now, as target resolution needs them. */
export interface DeviceSnapshot {
  readonly devices: readonly AdbDeviceEntry[];
  readonly emulatorsByAvd: ReadonlyMap<string, string>;
  /** Set when adb could not be asked; every target then fails with it. */
  readonly error: ToolError | null;
}

/**
 * Resolves where configurations run, the one rule for list_run_configurations and run_run_configuration:
 * one adb listing per call, AVD names asked of the emulators only when a configuration targets an AVD.
 */
@injectable()
export class RunPlanner {
  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    @inject(AvdController) private readonly avds: AvdController,
    @inject(RunConfigurationCatalog) private readonly catalog: RunConfigurationCatalog,
  ) {}

  async devicesNow(configurations: readonly RunConfiguration[]): Promise<DeviceSnapshot> {
    try {
      const devices = await this.adb.listDevices();
      const needAvds = configurations.some((c) => c.target.kind === 'avd');
      return { devices, emulatorsByAvd: needAvds ? await this.avds.runningEmulators() : new Map(), error: null };
    } catch (error) {
      const failure =
        error instanceof ToolError ? error : new ToolError('ADB_UNAVAILABLE', `adb: ${(error as Error).message}`);
      return { devices: [], emulatorsByAvd: new Map(), error: failure };
    }
  }

  resolve(
    projectRoot: string,
    configuration: RunConfiguration,
    snapshot: DeviceSnapshot,
    options: { requested?: string; lastUsed?: ReadonlyMap<string, string> } = {},
  ): TargetResolution {
    if (snapshot.error) return { ok: false, code: snapshot.error.code, message: snapshot.error.message };
    const lastUsed = options.lastUsed
      ? (options.lastUsed.get(configuration.name) ?? null)
      : this.catalog.lastUsedDevice(projectRoot, configuration.name);
    return resolveRunTarget(configuration.target, {
      devices: snapshot.devices,
      emulatorsByAvd: snapshot.emulatorsByAvd,
      lastUsed,
      requested: options.requested,
    });
  }
}
