import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EventStore } from '../../../src/events/event-store.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/kernel/settings.js';
import { BuildFinished, BuildStarted } from '../../../src/plugins/build/build.events.js';
import { MAX_DEBUG_SESSIONS, MAX_TIMELINE_ROWS } from '../../../src/plugins/core/debug-sessions.projection.js';
import { exportBundle, verifyBundle } from '../../../src/plugins/core/services/debug-session-bundle.js';
import { DebugSessionReader } from '../../../src/plugins/core/services/debug-session-reader.js';
import { AppInstalled, AppLaunched } from '../../../src/plugins/device-admin/device-admin.events.js';
import { AppCrashed } from '../../../src/plugins/logcat/logcat.events.js';
import type { Actor } from '../../../src/shared/actor.js';
import { assembleStartedData, successfulBuildData } from '../../support/build-events.js';
import { removeTempDirs, tempDir } from '../../support/event-store-fixtures.js';
import { type GivenEvent, given, openPluginStore, tableRows } from '../../support/projection-spec.js';
import { bundleWorker } from '../events/bundle-worker.js';

// The debug sessions read model through the real store: attribution, derived idle, errors, the compare default, and
// the export bundle an auditor verifies against the log (and which fails once edited).

const agent: Actor = { kind: 'agent', session: 'sess-1', client: 'jest', pid: process.pid };
const system: Actor = { kind: 'system', pid: process.pid };
const PKG = 'com.example.notes';
const SERIAL = 'emulator-5554';
const sha = (c: string) => c.repeat(64);

afterAll(removeTempDirs);

function reader(store: EventStore): DebugSessionReader {
  const settings = { get: () => DEFAULT_SETTINGS } as unknown as Settings;
  return new DebugSessionReader(() => store, settings);
}

function build(store: EventStore, dir: string, id: string, source: string): void {
  const logPath = join(dir, `${id}.log`);
  writeFileSync(logPath, `> Task :app:assembleDebug ${id}\nBUILD SUCCESSFUL\n`);
  const started = assembleStartedData({ buildId: id, projectRoot: dir, variant: 'debug', logPath });
  store.append(
    BuildStarted,
    {
      ...started,
      provenance: {
        ...started.provenance,
        sources: {
          files: [{ path: 'app/src/main/kotlin/NoteStore.kt', sha256: sha(source) }],
          files_total: 1,
          files_omitted: 0,
          unhashed: 0,
          sha256: sha(source),
        },
      },
    },
    { stream: `build:${id}`, correlation: id, actor: agent },
  );
  const finished = successfulBuildData({ buildId: id, apks: [], logPath });
  const log = `> Task :app:assembleDebug ${id}\nBUILD SUCCESSFUL\n`;
  store.append(
    BuildFinished,
    { ...finished, log: { ...finished.log, sha256: createHash('sha256').update(log).digest('hex') } },
    { stream: `build:${id}`, correlation: id, actor: agent },
  );
}

function install(store: EventStore, buildId: string, apk: string): number {
  return store.append(
    AppInstalled,
    {
      device_serial: SERIAL,
      package: PKG,
      apk_path: '/p/app-debug.apk',
      apk_sha256: sha(apk),
      apk_size: 10,
      version_code: 15,
      version_name: '1.5.0',
      build_id: buildId,
      module: ':app',
      variant: 'debug',
      duration_ms: 5,
      run_configuration: 'app debug',
    },
    { stream: `device:${SERIAL}`, device: SERIAL, package: PKG, actor: agent },
  ).seq;
}

function launch(store: EventStore, ms: number): void {
  store.append(
    AppLaunched,
    {
      device_serial: SERIAL,
      package: PKG,
      activity: `${PKG}/.NotesActivity`,
      method: 'component',
      total_ms: ms,
      wait_ms: ms,
      launch_state: 'COLD',
    },
    { stream: `device:${SERIAL}`, device: SERIAL, package: PKG, actor: agent },
  );
}

function crash(store: EventStore, installedSeq: number | null): void {
  store.append(
    AppCrashed,
    {
      device_serial: SERIAL,
      package: PKG,
      pid: 4242,
      process: PKG,
      signature: 'java:java.lang.IllegalStateException@NoteStore.requireOpen',
      signature_hash: '1111111111111111',
      time_ms: 1,
      first_line_seq: null,
      last_line_seq: null,
      lines: [
        'E AndroidRuntime: FATAL EXCEPTION: main',
        'E AndroidRuntime: java.lang.IllegalStateException: Note store is not initialised',
      ],
      truncated: false,
      build:
        installedSeq === null
          ? null
          : { build_id: 'b1', apk_sha256: sha('a'), version_code: 15, variant: 'debug', installed_seq: installedSeq },
      thread: 'main',
      exception_class: 'java.lang.IllegalStateException',
      message: 'Note store is not initialised',
      r8_map_ids: [],
    },
    { stream: `device:${SERIAL}`, device: SERIAL, package: PKG, actor: system },
  );
}

describe('debug sessions', () => {
  let dir: string;
  let store: EventStore;
  let first: string;
  let second: string;

  beforeAll(() => {
    dir = tempDir('droidwright-debug-sessions-');
    store = openPluginStore(join(dir, 'events.db'));
    build(store, dir, 'b1', 'a');
    const s1 = install(store, 'b1', 'a');
    launch(store, 420);
    crash(store, s1);
    crash(store, null);
    build(store, dir, 'b2', 'b');
    const s2 = install(store, 'b2', 'b');
    launch(store, 380);
    first = `ds-${s1}`;
    second = `ds-${s2}`;
  });
  afterAll(() => store.close());

  test('one session per install, newest first; the earlier one superseded, with its build and installer', () => {
    const { sessions, total } = reader(store).list({ limit: 10 });
    expect(total).toBe(2);
    expect(sessions.map((s) => [s.session_id, s.state, s.launches, s.crashes])).toEqual([
      [second, 'open', 1, 0],
      [first, 'superseded', 1, 2],
    ]);
    const detail = reader(store).get(first);
    expect(detail).toMatchObject({
      superseded_by: second,
      installed_by: { kind: 'agent', client: 'jest', session: 'sess-1' },
      run_configuration: 'app debug',
      build: { build_id: 'b1', tasks: [':app:assembleDebug'], status: 'success' },
    });
  });

  test('idle is derived when read, never stored', () => {
    const later = Date.now() + 31 * 60_000;
    expect(reader(store).list({ limit: 10 }, later).sessions[0]!.state).toBe('idle');
    expect(reader(store).list({ limit: 10, state: 'idle' }, later).total).toBe(1);
    expect(reader(store).list({ limit: 10, state: 'open' }).total).toBe(1);
    expect(
      reader(store)
        .list({ limit: 10, only_crashing: true })
        .sessions.map((s) => s.session_id),
    ).toEqual([first]);
  });

  test('crashes: verified when the crash names this install, else attributed by device, package and time', () => {
    const crashes = reader(store).crashes(first);
    expect(crashes.map((c) => c.verified)).toEqual([true, false]);
    expect(crashes[1]!.attribution).toMatch(/names no installed build/);
    expect(crashes[0]!.lines[1]).toMatch(/Note store is not initialised/);
  });

  test('unknown ids are SESSION_NOT_FOUND with a next step', () => {
    expect(() => reader(store).get('ds-1')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
    expect(() => reader(store).get('nonsense')).toThrow(/ids look like ds-42/);
  });

  test('compare with no ids: the crashing session against the fixed one, crash gone, changed source file named', () => {
    const { from, to, comparison, chosen } = reader(store).compare();
    expect([from.session_id, to.session_id, chosen]).toEqual([first, second, true]);
    expect(comparison.crashes.gone.map((c) => c.title)).toEqual([
      'java.lang.IllegalStateException: Note store is not initialised',
    ]);
    expect(comparison.changed_files.files).toEqual([{ path: 'app/src/main/kotlin/NoteStore.kt', change: 'modified' }]);
    expect(comparison.launch).toEqual({ from_ms: 420, to_ms: 380, delta_ms: -40 });
  });

  test('an exported bundle verifies against the log; an edited one does not; the log still verifies', () => {
    const bundle = exportBundle(store, first, store.digest());
    expect(bundle.build_log?.included).toBe('full');
    const roundTrip = JSON.parse(JSON.stringify(bundle));
    expect(verifyBundle(store, roundTrip)).toMatchObject({ ok: true, problems: [] });

    const editedEvent = JSON.parse(JSON.stringify(bundle));
    const crashEvent = editedEvent.events.find((e: { type: string }) => e.type === 'app.crashed');
    crashEvent.data = crashEvent.data.replace('not initialised', 'fine');
    expect(verifyBundle(store, editedEvent).problems).toContain(
      `event seq ${crashEvent.seq}: its content does not match its hash (edited)`,
    );

    const editedSession = JSON.parse(JSON.stringify(bundle));
    editedSession.session.crashes = 0;
    expect(verifyBundle(store, editedSession).problems).toEqual(['the session row differs from what its events give']);

    const droppedEvent = JSON.parse(JSON.stringify(bundle));
    droppedEvent.events = droppedEvent.events.filter((e: { type: string }) => e.type !== 'app.crashed');
    expect(verifyBundle(store, droppedEvent).ok).toBe(false);

    const editedLog = JSON.parse(JSON.stringify(bundle));
    editedLog.build_log.base64 = Buffer.from('BUILD FAILED\n').toString('base64');
    expect(verifyBundle(store, editedLog).problems).toEqual(['the build log differs from the one its build recorded']);

    expect(store.verify({ projections: true })).toMatchObject({ ok: true });
  });
});

test('a pruned session is SESSION_PRUNED, not unknown', () => {
  const dir = tempDir('droidwright-debug-sessions-pruned-');
  const store = openPluginStore(join(dir, 'events.db'));
  try {
    const installs = Array.from({ length: MAX_DEBUG_SESSIONS + 1 }, (_, i) => ({
      type: AppInstalled.type,
      data: {
        device_serial: SERIAL,
        package: PKG,
        apk_path: '/p/app-debug.apk',
        apk_sha256: sha('a'),
        apk_size: 10,
        version_code: i,
        version_name: null,
        build_id: null,
        module: null,
        variant: null,
        duration_ms: 5,
      },
      stream: `device:${SERIAL}`,
      device: SERIAL,
      package: PKG,
      actor: agent,
    }));
    const stored = store.appendMany(installs);
    const sessions = reader(store);
    expect(sessions.list({ limit: 1 }).total).toBe(MAX_DEBUG_SESSIONS);
    expect(() => sessions.get(`ds-${stored[0]!.seq}`)).toThrow(expect.objectContaining({ code: 'SESSION_PRUNED' }));
    expect(sessions.get(`ds-${stored[1]!.seq}`).state).toBe('superseded');
  } finally {
    store.close();
  }
});

test('a session keeps its newest timeline rows and every crash, counting what it dropped', () => {
  const dir = tempDir('droidwright-debug-sessions-timeline-');
  const store = openPluginStore(join(dir, 'events.db'));
  try {
    const id = `ds-${install(store, 'b0', 'a')}`;
    crash(store, null);
    const launches = Array.from({ length: MAX_TIMELINE_ROWS + 1 }, () => ({
      type: AppLaunched.type,
      data: {
        device_serial: SERIAL,
        package: PKG,
        activity: null,
        method: 'component',
        total_ms: 100,
        wait_ms: 100,
        launch_state: 'WARM',
      },
      stream: `device:${SERIAL}`,
      device: SERIAL,
      package: PKG,
      actor: agent,
    }));
    store.appendMany(launches);
    const session = reader(store).get(id);
    expect([session.timeline_rows, session.timeline_dropped, session.launches]).toEqual([
      MAX_TIMELINE_ROWS,
      2,
      MAX_TIMELINE_ROWS + 1,
    ]);
    expect(reader(store).crashes(id)).toHaveLength(1);
  } finally {
    store.close();
  }
});

test('two processes installing and launching at once: a rebuild from the log equals the live sessions', async () => {
  const writer = await bundleWorker('projection-writer.ts');
  const dir = tempDir('droidwright-debug-sessions-concurrent-');
  const path = join(dir, 'events.db');
  try {
    openPluginStore(path).close();
    // Each process works its own device, round after round: install, then launch; both write the one log.
    const script = (serial: string): GivenEvent[] =>
      Array.from({ length: 15 }, (_, round) => [
        given(
          AppInstalled,
          {
            device_serial: serial,
            package: PKG,
            apk_path: '/p/app-debug.apk',
            apk_sha256: sha('a'),
            apk_size: 10,
            version_code: round,
            version_name: null,
            build_id: null,
            module: ':app',
            variant: 'debug',
            duration_ms: 5,
          },
          { stream: `device:${serial}`, device: serial, package: PKG, actor: agent },
        ),
        given(
          AppLaunched,
          {
            device_serial: serial,
            package: PKG,
            activity: null,
            method: 'component',
            total_ms: 100 + round,
            wait_ms: 100,
            launch_state: 'COLD',
          },
          { stream: `device:${serial}`, device: serial, package: PKG, actor: agent },
        ),
      ]).flat();
    const run = (serial: string) => {
      const file = join(dir, `${serial}.json`);
      writeFileSync(file, JSON.stringify(script(serial)));
      return new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [writer, path, file], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.once('error', reject);
        child.once('close', () => resolve(out));
      });
    };
    expect(await Promise.all([run('emulator-5554'), run('emulator-5556')])).toEqual(['appended 30\n', 'appended 30\n']);
    const store = openPluginStore(path);
    try {
      const tables = ['debug_sessions', 'debug_session_timeline', 'debug_session_builds', 'debug_sessions_pruned'];
      const live = tableRows(store, tables);
      expect(live.debug_sessions).toHaveLength(30);
      expect(reader(store).list({ limit: 50, state: 'open' }).total).toBe(2);
      store.rebuildProjections(['debug_sessions']);
      expect(tableRows(store, tables)).toEqual(live);
    } finally {
      store.close();
    }
  } finally {
    rmSync(dirname(writer), { recursive: true, force: true });
  }
}, 60_000);
