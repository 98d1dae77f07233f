import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { allowForeignPackageField, deviceSerialField, packageField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName, validatePermission } from '../../../kernel/validation.js';
import type { AppController } from '../services/app-controller.js';
import { PermissionGranted } from '../device-admin.events.js';

export function createGrantRuntimePermissionTool(deps: { devices: DeviceInspector; apps: AppController }) {
  return defineTool({
    name: 'grant_runtime_permission',
    toolset: 'device-admin',
    kind: 'W',
    packageScope: { field: 'package', allowField: 'allow_foreign_package' },
    title: 'Grant runtime permission',
    description: 'Grant a runtime (dangerous) permission to an app (pm grant).',
    input: z.object({
      device_serial: deviceSerialField,
      package: packageField,
      permission: z.string().min(1).max(255).describe('Full name (android.permission.CAMERA).'),
      allow_foreign_package: allowForeignPackageField,
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      package: z.string().describe('The application id.'),
      permission: z.string().describe('The permission.'),
      granted: z.boolean().describe('Always true on success.'),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package);
      const permission = validatePermission(args.permission);
      const serial = await deps.devices.select(args.device_serial, ctx);
      await deps.apps.setPermission(serial, pkg, permission, true, ctx.signal);
      ctx.append(
        PermissionGranted,
        { device_serial: serial, package: pkg, permission },
        { stream: `device:${serial}`, device: serial, package: pkg },
      );
      return {
        data: { device_serial: serial, package: pkg, permission, granted: true },
        summary: `granted ${permission} to ${pkg} on ${serial}`,
      };
    },
  });
}
