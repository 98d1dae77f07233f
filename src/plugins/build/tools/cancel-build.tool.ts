import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import { BuildViewSchema, buildSummaryLine, toBuildView } from '../build-views.js';
import type { BuildService } from '../services/build-service.js';

export function createCancelBuildTool(deps: { service: BuildService }) {
  return defineTool({
    name: 'cancel_build',
    toolset: 'build',
    kind: 'W',
    title: 'Cancel build',
    description:
      "Cancel the project's running build (or the one named), whoever started it. Waits up to ~10 s for it to stop; returns its final status.",
    input: z.object({
      build_id: z.string().max(64).optional().describe("Build id; default: this project's running build."),
    }),
    output: BuildViewSchema.extend({
      was_running: z.boolean().describe('False when the build had already ended (nothing was cancelled).'),
    }),
    async handler(args, ctx) {
      const { record, wasRunning } = await deps.service.cancel(args.build_id, ctx.actor);
      const summary = wasRunning
        ? record.status === 'running'
          ? `Cancellation of build ${record.id} requested; it has not stopped yet (its build worker checks twice a second). Check get_build_status.`
          : buildSummaryLine(record)
        : `Build ${record.id} had already ended (${record.status}); nothing to cancel.`;
      return { data: { ...toBuildView(record), was_running: wasRunning }, summary };
    },
  });
}
