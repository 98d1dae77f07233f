import { z } from 'zod';
import type { RunConfigurationCatalog } from '../../../android/run-configurations/run-configuration-catalog.js';
import {
  buildTimeoutField,
  runConfigurationNameField,
} from '../../../android/run-configurations/run-configuration-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import type { BuildRunner } from '../../../kernel/build-runner.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildService } from '../services/build-service.js';

export function createBuildRunConfigurationTool(deps: {
  service: BuildService;
  catalog: RunConfigurationCatalog;
  runner: BuildRunner;
}) {
  return defineTool({
    name: 'build_run_configuration',
    toolset: 'build',
    kind: 'O',
    title: 'Build run configuration',
    description:
      "Build a run configuration's module and variant (assemble<Variant>) under run_gradle_task's policy; returns the APK, noted when up to date. Does not install or launch: run_run_configuration does all three.",
    input: z.object({ name: runConfigurationNameField, timeout_sec: buildTimeoutField }),
    output: z.object({
      configuration: z.string().describe('The configuration built.'),
      module: z.string().describe('Gradle module.'),
      variant: z.string().describe('Variant.'),
      task: z.string().describe('The Gradle task it ran.'),
      build_id: z.string().describe('The recorded build (get_build_status, get_build_log).'),
      result: z.string().describe("run_gradle_task's one-line summary of the build."),
      apk_path: z.string().optional().describe('The APK to install, when there is exactly one for the variant.'),
      apk_sha256: z.string().optional().describe('SHA-256 of that APK.'),
      package: z.string().optional().describe('Application id of that APK.'),
      apk_written_by_this_build: z
        .boolean()
        .optional()
        .describe('False when Gradle found the variant up to date and the current APK is returned.'),
      apk_note: z
        .string()
        .optional()
        .describe('Which build wrote an APK this build did not write, or why no single APK is named.'),
    }),
    async handler(args, ctx) {
      const root = deps.service.requireRoot();
      const { configuration, task } = deps.catalog.requireRunnable(root, args.name);
      const built = await deps.runner.buildVariant(
        { module: configuration.module, variant: configuration.variant, timeoutSec: args.timeout_sec },
        ctx,
      );
      const apk = built.apk;
      return {
        data: omitNulls({
          configuration: configuration.name,
          module: configuration.module,
          variant: configuration.variant,
          task: built.tasks.join(' ') || task,
          build_id: built.buildId,
          result: built.summary,
          apk_path: apk?.path ?? null,
          apk_sha256: apk?.sha256 ?? null,
          package: apk?.package ?? null,
          apk_written_by_this_build: apk ? apk.writtenByThisBuild : null,
          apk_note: apk?.note ?? built.apkProblem,
        }),
        summary: apk
          ? `${configuration.name}: ${built.summary} APK ${apk.path}${apk.writtenByThisBuild ? '' : ' (up to date, not rewritten)'}`
          : `${configuration.name}: ${built.summary} ${built.apkProblem ?? ''}`.trim(),
      };
    },
  });
}
