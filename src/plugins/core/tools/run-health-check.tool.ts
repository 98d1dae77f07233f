import { z } from 'zod';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { type HealthChecker, healthFindings } from '../services/health-checker.js';

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
      'Check the local Android setup (Node.js, Java 17+, SDK and build-tools, adb and devices, emulator, project, Gradle wrapper, trust, retrace, data directory, the event log store: for PostgreSQL its connection, versions and head; optionally the hash chain); each check says what is wrong and how to fix it.',
    input: z.object({
      verify_event_log: z
        .boolean()
        .default(false)
        .describe('Also verify the event log hash chain (slow on a large log).'),
    }),
    output: z.object({
      node: CheckSchema.describe('The Node.js running droidwright (20.9 or newer).'),
      java: CheckSchema.extend({
        source: z.enum(['settings', 'JAVA_HOME', 'PATH']).optional().describe('Where the JDK was found.'),
        major_version: z.number().int().optional().describe('Java major version, e.g. 17.'),
        warning: z.string().optional().describe('Set when the JDK is too old for the Android Gradle Plugin.'),
      }).describe('The JDK Gradle builds use.'),
      android_sdk: CheckSchema.extend({
        source: z
          .enum(['settings', 'ANDROID_HOME', 'ANDROID_SDK_ROOT', 'local.properties', 'known-location'])
          .optional()
          .describe(
            "Where the SDK location came from (a project's local.properties only counts when the project is trusted).",
          ),
      }).describe('The Android SDK.'),
      build_tools: CheckSchema.describe("The SDK's newest build-tools (does not affect all_ok)."),
      adb: CheckSchema.extend({
        server: z
          .object({
            port: z.number().int().describe('adb server port (ANDROID_ADB_SERVER_PORT or 5037).'),
            reachable: z.boolean().describe('Whether an adb server answered host:version.'),
            version: z.number().int().optional().describe('adb server protocol version.'),
          })
          .describe('The adb server, probed without starting it.'),
      }).describe('adb and its server.'),
      devices: z
        .object({
          ok: z.boolean().describe('At least one device is online.'),
          listed: z.boolean().describe('False when no adb server answered, so nothing was listed.'),
          devices: z
            .array(
              z.object({
                serial: z.string().describe('Device serial.'),
                state: z.string().describe('device, unauthorized, offline, …'),
                hint: z.string().optional().describe('What to do when the device is not usable.'),
              }),
            )
            .max(64)
            .describe('Devices the adb server lists.'),
          hint: z.string().optional().describe('What to do when no device is online.'),
        })
        .describe('Devices and their state (does not affect all_ok).'),
      emulator: CheckSchema.describe('The Android Emulator (only needed for virtual devices; does not affect all_ok).'),
      project: z
        .object({
          ok: z.boolean().describe('A Gradle project is selected.'),
          path: z.string().optional().describe('Its root.'),
          trusted: z.boolean().optional().describe('Whether builds may run in it.'),
          hint: z.string().optional().describe('How to select it or trust it.'),
        })
        .describe('The project and its trust (does not affect all_ok).'),
      gradle_wrapper: CheckSchema.describe("The project's gradlew (inspected, not run)."),
      retrace: CheckSchema.describe('R8 retrace from the SDK command-line tools (does not affect all_ok).'),
      data_dir: z
        .object({
          ok: z.boolean().describe('The data directory is writable.'),
          path: z.string().describe('$DROIDWRIGHT_HOME.'),
          hint: z.string().optional().describe('How to fix it.'),
        })
        .describe('Where the event log and build logs live.'),
      store: z
        .object({
          ok: z.boolean().describe('This process can use the event log.'),
          kind: z.enum(['sqlite', 'postgres']).describe('Where the log is kept (--store / DROIDWRIGHT_STORE).'),
          location: z.string().describe('The file, or user@host:port/database (never a password).'),
          reachable: z.boolean().describe('PostgreSQL: a connection was made.'),
          server_version: z.string().optional().describe("PostgreSQL's server_version."),
          schema_version: z.number().int().optional().describe("The log's schema version."),
          head: z
            .object({ seq: z.number().int(), hash: z.string() })
            .optional()
            .describe('The newest event (seq 0: empty).'),
          error: z.string().optional().describe('What failed.'),
          hint: z.string().optional().describe('What to do about it.'),
        })
        .describe('The event log store and, for PostgreSQL, its connection.'),
      event_log: z
        .object({
          ok: z.boolean().describe('The hash chain verifies.'),
          path: z.string().describe('The log file.'),
          checked: z.number().int().describe('Events walked.'),
          anchors: z.number().int().describe('Witness heads it was checked against.'),
          hint: z.string().optional().describe('What to do when it does not verify.'),
        })
        .optional()
        .describe('Present with verify_event_log.'),
      all_ok: z
        .boolean()
        .describe(
          'Node, Java, SDK, adb, the data directory, the store, the event log (when checked) and (with a project) the Gradle wrapper are ok.',
        ),
    }),
    async handler(args, ctx) {
      const report = await deps.checker.run(ctx.signal, { verifyEventLog: args.verify_event_log });
      const problems = healthFindings(report).filter((f) => f.status === 'error');
      const devices = report.devices.devices.slice(0, 64);
      return {
        data: omitNulls({ ...report, devices: { ...report.devices, devices } }),
        summary: report.all_ok ? 'all checks ok' : `not ok: ${problems.map((f) => f.check).join(', ')}`,
      };
    },
  });
}
