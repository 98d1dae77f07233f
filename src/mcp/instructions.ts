import type { ConfirmMode } from '../kernel/runtime-options.js';
import type { ToolRegistry } from '../kernel/tool-registry.js';
import type { ServedTools } from './toolset-selection.js';

/** What each toolset lets the model do, for the first line of the instructions. */
const TOOLSET_PURPOSES: Record<string, string> = {
  core: 'project and toolchain facts, devices, app state, crashes and exit reasons, and the event log',
  build: 'Gradle builds and tests with structured errors',
  'device-admin': 'installing, launching, stopping and configuring apps and devices',
};

/** The `instructions` an MCP client gives its model: generated from the registry so it never drifts. */
export function buildInstructions(
  registry: ToolRegistry,
  served: ServedTools,
  projectRoot: string | null,
  confirm?: ConfirmMode,
): string {
  const lines: string[] = [];
  const offered = served.toolsets.map((name) => TOOLSET_PURPOSES[name] ?? name);
  // Only the refusals of the toolsets this session serves.
  const refusals = [
    ...(served.toolsets.includes('build') ? ['PROJECT_NOT_TRUSTED', 'TASK_BLOCKED'] : []),
    ...(served.toolsets.includes('device-admin') ? ['PACKAGE_OUT_OF_SCOPE', 'a blocked link scheme'] : []),
  ];
  lines.push(
    `droidwright runs the Android development loop for you: ${offered.join('; ')}. ` +
      'Everything you do is recorded in a tamper-evident event log that the user and other agents can see.',
  );
  lines.push(
    projectRoot
      ? `Project: ${projectRoot}. Call get_project_info first.`
      : 'No Gradle project is selected (start droidwright in a project directory or pass --project). Call get_project_info.',
  );
  lines.push('');
  lines.push(`Toolsets served${served.readOnly ? ' (read-only: only tools that change nothing)' : ''}:`);
  for (const set of registry.toolsets().filter((t) => served.toolsets.includes(t.name))) {
    const count = set.tools.filter((t) => !served.readOnly || t.definition.kind === 'R').length;
    lines.push(`- ${set.name} (${count} tool${count === 1 ? '' : 's'}): ${set.description}`);
  }
  if (served.hidden.length > 0) {
    lines.push(
      `Hidden toolsets: ${served.hidden.join(', ')}. Their tools are not available in this session; the user can enable them by restarting the server with --toolsets ${[...served.toolsets, ...served.hidden].join(',')}.`,
    );
  }
  if (served.readOnly)
    lines.push(
      'Tools that change state are hidden because the server runs with --read-only; the user can drop that flag to enable them.',
    );
  lines.push('');
  lines.push(
    'Errors: a call that is refused or fails returns isError: true with a message saying what to do next, ending "(error_code: CODE)"; the code is also in _meta.error_code. ' +
      `Invalid arguments (wrong type, out of range, an unknown argument name)${refusals.length > 0 ? ` and policy refusals (${refusals.join(', ')})` : ''} are refused before anything runs and name the field and the rule; ` +
      'other failures carry codes such as NO_DEVICE, MULTIPLE_DEVICES, DEVICE_OFFLINE, BUILD_IN_PROGRESS, TIMEOUT, NOT_FOUND. Fix the call or follow the message rather than retrying blindly. ' +
      'A call that changes something runs only once it is recorded: STORE_UNAVAILABLE means the event log could not take the record and nothing ran.',
  );
  lines.push(
    "Project trust: building or testing runs the project's own code, so it needs the user's trust. Only a person can grant it, by running `droidwright trust <project>` in their terminal. " +
      'When a tool reports PROJECT_NOT_TRUSTED, show the user the trust_hint from get_project_info and wait; never try to work around it.',
  );
  if (confirm)
    lines.push(
      `Confirmation: the user asked to confirm every ${confirm === 'destructive' ? 'destructive call (kind D or O)' : 'call that changes something (kind W, D or O)'} before it runs; your client shows them the question. CONFIRMATION_DECLINED means they said no: do not retry, ask them. CONFIRMATION_UNAVAILABLE means your client cannot ask them: tell the user.`,
    );
  return lines.join('\n');
}
