import { z } from 'zod';
import { thisHost } from '../../../shared/actor.js';
import type { DebugSessionSummary } from '../services/debug-session-reader.js';

/** Shared by the debug session tools: one id field, the compact row and its output schema. */
export const sessionIdField = z.string().min(1).max(40).describe('Debug session id (ds-N, from list_debug_sessions).');

export const compactSessionSchema = z.object({
  session_id: z.string().describe('Session id (ds-<seq of the app.installed event>).'),
  state: z.enum(['open', 'idle', 'superseded', 'ended']).describe('open, idle (open but quiet), superseded, ended.'),
  device_serial: z.string().describe('Device the APK was installed on.'),
  package: z.string().describe('Application id.'),
  installed_at: z.string().describe('Install time (ISO 8601).'),
  installed_by: z
    .string()
    .describe('Who installed it: agent client#session, cli, tui or system; "on <host>" when another machine.'),
  build: z.string().describe('Build id, variant and version, or "unknown build" for an APK no recorded build wrote.'),
  run_configuration: z.string().optional().describe('The run configuration whose run installed it.'),
  launches: z.number().int().describe('Launches and restarts.'),
  crashes: z.number().int().describe('Java and native crashes attributed to it.'),
  anrs: z.number().int().describe('ANRs attributed to it.'),
  first_launch_ms: z.number().int().optional().describe('Total time of its first launch, in ms.'),
  last_event_at: z.string().describe('Time of its latest event (ISO 8601).'),
});

/** `agent claude-code#1a2b3c4d`, with `on <host>` when the install was made from another machine sharing the log. */
export function describeInstaller(actor: DebugSessionSummary['installed_by'], here: string = thisHost()): string {
  const where = actor.host !== undefined && actor.host !== here ? ` on ${actor.host}` : '';
  if (actor.kind === 'agent')
    return `agent ${actor.client ?? 'unknown-client'}${actor.session ? `#${actor.session.slice(0, 8)}` : ''}${where}`;
  return `${actor.kind}${where}`;
}

export function buildLabel(s: DebugSessionSummary): string {
  const version = `v${s.version_code}${s.version_name ? ` (${s.version_name})` : ''}`;
  return s.build_id ? `${s.build_id} ${s.variant ?? '?'} ${version}` : `unknown build ${version}`;
}

export function compactSession(s: DebugSessionSummary) {
  return {
    session_id: s.session_id,
    state: s.state,
    device_serial: s.device_serial,
    package: s.package,
    installed_at: new Date(s.installed_at).toISOString(),
    installed_by: describeInstaller(s.installed_by).slice(0, 200),
    build: buildLabel(s).slice(0, 200),
    ...(s.run_configuration ? { run_configuration: s.run_configuration } : {}),
    launches: s.launches,
    crashes: s.crashes,
    anrs: s.anrs,
    ...(s.first_launch_ms !== null ? { first_launch_ms: s.first_launch_ms } : {}),
    last_event_at: new Date(s.last_event_at).toISOString(),
  };
}

/** One line: id, state, device, package, build, counts. */
export function sessionLine(s: DebugSessionSummary): string {
  const rc = s.run_configuration ? `, installed by run configuration ${s.run_configuration}` : '';
  return `${s.session_id} ${s.state} ${s.package} on ${s.device_serial}: ${buildLabel(s)}${rc}; ${s.launches} launch(es), ${s.crashes} crash(es), ${s.anrs} ANR(s)`;
}
