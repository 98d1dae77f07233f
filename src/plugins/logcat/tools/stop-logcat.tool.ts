import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validateSerial } from '../../../kernel/validation.js';
import type { LogcatStreams } from '../services/logcat-streams.js';

export function createStopLogcatTool(deps: { devices: DeviceInspector; streams: LogcatStreams }) {
  return defineTool({
    name: 'stop_logcat',
    toolset: 'logcat',
    kind: 'W',
    title: 'Stop logcat',
    description: "Stop streaming a device's log, whoever started it. Stored lines and crashes stay readable.",
    input: z.object({
      device_serial: deviceSerialField,
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      was_running: z.boolean().describe('Whether a worker was streaming it.'),
    }),
    async handler(args, ctx) {
      // A named device may be unplugged: its worker can still be stopped, so only an unnamed one is looked up.
      const serial =
        args.device_serial !== undefined
          ? validateSerial(args.device_serial)
          : await deps.devices.select(undefined, ctx);
      const wasRunning = await deps.streams.stop(serial, ctx.actor);
      return {
        data: { device_serial: serial, was_running: wasRunning },
        summary: wasRunning ? `logcat stopped on ${serial}` : `no logcat worker was streaming ${serial}`,
      };
    },
  });
}
