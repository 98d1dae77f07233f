import { z } from 'zod';
import { defineEvent } from '../../events/event-definition.js';

const Serial = z.string().min(1).max(128);
const Package = z.string().min(1).max(255);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Ms = z.number().int().nonnegative().nullable();

export const AppInstalled = defineEvent({
  type: 'app.installed',
  version: 1,
  description:
    "An APK from the project's build outputs was installed on a device; links to the build that produced it when known.",
  schema: z.object({
    device_serial: Serial,
    package: Package,
    apk_path: z.string().max(4096),
    apk_sha256: Sha256,
    apk_size: z.number().int().nonnegative(),
    version_code: z.number().int(),
    version_name: z.string().nullable(),
    build_id: z.string().max(64).nullable(),
    module: z.string().nullable(),
    variant: z.string().nullable(),
    duration_ms: z.number().int().nonnegative(),
    /** The run configuration whose run installed it; absent for a direct install_apk (and on older events). */
    run_configuration: z.string().min(1).max(128).optional(),
  }),
});

export const AppLaunched = defineEvent({
  type: 'app.launched',
  version: 1,
  description: 'An app was started on a device (am start -W), with the launch timings the device reported.',
  schema: z.object({
    device_serial: Serial,
    package: Package,
    activity: z.string().nullable(),
    method: z.enum(['component', 'resolved_launcher', 'monkey']),
    total_ms: Ms,
    wait_ms: Ms,
    launch_state: z.string().nullable(),
  }),
});

export const AppStopped = defineEvent({
  type: 'app.stopped',
  version: 1,
  description: 'An app was force-stopped on a device.',
  schema: z.object({ device_serial: Serial, package: Package, was_running: z.boolean() }),
});

export const AppRestarted = defineEvent({
  type: 'app.restarted',
  version: 1,
  description: 'An app was force-stopped (optionally its data cleared) and launched again.',
  schema: z.object({
    device_serial: Serial,
    package: Package,
    activity: z.string().nullable(),
    cleared_data: z.boolean(),
    total_ms: Ms,
    wait_ms: Ms,
    launch_state: z.string().nullable(),
    display_ms: Ms,
  }),
});

const PermissionChange = z.object({ device_serial: Serial, package: Package, permission: z.string().min(1).max(255) });

export const PermissionGranted = defineEvent({
  type: 'permission.granted',
  version: 1,
  description: 'A runtime permission was granted to an app.',
  schema: PermissionChange,
});

export const PermissionRevoked = defineEvent({
  type: 'permission.revoked',
  version: 1,
  description: 'A runtime permission was revoked from an app (Android may kill its process).',
  schema: PermissionChange,
});

const NetworkState = z.object({
  wifi: z.boolean().nullable(),
  mobile_data: z.boolean().nullable(),
  airplane_mode: z.boolean().nullable(),
});

export const NetworkChanged = defineEvent({
  type: 'network.changed',
  version: 1,
  description: 'Wi-Fi, mobile data or airplane mode was switched on a device; records the state before and after.',
  schema: z.object({ device_serial: Serial, requested: NetworkState, previous: NetworkState, current: NetworkState }),
});

export const OrientationChanged = defineEvent({
  type: 'orientation.changed',
  version: 1,
  description: 'The screen orientation of a device was locked to a rotation or returned to auto-rotate.',
  schema: z.object({ device_serial: Serial, orientation: z.string(), previous: z.string().nullable() }),
});

export const DeepLinkOpened = defineEvent({
  type: 'deep_link.opened',
  version: 1,
  description: 'A URI was opened on a device with a VIEW intent (a deep link or app link).',
  schema: z.object({
    device_serial: Serial,
    uri: z.string().max(4096),
    scheme: z.string(),
    package: Package.nullable(),
    activity: z.string().nullable(),
  }),
});

export const AppSettingsOpened = defineEvent({
  type: 'app.settings_opened',
  version: 1,
  description: 'The system settings screen of an app was opened on a device.',
  schema: z.object({ device_serial: Serial, package: Package }),
});

export const AvdLaunched = defineEvent({
  type: 'avd.launched',
  version: 1,
  description: 'An Android Virtual Device was started (or found already running) and came online in adb.',
  schema: z.object({
    avd_name: z.string(),
    device_serial: Serial,
    already_running: z.boolean(),
    pid: z.number().int().nullable(),
    waited_ms: z.number().int().nonnegative(),
  }),
});

export const AvdStopped = defineEvent({
  type: 'avd.stopped',
  version: 1,
  description: 'An emulator was told to exit and adb no longer lists it.',
  schema: z.object({
    device_serial: Serial,
    avd_name: z.string().nullable(),
    waited_ms: z.number().int().nonnegative(),
  }),
});

export const deviceAdminEvents = [
  AppInstalled,
  AppLaunched,
  AppStopped,
  AppRestarted,
  PermissionGranted,
  PermissionRevoked,
  NetworkChanged,
  OrientationChanged,
  DeepLinkOpened,
  AppSettingsOpened,
  AvdLaunched,
  AvdStopped,
];

export type AppInstalledData = z.infer<typeof AppInstalled.schema>;
