import { z } from 'zod';
import type { AppInspector } from '../../../android/app-inspector.js';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { defaultedPackageField, deviceSerialField } from '../../../android/device-tool-fields.js';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';

export function createDumpAppInfoTool(deps: {
  devices: DeviceInspector;
  apps: AppInspector;
  scope: PackageScopeGuard;
}) {
  return defineTool({
    name: 'dump_app_info',
    toolset: 'core',
    kind: 'R',
    title: 'Dump app info',
    description:
      'Describe an installed app on a device: version, SDK levels, APK paths, data directory, first install and last update times, flags, and every requested permission with whether it is granted.',
    input: z.object({ device_serial: deviceSerialField, package: defaultedPackageField }),
    output: z.object({
      device_serial: z.string().describe('The device that was read.'),
      package: z.string().describe('The application id.'),
      version_code: z.number().int().nullable().describe('versionCode.'),
      version_name: z.string().nullable().describe('versionName.'),
      min_sdk: z.number().int().nullable().describe('minSdk.'),
      target_sdk: z.number().int().nullable().describe('targetSdk.'),
      apk_paths: z.array(z.string()).describe('APK files on the device (base and splits).'),
      code_path: z.string().nullable().describe('Install directory.'),
      data_dir: z.string().nullable().describe('Private data directory.'),
      first_install_time: z.string().nullable().describe('As the device prints it (device local time).'),
      last_update_time: z.string().nullable().describe('As the device prints it (device local time).'),
      installer: z.string().nullable().describe('installerPackageName, "null" when sideloaded.'),
      flags: z.array(z.string()).describe('Package flags (DEBUGGABLE, HAS_CODE, …).'),
      requested_permissions: z.array(z.string()).describe('Permissions the manifest requests.'),
      permissions: z
        .array(
          z.object({
            name: z.string().describe('Permission name.'),
            granted: z.boolean().describe('Granted now.'),
            runtime: z.boolean().describe('A runtime (dangerous) permission that grant/revoke can change.'),
          }),
        )
        .describe('Grant state of install-time and runtime permissions.'),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package ?? deps.scope.defaultPackage());
      const serial = await deps.devices.select(args.device_serial, ctx);
      const info = await deps.apps.appInfo(serial, pkg, ctx.signal);
      return {
        data: {
          device_serial: serial,
          package: pkg,
          version_code: info.versionCode,
          version_name: info.versionName,
          min_sdk: info.minSdk,
          target_sdk: info.targetSdk,
          apk_paths: [...info.apkPaths],
          code_path: info.codePath,
          data_dir: info.dataDir,
          first_install_time: info.firstInstallTime,
          last_update_time: info.lastUpdateTime,
          installer: info.installerPackageName,
          flags: [...info.flags],
          requested_permissions: [...info.requestedPermissions].slice(0, 500),
          permissions: info.permissions
            .slice(0, 500)
            .map((p) => ({ name: p.name, granted: p.granted, runtime: p.runtime })),
        },
        summary: `${pkg} ${info.versionName ?? '?'} (${info.versionCode ?? '?'}) on ${serial}`,
      };
    },
  });
}
