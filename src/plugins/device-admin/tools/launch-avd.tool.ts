import { z } from 'zod';
import type { AvdController } from '../../../android/avd-controller.js';
import { LAUNCH_TIMEOUT_MS } from '../../../android/avd-controller.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { AvdLaunched } from '../device-admin.events.js';

export function createLaunchAvdTool(deps: { avds: AvdController }) {
  return defineTool({
    name: 'launch_avd',
    toolset: 'device-admin',
    kind: 'W',
    title: 'Launch AVD',
    description: `Start an AVD in the SDK emulator and wait (up to ${LAUNCH_TIMEOUT_MS / 1000} s) until it is online; returns its serial (the running one's, if already started).`,
    input: z.object({ name: z.string().min(1).max(100).describe('AVD name from list_avds.') }),
    output: z.object({
      device_serial: z.string().describe('adb serial of the emulator running the AVD.'),
      avd_name: z.string().describe('The AVD.'),
      already_running: z.boolean().describe('True when no new emulator was started.'),
      waited_ms: z.number().int().describe('How long this call waited.'),
    }),
    async handler(args, ctx) {
      const launch = await deps.avds.launch(args.name, ctx.signal);
      ctx.append(
        AvdLaunched,
        {
          avd_name: launch.avdName,
          device_serial: launch.serial,
          already_running: launch.alreadyRunning,
          pid: launch.pid,
          waited_ms: launch.waitedMs,
        },
        { stream: `device:${launch.serial}`, device: launch.serial },
      );
      return {
        data: {
          device_serial: launch.serial,
          avd_name: launch.avdName,
          already_running: launch.alreadyRunning,
          waited_ms: launch.waitedMs,
        },
        summary: launch.alreadyRunning
          ? `${launch.avdName} already running as ${launch.serial}`
          : `${launch.avdName} online as ${launch.serial} after ${launch.waitedMs} ms`,
      };
    },
  });
}
