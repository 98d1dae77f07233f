import { z } from 'zod';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import type { Settings } from '../../../kernel/settings.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { BuildViewSchema, buildSummaryLine, toBuildView } from '../build-views.js';
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
      'Run unit tests (testXUnitTest) or instrumented tests on a connected device (connectedXAndroidTest) for a variant, or a custom test task through the same policy as run_gradle_task (trust, blocked tasks, one build per project). Returns pass/fail/skip counts from the JUnit reports. Progress and request cancellation work as for run_gradle_task.',
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
      const extra = checkArgs(args.test_filter !== undefined ? ['--tests', args.test_filter] : [], 'test_filter');
      const handle = await deps.service.start(
        { kind: 'test', tasks, args: extra, module, variant, timeoutSec: args.timeout_sec },
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
      // Failing tests are a result to read, not a tool failure; a run that could not test anything is.
      const testsRan = record.tests !== null && record.tests.total > 0;
      if (record.status !== 'success' && record.status !== 'running' && !(record.status === 'failed' && testsRan))
        throw failureError(record, summary, topErrors);
      return { data: { ...toBuildView(record), top_errors: topErrors }, summary };
    },
  });
}
