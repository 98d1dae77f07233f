import type { Container } from 'inversify';
import { collectTrustEvidence, agentEnvironmentMarkers } from '../cli/trust-evidence.js';
import { runtimeOptions, withContainer } from '../cli/cli-support.js';
import type { CommandInput } from '../cli/command-spec.js';
import type { tuiFlags } from '../cli/command-specs.js';
import { createEventStream } from '../events/event-stream.js';
import { ToolError } from '../kernel/errors.js';
import { UsageError } from '../kernel/usage-error.js';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import { SelectedProject } from '../kernel/project-selection.js';
import { BuildService } from '../plugins/build/services/build-service.js';
import { RunConfigurationApprovals } from '../android/run-configurations/run-configuration-approvals.js';
import { DebugSessionReader } from '../plugins/core/services/debug-session-reader.js';
import { TrustService } from '../plugins/core/trust-service.js';
import { PackageScopeGuard } from '../android/package-scope-guard.js';
import { resolvePackageFilter } from '../plugins/logcat/services/log-filter-args.js';
import { LogLineStore } from '../plugins/logcat/services/log-line-store.js';
import { SqliteLogLineStore } from '../plugins/logcat/services/sqlite-log-line-store.js';
import { LogcatStreams } from '../plugins/logcat/services/logcat-streams.js';
import { type Actor, thisHost } from '../shared/actor.js';
import type { DashboardActions, DashboardSources, LogcatControl, LogLineSource } from './dashboard-sources.js';

/** The person at the dashboard. */
export function tuiActor(): Actor {
  return { kind: 'tui', pid: process.pid, host: thisHost() };
}

export interface TuiCommandExtras {
  /** A device log in place of the logcat plugin's line store. */
  readonly lines?: LogLineSource;
}

export async function runTuiCommand(
  { values }: CommandInput<typeof tuiFlags>,
  extras: TuiCommandExtras = {},
): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError(
      'tui is an interactive dashboard: run it in a terminal (stdin and stdout must be a TTY). For scripts, use `droidwright events tail -f` instead.',
    );
  }
  return withContainer(runtimeOptions({ projectPath: values.project }), async (container) => {
    const store = container.get<EventStoreProvider>(EventStoreProvider)();
    const stream = createEventStream(store);
    const projectRoot = container.get<SelectedProject>(SelectedProject).root;
    const trust = container.get(TrustService);
    const sources: DashboardSources = {
      store,
      stream,
      projectRoot,
      isTrusted: () => (projectRoot ? trust.isTrusted(projectRoot) : false),
      actions: dashboardActions(container, projectRoot),
      ...dashboardLogSource(container, extras),
      ...debugSessionSource(container),
    };
    try {
      // React's development build checks and records every render, several times the work per frame; a
      // dashboard that redraws ten times a second under a busy log runs the production one unless asked.
      process.env.NODE_ENV ??= 'production';
      // Ink draws only the last frame, and chalk drops colors, when CI or CONTINUOUS_INTEGRATION is set (they take
      // that for a log, not a terminal). Both streams are TTYs here (checked above), so the dashboard is interactive
      // whatever a CI runner or a shell profile exported; NO_COLOR and FORCE_COLOR still decide colors.
      delete process.env.CI;
      delete process.env.CONTINUOUS_INTEGRATION;
      const { runDashboard } = await import('./run-dashboard.js');
      await runDashboard(sources);
    } finally {
      stream.close();
    }
    return 0;
  });
}

/**
 * The device log the Logcat panel reads (the one given, else the logcat plugin's line store) and what its
 * default package filter `mine` stands for on a device, resolved as `droidwright logcat --package mine` does.
 */
export function dashboardLogSource(
  container: Container,
  extras: TuiCommandExtras = {},
): Pick<DashboardSources, 'lines' | 'minePackages'> {
  if (!extras.lines && !container.isBound(LogLineStore)) return {};
  const store = container.get<LogLineStore>(LogLineStore);
  const sqlite = container.isBound(SqliteLogLineStore) ? container.get(SqliteLogLineStore) : null;
  const lines: LogLineSource = extras.lines ?? {
    query: (filter, limit) => store.query(filter, limit),
    ...(sqlite ? { devices: () => sqlite.devices() } : {}),
  };
  const guard = container.get(PackageScopeGuard);
  // The project's ids and the processes the device showed for them; looked up again every few seconds, as new
  // processes of the app appear in the log.
  const cache = new Map<string, { at: number; packages: readonly string[] | null }>();
  const minePackages = (serial: string): readonly string[] | null => {
    const hit = cache.get(serial);
    if (hit && Date.now() - hit.at < MINE_REFRESH_MS) return hit.packages;
    let packages: readonly string[] | null;
    try {
      packages = resolvePackageFilter('mine', 'package', serial, store, () => guard.scope()) ?? null;
    } catch {
      packages = null;
    }
    cache.set(serial, { at: Date.now(), packages });
    return packages;
  };
  return { lines, minePackages };
}

const MINE_REFRESH_MS = 5000;

/** The debug sessions read model, when the core plugin binds it. */
export function debugSessionSource(container: Container): Pick<DashboardSources, 'debugSessions'> {
  if (!container.isBound(DebugSessionReader)) return {};
  const reader = container.get(DebugSessionReader);
  return {
    debugSessions: {
      list: (limit) => reader.list({ limit }).sessions,
      timeline: (id, max) => reader.timeline(id, { max }).entries,
      crashes: (id, max) => reader.crashes(id, max),
    },
  };
}

/** The actions, through the same services the CLI and the tools use; each records an event with the TUI as actor. */
export function dashboardActions(container: Container, projectRoot: string | null): DashboardActions {
  const trust = container.get(TrustService);
  const requireRoot = (): string => {
    if (!projectRoot) throw new Error('no Gradle project selected (start droidwright tui in one, or pass --project)');
    return projectRoot;
  };
  const actions: DashboardActions = {
    async trust() {
      const root = requireRoot();
      // As `droidwright trust`: an AI coding tool's own shell is the one place trust must not come from.
      const markers = agentEnvironmentMarkers(process.env);
      if (markers.length > 0)
        return `Not trusted: this terminal is an AI coding tool's shell (${markers.join(', ')} set). Trust is your decision: run the dashboard in a terminal of your own.`;
      return trust.trust(root, tuiActor(), collectTrustEvidence('tui'))
        ? `Trusted ${root}.`
        : `${root} is already trusted.`;
    },
    async untrust() {
      const root = requireRoot();
      return trust.untrust(root, tuiActor()) ? `Revoked trust in ${root}.` : `${root} was not trusted.`;
    },
    async cancelBuild(buildId) {
      requireRoot();
      try {
        // waitMs 0: ask and return; the build's end arrives through the stream like any other event.
        const { record, wasRunning } = await container.get(BuildService).cancel(buildId, tuiActor(), 0, 'tui');
        return wasRunning
          ? `Cancellation of build ${record.id} requested; its worker stops it within a second.`
          : `Build ${record.id} had already ended (${record.status}).`;
      } catch (error) {
        if (error instanceof ToolError) return error.message;
        throw error;
      }
    },
  };
  if (container.isBound(RunConfigurationApprovals)) {
    const approvals = container.get(RunConfigurationApprovals);
    actions.runConfigurations = {
      state() {
        if (!projectRoot) return null;
        const state = approvals.state(projectRoot);
        return {
          status: state.status,
          path: state.path,
          sha256: state.file?.sha256 ?? null,
          names: state.file?.configurations.map((c) => c.name) ?? [],
          approvedBy: state.approval?.by ?? null,
          approvedAt: state.approval?.at ?? null,
          error: state.error?.message ?? null,
        };
      },
      async approve(sha256) {
        const root = requireRoot();
        // As `droidwright runconfig approve`: what an agent may launch on the user's devices is the user's call.
        const markers = agentEnvironmentMarkers(process.env);
        if (markers.length > 0)
          return `Not approved: this terminal is an AI coding tool's shell (${markers.join(', ')} set). Approving is your decision: run the dashboard in a terminal of your own.`;
        try {
          const { file, recorded } = approvals.approve(root, tuiActor(), sha256);
          return recorded
            ? `Approved ${file.configurations.length} shared run configuration${file.configurations.length === 1 ? '' : 's'} in ${file.path}.`
            : `${file.path} was already approved as it is.`;
        } catch (error) {
          if (error instanceof ToolError) return error.message;
          throw error;
        }
      },
    };
  }
  if (container.isBound(LogcatStreams)) {
    const streams = container.get<LogcatStreams>(LogcatStreams);
    const logcat: LogcatControl = {
      async start(serial) {
        const { pid, alreadyRunning } = await streams.ensure(serial, tuiActor());
        return alreadyRunning
          ? `logcat for ${serial} was already running (pid ${pid}).`
          : `logcat for ${serial} started (pid ${pid}).`;
      },
      async stop(serial) {
        return (await streams.stop(serial, tuiActor()))
          ? `logcat for ${serial} stopped.`
          : `logcat for ${serial} was not running.`;
      },
      running: (serial) => streams.state(serial).state === 'running',
    };
    return { ...actions, logcat };
  }
  return actions;
}
