import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import {
  allowForeignPackageField,
  deviceSerialField,
  launchTimingFields,
  packageField,
} from '../../../android/device-tool-fields.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';
import { validateActivity, type AppController } from '../services/app-controller.js';
import { AppRestarted } from '../device-admin.events.js';

export function createRestartAppTool(deps: { devices: DeviceInspector; apps: AppController }) {
  return defineTool({
    name: 'restart_app',
    toolset: 'device-admin',
    kind: 'D',
    packageScope: { field: 'package', allowField: 'allow_foreign_package' },
    title: 'Restart app',
    description:
      'Force-stop an app and launch it again, returning am start -W timings and the Displayed time from logcat. Data is kept unless clear_data.',
    input: z.object({
      device_serial: deviceSerialField,
      package: packageField,
      activity: z.string().min(1).max(255).optional().describe('Activity to start; default: the launcher one.'),
      clear_data: z
        .boolean()
        .optional()
        .describe("pm clear first: wipes the app's data and runtime permissions. Needs device_serial."),
      allow_foreign_package: allowForeignPackageField,
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      package: z.string().describe('The application id.'),
      component: z.string().optional().describe('The component started.'),
      was_running: z.boolean().describe('Whether it had a process before the restart.'),
      cleared_data: z.boolean().describe('Whether pm clear ran.'),
      ...launchTimingFields,
      display_ms: z
        .number()
        .int()
        .optional()
        .describe(
          "Time to first frame from the logcat 'Displayed' line for this package; absent when none was logged.",
        ),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package);
      if (args.activity !== undefined) validateActivity(args.activity);
      const clearData = args.clear_data === true;
      if (clearData && args.device_serial === undefined) {
        throw new InvalidArgumentsError(
          "clear_data: true wipes the app's data, so name the device explicitly with device_serial.",
          'INVALID_ARGUMENT',
          'device_serial',
        );
      }
      const serial = await deps.devices.select(args.device_serial, ctx);
      const out = await deps.apps.restart(serial, pkg, { activity: args.activity, clearData, signal: ctx.signal });
      const timing = {
        total_ms: out.am?.totalTimeMs ?? null,
        wait_ms: out.am?.waitTimeMs ?? null,
        launch_state: out.am?.launchState ?? null,
      };
      ctx.append(
        AppRestarted,
        {
          device_serial: serial,
          package: pkg,
          activity: out.component,
          cleared_data: clearData,
          ...timing,
          display_ms: out.displayMs,
        },
        { stream: `device:${serial}`, device: serial, package: pkg },
      );
      return {
        data: omitNulls({
          device_serial: serial,
          package: pkg,
          component: out.component,
          was_running: out.wasRunning,
          cleared_data: clearData,
          ...timing,
          display_ms: out.displayMs,
        }),
        summary: `restarted ${pkg} on ${serial}${clearData ? ' with data cleared' : ''}${out.displayMs !== null ? `, displayed in ${out.displayMs} ms` : ''}`,
      };
    },
  });
}
