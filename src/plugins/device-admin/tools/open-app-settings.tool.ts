import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField, packageField } from '../../../android/device-tool-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';
import type { AppController } from '../services/app-controller.js';
import { AppSettingsOpened } from '../device-admin.events.js';

export function createOpenAppSettingsTool(deps: { devices: DeviceInspector; apps: AppController }) {
  return defineTool({
    name: 'open_app_settings',
    toolset: 'device-admin',
    kind: 'W',
    title: 'Open app settings',
    description: "Open an installed app's system App info screen (permissions, storage, notifications).",
    input: z.object({ device_serial: deviceSerialField, package: packageField }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      package: z.string().describe('The application id.'),
      activity: z.string().optional().describe('The settings activity that opened, when am reports it.'),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package);
      const serial = await deps.devices.select(args.device_serial, ctx);
      const out = await deps.apps.openAppSettings(serial, pkg, ctx.signal);
      ctx.append(
        AppSettingsOpened,
        { device_serial: serial, package: pkg },
        { stream: `device:${serial}`, device: serial, package: pkg },
      );
      return {
        data: omitNulls({ device_serial: serial, package: pkg, activity: out.component }),
        summary: `opened settings of ${pkg} on ${serial}`,
      };
    },
  });
}
