import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { McpActivityReader } from '../services/mcp-activity-reader.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function createListMcpSessionsTool(deps: { activity: McpActivityReader }) {
  return defineTool({
    name: 'list_mcp_sessions',
    toolset: 'core',
    kind: 'R',
    title: 'List MCP sessions',
    description:
      'List droidwright MCP sessions, live and recent: which client, its process, served toolsets, when it started and last called a tool, and how many calls failed or were refused. Useful to see what other agents are doing on the same machine.',
    input: z.object({
      include_ended: z
        .boolean()
        .default(true)
        .describe('Include sessions that have ended (default true); false lists only live ones.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(20)
        .describe('Maximum sessions (1-100, default 20), most recently active first.'),
    }),
    output: z.object({
      sessions: z
        .array(
          z.object({
            session: z.string().describe('Session id (the actor session on its events).'),
            current: z.boolean().describe('True for the session making this call.'),
            client_name: z.string().nullable().describe('Client name from initialize.'),
            client_version: z.string().nullable().describe('Client version from initialize.'),
            pid: z.number().int().describe('Process id of the droidwright server.'),
            toolsets: z.array(z.string()).describe('Toolsets it serves.'),
            read_only: z.boolean().describe('Whether it serves only read-only tools.'),
            project_root: z.string().nullable().describe('Project it works on.'),
            started_at: z.string().describe('Start time (ISO 8601).'),
            last_call_at: z.string().nullable().describe('Time of its latest tool call.'),
            calls: z.number().int().describe('Tool calls made.'),
            errors: z.number().int().describe('Calls that ended in an error.'),
            refused: z
              .number()
              .int()
              .describe('Calls refused before running (hidden tool, invalid arguments, policy).'),
            ended_at: z.string().nullable().describe('End time, if it ended cleanly.'),
            alive: z.boolean().describe('Not ended and its process is running.'),
          }),
        )
        .describe('Sessions, most recently active first.'),
      live: z.number().int().describe('How many of the listed sessions are alive.'),
    }),
    async handler(args, ctx) {
      const sessions = deps.activity.sessions({ includeEnded: args.include_ended, limit: args.limit }).map((s) => ({
        session: s.session,
        current: s.session === ctx.actor.session,
        client_name: s.client_name,
        client_version: s.client_version,
        pid: s.pid,
        toolsets: s.toolsets,
        read_only: s.read_only,
        project_root: s.project_root,
        started_at: new Date(s.started_at).toISOString(),
        last_call_at: iso(s.last_call_at),
        calls: s.calls,
        errors: s.errors,
        refused: s.refused,
        ended_at: iso(s.ended_at),
        alive: s.alive,
      }));
      const live = sessions.filter((s) => s.alive).length;
      return {
        data: { sessions, live },
        summary: `${sessions.length} session${sessions.length === 1 ? '' : 's'}, ${live} live`,
      };
    },
  });
}
