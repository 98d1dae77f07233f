import { z } from 'zod';
import type { AvdController } from '../../../android/avd-controller.js';
import { clipStrings, omitNulls, pageInfo, pageInput, pageOf, pageOutput } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';

export function createListAvdsTool(deps: { avds: AvdController }) {
  return defineTool({
    name: 'list_avds',
    toolset: 'core',
    kind: 'R',
    title: 'List AVDs',
    description:
      'AVDs defined on this computer, with target, API level, ABI and the serial of any running. Start one with launch_avd.',
    input: z.object(pageInput(50, 200, 'AVDs')),
    output: z.object({
      avds: z
        .array(
          z.object({
            name: z.string().describe('AVD name; pass it to launch_avd.'),
            target: z.string().optional().describe('System image target, e.g. android-34.'),
            api_level: z.number().int().optional().describe('API level of the system image.'),
            abi: z.string().optional().describe('ABI of the system image.'),
            device: z.string().optional().describe('Hardware profile (hw.device.name).'),
            display_name: z.string().optional().describe('Name shown in Device Manager.'),
            running_serial: z.string().optional().describe('adb serial when it is running now.'),
          }),
        )
        .describe('Sorted by name.'),
      ...pageOutput,
    }),
    async handler(args) {
      const avds = deps.avds.list();
      let running = new Map<string, string>();
      try {
        running = await deps.avds.runningEmulators();
      } catch {
        // Without adb the definitions are still worth listing.
      }
      const page = pageOf(
        avds.map((a) =>
          omitNulls(
            clipStrings(
              {
                name: a.name,
                target: a.target,
                api_level: a.apiLevel,
                abi: a.abi,
                device: a.device,
                display_name: a.displayName,
                running_serial: running.get(a.name) ?? null,
              },
              200,
            ),
          ),
        ),
        args,
      );
      return {
        data: { avds: page.items, ...pageInfo(page) },
        summary:
          avds.length === 0
            ? 'no AVDs defined'
            : `${avds.length} AVD(s): ${avds
                .slice(0, 10)
                .map((a) => a.name.slice(0, 100) + (running.has(a.name) ? ' (running)' : ''))
                .join(', ')}${avds.length > 10 ? ', …' : ''}`,
      };
    },
  });
}
