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
      "Run a variant's unit or connected (instrumented) tests, or a custom test task, as run_gradle_task runs builds. Returns pass/fail/skip counts; failures are an error (TESTS_FAILED) naming each test with message, file:line and top frames.",
    input: z.object({
      kind: z
        .enum(['unit', 'connected'])
        .default('unit')
        .describe('unit: JVM tests; connected: instrumented tests on a device.'),
      task: z.string().optional().describe('Custom test task (:lib:test) instead of kind and variant.'),
      module: z.string().optional().describe('Module (:app); default: the only application module.'),
      variant: z.string().optional().describe('Variant; default: the active one, else debug.'),
      device_serial: deviceSerialField.describe(
        'adb serial for connected tests; without it they run on every online device.',
      ),
      test_filter: z
        .string()
        .max(256)
        .optional()
        .describe('Unit tests matching this Gradle --tests filter (com.example.*ParserTest).'),
      wait: z.boolean().default(true).describe('false: return the build_id at once.'),
      timeout_sec: z
        .number()
        .int()
        .min(1)
        .max(3600)
        .optional()
        .describe('Time limit in s (at most buildTimeoutSec in settings).'),
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
