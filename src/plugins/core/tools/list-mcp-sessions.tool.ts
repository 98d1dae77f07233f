import { z } from 'zod';
import { clipStrings, omitNulls, pageFrom, pageInfo, pageInput, pageOutput } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { McpActivityReader } from '../services/mcp-activity-reader.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
/** Client names and roots are the client's own words: cut them for the list. */
const MAX_VALUE_CHARS = 300;

export function createListMcpSessionsTool(deps: { activity: McpActivityReader }) {
  return defineTool({
    name: 'list_mcp_sessions',
    toolset: 'core',
    kind: 'R',
    title: 'List MCP sessions',
    description:
      'droidwright MCP sessions, live and recent: client, process, toolsets, start, last call, failed and refused calls; what other agents here are doing.',
    input: z.object({
      include_ended: z.boolean().default(true).describe('Include ended sessions (false: live only).'),
      ...pageInput(20, 100, 'sessions'),
    }),
    output: z.object({
      sessions: z
        .array(
          z.object({
            session: z.string().describe('Session id (the actor session on its events).'),
            current: z.boolean().describe('True for the session making this call.'),
            client_name: z.string().optional().describe('Client name from initialize.'),
            client_version: z.string().optional().describe('Client version from initialize.'),
            pid: z.number().int().describe('Process id of the droidwright server.'),
            toolsets: z.array(z.string()).describe('Toolsets it serves.'),
            read_only: z.boolean().describe('Whether it serves only read-only tools.'),
            project_root: z.string().optional().describe('Project it works on.'),
            started_at: z.string().describe('Start time (ISO 8601).'),
            last_call_at: z.string().optional().describe('Time of its latest tool call.'),
            calls: z.number().int().describe('Tool calls made.'),
            errors: z.number().int().describe('Calls that ended in an error.'),
            refused: z
              .number()
              .int()
              .describe('Calls refused before running (hidden tool, invalid arguments, policy).'),
            ended_at: z.string().optional().describe('End time, if it ended cleanly.'),
            host: z.string().optional().describe('Machine the server runs on, when recorded.'),
            alive: z
              .boolean()
              .describe(
                'Not ended and its process is running; for a server on another machine sharing the log, not ended.',
              ),
          }),
        )
        .describe('Sessions, most recently active first.'),
      live: z.number().int().describe('How many of the listed sessions are alive.'),
      ...pageOutput,
    }),
    async handler(args, ctx) {
      const page = pageFrom(
        (offset, limit) =>
          deps.activity.sessions({ includeEnded: args.include_ended, limit, offset }).map((s) =>
            omitNulls(
              clipStrings(
                {
                  session: s.session,
                  current: s.session === ctx.actor.session,
                  client_name: s.client_name,
                  client_version: s.client_version,
                  pid: s.pid,
                  toolsets: s.toolsets.slice(0, 10),
                  read_only: s.read_only,
                  project_root: s.project_root,
                  started_at: new Date(s.started_at).toISOString(),
                  last_call_at: iso(s.last_call_at),
                  calls: s.calls,
                  errors: s.errors,
                  refused: s.refused,
                  ended_at: iso(s.ended_at),
                  host: s.host,
                  alive: s.alive,
                },
                MAX_VALUE_CHARS,
              ),
            ),
          ),
        deps.activity.count(args.include_ended),
        args,
      );
      const sessions = page.items;
      const live = sessions.filter((s) => s.alive).length;
      return {
        data: { sessions, live, ...pageInfo(page) },
        summary: `${sessions.length} of ${page.total} session${page.total === 1 ? '' : 's'}, ${live} live${page.has_more ? '; more with cursor' : ''}`,
      };
    },
  });
}
