import { z } from 'zod';
import { EventQueryError } from '../../../events/event-query-error.js';
import type { EventFilter } from '../../../events/event-store.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import type { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { parseTimeBound, presentEvent } from '../services/event-query.js';

/** A page of events stays under this many bytes of JSON; has_more then says to page back with before_seq. */
const MAX_PAGE_BYTES = 128 * 1024;

const TimeBound = z.union([z.string().max(40), z.number().int().nonnegative()]);
const Subject = z.string().min(1).max(200);

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
      'Search the droidwright event log (builds, installs, crashes, device actions, agent tool calls, trust changes), newest first. Filter by type glob, time, device, package, agent session or correlation id; page back with before_seq. Large event data is cut and marked data_truncated.',
    input: z.object({
      types: z
        .array(z.string().min(1).max(100))
        .max(20)
        .optional()
        .describe('Event type globs, e.g. ["build.*", "crash.detected"]. All types when omitted.'),
      since: TimeBound.optional().describe(
        'Only events at or after this time: ISO 8601, epoch milliseconds, or an age like "15m", "2h", "1d".',
      ),
      until: TimeBound.optional().describe('Only events at or before this time (same formats as since).'),
      device: Subject.optional().describe('Only events about this device serial.'),
      package: Subject.optional().describe('Only events about this application id.'),
      session: Subject.optional().describe('Only events caused by this MCP session id (see list_mcp_sessions).'),
      correlation: Subject.optional().describe(
        'Only events with this correlation id (e.g. one build or debug session).',
      ),
      before_seq: z
        .number()
        .int()
        .positive()
        .optional()
        .describe(
          'Only events older than this sequence number; pass the smallest seq of the previous page to page back.',
        ),
      limit: z.number().int().min(1).max(500).default(50).describe('Maximum events to return (1-500, default 50).'),
    }),
    output: z.object({
      events: z
        .array(
          z.object({
            seq: z.number().int().describe('Position in the log.'),
            at: z.string().describe('Time (ISO 8601, UTC).'),
            type: z.string().describe('Event type.'),
            stream: z.string().describe('Stream, e.g. "build:42" or "mcp:<session>".'),
            actor: z
              .object({
                kind: z.string().describe('agent, cli, tui or system.'),
                session: z.string().nullable().describe('MCP session id for agents.'),
                client: z.string().nullable().describe('MCP client name for agents.'),
                pid: z.number().int().describe('Process id that appended the event.'),
              })
              .describe('Who caused it.'),
            device: z.string().nullable().describe('Device serial the event is about.'),
            package: z.string().nullable().describe('Application id the event is about.'),
            correlation: z.string().nullable().describe('Correlation id.'),
            data: z.unknown().describe('Event payload (a preview when data_truncated).'),
            data_truncated: z.boolean().describe('True when data was too large and only a preview is returned.'),
          }),
        )
        .describe('Matching events, newest first.'),
      count: z.number().int().describe('Number of events returned.'),
      has_more: z.boolean().describe('More events match; page back with before_seq.'),
      last_seq: z.number().int().describe('Newest sequence number in the whole log.'),
    }),
    async handler(args) {
      const store = deps.store();
      const rows = queryStore(store, {
        types: args.types,
        since: args.since !== undefined ? parseTimeBound(args.since, 'since') : undefined,
        until: args.until !== undefined ? parseTimeBound(args.until, 'until') : undefined,
        device: args.device,
        package: args.package,
        actorSession: args.session,
        correlation: args.correlation,
        beforeSeq: args.before_seq,
        limit: args.limit + 1,
        order: 'desc',
      });
      // Each event's data is capped; the whole page is capped too, so 500 large events cannot flood a reply.
      const events: ReturnType<typeof presentEvent>[] = [];
      let bytes = 0;
      for (const row of rows.slice(0, args.limit)) {
        const presented = presentEvent(row);
        bytes += Buffer.byteLength(JSON.stringify(presented));
        if (events.length > 0 && bytes > MAX_PAGE_BYTES) break;
        events.push(presented);
      }
      const hasMore = rows.length > events.length;
      return {
        data: { events, count: events.length, has_more: hasMore, last_seq: store.lastSeq() },
        summary: `${events.length} event${events.length === 1 ? '' : 's'}${hasMore ? ' (more available)' : ''}`,
      };
    },
  });
}
