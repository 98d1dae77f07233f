import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import { BuildViewSchema, toBuildView } from '../build-views.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';

export function createListBuildHistoryTool(deps: { service: BuildService; history: BuildHistory }) {
  return defineTool({
    name: 'list_build_history',
    toolset: 'build',
    kind: 'R',
    title: 'List build history',
    description:
      'Recent builds and test runs of this project, newest first, by every agent and process: outcome, duration, who started (and cancelled) them, APKs.',
    input: z.object({
      limit: z.number().int().min(1).max(100).default(20).describe('How many builds (default 20, max 100).'),
    }),
    output: z.object({ builds: z.array(BuildViewSchema).describe('Builds, newest first.') }),
    async handler(args) {
      const root = deps.service.requireRoot();
      const builds = deps.history
        .list(root, args.limit)
        .map((r) => deps.service.reapIfOrphaned(r))
        .map(toBuildView);
      return {
        data: { builds },
        summary: `${builds.length} build(s)${builds[0] ? `; latest ${builds[0].build_id} ${builds[0].status}` : ''}.`,
      };
    },
  });
}
