import { z } from 'zod';
import {
  describeLaunch,
  describeTarget,
  type RunConfiguration,
} from '../../../android/run-configurations/run-configuration.js';
import {
  configurationProblem,
  type RunConfigurationCatalog,
  type RunConfigurationSet,
} from '../../../android/run-configurations/run-configuration-catalog.js';
import type { DeviceSnapshot, RunPlanner } from '../../../android/run-configurations/run-planner.js';
import { clip, omitNulls, pageInfo, pageInput, pageOf, pageOutput } from '../../../kernel/bounded-output.js';
import { ToolError } from '../../../kernel/errors.js';
import type { ProjectSelection } from '../../../kernel/project-selection.js';
import type { ProjectTrust } from '../../../kernel/project-trust.js';
import { defineTool } from '../../../kernel/tool-definition.js';

const MAX_LISTED_DEVICES = 20;

const ItemSchema = z.object({
  name: z.string().describe('Pass it to build_run_configuration or run_run_configuration.'),
  module: z.string().describe('Gradle module.'),
  variant: z.string().describe('Variant.'),
  task: z.string().describe('The Gradle task it builds.'),
  package: z.string().optional().describe('Application id of the variant, when the build scripts state it.'),
  launch: z.string().describe('How the app starts after the install: default, activity X, deep link URI, or none.'),
  target: z.string().describe('Where it runs: ask, last used, serial S, or avd NAME.'),
  last_device: z.string().optional().describe('The device it last ran on.'),
  logcat_filter: z.string().describe('Log query to read after a launch (Android Studio syntax).'),
  shared: z.boolean().describe("True when it comes from the project's shared file rather than the Gradle model."),
  approval: z
    .enum(['approved', 'not_approved', 'stale'])
    .optional()
    .describe('For a shared one: whether the user approved the file as it is now (stale: edited since).'),
  plan: z
    .string()
    .optional()
    .describe('What running it now would do: build, install on which device (and why that one), launch.'),
  device_serial: z.string().optional().describe('The device it would run on now.'),
  cannot_run: z.string().optional().describe('Why it cannot run now, and what to do.'),
  error_code: z.string().optional().describe('The error code run_run_configuration would answer with.'),
  hint: z.string().optional().describe('The call that would make it runnable (e.g. launch_avd).'),
});

function planLine(
  configuration: RunConfiguration,
  task: string,
  pkg: string | null,
  serial: string,
  why: string,
): string {
  const launch = configuration.launch.kind === 'none' ? 'no launch' : `launch ${describeLaunch(configuration.launch)}`;
  return `build ${task} → install ${pkg ?? 'the APK'} on ${serial} (${why}) → ${launch}`;
}

const RESOLVED_BY: Record<string, string> = {
  serial: 'its serial',
  avd: 'its AVD',
  last_used: 'last used',
  only_device: 'the only online device',
  argument: 'device_serial',
};

export function createListRunConfigurationsTool(deps: {
  project: ProjectSelection;
  catalog: RunConfigurationCatalog;
  planner: RunPlanner;
  trust: ProjectTrust;
}) {
  return defineTool({
    name: 'list_run_configurations',
    toolset: 'core',
    kind: 'R',
    title: 'List run configurations',
    description:
      "The project's run configurations (one per application module and variant, plus shared ones in .droidwright/run-configurations.json, runnable once the user approved that file as it is now), each with its plan on the devices online now or why it cannot run.",
    input: z.object({
      name: z.string().min(1).max(128).optional().describe('Only this configuration.'),
      ...pageInput(20, 100, 'configurations'),
    }),
    output: z.object({
      project_root: z.string().describe('The project.'),
      configurations: z.array(ItemSchema).describe('Configurations, shared ones first.'),
      ...pageOutput,
      shared_file: z
        .object({
          path: z.string().describe('Where shared configurations live.'),
          status: z
            .enum(['none', 'approved', 'not_approved', 'stale', 'invalid'])
            .describe('none: no file; invalid: it breaks the format (error says where).'),
          sha256: z.string().optional().describe('SHA-256 of its current content.'),
          approved_by: z.string().optional().describe('Who approved it last.'),
          approved_at: z.string().optional().describe('When (ISO 8601).'),
          error: z.string().optional().describe('Why the file is not read.'),
          approve_command: z.string().optional().describe('What the user runs to approve it (never the agent).'),
        })
        .describe("The project's shared file."),
      devices: z.array(z.string()).describe(`What adb lists now: "serial (state)", the first ${MAX_LISTED_DEVICES}.`),
      derived_capped: z.boolean().optional().describe('True when the derived list was cut (thousands of variants).'),
    }),
    async handler(args) {
      const root = deps.project.root;
      if (!root)
        throw new ToolError(
          'PROJECT_NOT_FOUND',
          'No Gradle project is selected. Start droidwright mcp inside the project or pass --project <path>.',
        );
      const set = deps.catalog.load(root);
      const chosen = args.name ? [deps.catalog.find(set, args.name)] : set.configurations;
      const page = pageOf(chosen, { limit: args.limit, cursor: args.cursor }, 40 * 1024);
      const snapshot = await deps.planner.devicesNow(page.items);
      const lastUsed = deps.catalog.lastUsedDevices(set.project.root);
      const trusted = deps.trust.isTrusted(set.project.root);
      const items = page.items.map((c) => describe(set, c, snapshot, lastUsed, trusted, deps));
      const shared = set.shared;
      const runnable = items.filter((i) => i.plan !== undefined).length;
      return {
        data: omitNulls({
          project_root: set.project.root,
          configurations: items,
          ...pageInfo(page),
          shared_file: omitNulls({
            path: shared.path,
            status: shared.status,
            sha256: shared.file?.sha256 ?? null,
            approved_by: shared.approval?.by ?? null,
            approved_at: shared.approval ? new Date(shared.approval.at).toISOString() : null,
            error: shared.error ? clip(shared.error.message, 1500) : null,
            approve_command:
              shared.status === 'not_approved' || shared.status === 'stale'
                ? `droidwright runconfig approve --project ${set.project.root}`
                : null,
          }),
          devices: snapshot.devices.slice(0, MAX_LISTED_DEVICES).map((d) => `${d.serial} (${d.state})`),
          derived_capped: set.derivedCapped ? true : null,
        }),
        summary: `${page.total} run configuration(s), ${runnable} of ${items.length} listed runnable now${shared.status === 'stale' || shared.status === 'not_approved' ? `; shared file ${shared.status.replace('_', ' ')}` : ''}${shared.status === 'invalid' ? '; shared file invalid' : ''}`,
      };
    },
  });
}

function describe(
  set: RunConfigurationSet,
  c: RunConfiguration,
  snapshot: DeviceSnapshot,
  lastUsed: ReadonlyMap<string, string>,
  trusted: boolean,
  deps: { catalog: RunConfigurationCatalog; planner: RunPlanner },
): z.infer<typeof ItemSchema> {
  const { task, applicationId } = deps.catalog.describe(set, c);
  const base = {
    name: c.name,
    module: c.module,
    variant: c.variant,
    task,
    package: applicationId,
    launch: clip(describeLaunch(c.launch), 300),
    target: describeTarget(c.target),
    last_device: lastUsed.get(c.name) ?? null,
    logcat_filter: c.logcatFilter,
    shared: c.shared,
    approval: c.shared && set.shared.status !== 'none' && set.shared.status !== 'invalid' ? set.shared.status : null,
  };
  const problem = configurationProblem(set, c);
  // The approval's full story is said once, in shared_file, not again on every shared configuration.
  if (problem?.code === 'CONFIGURATION_NOT_APPROVED')
    return omitNulls({
      ...base,
      cannot_run: `${set.shared.status === 'stale' ? 'The shared file changed since the user approved it' : 'The user has not approved the shared file'}; only the user may approve it (shared_file.approve_command), never an agent.`,
      error_code: problem.code,
    });
  if (problem) return omitNulls({ ...base, cannot_run: clip(problem.message, 1000), error_code: problem.code });
  if (!trusted)
    return omitNulls({
      ...base,
      cannot_run: `The project is not trusted, so its build cannot run. Ask the user to run \`droidwright trust ${set.project.root}\` in their own terminal.`,
      error_code: 'PROJECT_NOT_TRUSTED',
    });
  const target = deps.planner.resolve(set.project.root, c, snapshot, { lastUsed });
  if (!target.ok)
    return omitNulls({
      ...base,
      cannot_run: clip(target.message, 1000),
      error_code: target.code,
      hint: target.hint ?? null,
    });
  return omitNulls({
    ...base,
    device_serial: target.serial,
    plan: clip(planLine(c, task, applicationId, target.serial, RESOLVED_BY[target.resolvedBy]!), 600),
  });
}
