import { computeEventHash } from '../events/event-hash.js';
import { GENESIS_HASH } from '../events/event-schema.js';
import type { StoredEvent } from '../events/event-definition.js';
import { isProcessAlive } from '../kernel/process-identity.js';
import { thisHost } from '../shared/actor.js';
import { HOST_DEVICES } from '../android/devices.projection.js';
import { HOST_INSTALLS } from '../plugins/device-admin/installed-builds.projection.js';
import { type CrashGroupRow, type CrashKind, readCrashGroups } from '../plugins/logcat/crashes.projection.js';
import type { DebugSessionSummary } from '../plugins/core/services/debug-session-reader.js';
import type { DashboardSources, DashboardStore, SharedRunConfigurationsState } from './dashboard-sources.js';

export type ToolKind = 'R' | 'W' | 'D' | 'O';
export type CallOutcome = 'ok' | 'error' | 'refused' | 'cancelled' | 'running';

export interface ActivityRow {
  /** The outcome event's seq, or the intent's while the call runs. */
  readonly seq: number;
  readonly at: number;
  readonly session: string;
  readonly client: string;
  readonly tool: string;
  readonly kind: ToolKind | null;
  readonly outcome: CallOutcome;
  readonly errorCode: string | null;
  readonly durationMs: number | null;
  readonly summary: string;
}

export interface SessionRow {
  readonly session: string;
  readonly client: string;
  readonly clientVersion: string | null;
  readonly pid: number;
  readonly startedAt: number;
  readonly lastCallAt: number | null;
  readonly calls: number;
  readonly errors: number;
  readonly refused: number;
  /** The server's machine when it is not this one (a team's shared log); null here. */
  readonly host: string | null;
}

export interface BuildRow {
  readonly id: string;
  readonly kind: string;
  readonly status: string;
  readonly tasks: string;
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly durationMs: number | null;
  readonly startedBy: string;
  readonly errors: number;
  readonly warnings: number;
  readonly reason: string | null;
  readonly cancelledBy: string | null;
  /** The `> Task` Gradle is on (build_live), for a running build. */
  readonly currentTask: string | null;
}

export interface DiagnosticRow {
  readonly severity: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly col: number | null;
  readonly message: string;
}

export interface InstalledRow {
  readonly package: string;
  readonly versionName: string | null;
  readonly versionCode: number;
  readonly buildId: string | null;
  readonly variant: string | null;
  readonly installedAt: number;
  /** "agent claude-code", "cli", …: who installed it. */
  readonly installedBy: string;
}

export interface DeviceRow {
  readonly serial: string;
  readonly state: string;
  readonly connected: boolean;
  readonly model: string | null;
  readonly apiLevel: number | null;
  readonly installed: readonly InstalledRow[];
  /** The app most recently launched there as the log records it (null after it was stopped). */
  readonly lastLaunched: string | null;
}

/** A row of the logcat plugin's `crash_groups` read model. */
export interface CrashGroup {
  readonly groupId: string;
  readonly kind: CrashKind;
  readonly package: string | null;
  readonly signatureHash: string;
  /** Exception class and message, signal, or ANR reason. */
  readonly title: string;
  readonly count: number;
  readonly firstAt: number;
  readonly lastAt: number;
  readonly lastSeq: number;
  readonly lastDevice: string;
}

/** What Enter on a crash group shows: its devices, the builds it was seen in and its newest occurrence's lines. */
export interface CrashGroupDetail {
  readonly devices: readonly string[];
  readonly builds: readonly { buildId: string | null; versionCode: number; variant: string | null; crashes: number }[];
  readonly lines: readonly string[];
}

export interface LogStatus {
  readonly lastSeq: number;
  /** pending: the first full walk has not run yet. */
  readonly state: 'pending' | 'ok' | 'broken';
  readonly verifiedThrough: number;
  readonly brokenAt: number | null;
  readonly reason: string | null;
}

export interface DashboardSnapshot {
  readonly projectRoot: string | null;
  readonly trusted: boolean;
  readonly log: LogStatus;
  readonly sessions: readonly SessionRow[];
  readonly activity: readonly ActivityRow[];
  readonly builds: readonly BuildRow[];
  readonly devices: readonly DeviceRow[];
  readonly crashes: readonly CrashGroup[];
  /** The debug sessions read model, newest install first (empty when it is not there). */
  readonly debugSessions: readonly DebugSessionSummary[];
  /** The project's shared run configurations and their approval; null without a project or the model. */
  readonly runConfigurations: SharedRunConfigurationsState | null;
  /** Epoch ms of the snapshot, which the elapsed times are measured against. */
  readonly now: number;
}

/** Tool calls kept in memory (the log keeps them all; the panel shows the newest). */
export const ACTIVITY_LIMIT = 500;
const BUILD_LIMIT = 50;
const CRASH_GROUP_LIMIT = 200;
const DEBUG_SESSION_LIMIT = 100;
/**
 * Events the debug sessions read model follows beyond app.*, ui.* and permission.* (its projection's list); a tool
 * call counts in a session only when it names a device, so the others (most of a busy log) re-read nothing.
 */
const DEBUG_SESSION_TYPES = new Set(['network.changed', 'orientation.changed', 'deep_link.opened', 'build.finished']);
const CRASH_TYPES = ['app.crashed', 'app.native_crashed', 'app.not_responding'] as const;
/** A snapshot at most this often: the screen redraws at ≤ 10 fps however fast the log grows. */
export const FRAME_MS = 100;
/** Running builds' current task and elapsed time, and whether sessions' processes still run. */
const TICK_MS = 1000;
const SESSION_CHECK_MS = 5000;

type Dirty = 'sessions' | 'builds' | 'devices' | 'trust' | 'crashes' | 'debugSessions' | 'runConfigurations';

interface SessionTableRow {
  session: string;
  client_name: string | null;
  client_version: string | null;
  pid: number;
  pid_start: string | null;
  started_at: number;
  last_call_at: number | null;
  calls: number;
  errors: number;
  refused: number;
  host: string | null;
}

/**
 * The dashboard's state: read models read through `prepareRead` when an event says they changed, plus
 * what the stream itself carries (tool calls in flight). Nothing here outlives the process or is kept
 * that the log cannot rebuild. Listeners are told at most every FRAME_MS.
 */
export class DashboardModel {
  private readonly store: DashboardStore;
  /** Finished calls, newest first, as of the last frame; the panel shows the running ones above them. */
  private finished: ActivityRow[] = [];
  /** Calls that ended since the last frame, oldest first: merged once per frame, not once per event. */
  private incoming: ActivityRow[] = [];
  private activity: readonly ActivityRow[] = [];
  private activityDirty = false;
  private readonly running = new Map<string, ActivityRow>();
  private readonly clients = new Map<string, string>();
  private sessions: SessionRow[] = [];
  private builds: BuildRow[] = [];
  private devices: DeviceRow[] = [];
  private crashes: CrashGroup[] = [];
  private debugSessions: readonly DebugSessionSummary[] = [];
  private runConfigurations: SharedRunConfigurationsState | null = null;
  private trusted = false;
  private log: LogStatus;
  private lastHash: string | null = null;
  private readonly dirty = new Set<Dirty>();
  private readonly listeners = new Set<() => void>();
  private snapshotCache: DashboardSnapshot | null = null;
  private frameTimer: NodeJS.Timeout | undefined;
  private lastFrameAt = 0;
  private tickTimer: NodeJS.Timeout | undefined;
  private sessionTimer: NodeJS.Timeout | undefined;
  private verifyTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;
  /** Largest delay seen between an event's append and its arrival here (ms), for the benchmark and the footer. */
  private maxLagMs = 0;

  constructor(private readonly sources: DashboardSources) {
    this.store = sources.store;
    this.log = { lastSeq: 0, state: 'pending', verifiedThrough: 0, brokenAt: null, reason: null };
  }

  /** Reads every read model once, then follows the stream. The full chain walk runs just after, off the first frame. */
  start(options: { verify?: boolean } = {}): void {
    const last = this.store.lastSeq();
    this.log = { ...this.log, lastSeq: last };
    this.seedActivity();
    for (const what of [
      'sessions',
      'builds',
      'devices',
      'trust',
      'crashes',
      'debugSessions',
      'runConfigurations',
    ] as const)
      this.dirty.add(what);
    this.refresh();
    this.unsubscribe = this.sources.stream.subscribe((event) => this.onEvent(event));
    // A server that dies records no end: look again now and then, but redraw only when the list changed.
    // Debug sessions turn idle with time alone, and the shared run configurations file is edited outside the log.
    this.sessionTimer = setInterval(() => {
      const now = this.readSessions();
      const debug = this.readDebugSessions();
      const runConfigurations = this.readRunConfigurations();
      if (
        sessionKey(now) === sessionKey(this.sessions) &&
        debugKey(debug) === debugKey(this.debugSessions) &&
        JSON.stringify(runConfigurations) === JSON.stringify(this.runConfigurations)
      )
        return;
      this.sessions = now;
      this.debugSessions = debug;
      this.runConfigurations = runConfigurations;
      this.changed();
    }, SESSION_CHECK_MS);
    this.sessionTimer.unref();
    if (options.verify !== false) {
      this.verifyTimer = setTimeout(() => this.verifyChain(), 50);
      this.verifyTimer.unref();
    }
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    clearTimeout(this.frameTimer);
    clearInterval(this.tickTimer);
    clearInterval(this.sessionTimer);
    clearTimeout(this.verifyTimer);
    this.listeners.clear();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The same object until something changed, as useSyncExternalStore requires. */
  snapshot(): DashboardSnapshot {
    if (!this.snapshotCache) {
      this.snapshotCache = {
        projectRoot: this.sources.projectRoot,
        trusted: this.trusted,
        log: this.log,
        sessions: this.sessions,
        activity: this.activity,
        builds: this.builds,
        devices: this.devices,
        crashes: this.crashes,
        debugSessions: this.debugSessions,
        runConfigurations: this.runConfigurations,
        now: Date.now(),
      };
    }
    return this.snapshotCache;
  }

  stats(): { appliedSeq: number; maxLagMs: number } {
    return { appliedSeq: this.log.lastSeq, maxLagMs: this.maxLagMs };
  }

  /** The stored diagnostics of one build, errors first (read on demand for the detail view). */
  diagnostics(buildId: string, limit = 50): DiagnosticRow[] {
    return this.read(
      () =>
        this.store
          .prepareRead(
            `SELECT severity, file, line, col, message FROM build_diagnostics WHERE build_id = ?
             ORDER BY CASE severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, idx LIMIT ?`,
          )
          .all(buildId, limit) as DiagnosticRow[],
      [],
    );
  }

  /** A crash group's devices and builds (the `crashes` read model) and its newest occurrence's lines (the log). */
  crashDetail(group: CrashGroup): CrashGroupDetail {
    const devices = this.read(
      () =>
        (
          this.store
            .prepareRead(
              'SELECT DISTINCT device_serial FROM crashes WHERE group_id = ? ORDER BY device_serial LIMIT 20',
            )
            .all(group.groupId) as { device_serial: string }[]
        ).map((r) => r.device_serial),
      [group.lastDevice],
    );
    const builds = this.read(
      () =>
        (
          this.store
            .prepareRead(
              'SELECT build_id, version_code, variant, crashes FROM crash_group_builds WHERE group_id = ? ORDER BY last_seq DESC LIMIT 20',
            )
            .all(group.groupId) as {
            build_id: string | null;
            version_code: number;
            variant: string | null;
            crashes: number;
          }[]
        ).map((r) => ({ buildId: r.build_id, versionCode: r.version_code, variant: r.variant, crashes: r.crashes })),
      [],
    );
    const newest = this.read(
      () => this.store.query({ afterSeq: group.lastSeq - 1, beforeSeq: group.lastSeq + 1, limit: 1 })[0],
      undefined,
    );
    const lines = newest ? ((newest.data as { lines?: unknown }).lines ?? []) : [];
    return { devices, builds, lines: Array.isArray(lines) ? lines.map(String) : [] };
  }

  /** Walks the whole chain (at start, and when `v` is pressed); events after it are then checked as they arrive. */
  verifyChain(): void {
    if (this.closed) return;
    const result = this.read(() => this.store.verify(), null);
    if (!result) return;
    const through = result.ok ? result.lastSeq : 0;
    const head =
      through > 0
        ? this.read(() => this.store.query({ afterSeq: through - 1, order: 'asc', limit: 1 })[0], undefined)
        : undefined;
    this.lastHash = result.ok ? (head?.hash ?? (through === 0 ? GENESIS_HASH : null)) : null;
    this.log = {
      lastSeq: Math.max(this.log.lastSeq, result.lastSeq),
      state: result.ok && this.lastHash !== null ? 'ok' : 'broken',
      verifiedThrough: result.lastSeq,
      brokenAt: result.ok ? null : (result.firstBadSeq ?? null),
      reason: result.ok ? null : (result.reason ?? 'the chain does not verify'),
    };
    // Events the stream delivered while the walk ran are checked now, so the next one links.
    if (this.log.state === 'ok' && this.log.lastSeq > this.log.verifiedThrough) this.linkGap(this.log.lastSeq);
    this.changed();
  }

  // ------------------------------------------------------------------ the stream

  private onEvent(event: StoredEvent): void {
    if (this.closed) return;
    const lag = Date.now() - event.at;
    if (lag > this.maxLagMs) this.maxLagMs = lag;
    this.checkLink(event);
    if (
      event.type.startsWith('app.') ||
      event.type.startsWith('ui.') ||
      event.type.startsWith('permission.') ||
      DEBUG_SESSION_TYPES.has(event.type) ||
      ((event.type === 'mcp.tool_called' || event.type === 'mcp.tool_call_started') && event.device)
    )
      this.dirty.add('debugSessions');
    switch (true) {
      case event.type === 'mcp.tool_call_started':
        this.callStarted(event);
        break;
      case event.type === 'mcp.tool_called':
        this.callEnded(event);
        this.dirty.add('sessions');
        break;
      case event.type.startsWith('mcp.session_'):
        this.dirty.add('sessions');
        break;
      case event.type.startsWith('build.'):
        this.dirty.add('builds');
        break;
      case event.type.startsWith('device.') ||
        event.type === 'app.installed' ||
        event.type === 'app.launched' ||
        event.type === 'app.restarted' ||
        event.type === 'app.stopped':
        this.dirty.add('devices');
        break;
      case event.type === 'project.trusted' || event.type === 'project.untrusted':
        this.dirty.add('trust');
        break;
      case event.type === 'run_configurations.approved':
        this.dirty.add('runConfigurations');
        break;
      case (CRASH_TYPES as readonly string[]).includes(event.type):
        this.dirty.add('crashes');
        break;
    }
    this.changed();
  }

  /** Each new event must extend the chain verified so far: its prev_hash is the last hash and its own hash recomputes. */
  private checkLink(event: StoredEvent): void {
    if (this.log.state === 'ok' && event.seq > this.log.verifiedThrough + 1) this.linkGap(event.seq - 1);
    const log = this.log;
    if (log.state !== 'ok' || this.lastHash === null || event.seq <= log.verifiedThrough) {
      this.log = { ...log, lastSeq: Math.max(log.lastSeq, event.seq) };
      return;
    }
    const { prevHash, hash, ...fields } = event;
    const linked = event.seq === log.verifiedThrough + 1 && prevHash === this.lastHash;
    if (linked && computeEventHash({ ...fields, prev_hash: prevHash }) === hash) {
      this.lastHash = hash;
      this.log = { ...log, lastSeq: Math.max(log.lastSeq, event.seq), verifiedThrough: event.seq };
    } else {
      this.lastHash = null;
      this.log = {
        ...log,
        lastSeq: Math.max(log.lastSeq, event.seq),
        state: 'broken',
        brokenAt: event.seq,
        reason: linked ? 'its hash does not match its contents' : 'it does not link to the event before it',
      };
    }
  }

  /** Checks the events between the verified head and `toSeq`, read from the log (they arrived before the walk ended). */
  private linkGap(toSeq: number): void {
    while (this.log.state === 'ok' && this.log.verifiedThrough < toSeq) {
      const page = this.read(
        () =>
          this.store.query({
            afterSeq: this.log.verifiedThrough,
            beforeSeq: toSeq + 1,
            order: 'asc',
            limit: 1000,
          }),
        [],
      );
      if (page.length === 0) return;
      for (const event of page) this.checkLink(event);
    }
  }

  private callStarted(event: StoredEvent): void {
    const d = event.data as { session: string; tool: string; kind: string };
    this.running.set(event.id, {
      seq: event.seq,
      at: event.at,
      session: d.session,
      client: this.clientOf(d.session, event.actor.client),
      tool: d.tool,
      kind: asKind(d.kind),
      outcome: 'running',
      errorCode: null,
      durationMs: null,
      summary: '',
    });
    this.activityDirty = true;
  }

  private callEnded(event: StoredEvent): void {
    const d = event.data as {
      session: string;
      tool: string;
      kind: string | null;
      outcome: CallOutcome;
      error_code: string | null;
      duration_ms: number;
      summary: string;
    };
    if (event.correlation) this.running.delete(event.correlation);
    this.incoming.push({
      seq: event.seq,
      at: event.at,
      session: d.session,
      client: this.clientOf(d.session, event.actor.client),
      tool: d.tool,
      kind: asKind(d.kind),
      outcome: d.outcome,
      errorCode: d.error_code,
      durationMs: d.duration_ms,
      summary: d.summary,
    });
    this.activityDirty = true;
  }

  /** In-flight calls on top, then finished ones, newest first; a fresh array so React sees the change. */
  private rebuildActivity(): void {
    const fresh = this.incoming.splice(0, this.incoming.length).slice(-ACTIVITY_LIMIT).reverse();
    this.finished = fresh.concat(this.finished.slice(0, ACTIVITY_LIMIT - fresh.length));
    this.activity = [...this.running.values()].reverse().concat(this.finished);
    this.activityDirty = false;
  }

  private clientOf(session: string, fromActor: string | undefined): string {
    if (fromActor) this.clients.set(session, fromActor);
    return this.clients.get(session) ?? fromActor ?? session.slice(0, 8);
  }

  // ------------------------------------------------------------------ read models

  private seedActivity(): void {
    const rows = this.read(
      () =>
        this.store
          .prepareRead(
            `SELECT c.seq, c.at, c.session, c.tool, c.kind, c.outcome, c.error_code, c.duration_ms, c.summary, s.client_name
             FROM mcp_tool_calls c LEFT JOIN mcp_sessions s ON s.session = c.session ORDER BY c.seq DESC LIMIT ?`,
          )
          .all(ACTIVITY_LIMIT) as {
          seq: number;
          at: number;
          session: string;
          tool: string;
          kind: string | null;
          outcome: CallOutcome;
          error_code: string | null;
          duration_ms: number;
          summary: string;
          client_name: string | null;
        }[],
      [],
    );
    this.finished = rows.map((r) => ({
      seq: r.seq,
      at: r.at,
      session: r.session,
      client: this.clientOf(r.session, r.client_name ?? undefined),
      tool: r.tool,
      kind: asKind(r.kind),
      outcome: r.outcome,
      errorCode: r.error_code,
      durationMs: r.duration_ms,
      summary: r.summary,
    }));
  }

  private refresh(): void {
    if (this.activityDirty || this.activity.length === 0) this.rebuildActivity();
    if (this.dirty.delete('sessions')) this.sessions = this.readSessions();
    if (this.dirty.delete('builds')) this.builds = this.readBuilds();
    if (this.dirty.delete('devices')) this.devices = this.readDevices();
    if (this.dirty.delete('trust')) this.trusted = this.sources.isTrusted();
    if (this.dirty.delete('crashes')) this.crashes = this.readCrashes();
    if (this.dirty.delete('debugSessions')) this.debugSessions = this.readDebugSessions();
    if (this.dirty.delete('runConfigurations')) this.runConfigurations = this.readRunConfigurations();
    const running = this.builds.some((b) => b.status === 'running');
    if (running && !this.tickTimer) {
      this.tickTimer = setInterval(() => this.markDirty('builds'), TICK_MS);
      this.tickTimer.unref();
    } else if (!running && this.tickTimer) {
      clearInterval(this.tickTimer);
      this.tickTimer = undefined;
    }
    this.snapshotCache = null;
  }

  /** The logcat plugin's crash groups, newest crash first. */
  private readCrashes(): CrashGroup[] {
    const rows = this.read(
      () => readCrashGroups(this.store, { packages: null, device: null, offset: 0, limit: CRASH_GROUP_LIMIT }).groups,
      [] as CrashGroupRow[],
    );
    return rows.map((r) => ({
      groupId: r.group_id,
      kind: r.kind,
      package: r.package,
      signatureHash: r.signature_hash,
      title: r.title,
      count: r.crashes,
      firstAt: r.first_seen_at,
      lastAt: r.last_seen_at,
      lastSeq: r.last_seq,
      lastDevice: r.last_device,
    }));
  }

  private readDebugSessions(): readonly DebugSessionSummary[] {
    const source = this.sources.debugSessions;
    return source ? this.read(() => source.list(DEBUG_SESSION_LIMIT), this.debugSessions) : [];
  }

  private readRunConfigurations(): SharedRunConfigurationsState | null {
    const approval = this.sources.actions.runConfigurations;
    return approval ? this.read(() => approval.state(), this.runConfigurations) : null;
  }

  private readSessions(): SessionRow[] {
    const rows = this.read(
      () =>
        this.store
          .prepareRead(
            `SELECT session, client_name, client_version, pid, pid_start, started_at, last_call_at, calls, errors, refused, host
             FROM mcp_sessions WHERE ended_at IS NULL ORDER BY COALESCE(last_call_at, started_at) DESC LIMIT 200`,
          )
          .all() as SessionTableRow[],
      [],
    );
    const here = thisHost();
    // Another machine's server (a team's shared log) cannot be checked by pid from here: shown while not ended.
    const foreign = (r: SessionTableRow) => r.host !== null && r.host !== here;
    return rows
      .filter((r) => foreign(r) || isProcessAlive(r.pid, r.pid_start))
      .map((r) => {
        if (r.client_name) this.clients.set(r.session, r.client_name);
        return {
          session: r.session,
          client: r.client_name ?? 'unknown client',
          clientVersion: r.client_version,
          pid: r.pid,
          startedAt: r.started_at,
          lastCallAt: r.last_call_at,
          calls: r.calls,
          errors: r.errors,
          refused: r.refused,
          host: foreign(r) ? r.host : null,
        };
      });
  }

  private readBuilds(): BuildRow[] {
    const root = this.sources.projectRoot;
    const rows = this.read(
      () =>
        this.store
          .prepareRead(
            `SELECT b.id, b.kind, b.status, b.tasks, b.started_at, b.finished_at, b.duration_ms, b.started_by, b.errors,
                    b.warnings, b.reason, b.cancelled_by, l.current_task
             FROM builds b LEFT JOIN build_live l ON l.build_id = b.id
             WHERE (CAST(@root AS TEXT) IS NULL OR b.project_root = @root) ORDER BY b.started_at DESC, b.started_seq DESC LIMIT @limit`,
          )
          .all({ root, limit: BUILD_LIMIT }) as {
          id: string;
          kind: string;
          status: string;
          tasks: string;
          started_at: number;
          finished_at: number | null;
          duration_ms: number | null;
          started_by: string;
          errors: number;
          warnings: number;
          reason: string | null;
          cancelled_by: string | null;
          current_task: string | null;
        }[],
      [],
    );
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      tasks: parseTasks(r.tasks),
      startedAt: r.started_at,
      finishedAt: r.finished_at,
      durationMs: r.duration_ms,
      startedBy: r.started_by,
      errors: r.errors,
      warnings: r.warnings,
      reason: r.reason,
      cancelledBy: r.cancelled_by,
      currentTask: r.status === 'running' ? r.current_task : null,
    }));
  }

  private readDevices(): DeviceRow[] {
    const devices = this.read(
      () =>
        this.store
          // This desk's devices: a serial means a device only on its own machine (a team's shared log).
          .prepareRead(
            `SELECT serial, state, connected, model, api_level FROM devices WHERE ${HOST_DEVICES}
             ORDER BY connected DESC, last_seen DESC, serial LIMIT 50`,
          )
          .all({ host: thisHost() }) as {
          serial: string;
          state: string;
          connected: number;
          model: string | null;
          api_level: number | null;
        }[],
      [],
    );
    const installed = this.read(
      () =>
        this.store
          .prepareRead(
            `SELECT i.device_serial, i.package, i.version_name, i.version_code, i.build_id, i.variant, i.installed_at,
                    i.actor_kind, s.client_name
             FROM (SELECT * FROM installed_builds WHERE ${HOST_INSTALLS}) AS i
               LEFT JOIN mcp_sessions s ON s.session = i.actor_session
             ORDER BY i.installed_at DESC, i.seq DESC LIMIT 500`,
          )
          .all({ host: thisHost() }) as {
          device_serial: string;
          package: string;
          version_name: string | null;
          version_code: number;
          build_id: string | null;
          variant: string | null;
          installed_at: number;
          actor_kind: string;
          client_name: string | null;
        }[],
      [],
    );
    const launches = this.read(
      () => this.store.query({ types: ['app.launched', 'app.restarted', 'app.stopped'], order: 'desc', limit: 200 }),
      [],
    );
    const foreground = new Map<string, string | null>();
    const here = thisHost();
    for (const event of launches) {
      // Another machine's emulator-5554 is not this desk's.
      if (event.actor.host !== undefined && event.actor.host !== here) continue;
      const d = event.data as { device_serial: string; package: string };
      if (!foreground.has(d.device_serial))
        foreground.set(d.device_serial, event.type === 'app.stopped' ? null : d.package);
    }
    return devices.map((d) => ({
      serial: d.serial,
      state: d.state,
      connected: d.connected === 1,
      model: d.model,
      apiLevel: d.api_level,
      lastLaunched: foreground.get(d.serial) ?? null,
      installed: installed
        .filter((i) => i.device_serial === d.serial)
        .map((i) => ({
          package: i.package,
          versionName: i.version_name,
          versionCode: i.version_code,
          buildId: i.build_id,
          variant: i.variant,
          installedAt: i.installed_at,
          installedBy: i.actor_kind === 'agent' && i.client_name ? `agent ${i.client_name}` : i.actor_kind,
        })),
    }));
  }

  // ------------------------------------------------------------------ scheduling

  private markDirty(what: Dirty): void {
    this.dirty.add(what);
    this.changed();
  }

  /** Coalesces changes into at most one frame per FRAME_MS (leading edge, then trailing). */
  private changed(): void {
    this.snapshotCache = null;
    if (this.closed || this.frameTimer) return;
    const wait = Math.max(0, this.lastFrameAt + FRAME_MS - Date.now());
    this.frameTimer = setTimeout(() => this.frame(), wait);
  }

  private frame(): void {
    this.frameTimer = undefined;
    if (this.closed) return;
    this.lastFrameAt = Date.now();
    this.refresh();
    for (const listener of this.listeners) listener();
  }

  /** A read that fails (the log locked past the busy timeout) keeps the last state; the next change tries again. */
  private read<T>(fn: () => T, fallback: T): T {
    try {
      return this.store.readWithRetry(fn);
    } catch {
      return fallback;
    }
  }
}

function asKind(kind: string | null): ToolKind | null {
  return kind === 'R' || kind === 'W' || kind === 'D' || kind === 'O' ? kind : null;
}

function parseTasks(text: string): string {
  try {
    const tasks = JSON.parse(text) as unknown;
    return Array.isArray(tasks) ? tasks.map(String).join(' ') : text;
  } catch {
    return text;
  }
}

function sessionKey(sessions: readonly SessionRow[]): string {
  return sessions.map((s) => `${s.session}:${s.calls}`).join(',');
}

function debugKey(sessions: readonly DebugSessionSummary[]): string {
  return sessions.map((s) => `${s.session_id}:${s.state}:${s.last_event_at}`).join(',');
}
