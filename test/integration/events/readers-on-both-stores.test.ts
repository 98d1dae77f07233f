import { Subject } from 'rxjs';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { EventStore } from '../../../src/events/event-store.js';
import type { EventStream } from '../../../src/events/event-stream.js';
import { resolveSession, traceOf } from '../../../src/cli/event-trace.js';
import type { Settings } from '../../../src/kernel/settings.js';
import { readDevices } from '../../../src/android/devices.projection.js';
import { buildTables } from '../../../src/plugins/build/build-tables.js';
import { BuildArtifactIndex } from '../../../src/plugins/build/services/build-artifact-index.js';
import { BuildHistory } from '../../../src/plugins/build/services/build-history.js';
import { BuildMappingIndex } from '../../../src/plugins/build/services/build-mapping-index.js';
import { exportBundle, verifyBundle } from '../../../src/plugins/core/services/debug-session-bundle.js';
import { DebugSessionReader } from '../../../src/plugins/core/services/debug-session-reader.js';
import { McpActivityReader } from '../../../src/plugins/core/services/mcp-activity-reader.js';
import { TrustService } from '../../../src/plugins/core/trust-service.js';
import { readInstalledBuilds } from '../../../src/plugins/device-admin/installed-builds.projection.js';
import { logcatTables } from '../../../src/plugins/logcat/logcat-tables.js';
import { CrashHistory } from '../../../src/plugins/logcat/services/crash-history.js';
import { LogcatLease } from '../../../src/plugins/logcat/services/logcat-lease.js';
import { uiTables } from '../../../src/plugins/ui/ui-tables.js';
import { DashboardModel } from '../../../src/tui/dashboard-model.js';
import type { Actor } from '../../../src/shared/actor.js';
import { removeTempDirs, tempStorePath } from '../../support/event-store-fixtures.js';
import { cases, root } from '../../support/projection-cases.js';
import { allProjections, appendGiven, pluginCatalog } from '../../support/projection-spec.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';

// Every read-model reader (the prepareRead SQL in src/) and the side-table writers, on both stores over the
// same log: every projection case's events appended to SQLite, imported verbatim into PostgreSQL. Each
// reader must give the same answer on both, so a statement that PostgreSQL refuses, types differently or
// orders differently fails here rather than in a team's shared log.
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(() => {
  cluster?.stop();
  removeTempDirs();
});

const tables = [...buildTables, ...uiTables, ...logcatTables];
const NOW = Date.parse('2026-12-01T00:00:00Z');
const settings = { get: () => ({ debugSessionIdleMinutes: 30 }) } as unknown as Settings;
const cli: Actor = { kind: 'cli', pid: process.pid };

function openStores(): { sqlite: EventStore; postgres: EventStore } {
  const sqlite = EventStore.open({
    path: tempStorePath(),
    catalog: pluginCatalog(),
    projections: allProjections,
    tables,
  });
  appendGiven(
    sqlite,
    pluginCatalog(),
    cases.flatMap((c) => c.parts.flat()),
  );
  const postgres = EventStore.open({
    path: cluster.createDatabase('readers'),
    catalog: pluginCatalog(),
    projections: allProjections,
    tables,
  });
  postgres.importVerbatim(sqlite.readAfter(0, 100_000));
  return { sqlite, postgres };
}

/** A stream that never emits: the dashboard reads its read models once at start. */
function silentStream(): EventStream {
  const subject = new Subject<StoredEvent>();
  return {
    events$: subject.asObservable(),
    subscribe(handler) {
      const subscription = subject.subscribe(handler);
      return () => subscription.unsubscribe();
    },
    close: () => subject.complete(),
  };
}

/** What every reader answers on `store`; JSON round trip so Buffers and undefined compare as they print. */
function readEverything(store: EventStore): Record<string, unknown> {
  const provider = () => store;
  const builds = new BuildHistory(provider);
  const latest = builds.latest(root);
  const debug = new DebugSessionReader(provider, settings);
  const sessions = debug.list({ limit: 50 } as Parameters<DebugSessionReader['list']>[0], NOW);
  const firstSession = sessions.sessions[0]?.session_id;
  const crashes = new CrashHistory(provider);
  const groups = crashes.groups({ packages: null, device: null, offset: 0, limit: 10 });
  const group = groups.groups[0];
  const mcp = new McpActivityReader(provider);
  const trust = new TrustService(provider);
  const sha = 'b'.repeat(64);

  const dashboard = new DashboardModel({
    store,
    stream: silentStream(),
    projectRoot: root,
    isTrusted: () => true,
    actions: { trust: async () => '', untrust: async () => '', cancelBuild: async () => '' },
  });
  let dashboardView: unknown;
  try {
    dashboard.start({ verify: false });
    const { now: _now, ...snapshot } = dashboard.snapshot();
    dashboardView = {
      snapshot,
      diagnostics: latest ? dashboard.diagnostics(latest.id) : null,
      crashDetail: snapshot.crashes[0] ? dashboard.crashDetail(snapshot.crashes[0]) : null,
    };
  } finally {
    dashboard.close();
  }

  const answers = {
    builds: {
      latest,
      previous: latest ? builds.previous(latest) : null,
      running: builds.running(root),
      list: builds.list(root, 10),
      count: builds.count(root),
      diagnosticCount: latest
        ? [builds.diagnosticCount(latest.id, undefined), builds.diagnosticCount(latest.id, 'error')]
        : null,
      diagnostics: latest
        ? [builds.diagnostics(latest.id, undefined, 10), builds.diagnostics(latest.id, 'warning', 10)]
        : null,
      activeVariants: builds.activeVariants(root),
      activeVariant: builds.activeVariant(root, ':app'),
      mappings: [
        new BuildMappingIndex(provider).recentMappings(),
        new BuildMappingIndex(provider).recentMappings({ projectRoot: root, limit: 3 }),
        latest ? new BuildMappingIndex(provider).mappingsOfBuild(latest.id) : null,
      ],
      artifacts: [
        new BuildArtifactIndex(provider).findBuildsByApkHash(sha),
        new BuildArtifactIndex(provider).findBuildsByApkHash(sha, { projectRoot: root }),
      ],
    },
    crashes: {
      groups,
      filtered: crashes.groups({ packages: ['com.example.notes'], device: 'emulator-5554', offset: 0, limit: 10 }),
      none: crashes.groups({ packages: [], device: null, offset: 0, limit: 10 }),
      group: group ? crashes.group(group.group_id) : null,
      groupBuilds: group ? crashes.builds(group.group_id) : null,
      newest: [
        crashes.newest({}),
        crashes.newest({ packages: ['com.example.notes'], device: 'emulator-5556' }),
        group ? crashes.newest({ groupId: group.group_id }) : null,
      ],
      crash: group ? crashes.crash(group.last_seq) : null,
    },
    devices: [readDevices(store), readDevices(store, 'laptop-a'), readDevices(store, 'laptop-b')],
    installed: [
      readInstalledBuilds(store),
      readInstalledBuilds(store, { device: 'emulator-5554' }),
      readInstalledBuilds(store, { package: 'com.example.notes' }),
      readInstalledBuilds(store, { host: 'laptop-a' }),
      readInstalledBuilds(store, { device: 'emulator-5554', host: 'laptop-b' }),
    ],
    debugSessions: {
      sessions,
      open: debug.list({ limit: 50, state: 'open' } as Parameters<DebugSessionReader['list']>[0], NOW),
      idle: debug.list({ limit: 50, state: 'idle' } as Parameters<DebugSessionReader['list']>[0], NOW),
      crashing: debug.list({ limit: 50, only_crashing: true } as Parameters<DebugSessionReader['list']>[0], NOW),
      hasOpen: debug.hasOpenSession('emulator-5554', 'com.example.notes'),
      newestInstall: debug.newestInstall('emulator-5554', 'com.example.notes'),
      detail: firstSession ? debug.get(firstSession, NOW) : null,
      timeline: firstSession ? debug.timeline(firstSession, { max: 50 }) : null,
      crashes: firstSession ? debug.crashes(firstSession) : null,
      compare: sessions.sessions.length >= 2 ? attempt(() => debug.compare()) : null,
      bundle: firstSession ? bundleRoundTrip(store, firstSession) : null,
    },
    mcp: {
      all: mcp.sessions({ includeEnded: true, limit: 10 }),
      open: mcp.sessions({ includeEnded: false, limit: 10 }),
      counts: [mcp.count(true), mcp.count(false)],
    },
    trust: { list: trust.list(), trusted: trust.isTrusted(root) },
    trace: {
      session: resolveSession(store, 's1'),
      sessionTrace: attempt(() => traceOf(store, 'session', 's1')),
      buildTrace: latest ? attempt(() => traceOf(store, 'build', latest.id)) : null,
    },
    dashboard: dashboardView,
  };
  return JSON.parse(JSON.stringify(answers)) as Record<string, unknown>;
}

/** A reader that throws (a ToolError for a pair it cannot choose) answers with its message on both stores. */
function attempt<T>(fn: () => T): T | { error: string } {
  try {
    return fn();
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function bundleRoundTrip(store: EventStore, sessionId: string): unknown {
  const head = store.readAfter(store.lastSeq() - 1, 1)[0];
  return attempt(() => {
    const bundle = exportBundle(store, sessionId, { seq: head.seq, hash: head.hash, at: head.at }, new Date(NOW));
    return { bundle, verdict: verifyBundle(store, JSON.parse(JSON.stringify(bundle))) };
  });
}

/** The side-table writers through writeTables, then what they left, read back. */
function writeSideTables(store: EventStore): unknown {
  const builds = new BuildHistory(() => store);
  builds.setCurrentTask('b1', ':app:compileDebugKotlin');
  builds.setCurrentTask('b1', ':app:assembleDebug');
  const task = builds.currentTask('b1');
  builds.clearLive('b1');
  const lease = new LogcatLease(store);
  const me = { pid: process.pid, startTime: null };
  const other = { pid: process.pid, startTime: '12345' };
  const steps = {
    task,
    cleared: builds.currentTask('b1'),
    claim: lease.claim('emulator-5554', me, cli, () => true),
    handOver: lease.handOver('emulator-5554', me, other),
    streaming: lease.markStreaming('emulator-5554', other),
    wrongHolder: lease.markStreaming('emulator-5554', me),
    progress: lease.progress('emulator-5554', other, 1_000, 2_000),
    touch: [lease.touch('emulator-5554', 5_000), lease.touch('emulator-5554', 4_000)],
    stop: lease.requestStop('emulator-5554', cli),
    finish: lease.finish('emulator-5554', other),
  };
  // startedAt/touchedAt are the claim's clock (Date.now), different on each run; the rest must match.
  const row = lease.read('emulator-5554');
  const { startedAt, touchedAt, ...kept } = row ?? ({} as Record<string, unknown>);
  return JSON.parse(JSON.stringify({ steps, row: kept, clock: [typeof startedAt, typeof touchedAt] }));
}

test('every reader gives the same answer on SQLite and PostgreSQL for the same log', () => {
  const { sqlite, postgres } = openStores();
  try {
    const expected = readEverything(sqlite);
    // Not vacuous: the log reaches every read model.
    const crashes = expected.crashes as { groups: { total: number } };
    expect(crashes.groups.total).toBeGreaterThan(0);
    expect((expected.debugSessions as { sessions: { total: number } }).sessions.total).toBeGreaterThan(0);
    expect((expected.builds as { count: number }).count).toBeGreaterThan(0);
    expect(readEverything(postgres)).toEqual(expected);
  } finally {
    sqlite.close();
    postgres.close();
  }
});

test('the side-table writers (build_live, logcat_workers) behave the same on both stores', () => {
  const { sqlite, postgres } = openStores();
  try {
    const expected = writeSideTables(sqlite);
    expect(expected).toMatchObject({ steps: { task: ':app:assembleDebug', cleared: null, stop: true } });
    expect(writeSideTables(postgres)).toEqual(expected);
  } finally {
    sqlite.close();
    postgres.close();
  }
});
