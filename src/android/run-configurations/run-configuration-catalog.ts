import { inject, injectable } from 'inversify';
import { ToolError } from '../../kernel/errors.js';
import { EventStoreProvider } from '../../kernel/event-store-provider.js';
import { findModule, findVariant, loadGradleProject, type GradleProject } from '../gradle-project-model.js';
import { assembleTask, deriveRunConfigurations, type RunConfiguration } from './run-configuration.js';
import { notApprovedError, RunConfigurationApprovals, type SharedFileState } from './run-configuration-approvals.js';
import { RunConfigurationStarted, runConfigurationStream } from './run-configurations.events.js';

/** Runs of a project read back to find a configuration's last device; older ones count as never run. */
const LAST_USED_SCAN = 500;

export interface RunConfigurationSet {
  readonly project: GradleProject;
  /** Shared configurations first (in file order), then the derived ones no shared one replaces. */
  readonly configurations: readonly RunConfiguration[];
  /** True when the derived list was cut (thousands of variants). */
  readonly derivedCapped: boolean;
  readonly shared: SharedFileState;
}

/** What a configuration builds, once its module and variant are found in the project. */
export interface RunnableConfiguration {
  readonly configuration: RunConfiguration;
  readonly task: string;
  /** The application id the model computes for the variant; null when the scripts compute it. */
  readonly applicationId: string | null;
}

/** Why a configuration cannot run, before any device is looked at; null when it can. */
export function configurationProblem(set: RunConfigurationSet, configuration: RunConfiguration): ToolError | null {
  if (configuration.shared && set.shared.status !== 'approved')
    return notApprovedError(set.project.root, configuration.name, set.shared);
  const module = findModule(set.project, configuration.module);
  if (!module || module.path !== configuration.module)
    return new ToolError(
      'CONFIGURATION_INVALID',
      `Run configuration "${configuration.name}" builds module ${configuration.module}, which the project does not have (modules: ${set.project.modules
        .slice(0, 20)
        .map((m) => m.path)
        .join(', ')}). Fix ${set.shared.path}.`,
    );
  if (module.type !== 'application')
    return new ToolError(
      'CONFIGURATION_INVALID',
      `Run configuration "${configuration.name}" builds ${module.path}, which is not an application module (it has no com.android.application plugin), so there is no APK to install. Fix ${set.shared.path}.`,
    );
  if (!findVariant(module, configuration.variant))
    return new ToolError(
      'CONFIGURATION_INVALID',
      `Run configuration "${configuration.name}" builds variant "${configuration.variant}", which ${module.path} does not define (variants: ${module.variants
        .slice(0, 20)
        .map((v) => v.name)
        .join(', ')}${module.variantTotal > 20 ? ', …' : ''}). Fix ${set.shared.path}.`,
    );
  return null;
}

/**
 * A project's run configurations: derived from the Gradle model (one per application module and
 * variant) plus the shared file's, a shared one replacing a derived one of the same name. Read fresh on
 * every call, so an edit to the build scripts or the file counts at once.
 */
@injectable()
export class RunConfigurationCatalog {
  constructor(
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
    @inject(RunConfigurationApprovals) private readonly approvals: RunConfigurationApprovals,
  ) {}

  load(projectRoot: string): RunConfigurationSet {
    const project = loadGradleProject(projectRoot);
    const derived = deriveRunConfigurations(project);
    const shared = this.approvals.state(project.root);
    const sharedConfigurations = shared.file?.configurations ?? [];
    const names = new Set(sharedConfigurations.map((c) => c.name));
    return {
      project,
      configurations: [...sharedConfigurations, ...derived.configurations.filter((c) => !names.has(c.name))],
      derivedCapped: derived.capped,
      shared,
    };
  }

  /** The configuration named `name`, or NOT_FOUND naming a few that exist. */
  find(set: RunConfigurationSet, name: string): RunConfiguration {
    const found = set.configurations.find((c) => c.name === name);
    if (found) return found;
    const known = set.configurations.slice(0, 15).map((c) => c.name);
    const invalidFile =
      set.shared.status === 'invalid' && set.shared.error
        ? ` The shared file is not read: ${set.shared.error.message}`
        : '';
    throw new ToolError(
      'NOT_FOUND',
      `No run configuration named ${JSON.stringify(name.slice(0, 128))} in ${set.project.root}. Configurations: ${known.join(', ') || '(none: the project has no application module)'}${set.configurations.length > known.length ? `, … (${set.configurations.length} in all; list_run_configurations pages them)` : ''}.${invalidFile}`,
    );
  }

  /** The configuration, checked to be runnable now (approved when shared, module and variant present); throws why not. */
  requireRunnable(projectRoot: string, name: string): RunnableConfiguration & { set: RunConfigurationSet } {
    const set = this.load(projectRoot);
    const configuration = this.find(set, name);
    // The approval is read again from the log and the file, not from this snapshot alone.
    if (configuration.shared) this.approvals.requireApproved(set.project.root, configuration.name);
    const problem = configurationProblem(set, configuration);
    if (problem) throw problem;
    return { ...this.describe(set, configuration), set };
  }

  describe(set: RunConfigurationSet, configuration: RunConfiguration): RunnableConfiguration {
    const module = findModule(set.project, configuration.module);
    const variant = module ? findVariant(module, configuration.variant) : null;
    return {
      configuration,
      task: assembleTask(configuration.module, configuration.variant),
      applicationId: variant?.applicationId ?? null,
    };
  }

  /** The device the configuration last ran on (its newest run_configuration.started), or null. */
  lastUsedDevice(projectRoot: string, name: string): string | null {
    return this.lastUsedDevices(projectRoot).get(name) ?? null;
  }

  /** Every configuration's last device in one read (for listings). */
  lastUsedDevices(projectRoot: string): Map<string, string> {
    const events = this.store().query({
      stream: runConfigurationStream(projectRoot),
      types: [RunConfigurationStarted.type],
      order: 'desc',
      limit: LAST_USED_SCAN,
    });
    const byName = new Map<string, string>();
    for (const event of events) {
      const data = event.data as { configuration: string; device_serial: string; project_root: string };
      if (data.project_root === projectRoot && !byName.has(data.configuration))
        byName.set(data.configuration, data.device_serial);
    }
    return byName;
  }
}
