import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStore } from '../../../src/events/event-store.js';
import type { ProcessIdentity } from '../../../src/kernel/process-identity.js';
import { UiCaptureLock } from '../../../src/plugins/ui/services/ui-capture-lock.js';
import { uiTables } from '../../../src/plugins/ui/ui-tables.js';
import { testCatalog } from '../../support/event-store-fixtures.js';

const P1: ProcessIdentity = { pid: 111, startTime: '5000' };
const P2: ProcessIdentity = { pid: 222, startTime: '6000' };
const alive = () => true;
const dead = () => false;

describe('UiCaptureLock across hosts', () => {
  let dir: string;
  let store: EventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-uilock-'));
    store = EventStore.open({ path: join(dir, 'events.db'), catalog: testCatalog(), tables: uiTables });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets one capture per device and host run: the same serial on two machines is two devices', () => {
    const laptopA = new UiCaptureLock(store, P1, alive, 'laptop-a');
    const laptopB = new UiCaptureLock(store, P2, alive, 'laptop-b');
    const a = laptopA.tryAcquire('emulator-5554');
    expect(a.acquired).toBe(true);
    expect(laptopB.tryAcquire('emulator-5554').acquired).toBe(true);
    // The same host twice cannot.
    expect(new UiCaptureLock(store, P2, alive, 'laptop-a').tryAcquire('emulator-5554')).toMatchObject({
      acquired: false,
      holder: { host: 'laptop-a', deviceSerial: 'emulator-5554', pid: 111 },
    });
    // A release names its host: laptop B's cannot free laptop A's row.
    if (a.acquired) laptopB.release('emulator-5554', a.token);
    expect(new UiCaptureLock(store, P2, alive, 'laptop-a').tryAcquire('emulator-5554').acquired).toBe(false);
    if (a.acquired) laptopA.release('emulator-5554', a.token);
    expect(new UiCaptureLock(store, P2, alive, 'laptop-a').tryAcquire('emulator-5554').acquired).toBe(true);
  });

  it('never takes over a capture on another machine because its pid is absent here', () => {
    expect(
      new UiCaptureLock(store, { pid: 2 ** 22 + 999, startTime: '1' }, alive, 'laptop-a').tryAcquire('s1'),
    ).toMatchObject({
      acquired: true,
    });
    // On laptop B the row of laptop A is not looked at, so it is neither waited for nor replaced.
    expect(new UiCaptureLock(store, P2, dead, 'laptop-b').tryAcquire('s1').acquired).toBe(true);
    expect(store.prepareRead('SELECT host, pid FROM ui_capture_locks ORDER BY host').all()).toEqual([
      { host: 'laptop-a', pid: 2 ** 22 + 999 },
      { host: 'laptop-b', pid: 222 },
    ]);
    // On its own host the dead holder's row is taken over.
    expect(new UiCaptureLock(store, P1, dead, 'laptop-a').tryAcquire('s1').acquired).toBe(true);
    expect(store.prepareRead("SELECT pid FROM ui_capture_locks WHERE host = 'laptop-a'").get()).toEqual({ pid: 111 });
  });

  it('opens a log whose lock table has no host, rebuilding it keyed by host', () => {
    const path = join(dir, 'old.db');
    const first = EventStore.open({ path, catalog: testCatalog(), tables: [] });
    first.close();
    const old = new Database(path);
    old.exec(
      'CREATE TABLE ui_capture_locks (device_serial TEXT PRIMARY KEY, token TEXT NOT NULL, pid INTEGER NOT NULL, pid_start TEXT, started_at INTEGER NOT NULL)',
    );
    old
      .prepare(
        "INSERT INTO store_table_steps (table_name, step, owner, applied_at) VALUES ('ui_capture_locks', 1, 'ui', 0)",
      )
      .run();
    old.prepare("INSERT INTO ui_capture_locks VALUES ('s1', 't', 424242, NULL, 1)").run();
    old.close();
    const upgraded = EventStore.open({ path, catalog: testCatalog(), tables: uiTables });
    try {
      expect(
        (upgraded.prepareRead('PRAGMA table_info(ui_capture_locks)').all() as { name: string }[]).map((c) => c.name),
      ).toEqual(['host', 'device_serial', 'token', 'pid', 'pid_start', 'started_at']);
      // A capture lasts seconds: one in flight while droidwright was upgraded is not carried over.
      expect(upgraded.prepareRead('SELECT * FROM ui_capture_locks').all()).toEqual([]);
      expect(new UiCaptureLock(upgraded, P1, alive, 'laptop-a').tryAcquire('s1').acquired).toBe(true);
    } finally {
      upgraded.close();
    }
  });
});
