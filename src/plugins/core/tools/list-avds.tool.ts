import { z } from 'zod';
import type { AvdController } from '../../../android/avd-controller.js';
import { defineTool } from '../../../kernel/tool-definition.js';

export function createListAvdsTool(deps: { avds: AvdController }) {
  return defineTool({
    name: 'list_avds',
    toolset: 'core',
    kind: 'R',
    title: 'List AVDs',
    description:
      'List the Android Virtual Devices defined on this computer (from the AVD home: $ANDROID_AVD_HOME, $ANDROID_USER_HOME/avd or ~/.android/avd) with target, API level, ABI, and the serial of any that is running. Start one with launch_avd.',
    input: z.object({}),
    output: z.object({
      avds: z
        .array(
          z.object({
            name: z.string().describe('AVD name; pass it to launch_avd.'),
            target: z.string().nullable().describe('System image target, e.g. android-34.'),
            api_level: z.number().int().nullable().describe('API level of the system image.'),
            abi: z.string().nullable().describe('ABI of the system image.'),
            device: z.string().nullable().describe('Hardware profile (hw.device.name).'),
            display_name: z.string().nullable().describe('Name shown in Device Manager.'),
            running_serial: z.string().nullable().describe('adb serial when it is running now, else null.'),
          }),
        )
        .describe('Sorted by name.'),
    }),
    async handler() {
      const avds = deps.avds.list();
      let running = new Map<string, string>();
      try {
        running = await deps.avds.runningEmulators();
      } catch {
        // Without adb the definitions are still worth listing.
      }
      return {
        data: {
          avds: avds.map((a) => ({
            name: a.name,
            target: a.target,
            api_level: a.apiLevel,
            abi: a.abi,
            device: a.device,
            display_name: a.displayName,
            running_serial: running.get(a.name) ?? null,
          })),
        },
        summary:
          avds.length === 0
            ? 'no AVDs defined'
            : avds.map((a) => a.name + (running.has(a.name) ? ' (running)' : '')).join(', '),
      };
    },
  });
}
