import type { EventStore } from '../events/event-store.js';
import type { EventStream } from '../events/event-stream.js';
import type {
  DebugSessionSummary,
  SessionCrash,
  TimelineEntry,
} from '../plugins/core/services/debug-session-reader.js';
import type { LogLineFilter, LogLinePage } from '../plugins/logcat/services/log-line-store.js';

/**
 * What the dashboard reads: the store's read API only (prepareRead for read models, query and verify for
 * the log). It never writes; every action goes through `DashboardActions`, which records an event.
 */
export type DashboardStore = Pick<EventStore, 'prepareRead' | 'query' | 'lastSeq' | 'verify' | 'readWithRetry'>;

/** The device log, when a line store is wired in (`LogLineStore` satisfies it). */
export interface LogLineSource {
  query(filter: LogLineFilter, limit: number): LogLinePage;
  /** Devices the store holds lines for (read even when unplugged). */
  devices?(): readonly string[];
}

/** Starting and stopping a device's logcat worker, when the logcat plugin binds `LogcatStreams`. */
export interface LogcatControl {
  start(deviceSerial: string): Promise<string>;
  stop(deviceSerial: string): Promise<string>;
  running(deviceSerial: string): boolean;
}

/** The debug sessions read model (the core plugin's `DebugSessionReader` answers it). */
export interface DebugSessionSource {
  /** Newest install first; `state` derived now (an open session quiet for long reads `idle`). */
  list(limit: number): readonly DebugSessionSummary[];
  /** Newest first. */
  timeline(sessionId: string, max: number): readonly TimelineEntry[];
  crashes(sessionId: string, max: number): readonly SessionCrash[];
}

/** The project's shared run configurations file as the approval stands (`RunConfigurationApprovals.state`). */
export interface SharedRunConfigurationsState {
  readonly status: 'none' | 'approved' | 'not_approved' | 'stale' | 'invalid';
  readonly path: string;
  readonly sha256: string | null;
  readonly names: readonly string[];
  /** Who approved last and when, whatever content it was for. */
  readonly approvedBy: string | null;
  readonly approvedAt: number | null;
  /** Why the file cannot be approved (status invalid). */
  readonly error: string | null;
}

/** Approving the shared run configurations, when the run-configuration model is there. */
export interface RunConfigurationApproval {
  /** Null when no Gradle project is selected. */
  state(): SharedRunConfigurationsState | null;
  /** Approves exactly the content whose SHA-256 the person was shown; a file changed since is refused. */
  approve(sha256: string): Promise<string>;
}

/** What a person may do from the dashboard; each resolves to a one-line result shown in the footer. */
export interface DashboardActions {
  trust(): Promise<string>;
  untrust(): Promise<string>;
  cancelBuild(buildId: string): Promise<string>;
  logcat?: LogcatControl;
  runConfigurations?: RunConfigurationApproval;
}

/**
 * Everything the dashboard is given, with no container in sight: `droidwright tui` builds it from the
 * container (tui-command.ts), tests from a real store, and whoever wires the logcat store adds `lines`.
 */
export interface DashboardSources {
  readonly store: DashboardStore;
  readonly stream: EventStream;
  /** The project the actions are about; null when no Gradle project was selected. */
  readonly projectRoot: string | null;
  /** Trust as the policy decides it (the newest grant or revocation in the log). */
  isTrusted(): boolean;
  readonly actions: DashboardActions;
  readonly lines?: LogLineSource;
  /**
   * The packages `mine` stands for on a device (the project's application ids and their processes, as
   * `droidwright logcat --package mine` resolves them); null when no project with an application id is selected.
   */
  minePackages?(deviceSerial: string): readonly string[] | null;
  readonly debugSessions?: DebugSessionSource;
}
