import type { ResourceTemplateContribution } from '../../kernel/resource-template-contribution.js';

/** `droidwright://sessions/{id}`: a debug session as get_debug_session answers it (build, crashes, newest events). */
export const debugSessionResourceTemplate: ResourceTemplateContribution = {
  uriTemplate: 'droidwright://sessions/{id}',
  name: 'debug-session',
  title: 'Debug session',
  description:
    'One debug session (an install and what happened to it): build and provenance, crashes with their log lines, the newest 100 timeline events (ids: list_debug_sessions).',
  mimeType: 'application/json',
  tool: 'get_debug_session',
  toolArguments: (v) => ({ session_id: v.id, max_events: 100 }),
};
