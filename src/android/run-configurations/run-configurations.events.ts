import { z } from 'zod';
import { defineEvent, type EventContribution } from '../../events/event-definition.js';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Name = z.string().min(1).max(128);
const Serial = z.string().min(1).max(128);

/** A person (CLI or TUI, never an MCP tool) approved the exact content of a project's shared run configurations. */
export const RunConfigurationsApproved = defineEvent({
  type: 'run_configurations.approved',
  version: 1,
  description:
    "A person approved the current content of a project's .droidwright/run-configurations.json (by its SHA-256), so its shared run configurations may run until the file changes.",
  schema: z.object({
    project_root: z.string().min(1),
    file: z.string().min(1).max(4096),
    sha256: Sha256,
    /** The configurations the approved content defines (the file holds at most 200). */
    configurations: z.array(Name).max(200),
    by: z.string().max(300),
  }),
});

/** run_run_configuration resolved its device and is about to build. */
export const RunConfigurationStarted = defineEvent({
  type: 'run_configuration.started',
  version: 1,
  description:
    'A run configuration began to run: build, install and launch on the device its target resolved to. Its run_configuration.finished carries this event id as correlation.',
  schema: z.object({
    project_root: z.string().min(1),
    configuration: Name,
    shared: z.boolean(),
    module: z.string().max(200),
    variant: z.string().max(128),
    task: z.string().max(400),
    device_serial: Serial,
    /** How the device was chosen: the configuration's serial or AVD, the device it last ran on, the only one online, or the caller's device_serial. */
    resolved_by: z.enum(['serial', 'avd', 'last_used', 'only_device', 'argument']),
  }),
});

export const RUN_OUTCOMES = ['done', 'build_failed', 'install_failed', 'launch_failed', 'cancelled'] as const;

export const RunConfigurationFinished = defineEvent({
  type: 'run_configuration.finished',
  version: 1,
  description:
    'A run configuration ended: done (built, installed, launched), or the phase that failed or was cancelled, with each phase duration.',
  schema: z.object({
    project_root: z.string().min(1),
    configuration: Name,
    device_serial: Serial,
    outcome: z.enum(RUN_OUTCOMES),
    build_id: z.string().max(64).nullable(),
    package: z.string().max(255).nullable(),
    apk_sha256: Sha256.nullable(),
    build_ms: z.number().int().nonnegative().nullable(),
    install_ms: z.number().int().nonnegative().nullable(),
    launch_ms: z.number().int().nonnegative().nullable(),
    /** Why it did not finish, clipped. */
    reason: z.string().max(1000).nullable(),
  }),
});

export const runConfigurationEvents = [RunConfigurationsApproved, RunConfigurationStarted, RunConfigurationFinished];

export const runConfigurationEventContribution: EventContribution = {
  events: () => runConfigurationEvents,
  projections: () => [],
};

/** The stream holding a project's run-configuration history (approvals and runs). */
export function runConfigurationStream(projectRoot: string): string {
  return `run-configurations:${projectRoot}`;
}
