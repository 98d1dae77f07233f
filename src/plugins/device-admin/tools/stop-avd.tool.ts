import { z } from 'zod';
import type { AvdController } from '../../../android/avd-controller.js';
import { requiredDeviceSerialField } from '../../../android/device-tool-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validateSerial } from '../../../kernel/validation.js';
import { AvdStopped } from '../device-admin.events.js';

export function createStopAvdTool(deps: { avds: AvdController }) {
  return defineTool({
    name: 'stop_avd',
    toolset: 'device-admin',
    kind: 'D',
    title: 'Stop AVD',
    description:
      'Shut down a running emulator (adb emu kill) and wait (up to 30 s) until it is gone. Unsaved emulator state is lost.',
    input: z.object({ device_serial: requiredDeviceSerialField.describe('Emulator serial (emulator-5554).') }),
    output: z.object({
      device_serial: z.string().describe('The emulator that stopped.'),
      avd_name: z.string().optional().describe('Its AVD, when known.'),
      waited_ms: z.number().int().describe('How long it took to disappear from adb.'),
    }),
    async handler(args, ctx) {
      const serial = validateSerial(args.device_serial);
      const stopped = await deps.avds.stop(serial, ctx.signal);
      ctx.append(
        AvdStopped,
        { device_serial: serial, avd_name: stopped.avdName, waited_ms: stopped.waitedMs },
        { stream: `device:${serial}`, device: serial },
      );
      return {
        data: omitNulls({ device_serial: serial, avd_name: stopped.avdName, waited_ms: stopped.waitedMs }),
        summary: `stopped ${serial}${stopped.avdName ? ` (${stopped.avdName})` : ''}`,
      };
    },
  });
}
