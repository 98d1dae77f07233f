import type { EventStore } from '../events/event-store.js';
import type { EventStream } from '../events/event-stream.js';
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

/** What a person may do from the dashboard; each resolves to a one-line result shown in the footer. */
export interface DashboardActions {
  trust(): Promise<string>;
  untrust(): Promise<string>;
  cancelBuild(buildId: string): Promise<string>;
  logcat?: LogcatControl;
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
}
