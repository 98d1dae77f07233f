import { diffDevices, type ObservedDevice } from '../../../src/android/device-tracker.js';
import type { DeviceRow } from '../../../src/android/devices.projection.js';

const row = (serial: string, state: string, connected = 1): DeviceRow => ({
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
