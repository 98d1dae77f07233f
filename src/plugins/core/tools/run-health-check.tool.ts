import { z } from 'zod';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { HealthChecker } from '../services/health-checker.js';

const checkFields = {
  ok: z.boolean().describe('Whether this part is usable.'),
  path: z.string().optional().describe('Where it was found.'),
  version: z.string().optional().describe('Version reported by the tool or its package metadata.'),
  hint: z.string().optional().describe('What to do when it is not ok.'),
};
const CheckSchema = z.object(checkFields);

export function createRunHealthCheckTool(deps: { checker: HealthChecker }) {
  return defineTool({
    name: 'run_health_check',
    toolset: 'core',
    kind: 'R',
    title: 'Run health check',
    description:
      "Check the local Android toolchain: Java (17+ needed by the Android Gradle Plugin), the Android SDK, adb and whether its server answers, the emulator, the project's Gradle wrapper, and retrace. Each check says what is wrong and how to fix it. Never runs project code.",
    input: z.object({}),
    output: z.object({
      java: CheckSchema.extend({
        source: z.enum(['settings', 'JAVA_HOME', 'PATH']).optional().describe('Where the JDK was found.'),
        major_version: z.number().int().optional().describe('Java major version, e.g. 17.'),
        warning: z.string().optional().describe('Set when the JDK is too old for the Android Gradle Plugin.'),
      }).describe('The JDK Gradle builds use.'),
      android_sdk: CheckSchema.extend({
        source: z
          .enum(['settings', 'ANDROID_HOME', 'ANDROID_SDK_ROOT', 'local.properties'])
          .optional()
          .describe(
            "Where the SDK location came from (a project's local.properties only counts when the project is trusted).",
          ),
      }).describe('The Android SDK.'),
      adb: CheckSchema.extend({
        server: z
          .object({
            port: z.number().int().describe('adb server port (ANDROID_ADB_SERVER_PORT or 5037).'),
            reachable: z.boolean().describe('Whether an adb server answered host:version.'),
            version: z.number().int().optional().describe('adb server protocol version.'),
          })
          .describe('The adb server, probed without starting it.'),
      }).describe('adb and its server.'),
      emulator: CheckSchema.describe('The Android Emulator (only needed for virtual devices; does not affect all_ok).'),
      gradle_wrapper: CheckSchema.describe("The project's gradlew (inspected, not run)."),
      retrace: CheckSchema.describe('R8 retrace from the SDK command-line tools (does not affect all_ok).'),
      all_ok: z.boolean().describe('Java, SDK, adb and (with a project) the Gradle wrapper are all ok.'),
    }),
    async handler(_args, ctx) {
      const report = await deps.checker.run(ctx.signal);
      const failing = (['java', 'android_sdk', 'adb', 'gradle_wrapper'] as const).filter((k) => !report[k].ok);
      return { data: omitNulls(report), summary: report.all_ok ? 'all checks ok' : `not ok: ${failing.join(', ')}` };
    },
  });
}
