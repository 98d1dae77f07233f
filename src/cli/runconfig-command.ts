import type { Container } from 'inversify';
import { cliActor } from '../shared/actor.js';
import {
  describeLaunch,
  describeTarget,
  type RunConfiguration,
} from '../android/run-configurations/run-configuration.js';
import { RunConfigurationApprovals } from '../android/run-configurations/run-configuration-approvals.js';
import { RunConfigurationCatalog } from '../android/run-configurations/run-configuration-catalog.js';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import { selectProject } from '../kernel/project-selection.js';
import { UsageError } from '../kernel/usage-error.js';
import { parseCommandLine, runtimeOptions, withContainer, writeOut } from './cli-support.js';
import { agentEnvironmentMarkers, confirmOnTerminal } from './trust-evidence.js';

const USAGE = 'Usage: droidwright runconfig list [--project P] [--json] | runconfig approve [--project P] [--yes]';

function projectRoot(projectPath: string | undefined): string {
  const selected = selectProject({ projectPath, cwd: process.cwd() });
  if (!selected.root)
    throw new UsageError(
      `No Gradle project here (no settings.gradle[.kts] in ${process.cwd()} or above). Pass --project <path>.`,
    );
  return selected.root;
}

function line(c: RunConfiguration): string {
  return `  ${c.name}  ${c.module} ${c.variant}  launch: ${describeLaunch(c.launch)}  target: ${describeTarget(c.target)}  logcat: ${c.logcatFilter}${c.shared ? '  [shared]' : ''}`;
}

/** `droidwright runconfig list|approve`: the project's run configurations, and the user's approval of the shared file. */
export async function runRunconfigCommand(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb !== 'list' && verb !== 'approve')
    throw new UsageError(verb ? `Unknown runconfig command "${verb}". ${USAGE}` : USAGE);
  const { values, positionals } = parseCommandLine(rest, {
    project: { type: 'string' },
    json: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
  });
  if (positionals.length > 0) throw new UsageError(`runconfig ${verb} takes no positional arguments. ${USAGE}`);
  const root = projectRoot(values.project);
  return withContainer(runtimeOptions({ projectPath: root }), async (container) =>
    verb === 'list'
      ? list(container.get(RunConfigurationCatalog), root, values.json === true)
      : approve(container, root, values.yes === true),
  );
}

async function list(catalog: RunConfigurationCatalog, root: string, json: boolean): Promise<number> {
  const set = catalog.load(root);
  const shared = set.shared;
  if (json) {
    await writeOut(
      `${JSON.stringify({
        project_root: set.project.root,
        shared_file: {
          path: shared.path,
          status: shared.status,
          sha256: shared.file?.sha256 ?? null,
          approved_by: shared.approval?.by ?? null,
          approved_at: shared.approval ? new Date(shared.approval.at).toISOString() : null,
          error: shared.error?.message ?? null,
        },
        configurations: set.configurations.map((c) => ({
          name: c.name,
          module: c.module,
          variant: c.variant,
          launch: describeLaunch(c.launch),
          target: describeTarget(c.target),
          logcat_filter: c.logcatFilter,
          shared: c.shared,
        })),
        derived_capped: set.derivedCapped,
      })}\n`,
    );
    return 0;
  }
  const status: Record<typeof shared.status, string> = {
    none: 'none (only derived configurations)',
    approved: `approved by ${shared.approval?.by} at ${shared.approval ? new Date(shared.approval.at).toISOString() : ''}`,
    not_approved: 'not approved: its configurations do not run until you run `droidwright runconfig approve`',
    stale: 'changed since it was approved: run `droidwright runconfig approve` after reviewing it',
    invalid: `invalid: ${shared.error?.message ?? ''}`,
  };
  const out = [
    `Run configurations of ${set.project.root}:`,
    ...(set.configurations.length > 0
      ? set.configurations.map(line)
      : ['  (none: the project has no application module)']),
    ...(set.derivedCapped ? ['  … (derived list cut: the project has thousands of variants)'] : []),
    `Shared file ${shared.path}: ${status[shared.status]}`,
  ];
  await writeOut(`${out.join('\n')}\n`);
  return 0;
}

async function approve(container: Container, root: string, yes: boolean): Promise<number> {
  // The file comes from the repository; approving it is the user's review, never an agent's step.
  const markers = agentEnvironmentMarkers(process.env);
  if (markers.length > 0)
    throw new UsageError(
      `droidwright runconfig approve is running inside an AI coding tool's shell (${markers.join(', ')} set). Approving the shared run configurations is the user's decision: review the file and run \`droidwright runconfig approve --project ${root}\` yourself in a terminal of your own.`,
    );
  // An unreadable log fails here, before anyone is asked to confirm an approval that could not be recorded.
  container.get<EventStoreProvider>(EventStoreProvider)();
  const approvals = container.get<RunConfigurationApprovals>(RunConfigurationApprovals);
  const state = approvals.state(root);
  if (state.error) throw state.error;
  if (!state.file) {
    process.stderr.write(
      `droidwright: ${state.path} does not exist, so there is nothing to approve. Derived configurations need no approval.\n`,
    );
    return 1;
  }
  if (state.status === 'approved') {
    await writeOut(`${state.path} is already approved as it is (SHA-256 ${state.file.sha256}).\n`);
    return 0;
  }
  const summary = [
    `${state.path} (SHA-256 ${state.file.sha256})${state.status === 'stale' ? ` changed since ${state.approval?.by} approved it` : ''} defines:`,
    ...state.file.configurations.map(line),
  ].join('\n');
  if (!yes) {
    if (!process.stdin.isTTY || !process.stderr.isTTY)
      throw new UsageError(
        `droidwright runconfig approve asks for confirmation on a terminal, and none is attached. Run it yourself in a terminal, or add --yes in a script you wrote. (An AI agent must not approve on the user's behalf.)`,
      );
    process.stderr.write(`${summary}\n`);
    const ok = await confirmOnTerminal(
      'Agents may build, install and launch these configurations on your devices. Type "yes" to approve this content: ',
    );
    if (!ok) {
      process.stderr.write('Not approved.\n');
      return 1;
    }
  }
  const { file, recorded } = approvals.approve(root, cliActor(), state.file.sha256);
  await writeOut(
    recorded
      ? `${summary}\nApproved. These configurations may run until the file changes; an edit needs approval again.\n`
      : `${file.path} is already approved as it is (SHA-256 ${file.sha256}).\n`,
  );
  return 0;
}
