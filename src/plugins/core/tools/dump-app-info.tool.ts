import { z } from 'zod';
import type { AppInspector } from '../../../android/app-inspector.js';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { defaultedPackageField, deviceSerialField } from '../../../android/device-tool-fields.js';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import {
  clipStrings,
  DATA_BUDGET_BYTES,
  omitNulls,
  pageInfo,
  pageInput,
  pageOf,
  pageOutput,
} from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { isToolError } from '../../../kernel/errors.js';
import { validatePackageName } from '../../../kernel/validation.js';
import { recordObservedInstall } from '../services/observed-install.js';
import { AppUninstallObserved } from '../core.events.js';
import type { DebugSessionReader } from '../services/debug-session-reader.js';

/** Requested permissions listed; the paged `permissions` list carries every grant state. */
const MAX_REQUESTED = 100;

export function createDumpAppInfoTool(deps: {
  devices: DeviceInspector;
  apps: AppInspector;
  scope: PackageScopeGuard;
  sessions: DebugSessionReader;
}) {
  return defineTool({
    name: 'dump_app_info',
    toolset: 'core',
    kind: 'R',
    title: 'Dump app info',
    description:
      'An installed app: version, SDK levels, APK paths, data directory, install and update times, flags, and each requested permission with whether it is granted.',
    input: z.object({
      device_serial: deviceSerialField,
      package: defaultedPackageField,
      ...pageInput(200, 500, 'permissions'),
    }),
    output: z.object({
      device_serial: z.string().describe('The device that was read.'),
      package: z.string().describe('The application id.'),
      version_code: z.number().int().optional().describe('versionCode.'),
      version_name: z.string().optional().describe('versionName.'),
      min_sdk: z.number().int().optional().describe('minSdk.'),
      target_sdk: z.number().int().optional().describe('targetSdk.'),
      apk_paths: z.array(z.string()).describe('APK files on the device (base and splits).'),
      code_path: z.string().optional().describe('Install directory.'),
      data_dir: z.string().optional().describe('Private data directory.'),
      first_install_time: z.string().optional().describe('As the device prints it (device local time).'),
      last_update_time: z.string().optional().describe('As the device prints it (device local time).'),
      installer: z.string().optional().describe('installerPackageName, "null" when sideloaded.'),
      flags: z.array(z.string()).describe('Package flags (DEBUGGABLE, HAS_CODE, …).'),
      requested_permissions: z
        .array(z.string())
        .describe(`Permissions the manifest requests (the first ${MAX_REQUESTED}).`),
      requested_permission_total: z.number().int().describe('Permissions the manifest requests in all.'),
      permissions: z
        .array(
          z.object({
            name: z.string().describe('Permission name.'),
            granted: z.boolean().describe('Granted now.'),
            runtime: z.boolean().describe('A runtime (dangerous) permission that grant/revoke can change.'),
          }),
        )
        .describe('This page of grant states of install-time and runtime permissions.'),
      ...pageOutput,
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package ?? deps.scope.defaultPackage());
      const serial = await deps.devices.select(args.device_serial, ctx);
      let info: Awaited<ReturnType<AppInspector['appInfo']>>;
      try {
        info = await deps.apps.appInfo(serial, pkg, ctx.signal);
      } catch (error) {
        // The install droidwright made is gone (uninstalled, or the device wiped): its debug session ends here.
        if (isToolError(error) && error.code === 'APP_NOT_INSTALLED' && deps.sessions.hasOpenSession(serial, pkg))
          ctx.append(
            AppUninstallObserved,
            { device_serial: serial, package: pkg, observed_by: 'dump_app_info' },
            { stream: `device:${serial}`, device: serial, package: pkg },
          );
        throw error;
      }
      recordObservedInstall(ctx, deps.sessions, serial, pkg, info, 'dump_app_info');
      // The fixed fields and the requested names take up to ~24 KiB; the grant states page in the rest.
      const permissions = pageOf(
        info.permissions.map((p) => ({ name: p.name.slice(0, 200), granted: p.granted, runtime: p.runtime })),
        args,
        DATA_BUDGET_BYTES - 24 * 1024,
      );
      return {
        data: omitNulls(
          clipStrings(
            {
              device_serial: serial,
              package: pkg,
              version_code: info.versionCode,
              version_name: info.versionName,
              min_sdk: info.minSdk,
              target_sdk: info.targetSdk,
              apk_paths: info.apkPaths.slice(0, 50).map((p) => p.slice(0, 500)),
              code_path: info.codePath,
              data_dir: info.dataDir,
              first_install_time: info.firstInstallTime,
              last_update_time: info.lastUpdateTime,
              installer: info.installerPackageName,
              flags: info.flags.slice(0, 50),
              requested_permissions: info.requestedPermissions.slice(0, MAX_REQUESTED).map((p) => p.slice(0, 200)),
              requested_permission_total: info.requestedPermissions.length,
              permissions: permissions.items,
              ...pageInfo(permissions),
            },
            500,
          ),
        ),
        summary: `${pkg} ${info.versionName ?? '?'} (${info.versionCode ?? '?'}) on ${serial}`,
      };
    },
  });
}
