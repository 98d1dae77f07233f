import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField, launchTimingFields, packageField } from '../../../android/device-tool-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';
import { validateActivity, type AppController } from '../services/app-controller.js';
import { AppLaunched } from '../device-admin.events.js';

export function createLaunchAppTool(deps: { devices: DeviceInspector; apps: AppController }) {
  return defineTool({
    name: 'launch_app',
    toolset: 'device-admin',
    kind: 'W',
    title: 'Launch app',
    description:
      'Start an installed app with am start -W and return the launch timings. Fails when am reports an error, even with exit 0.',
    input: z.object({
      device_serial: deviceSerialField,
      package: packageField,
      activity: z
        .string()
        .min(1)
        .max(255)
        .optional()
        .describe('Activity (.MainActivity or fully qualified); default: the launcher one.'),
    }),
    output: z.object({
      device_serial: z.string().describe('Where it was launched.'),
      package: z.string().describe('The application id.'),
      component: z
        .string()
        .optional()
        .describe('The component started (pkg/.Activity); absent when only the launcher intent was sent.'),
      method: z
        .enum(['component', 'resolved_launcher', 'monkey'])
        .describe('How it was started; monkey reports no timings.'),
      ...launchTimingFields,
      warnings: z.array(z.string()).describe('Warning lines am printed (e.g. the task was only brought to the front).'),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package);
      if (args.activity !== undefined) validateActivity(args.activity);
      const serial = await deps.devices.select(args.device_serial, ctx);
      const out = await deps.apps.launch(serial, pkg, args.activity, ctx.signal);
      const timing = {
        total_ms: out.am?.totalTimeMs ?? null,
        wait_ms: out.am?.waitTimeMs ?? null,
        launch_state: out.am?.launchState ?? null,
      };
      ctx.append(
        AppLaunched,
        { device_serial: serial, package: pkg, activity: out.component, method: out.method, ...timing },
        { stream: `device:${serial}`, device: serial, package: pkg },
      );
      return {
        data: omitNulls({
          device_serial: serial,
          package: pkg,
          component: out.component,
          method: out.method,
          ...timing,
          warnings: [...(out.am?.warnings ?? [])],
        }),
        summary:
          timing.total_ms !== null
            ? `launched ${out.component ?? pkg} in ${timing.total_ms} ms${timing.launch_state ? ` (${timing.launch_state.toLowerCase()})` : ''}`
            : `launched ${out.component ?? pkg} (no launch time reported)`,
      };
    },
  });
}
