import { inject, injectable } from 'inversify';
import { AdbService } from '../../../android/adb-service.js';
import { sh } from '../../../android/device-command.js';
import { parseSettingValue } from '../../../android/parsers/device-state.js';
import { ToolError } from '../../../kernel/errors.js';

export const ORIENTATIONS = ['portrait', 'landscape', 'reverse_portrait', 'reverse_landscape', 'auto'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

const ROTATION: Record<Exclude<Orientation, 'auto'>, 0 | 1 | 2 | 3> = {
  portrait: 0,
  landscape: 1,
  reverse_portrait: 2,
  reverse_landscape: 3,
};
const NAMES = ['portrait', 'landscape', 'reverse_portrait', 'reverse_landscape'] as const;

/** Locks the screen to a rotation (auto-rotate off + user_rotation) or returns it to auto-rotate. */
@injectable()
export class OrientationController {
  constructor(@inject(AdbService) private readonly adb: AdbService) {}

  async current(serial: string, signal?: AbortSignal): Promise<Orientation | null> {
    const opts = { signal, timeoutMs: 15_000, maxOutputBytes: 1024 };
    const [auto, rotation] = await Promise.all([
      this.adb.shell(serial, sh`settings get system accelerometer_rotation`, opts),
      this.adb.shell(serial, sh`settings get system user_rotation`, opts),
    ]);
    if (parseSettingValue(auto.output) === '1') return 'auto';
    const r = Number(parseSettingValue(rotation.output) ?? 'NaN');
    return NAMES[r as 0 | 1 | 2 | 3] ?? (parseSettingValue(auto.output) === '0' ? 'portrait' : null);
  }

  async set(serial: string, orientation: Orientation, signal?: AbortSignal): Promise<{ previous: Orientation | null }> {
    const previous = await this.current(serial, signal);
    const opts = { signal, timeoutMs: 15_000, maxOutputBytes: 4096 };
    const commands =
      orientation === 'auto'
        ? [sh`settings put system accelerometer_rotation 1`]
        : [
            sh`settings put system accelerometer_rotation 0`,
            sh`settings put system user_rotation ${ROTATION[orientation]}`,
          ];
    for (const command of commands) {
      const result = await this.adb.shell(serial, command, opts);
      if ((result.exitCode !== null && result.exitCode !== 0) || /Exception|Error/.test(result.output)) {
        throw new ToolError(
          'COMMAND_FAILED',
          `Changing the orientation of ${serial} failed: ${result.output.trim().slice(0, 300) || `exit ${result.exitCode}`}.`,
        );
      }
    }
    return { previous };
  }
}
