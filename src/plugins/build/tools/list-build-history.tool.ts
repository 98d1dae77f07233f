import { z } from 'zod';
import { pageFrom, pageInfo, pageInput, pageOutput } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { BuildWithSourcesSchema, buildSources, toBuildView } from '../build-views.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';

export function createListBuildHistoryTool(deps: { service: BuildService; history: BuildHistory }) {
  return defineTool({
    name: 'list_build_history',
    toolset: 'build',
    kind: 'R',
    title: 'List build history',
    description:
      'Builds and test runs of this project by every agent and process, newest first: outcome, duration, who started or cancelled them, APKs.',
    input: z.object(pageInput(20, 100, 'builds')),
    output: z.object({ builds: z.array(BuildWithSourcesSchema).describe('Builds, newest first.'), ...pageOutput }),
    async handler(args) {
      const root = deps.service.requireRoot();
      const page = pageFrom(
        (offset, limit) =>
          deps.history
            .list(root, limit, offset)
            .map((r) => deps.service.reapIfOrphaned(r))
            .map((r) => ({ ...toBuildView(r), sources: buildSources(r) })),
        deps.history.count(root),
        args,
      );
      const builds = page.items;
      return {
        data: { builds, ...pageInfo(page) },
        summary: `${builds.length} of ${page.total} build(s)${builds[0] ? `; latest ${builds[0].build_id} ${builds[0].status}` : ''}${page.has_more ? '; more with cursor' : ''}.`,
      };
    },
  });
}
