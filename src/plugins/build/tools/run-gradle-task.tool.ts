import { z } from 'zod';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import type { Settings } from '../../../kernel/settings.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { BuildViewSchema, buildSummaryLine, toBuildView } from '../build-views.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';
import { awaitBuild, failureError } from '../services/build-waiter.js';
import { checkArgs, checkTasks, MAX_ARGS, MAX_TASKS } from '../services/gradle-task-policy.js';
import { resolveTasks } from '../services/task-resolution.js';

/** The first error diagnostics as `- file:line:col: message [source]` lines (test failures left out with `exceptTests`). */
export function describeTopErrors(history: BuildHistory, buildId: string, limit = 5, exceptTests = false): string[] {
  return history
    .diagnostics(buildId, 'error', exceptTests ? limit + 200 : limit)
    .filter((d) => !exceptTests || d.source !== 'test')
    .slice(0, limit)
    .map(
      (d) =>
        `- ${d.file ? `${d.file}${d.line !== null ? `:${d.line}${d.column !== null ? `:${d.column}` : ''}` : ''}: ` : ''}${d.message.slice(0, 300)} [${d.source}]`,
    );
}

export function createRunGradleTaskTool(deps: { service: BuildService; history: BuildHistory; settings: Settings }) {
  return defineTool({
    name: 'run_gradle_task',
    toolset: 'build',
    kind: 'O',
    title: 'Run Gradle task',
    description:
      "Run Gradle tasks with the project's wrapper and record the build; the result lists the APKs written. A failure is an error with the first diagnostics. Needs a project the user trusted (droidwright trust); publish, upload, deploy, release and uninstall tasks are refused; one build per project at a time. Cancelling the request cancels the build: if your client times requests out, use wait=false and poll get_build_status.",
    input: z.object({
      task: z
        .string()
        .optional()
        .describe(
          'One task (assembleDebug, :app:assembleDemoDebug), or a verb (assemble, install, bundle, lint, test) with variant.',
        ),
      tasks: z.array(z.string()).max(MAX_TASKS).optional().describe('Several tasks in one build (instead of task).'),
      module: z.string().optional().describe('Module (:app), prefixed to tasks without one.'),
      variant: z.string().optional().describe('Variant (demoDebug) appended to a verb task.'),
      args: z
        .array(z.string())
        .max(MAX_ARGS)
        .optional()
        .describe(
          'Allowed: --stacktrace, --info, --offline, --rerun-tasks, --continue, --dry-run, (--no-)build-cache, (--no-)configuration-cache, (--no-)parallel, --refresh-dependencies, --no-daemon, -x <task>, --tests <filter>, -P<key>=<value>.',
        ),
      wait: z.boolean().default(true).describe('false: return the build_id at once.'),
      timeout_sec: z
        .number()
        .int()
        .min(1)
        .max(3600)
        .optional()
        .describe('Build time limit in s; buildTimeoutSec (default 600) caps it.'),
    }),
    output: BuildViewSchema.extend({
      current_task: z.string().optional().describe('The `> Task` Gradle is running now, while running.'),
      top_errors: z
        .array(z.string())
        .describe('The first error diagnostics, one line each; get_build_errors has them all.'),
    }),
    async handler(args, ctx) {
      if (args.task !== undefined && args.tasks !== undefined)
        throw new InvalidArgumentsError('Pass task or tasks, not both.', 'INVALID_ARGUMENT', 'tasks');
      const requested = args.tasks ?? (args.task !== undefined ? [args.task] : []);
      const unrestricted = deps.settings.get().allowUnrestrictedGradle;
      checkTasks(requested, unrestricted, args.tasks ? 'tasks' : 'task');
      const extra = checkArgs(args.args ?? []);
      deps.service.requireRoot();
      const resolved = resolveTasks(deps.service.loadProject(), {
        tasks: requested,
        module: args.module,
        variant: args.variant,
      });
      checkTasks(resolved.tasks, unrestricted, args.tasks ? 'tasks' : 'task');
      const handle = await deps.service.start(
        {
          kind: 'build',
          tasks: resolved.tasks,
          args: extra,
          module: resolved.module,
          variant: resolved.variant,
          timeoutSec: args.timeout_sec,
        },
        ctx.actor,
      );
      if (!args.wait) {
        const record = deps.history.get(handle.buildId)!;
        return {
          data: { ...toBuildView(record), top_errors: [] },
          summary: `Build ${handle.buildId} started (${resolved.tasks.join(' ')}); poll get_build_status.`,
        };
      }
      const outcome = await awaitBuild(deps.service, handle, ctx);
      const record = outcome === 'detached' ? deps.history.get(handle.buildId)! : outcome;
      const summary = buildSummaryLine(record);
      const topErrors = describeTopErrors(deps.history, record.id);
      if (record.status !== 'success' && record.status !== 'running')
        throw failureError(record, buildSummaryLine(record, { withReason: topErrors.length === 0 }), topErrors);
      return {
        data: {
          ...toBuildView(record),
          current_task: (record.status === 'running' ? deps.service.currentTask(record.id) : null) ?? undefined,
          top_errors: topErrors,
        },
        summary,
      };
    },
  });
}
