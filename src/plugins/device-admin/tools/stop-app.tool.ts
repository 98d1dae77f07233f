import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { allowForeignPackageField, deviceSerialField, packageField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';
import type { AppController } from '../services/app-controller.js';
import { AppStopped } from '../device-admin.events.js';

export function createStopAppTool(deps: { devices: DeviceInspector; apps: AppController }) {
  return defineTool({
    name: 'stop_app',
    toolset: 'device-admin',
    kind: 'D',
    packageScope: { field: 'package', allowField: 'allow_foreign_package' },
    title: 'Stop app',
    description: 'Force-stop an app (am force-stop): its processes end and unsaved state is lost.',
    input: z.object({
      device_serial: deviceSerialField,
      package: packageField,
      allow_foreign_package: allowForeignPackageField,
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      package: z.string().describe('The application id.'),
      was_running: z.boolean().describe('Whether it had a process before the stop.'),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package);
      const serial = await deps.devices.select(args.device_serial, ctx);
      const { wasRunning } = await deps.apps.stop(serial, pkg, ctx.signal);
      ctx.append(
        AppStopped,
        { device_serial: serial, package: pkg, was_running: wasRunning },
        { stream: `device:${serial}`, device: serial, package: pkg },
      );
      return {
        data: { device_serial: serial, package: pkg, was_running: wasRunning },
        summary: `stopped ${pkg} on ${serial}${wasRunning ? '' : ' (was not running)'}`,
      };
    },
  });
}
