import { z } from 'zod';
import { pageFrom, pageInfo, pageInput, pageOutput } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { DEBUG_SESSION_STATES, type DebugSessionReader } from '../services/debug-session-reader.js';
import { compactSession, compactSessionSchema } from './debug-session-fields.js';

export function createListDebugSessionsTool(deps: { sessions: DebugSessionReader }) {
  return defineTool({
    name: 'list_debug_sessions',
    toolset: 'core',
    kind: 'R',
    title: 'List debug sessions',
    description:
      'Debug sessions, newest first: one per install of an app on a device, with build, installer, launches, crashes and state. get_debug_session shows one; compare_debug_sessions diffs two.',
    input: z.object({
      package: z.string().min(1).max(255).optional().describe('Only sessions of this application id.'),
      device_serial: z.string().min(1).max(128).optional().describe('Only sessions on this device.'),
      state: z.enum(DEBUG_SESSION_STATES).optional().describe('Only sessions in this state.'),
      only_crashing: z.boolean().optional().describe('Only sessions with at least one crash or ANR.'),
      ...pageInput(10, 50, 'sessions'),
    }),
    output: z.object({
      sessions: z.array(compactSessionSchema).describe('Sessions, newest install first.'),
      ...pageOutput,
    }),
    async handler(args) {
      const filter = {
        ...(args.package ? { package: args.package } : {}),
        ...(args.device_serial ? { device_serial: args.device_serial } : {}),
        ...(args.state ? { state: args.state } : {}),
        ...(args.only_crashing ? { only_crashing: true } : {}),
      };
      const now = Date.now();
      const total = deps.sessions.list({ ...filter, limit: 0 }, now).total;
      const page = pageFrom(
        (offset, limit) => deps.sessions.list({ ...filter, limit, offset }, now).sessions.map(compactSession),
        total,
        args,
      );
      return {
        data: { sessions: page.items, ...pageInfo(page) },
        summary: `${page.items.length} of ${page.total} debug session${page.total === 1 ? '' : 's'}${page.has_more ? '; more with cursor' : ''}`,
      };
    },
  });
}
