import { z } from 'zod';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';
import type { Settings } from '../../../kernel/settings.js';
import { validateSerial } from '../../../kernel/validation.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import {
  BuildViewSchema,
  buildSummaryLine,
  describeFailedTests,
  failedTestsDetails,
  toBuildView,
} from '../build-views.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';
import { awaitBuild, failureError } from '../services/build-waiter.js';
import { checkArgs, checkTasks } from '../services/gradle-task-policy.js';
import {
  defaultApplicationModule,
  deriveModuleAndVariant,
  requireModule,
  requireVariant,
} from '../services/task-resolution.js';
import { describeTopErrors } from './run-gradle-task.tool.js';

function capitalize(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

export function createRunTestsTool(deps: { service: BuildService; history: BuildHistory; settings: Settings }) {
  return defineTool({
    name: 'run_tests',
    toolset: 'build',
    kind: 'O',
    title: 'Run tests',
    description:
      'Run unit tests (testXUnitTest) or instrumented tests on a connected device (connectedXAndroidTest) for a variant, or a custom test task through the same policy as run_gradle_task (trust, blocked tasks, one build per project). Returns pass/fail/skip counts from the JUnit reports. Failing tests make the result an error (TESTS_FAILED) that names each failed test with its assertion message, file:line in your sources and the first stack frames; get_build_errors has them all as diagnostics (source test). Progress and request cancellation work as for run_gradle_task.',
    input: z.object({
      kind: z
        .enum(['unit', 'connected'])
        .default('unit')
        .describe('unit: JVM unit tests; connected: instrumented tests on the connected device.'),
      task: z
        .string()
        .optional()
        .describe('A custom test task instead of the one kind and variant choose, e.g. ":lib:test".'),
      module: z.string().optional().describe('Module path such as ":app"; defaults to the only application module.'),
      variant: z
        .string()
        .optional()
        .describe('Variant to test; defaults to the active variant (set_active_variant), else debug.'),
      device_serial: deviceSerialField.describe(
        'adb serial (from list_devices) of the device connected tests run on (ANDROID_SERIAL for Gradle); connected tests only. Without it they run on every online device.',
      ),
      test_filter: z
        .string()
        .max(256)
        .optional()
        .describe('Only tests matching this filter (Gradle --tests, unit tests only), e.g. "com.example.*ParserTest".'),
      wait: z
        .boolean()
        .default(true)
        .describe('Wait for the run to finish (default); false returns the build_id at once.'),
      timeout_sec: z
        .number()
        .int()
        .min(1)
        .max(3600)
        .optional()
        .describe('Stop after this many seconds; capped by buildTimeoutSec in settings.'),
    }),
    output: BuildViewSchema.extend({
      top_errors: z.array(z.string()).describe('The first error diagnostics, one line each.'),
    }),
    async handler(args, ctx) {
      const root = deps.service.requireRoot();
      const project = deps.service.loadProject();
      const unrestricted = deps.settings.get().allowUnrestrictedGradle;
      let tasks: string[];
      let module: string | null;
      let variant: string | null;
      if (args.task !== undefined) {
        tasks = checkTasks([args.task], unrestricted);
        ({ module, variant } = deriveModuleAndVariant(project, args.task));
      } else {
        const target =
          args.module !== undefined ? requireModule(project, args.module) : defaultApplicationModule(project);
        if (!target)
          throw new InvalidArgumentsError(
            'Pass module: the project does not have exactly one application module.',
            'INVALID_ARGUMENT',
            'module',
          );
        const chosen =
          args.variant ??
          deps.history.activeVariant(root, target.path) ??
          (target.variants.some((v) => v.name === 'debug') ? 'debug' : target.variants[0]?.name);
        if (!chosen)
          throw new InvalidArgumentsError(
            `Module ${target.path} has no variants in its build file; pass task instead.`,
            'INVALID_ARGUMENT',
            'variant',
          );
        variant = requireVariant(target, chosen);
        module = target.path;
        const name =
          args.kind === 'unit' ? `test${capitalize(variant)}UnitTest` : `connected${capitalize(variant)}AndroidTest`;
        tasks = checkTasks([target.path === ':' ? name : `${target.path}:${name}`], unrestricted);
      }
      if (args.test_filter !== undefined && args.kind === 'connected' && args.task === undefined) {
        throw new InvalidArgumentsError(
          'test_filter applies to unit tests; connected tests run the whole instrumentation suite.',
          'INVALID_ARGUMENT',
          'test_filter',
        );
      }
      if (args.device_serial !== undefined && args.kind !== 'connected' && args.task === undefined)
        throw new InvalidArgumentsError(
          'device_serial chooses the device of connected tests; unit tests run on the JVM. Pass kind: "connected" (or a connected task) or leave device_serial out.',
          'INVALID_ARGUMENT',
          'device_serial',
        );
      const androidSerial = args.device_serial !== undefined ? validateSerial(args.device_serial) : undefined;
      const extra = checkArgs(args.test_filter !== undefined ? ['--tests', args.test_filter] : [], 'test_filter');
      const handle = await deps.service.start(
        { kind: 'test', tasks, args: extra, module, variant, timeoutSec: args.timeout_sec, androidSerial },
        ctx.actor,
      );
      if (!args.wait)
        return {
          data: { ...toBuildView(deps.history.get(handle.buildId)!), top_errors: [] },
          summary: `Test run ${handle.buildId} started (${tasks.join(' ')}).`,
        };
      const outcome = await awaitBuild(deps.service, handle, ctx);
      const record = outcome === 'detached' ? deps.history.get(handle.buildId)! : outcome;
      const counts = record.tests
        ? ` Tests: ${record.tests.passed} passed, ${record.tests.failed} failed, ${record.tests.skipped} skipped of ${record.tests.total}.`
        : '';
      const summary = `${buildSummaryLine(record)}${counts}`;
      const topErrors = describeTopErrors(deps.history, record.id);
      const ended = record.status === 'failed' || record.status === 'success';
      const failedTests = ended ? deps.history.failedTests(record.id) : [];
      // Failed tests are an error to fix, like a failed compile, even when the build ignores them.
      if (ended && (failedTests.length > 0 || (record.tests?.failed ?? 0) > 0)) {
        const secs = ((record.durationMs ?? 0) / 1000).toFixed(1);
        const failed = record.tests?.failed ?? failedTests.length;
        // Without reports the console's test failures are the errors to show.
        const otherErrors = describeTopErrors(deps.history, record.id, 5, failedTests.length > 0);
        const lines = [
          `Test run ${record.id} (${record.tasks.join(' ')}) ${record.status === 'success' ? 'ended' : 'failed'} after ${secs} s: ${failed} of ${record.tests?.total ?? failed} test(s) failed.`,
          ...(failedTests.length ? [`Failed tests (the first ${Math.min(failedTests.length, 8)} of ${failed}):`] : []),
          ...describeFailedTests(failedTests),
          ...(otherErrors.length ? [failedTests.length ? 'Other errors:' : 'Errors:', ...otherErrors] : []),
          `Call get_build_errors (build_id "${record.id}") for every failed test and diagnostic, or get_build_log for the output.`,
        ];
        throw new ToolError('TESTS_FAILED', lines.join('\n'), {
          build_id: record.id,
          status: record.status,
          ...(record.tests ? { tests: record.tests } : {}),
          failed_tests: failedTestsDetails(failedTests),
        });
      }
      if (record.status !== 'success' && record.status !== 'running')
        throw failureError(
          record,
          `${buildSummaryLine(record, { withReason: topErrors.length === 0 })}${counts}`,
          topErrors,
        );
      return { data: { ...toBuildView(record), top_errors: topErrors }, summary };
    },
  });
}
