import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import { BuildWithSourcesSchema, buildSources, buildSummaryLine, toBuildView } from '../build-views.js';
import type { BuildService } from '../services/build-service.js';

export const MAX_WAIT_MS = 10_000;

export function createGetBuildStatusTool(deps: { service: BuildService }) {
  return defineTool({
    name: 'get_build_status',
    toolset: 'build',
    kind: 'R',
    title: 'Get build status',
    description:
      'Status of a build by any agent or process: outcome, who started or cancelled it, elapsed time, current task. wait_ms long-polls.',
    input: z.object({
      build_id: z.string().max(64).optional().describe("Build id; default: this project's latest."),
      wait_ms: z
        .number()
        .int()
        .min(0)
        .max(MAX_WAIT_MS)
        .default(0)
        .describe('Wait up to this many ms for a running build to end.'),
    }),
    output: BuildWithSourcesSchema.extend({
      summary: z.string().describe('One line describing the build.'),
      current_task: z.string().optional().describe('The `> Task` running now, while running.'),
    }),
    async handler(args, ctx) {
      let record = deps.service.resolveBuild(args.build_id);
      if (record.status === 'running' && args.wait_ms > 0)
        record = (await deps.service.waitForEnd(record.id, args.wait_ms, ctx.signal)) ?? record;
      const summary = buildSummaryLine(record);
      return {
        data: {
          ...toBuildView(record),
          sources: buildSources(record),
          summary,
          current_task: (record.status === 'running' ? deps.service.currentTask(record.id) : null) ?? undefined,
        },
        summary,
      };
    },
  });
}
