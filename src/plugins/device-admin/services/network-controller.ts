import { inject, injectable } from 'inversify';
import { AdbService } from '../../../android/adb-service.js';
import { sh, type DeviceCommand } from '../../../android/device-command.js';
import { DeviceInspector, type NetworkState } from '../../../android/device-inspector.js';
import { isWirelessSerial } from '../../../android/device-kind.js';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';

export interface NetworkRequest {
  readonly wifi?: boolean;
  readonly mobileData?: boolean;
  readonly airplaneMode?: boolean;
}

function failed(result: { exitCode: number | null; output: string }): boolean {
  return (
    (result.exitCode !== null && result.exitCode !== 0) ||
    /Exception|Error|Unknown command|not found|Usage:/i.test(result.output)
  );
}

/**
 * Switches Wi-Fi, mobile data and airplane mode. Never cuts the connection adb itself uses: over wireless
 * adb, Wi-Fi off and airplane mode on are refused before anything runs.
 */
@injectable()
export class NetworkController {
  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    @inject(DeviceInspector) private readonly inspector: DeviceInspector,
  ) {}

  static checkRequest(serial: string, request: NetworkRequest): void {
    if (request.wifi === undefined && request.mobileData === undefined && request.airplaneMode === undefined) {
      throw new InvalidArgumentsError('Pass at least one of wifi, mobile_data or airplane_mode.', 'INVALID_ARGUMENT');
    }
    if (isWirelessSerial(serial) && (request.wifi === false || request.airplaneMode === true)) {
      throw new InvalidArgumentsError(
        `${serial} is connected over wireless adb; turning Wi-Fi off or airplane mode on would drop the connection droidwright uses. Use a USB-connected device or an emulator for offline tests.`,
        'INVALID_ARGUMENT',
        request.wifi === false ? 'wifi' : 'airplane_mode',
      );
    }
  }

  private async run(serial: string, command: DeviceCommand, what: string, signal?: AbortSignal): Promise<void> {
    const result = await this.adb.shell(serial, command, { signal, timeoutMs: 30_000, maxOutputBytes: 16 * 1024 });
    if (failed(result))
      throw new ToolError(
        'COMMAND_FAILED',
        `${what} failed on ${serial}: ${result.output.trim().slice(0, 300) || `exit ${result.exitCode}`}.`,
      );
  }

  async set(
    serial: string,
    request: NetworkRequest,
    signal?: AbortSignal,
  ): Promise<{ previous: NetworkState; current: NetworkState }> {
    NetworkController.checkRequest(serial, request);
    const previous = await this.inspector.networkState(serial, signal);
    if (request.airplaneMode !== undefined)
      await this.setAirplane(serial, request.airplaneMode, previous.airplaneMode, signal);
    if (request.wifi !== undefined)
      await this.run(
        serial,
        request.wifi ? sh`svc wifi enable` : sh`svc wifi disable`,
        `Turning Wi-Fi ${request.wifi ? 'on' : 'off'}`,
        signal,
      );
    if (request.mobileData !== undefined) {
      await this.run(
        serial,
        request.mobileData ? sh`svc data enable` : sh`svc data disable`,
        `Turning mobile data ${request.mobileData ? 'on' : 'off'}`,
        signal,
      );
    }
    const current = await this.inspector.networkState(serial, signal);
    return { previous, current };
  }

  /** `cmd connectivity airplane-mode`; only when that fails, the setting plus the broadcast (undone if the broadcast is refused). */
  private async setAirplane(serial: string, on: boolean, before: boolean | null, signal?: AbortSignal): Promise<void> {
    const opts = { signal, timeoutMs: 30_000, maxOutputBytes: 16 * 1024 };
    const direct = await this.adb.shell(
      serial,
      on ? sh`cmd connectivity airplane-mode enable` : sh`cmd connectivity airplane-mode disable`,
      opts,
    );
    if (!failed(direct)) return;
    await this.run(
      serial,
      on ? sh`settings put global airplane_mode_on 1` : sh`settings put global airplane_mode_on 0`,
      'Writing airplane_mode_on',
      signal,
    );
    const broadcast = await this.adb.shell(
      serial,
      on
        ? sh`am broadcast -a android.intent.action.AIRPLANE_MODE --ez state true`
        : sh`am broadcast -a android.intent.action.AIRPLANE_MODE --ez state false`,
      opts,
    );
    if (failed(broadcast)) {
      const restore =
        before === null
          ? null
          : before
            ? sh`settings put global airplane_mode_on 1`
            : sh`settings put global airplane_mode_on 0`;
      if (restore) await this.adb.shell(serial, restore, opts).catch(() => undefined);
      throw new ToolError(
        'COMMAND_FAILED',
        `Airplane mode could not be switched on ${serial}: ${broadcast.output.trim().slice(0, 300)}. The setting was restored.`,
      );
    }
  }
}
