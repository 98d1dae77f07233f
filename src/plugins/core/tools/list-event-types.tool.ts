import { z } from 'zod';
import type { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { defineTool } from '../../../kernel/tool-definition.js';

export function createListEventTypesTool(deps: { store: EventStoreProvider }) {
  return defineTool({
    name: 'list_event_types',
    toolset: 'core',
    kind: 'R',
    title: 'List event types',
    description: 'Every event type the log records, with what it means: the names query_events filters by.',
    input: z.object({}),
    output: z.object({
      types: z
        .array(
          z.object({
            type: z.string().describe('Event type.'),
            description: z.string().describe('What happened when it is recorded.'),
          }),
        )
        .describe('Sorted by type.'),
    }),
    async handler() {
      const catalog = deps.store().catalog;
      const types = catalog.types().map((type) => ({ type, description: catalog.get(type)!.description }));
      return { data: { types }, summary: `${types.length} event types` };
    },
  });
}
