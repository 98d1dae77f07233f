import { z } from 'zod';
import { EventQueryError } from '../../../events/event-query-error.js';
import type { EventFilter } from '../../../events/event-store.js';
import type { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { decodeOffsetCursor, takeWithinBudget } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { thisHost } from '../../../shared/actor.js';
import { compactEvent, parseTimeBound, presentEvent } from '../services/event-query.js';

const TimeBound = z.union([z.string().max(40), z.number().int().nonnegative()]);
const Subject = z.string().min(1).max(200);
const TypeGlobs = z.array(z.string().min(1).max(100)).max(20);

/** The tool argument each store filter comes from, so a refusal names what the agent passed. */
const ARGUMENT_OF: Partial<Record<keyof EventFilter, string>> = {
  actorSession: 'session',
  beforeSeq: 'before_seq',
};

function queryStore(store: ReturnType<EventStoreProvider>, filter: EventFilter) {
  try {
    return store.query(filter);
  } catch (error) {
    if (!(error instanceof EventQueryError)) throw error;
    const field = ARGUMENT_OF[error.field as keyof EventFilter] ?? error.field;
    throw new InvalidArgumentsError(error.message, 'INVALID_ARGUMENT', field);
  }
}

export function createQueryEventsTool(deps: { store: EventStoreProvider }) {
  return defineTool({
    name: 'query_events',
    toolset: 'core',
    kind: 'R',
    title: 'Query events',
    description:
      'Search the event log (builds, installs, crashes, device actions, tool calls, trust changes), newest first, one line per event. Filters are ANDed.',
    input: z.object({
      types: TypeGlobs.optional().describe('Type globs (build.*, app.installed; see list_event_types); default all.'),
      exclude_types: TypeGlobs.optional().describe('Types or globs to leave out (mcp.*).'),
      since: TimeBound.optional().describe('From this time: ISO 8601, epoch ms, or an age (15m, 2h, 1d).'),
      until: TimeBound.optional().describe('Up to this time (forms as since).'),
      device: Subject.optional().describe('Device serial.'),
      package: Subject.optional().describe('Application id.'),
      session: Subject.optional().describe('Caused by this MCP session id (list_mcp_sessions).'),
      correlation: Subject.optional().describe('Correlation id (build:<id>).'),
      verbose: z.boolean().default(false).describe('Add stream, correlation and data (large data cut).'),
      before_seq: z.number().int().positive().optional().describe('Only events older than this seq.'),
      cursor: z.string().max(20).optional().describe('The next_cursor you got.'),
      limit: z.number().int().min(1).max(500).default(50).describe('Most events per page.'),
    }),
    output: z.object({
      events: z
        .array(
          z.object({
            seq: z.number().int().describe('Position in the log.'),
            at: z.string().describe('Time (ISO 8601, UTC).'),
            type: z.string().describe('Event type.'),
            actor: z
              .string()
              .describe('Who caused it: kind, client, short session id, pid, and "on <host>" when another machine.'),
            device: z.string().optional().describe('Device serial it is about.'),
            package: z.string().optional().describe('Application id it is about.'),
            summary: z.string().describe('Its main data fields, one line.'),
            stream: z.string().optional().describe('Stream (verbose).'),
            correlation: z.string().optional().describe('Correlation id (verbose).'),
            session: z.string().optional().describe('Full MCP session id of the actor (verbose).'),
            host: z.string().optional().describe('Machine the actor ran on, as it claimed (verbose).'),
            data: z.unknown().optional().describe('Payload (verbose; a preview when data_truncated).'),
            data_truncated: z.boolean().optional().describe('True when data was cut (verbose).'),
          }),
        )
        .describe('Matching events, newest first.'),
      count: z.number().int().describe('Events returned.'),
      has_more: z.boolean().describe('Older matching events exist; pass next_cursor as cursor.'),
      next_cursor: z.string().optional().describe('Cursor of the next (older) page, when has_more.'),
      last_seq: z.number().int().describe('Newest sequence number in the whole log.'),
    }),
    async handler(args) {
      if (args.cursor !== undefined && args.before_seq !== undefined)
        throw new InvalidArgumentsError('Pass cursor or before_seq, not both.', 'INVALID_ARGUMENT', 'cursor');
      const beforeSeq = args.cursor !== undefined ? decodeOffsetCursor(args.cursor) : args.before_seq;
      const store = deps.store();
      const localHost = thisHost();
      const rows = queryStore(store, {
        types: args.types,
        excludeTypes: args.exclude_types,
        since: args.since !== undefined ? parseTimeBound(args.since, 'since') : undefined,
        until: args.until !== undefined ? parseTimeBound(args.until, 'until') : undefined,
        device: args.device,
        package: args.package,
        actorSession: args.session,
        correlation: args.correlation,
        beforeSeq,
        limit: args.limit + 1,
        order: 'desc',
      });
      const shown = rows.slice(0, args.limit).map((row) => {
        const line = compactEvent(row, localHost);
        if (!args.verbose) return line;
        const full = presentEvent(row);
        return {
          ...line,
          stream: full.stream,
          ...(full.correlation !== null ? { correlation: full.correlation } : {}),
          ...(full.actor.session !== null ? { session: full.actor.session } : {}),
          ...(full.actor.host !== null ? { host: full.actor.host } : {}),
          data: full.data,
          data_truncated: full.data_truncated,
        };
      });
      const { taken: events } = takeWithinBudget(shown);
      const hasMore = rows.length > events.length;
      const oldest = events.at(-1)?.seq;
      return {
        data: {
          events,
          count: events.length,
          has_more: hasMore,
          ...(hasMore && oldest !== undefined ? { next_cursor: String(oldest) } : {}),
          last_seq: store.lastSeq(),
        },
        summary: `${events.length} event${events.length === 1 ? '' : 's'}${hasMore ? ' (more with next_cursor)' : ''}`,
      };
    },
  });
}
