import { EventStore } from '../../../src/events/event-store.js';
import type { Settings } from '../../../src/kernel/settings.js';
import { debugSessionsProjection } from '../../../src/plugins/core/debug-sessions.projection.js';
import { DebugSessionReader } from '../../../src/plugins/core/services/debug-session-reader.js';
import { removeTempDirs, tempStorePath } from '../../support/event-store-fixtures.js';
import { installed, javaCrash } from '../../support/projection-cases.js';
import { appendGiven, pluginCatalog } from '../../support/projection-spec.js';

// Two laptops sharing a log each have an emulator-5554: an install on one must not supersede the other's
// session, and a crash on one belongs to that laptop's install only.
describe('debug sessions on a log shared by two machines', () => {
  let store: EventStore;
  beforeEach(() => {
    store = EventStore.open({
      path: tempStorePath(),
      catalog: pluginCatalog(),
      projections: [debugSessionsProjection],
    });
  });
  afterEach(() => store.close());
  afterAll(() => removeTempDirs());

  const sessions = () =>
    store
      .prepareRead('SELECT session_id, install_seq, host, state, crashes FROM debug_sessions ORDER BY install_seq')
      .all();

  it('keeps each machine its sessions, and reaches sessions from before hosts from the machine that goes on', () => {
    appendGiven(store, pluginCatalog(), [
      installed('emulator-5554', 1, 'b1'), // seq 1: before hosts were named
      installed('emulator-5554', 1, 'b1', 'laptop-a'), // 2: supersedes 1 (read as laptop-a's)
      installed('emulator-5554', 2, null, 'laptop-b'), // 3: laptop-b's own device; laptop-a's session stays open
      javaCrash('emulator-5554', null, 'laptop-b'), // 4: laptop-b's session only
    ]);
    expect(sessions()).toEqual([
      { session_id: expect.any(String), install_seq: 1, host: '', state: 'superseded', crashes: 0 },
      { session_id: expect.any(String), install_seq: 2, host: 'laptop-a', state: 'open', crashes: 0 },
      { session_id: expect.any(String), install_seq: 3, host: 'laptop-b', state: 'open', crashes: 1 },
    ]);
    const settings = { get: () => ({ debugSessionIdleMinutes: 30 }) } as unknown as Settings;
    const reader = new DebugSessionReader(() => store, settings);
    expect(reader.newestInstall('emulator-5554', 'com.example.notes', 'laptop-a')?.version_code).toBe(1);
    expect(reader.newestInstall('emulator-5554', 'com.example.notes', 'laptop-b')?.version_code).toBe(2);
    expect(reader.hasOpenSession('emulator-5554', 'com.example.notes', 'laptop-c')).toBe(false);
    const listed = reader.list({ limit: 10 } as Parameters<DebugSessionReader['list']>[0]).sessions;
    expect(listed.map((s) => s.installed_by.host ?? null)).toEqual(['laptop-b', 'laptop-a', null]);
    expect(listed[0]).not.toHaveProperty('host');
    // A device filter means that machine's device (and the sessions from before hosts were named).
    const onDevice = (host: string) =>
      reader
        .list(
          { limit: 10, device_serial: 'emulator-5554' } as Parameters<DebugSessionReader['list']>[0],
          Date.now(),
          host,
        )
        .sessions.map((s) => s.installed_by.host ?? null);
    expect(onDevice('laptop-a')).toEqual(['laptop-a', null]);
    expect(onDevice('laptop-b')).toEqual(['laptop-b', null]);

    const tables = debugSessionsProjection.tables.map((t) => store.prepareRead(`SELECT * FROM ${t}`).all());
    store.rebuildProjections(['debug_sessions']);
    expect(debugSessionsProjection.tables.map((t) => store.prepareRead(`SELECT * FROM ${t}`).all())).toEqual(tables);
  });
});
