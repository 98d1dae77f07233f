import { z } from 'zod';
import type { AppInspector } from '../../../android/app-inspector.js';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { defaultedPackageField, deviceSerialField } from '../../../android/device-tool-fields.js';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';

export function createGetAppRuntimeStateTool(deps: {
  devices: DeviceInspector;
  apps: AppInspector;
  scope: PackageScopeGuard;
}) {
  return defineTool({
    name: 'get_app_runtime_state',
    toolset: 'core',
    kind: 'R',
    title: 'Get app runtime state',
    description:
      'Whether an app is installed, running (pids) and in the foreground (activity), what has focus, and its activity back stack, top first.',
    input: z.object({ device_serial: deviceSerialField, package: defaultedPackageField }),
    output: z.object({
      device_serial: z.string().describe('The device that was read.'),
      package: z.string().describe('The application id.'),
      installed: z.boolean().describe('pm path lists the package.'),
      running: z.boolean().describe('At least one process runs.'),
      pids: z.array(z.number().int()).describe('Process ids of the package (pidof).'),
      foreground: z.boolean().describe('The focused window or resumed activity belongs to the package.'),
      foreground_activity: z
        .string()
        .optional()
        .describe('Fully-qualified class of the foreground activity when the app is in front.'),
      focused_component: z.string().optional().describe('Whatever has focus now (any package), as pkg/.Activity.'),
      activity_stack: z
        .array(
          z.object({
            activity: z.string().describe('Fully-qualified class.'),
            task_id: z.number().int().optional().describe('Task id.'),
          }),
        )
        .describe("The package's activities, top of the back stack first (at most 50)."),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package ?? deps.scope.defaultPackage());
      const serial = await deps.devices.select(args.device_serial, ctx);
      const s = await deps.apps.runtimeState(serial, pkg, ctx.signal);
      return {
        data: omitNulls({
          device_serial: serial,
          package: pkg,
          installed: s.installed,
          running: s.running,
          pids: s.pids.slice(0, 50),
          foreground: s.foreground,
          foreground_activity: s.foregroundActivity,
          focused_component: s.focusedComponent?.flat ?? null,
          activity_stack: s.activityStack
            .slice(0, 50)
            .map((a) => ({ activity: a.activity.slice(0, 300), task_id: a.taskId })),
        }),
        summary: !s.installed
          ? `${pkg} is not installed on ${serial}`
          : `${pkg}: ${s.running ? `running (pid ${s.pids.join(',')})` : 'not running'}${s.foreground ? `, foreground ${s.foregroundActivity ?? ''}` : ''}`,
      };
    },
  });
}
