import { inject, injectable } from 'inversify';
import type { EventAppender } from '../events/event-definition.js';
import { describeActor, systemActor, type Actor } from '../shared/actor.js';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import {
  DeviceConnected,
  type DeviceConnectedData,
  DeviceDisconnected,
  type DeviceDisconnectedData,
  DeviceStateChanged,
  type DeviceStateChangedData,
} from './device.events.js';
import type { DeviceKind } from './device-kind.js';
import { readDevices, type DeviceRow } from './devices.projection.js';

/** What a listing knows about one device; details are null unless it is online. */
export interface ObservedDevice {
  readonly serial: string;
  readonly state: string;
  readonly kind: DeviceKind;
  readonly model: string | null;
  readonly manufacturer: string | null;
  readonly apiLevel: number | null;
  readonly abi: string | null;
  readonly avdName: string | null;
}

/** One event to record, its data typed by the event it becomes. */
export type DeviceChange =
  | { readonly type: 'device.connected'; readonly serial: string; readonly data: DeviceConnectedData }
  | { readonly type: 'device.disconnected'; readonly serial: string; readonly data: DeviceDisconnectedData }
  | { readonly type: 'device.state_changed'; readonly serial: string; readonly data: DeviceStateChangedData };

type DeviceDetails = Pick<DeviceConnectedData, 'kind' | 'model' | 'manufacturer' | 'api_level' | 'abi' | 'avd_name'>;

function details(d: ObservedDevice): DeviceDetails {
  return {
    kind: d.kind,
    model: d.model,
    manufacturer: d.manufacturer,
    api_level: d.apiLevel,
    abi: d.abi,
    avd_name: d.avdName,
  };
}

/** The events that bring the `devices` read model in line with what adb lists now. Pure, so it is tested alone. */
export function diffDevices(known: readonly DeviceRow[], observed: readonly ObservedDevice[]): DeviceChange[] {
  const changes: DeviceChange[] = [];
  const bySerial = new Map(known.map((row) => [row.serial, row]));
  for (const d of observed) {
    const row = bySerial.get(d.serial);
    if (!row || row.connected === 0) {
      changes.push({
        type: 'device.connected',
        serial: d.serial,
        data: { serial: d.serial, state: d.state, ...details(d) },
      });
    } else if (row.state !== d.state) {
      changes.push({
        type: 'device.state_changed',
        serial: d.serial,
        data: { serial: d.serial, from: row.state, to: d.state, ...details(d) },
      });
    }
  }
  const listed = new Set(observed.map((d) => d.serial));
  for (const row of known) {
    if (row.connected === 1 && !listed.has(row.serial)) {
      changes.push({
        type: 'device.disconnected',
        serial: row.serial,
        data: { serial: row.serial, last_state: row.state },
      });
    }
  }
  return changes;
}

/**
 * Records device arrivals, departures and state changes whenever a tool lists devices: no daemon, the
 * log catches up the next time anyone looks. Two processes looking at once may both record an
 * arrival; the projection treats the second as a refresh.
 */
/** The tool call that looked at adb: where to append, and who it was. */
export interface DeviceObserver {
  readonly append: EventAppender;
  readonly actor: Actor;
}

@injectable()
export class DeviceTracker {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  /** This machine's devices as the log knows them; another machine's serials are its own business. */
  known(): DeviceRow[] {
    return readDevices(this.store());
  }

  /**
   * Devices come and go on their own: the change is recorded as the system's, with the agent whose
   * call noticed it in `observed_by`, so an auditor never reads "agent X connected device Y".
   */
  record(observed: readonly ObservedDevice[], observer: DeviceObserver): DeviceChange[] {
    // adb lists this machine's devices only: compare them with this host's rows, and record the changes as
    // this host's (the projection keys rows by the actor's host), so a laptop sharing the log never
    // disconnects another's devices, and two laptops' emulator-5554 are two devices.
    const actor = systemActor();
    const changes = diffDevices(readDevices(this.store(), actor.host), observed);
    const observedBy = describeActor(observer.actor);
    for (const change of changes) {
      const meta = { stream: `device:${change.serial}`, device: change.serial, actor };
      if (change.type === 'device.connected') {
        observer.append(DeviceConnected, { ...change.data, observed_by: observedBy }, meta);
      } else if (change.type === 'device.disconnected') {
        observer.append(DeviceDisconnected, { ...change.data, observed_by: observedBy }, meta);
      } else {
        observer.append(DeviceStateChanged, { ...change.data, observed_by: observedBy }, meta);
      }
    }
    return changes;
  }
}
