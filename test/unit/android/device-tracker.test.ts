import { DeviceTracker, diffDevices, type ObservedDevice } from '../../../src/android/device-tracker.js';
import { DeviceConnected, deviceEvents } from '../../../src/android/device.events.js';
import { type DeviceRow, devicesProjection, readDevices } from '../../../src/android/devices.projection.js';
import { EventCatalog } from '../../../src/events/event-catalog.js';
import { EventStore } from '../../../src/events/event-store.js';
import type { Actor } from '../../../src/shared/actor.js';
import { removeTempDirs, tempStorePath } from '../../support/event-store-fixtures.js';

const row = (serial: string, state: string, connected = 1): DeviceRow => ({
  host: '',
  serial,
  state,
  connected,
  kind: 'emulator',
  model: null,
  manufacturer: null,
  api_level: null,
  abi: null,
  avd_name: null,
  first_seen: 1,
  last_seen: 1,
});
const seen = (serial: string, state: string): ObservedDevice => ({
  serial,
  state,
  kind: 'emulator',
  model: 'M',
  manufacturer: null,
  apiLevel: 34,
  abi: null,
  avdName: 'A',
});

describe('diffDevices', () => {
  it('records arrivals, departures and state changes, and nothing when nothing changed', () => {
    expect(diffDevices([row('a', 'device')], [seen('a', 'device')])).toEqual([]);
    const changes = diffDevices(
      [row('a', 'device'), row('b', 'device'), row('gone', 'offline', 0)],
      [seen('a', 'offline'), seen('c', 'device'), seen('gone', 'device')],
    );
    expect(changes.map((c) => [c.type, c.serial])).toEqual([
      ['device.state_changed', 'a'],
      ['device.connected', 'c'],
      ['device.connected', 'gone'],
      ['device.disconnected', 'b'],
    ]);
    expect(changes[0]!.data).toMatchObject({ from: 'device', to: 'offline', model: 'M', api_level: 34, avd_name: 'A' });
    expect(changes[3]!.data).toEqual({ serial: 'b', last_state: 'device' });
  });
});

describe('DeviceTracker on a log shared by two machines', () => {
  const saved = process.env.DROIDWRIGHT_HOST;
  let store: EventStore;
  beforeEach(() => {
    store = EventStore.open({
      path: tempStorePath(),
      catalog: new EventCatalog(deviceEvents),
      projections: [devicesProjection],
    });
  });
  afterEach(() => {
    store.close();
    if (saved === undefined) delete process.env.DROIDWRIGHT_HOST;
    else process.env.DROIDWRIGHT_HOST = saved;
  });
  afterAll(() => removeTempDirs());

  const tracker = () => new DeviceTracker(() => store);
  const agent: Actor = { kind: 'agent', session: 's', client: 'jest', pid: process.pid };
  /** One listing of adb on `host`: the changes it records, as [type, serial]. */
  const look = (host: string, observed: ObservedDevice[]) => {
    process.env.DROIDWRIGHT_HOST = host;
    const append = store.append.bind(store) as Parameters<DeviceTracker['record']>[1]['append'];
    return tracker()
      .record(observed, { append, actor: { ...agent, host } })
      .map((c) => [c.type, c.serial]);
  };
  const changesOn = () => store.query({ order: 'asc', limit: 100 }).map((e) => [e.actor.host, e.type, e.device]);

  it("keeps each machine's emulator-5554 apart and never disconnects another machine's devices", () => {
    expect(look('laptop-a', [seen('emulator-5554', 'device'), seen('emulator-5556', 'device')])).toEqual([
      ['device.connected', 'emulator-5554'],
      ['device.connected', 'emulator-5556'],
    ]);
    // Laptop B's adb lists only its own emulator-5554: A's emulator-5556 is not B's to disconnect.
    expect(look('laptop-b', [seen('emulator-5554', 'offline')])).toEqual([['device.connected', 'emulator-5554']]);
    // Each looks again with nothing changed on its desk: nothing to record, no back and forth.
    expect(look('laptop-a', [seen('emulator-5554', 'device'), seen('emulator-5556', 'device')])).toEqual([]);
    expect(look('laptop-b', [seen('emulator-5554', 'offline')])).toEqual([]);
    // B's emulator going away is B's alone.
    expect(look('laptop-b', [])).toEqual([['device.disconnected', 'emulator-5554']]);
    expect(look('laptop-a', [seen('emulator-5554', 'device'), seen('emulator-5556', 'device')])).toEqual([]);
    expect(changesOn()).toEqual([
      ['laptop-a', 'device.connected', 'emulator-5554'],
      ['laptop-a', 'device.connected', 'emulator-5556'],
      ['laptop-b', 'device.connected', 'emulator-5554'],
      ['laptop-b', 'device.disconnected', 'emulator-5554'],
    ]);
    const view = (host: string) => readDevices(store, host).map((r) => [r.host, r.serial, r.state, r.connected]);
    expect(view('laptop-a')).toEqual([
      ['laptop-a', 'emulator-5554', 'device', 1],
      ['laptop-a', 'emulator-5556', 'device', 1],
    ]);
    expect(view('laptop-b')).toEqual([['laptop-b', 'emulator-5554', 'disconnected', 0]]);
    expect(view('laptop-c')).toEqual([]);
  });

  it("reads rows from before hosts were named as this machine's, until this machine records its own", () => {
    // A single-machine log from before hosts: its events carry no host.
    const legacy: Actor = { kind: 'system', pid: process.pid };
    const meta = (serial: string) => ({ stream: `device:${serial}`, device: serial, actor: legacy });
    for (const serial of ['emulator-5554', 'emulator-5556'])
      store.append(
        DeviceConnected,
        {
          serial,
          state: 'device',
          kind: 'emulator',
          model: 'M',
          manufacturer: null,
          api_level: 34,
          abi: null,
          avd_name: 'A',
        },
        meta(serial),
      );
    // The machine that wrote them, upgraded: emulator-5554 is still there, emulator-5556 is gone.
    expect(look('laptop-a', [seen('emulator-5554', 'device')])).toEqual([['device.disconnected', 'emulator-5556']]);
    expect(look('laptop-a', [seen('emulator-5554', 'device')])).toEqual([]);
    const a = readDevices(store, 'laptop-a');
    expect(a.map((r) => [r.host, r.serial, r.state, r.connected])).toEqual([
      ['', 'emulator-5554', 'device', 1],
      ['laptop-a', 'emulator-5556', 'disconnected', 0],
    ]);
    // The copied row keeps what the old one knew: its first sighting and details.
    const old = readDevices(store, 'laptop-z').find((r) => r.serial === 'emulator-5556')!;
    expect(a[1]).toMatchObject({ first_seen: old.first_seen, model: 'M', api_level: 34 });
    expect(look('laptop-a', [])).toEqual([['device.disconnected', 'emulator-5554']]);
    expect(readDevices(store, 'laptop-a').map((r) => [r.host, r.serial, r.connected])).toEqual([
      ['laptop-a', 'emulator-5554', 0],
      ['laptop-a', 'emulator-5556', 0],
    ]);
    // A rebuild from the log gives the same rows.
    const rows = () => store.prepareRead('SELECT * FROM devices ORDER BY host, serial').all();
    const live = rows();
    store.rebuildProjections(['devices']);
    expect(rows()).toEqual(live);
  });
});
