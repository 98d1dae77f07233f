import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { allowForeignPackageField, deviceSerialField, packageField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName, validatePermission } from '../../../kernel/validation.js';
import type { AppController } from '../services/app-controller.js';
import { PermissionRevoked } from '../device-admin.events.js';

export function createRevokeRuntimePermissionTool(deps: { devices: DeviceInspector; apps: AppController }) {
  return defineTool({
    name: 'revoke_runtime_permission',
    toolset: 'device-admin',
    kind: 'D',
    packageScope: { field: 'package', allowField: 'allow_foreign_package' },
    title: 'Revoke runtime permission',
    description: "Revoke a runtime permission from an app (pm revoke); Android may kill the app's process.",
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
      revoked: z.boolean().describe('Always true on success.'),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package);
      const permission = validatePermission(args.permission);
      const serial = await deps.devices.select(args.device_serial, ctx);
      await deps.apps.setPermission(serial, pkg, permission, false, ctx.signal);
      ctx.append(
        PermissionRevoked,
        { device_serial: serial, package: pkg, permission },
        { stream: `device:${serial}`, device: serial, package: pkg },
      );
      return {
        data: { device_serial: serial, package: pkg, permission, revoked: true },
        summary: `revoked ${permission} from ${pkg} on ${serial}`,
      };
    },
  });
}
