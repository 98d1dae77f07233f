import { z } from 'zod';
import { deviceSerialField, launchTimingFields } from '../../../android/device-tool-fields.js';
import { describeLaunch } from '../../../android/run-configurations/run-configuration.js';
import {
  buildTimeoutField,
  runConfigurationNameField,
} from '../../../android/run-configurations/run-configuration-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { ToolError } from '../../../kernel/errors.js';
import type { ProjectSelection } from '../../../kernel/project-selection.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validateSerial } from '../../../kernel/validation.js';
import type { RunConfigurationRunner } from '../services/run-configuration-runner.js';

export function createRunRunConfigurationTool(deps: { project: ProjectSelection; runner: RunConfigurationRunner }) {
  return defineTool({
    name: 'run_run_configuration',
    toolset: 'device-admin',
    kind: 'O',
    title: 'Run run configuration',
    description:
      "Build, install and launch a run configuration in one call (plans: list_run_configurations), returning launch timing; the install opens a debug session. Build policy as run_gradle_task; cancelling stops only the build. Device: the configuration's, its AVD's running emulator (launch_avd starts one), the last used, or the only online one.",
    input: z.object({
      name: runConfigurationNameField,
      device_serial: deviceSerialField.describe('For an ask or last-used target; else it must be the target device.'),
      timeout_sec: buildTimeoutField,
    }),
    output: z.object({
      configuration: z.string().describe('The configuration run.'),
      device_serial: z.string().describe('Where it ran.'),
      device_chosen_by: z
        .enum(['serial', 'avd', 'last_used', 'only_device', 'argument'])
        .describe(
          "Why that device: the configuration's serial or AVD, the device it last ran on, the only one online, or device_serial.",
        ),
      task: z.string().describe('The Gradle task built.'),
      build_id: z.string().describe('The recorded build.'),
      build_result: z.string().describe("run_gradle_task's one-line summary of the build."),
      package: z.string().describe('Application id read from the installed APK.'),
      version_code: z.number().int().describe('versionCode of the installed APK.'),
      apk_path: z.string().describe('The APK installed.'),
      apk_sha256: z.string().describe('SHA-256 of the installed bytes.'),
      apk_written_by_this_build: z
        .boolean()
        .describe('False when Gradle found the variant up to date and the current APK was installed.'),
      apk_note: z.string().optional().describe('Which build wrote the installed APK, when this build did not.'),
      launch: z.string().describe('How it was started: default, activity X, deep link URI, or none.'),
      component: z.string().optional().describe('The activity started, when known.'),
      ...launchTimingFields,
      build_ms: z.number().int().describe('Time spent building (waiting for Gradle included).'),
      install_ms: z.number().int().describe('Time spent installing.'),
      launch_ms: z.number().int().optional().describe('Time the launch call took, when it launched.'),
      logcat_filter: z.string().describe("The configuration's log query, for get_logcat_entries after the launch."),
    }),
    async handler(args, ctx) {
      const root = deps.project.root;
      if (!root)
        throw new ToolError(
          'PROJECT_NOT_FOUND',
          'No Gradle project is selected. Start droidwright mcp inside the project or pass --project <path>.',
        );
      const requested = args.device_serial !== undefined ? validateSerial(args.device_serial) : undefined;
      const run = await deps.runner.run(root, args.name, { requested, timeoutSec: args.timeout_sec }, ctx);
      const am = run.launch?.am ?? null;
      return {
        data: omitNulls({
          configuration: run.configuration.name,
          device_serial: run.serial,
          device_chosen_by: run.resolvedBy,
          task: run.task,
          build_id: run.build.buildId,
          build_result: run.build.summary,
          package: run.package,
          version_code: run.versionCode,
          apk_path: run.apk.path,
          apk_sha256: run.apk.sha256,
          apk_written_by_this_build: run.apk.writtenByThisBuild,
          apk_note: run.apk.note,
          launch: describeLaunch(run.configuration.launch),
          component: run.launch?.component ?? null,
          total_ms: am?.totalTimeMs ?? null,
          wait_ms: am?.waitTimeMs ?? null,
          launch_state: am?.launchState ?? null,
          build_ms: run.phaseMs.build,
          install_ms: run.phaseMs.install,
          launch_ms: run.phaseMs.launch,
          logcat_filter: run.configuration.logcatFilter,
        }),
        summary: `${run.configuration.name}: built ${run.build.buildId}, installed ${run.package} on ${run.serial}, ${
          run.launch
            ? `launched ${run.launch.component ?? run.package}${am?.totalTimeMs != null ? ` in ${am.totalTimeMs} ms` : ''}`
            : 'not launched (launch: none)'
        }`,
      };
    },
  });
}
