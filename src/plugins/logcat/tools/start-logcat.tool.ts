import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { LogcatStreams } from '../services/logcat-streams.js';

export function createStartLogcatTool(deps: { devices: DeviceInspector; streams: LogcatStreams }) {
  return defineTool({
    name: 'start_logcat',
    toolset: 'logcat',
    kind: 'W',
    title: 'Start logcat',
    description:
      "Stream a device's log into droidwright's shared store (one worker per device), or report the running one; stops on stop_logcat, when the device stays away, or after long unread.",
    input: z.object({
      device_serial: deviceSerialField,
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      worker_pid: z.number().int().describe('Process id of the worker streaming the device.'),
      already_running: z.boolean().describe('True when a worker was already streaming it.'),
    }),
    async handler(args, ctx) {
      const serial = await deps.devices.select(args.device_serial, ctx);
      const { pid, alreadyRunning } = await deps.streams.ensure(serial, ctx.actor);
      return {
        data: { device_serial: serial, worker_pid: pid, already_running: alreadyRunning },
        summary: `${alreadyRunning ? 'logcat already streaming' : 'logcat streaming'} ${serial} (worker pid ${pid})`,
      };
    },
  });
}
