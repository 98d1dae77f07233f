import type { SqlConnection } from '../events/sql-connection.js';
import type { Projection, StoreReader, StoredEvent } from '../events/event-definition.js';
import { thisHost } from '../shared/actor.js';
import type { DeviceConnectedData, DeviceDisconnectedData, DeviceStateChangedData } from './device.events.js';

/**
 * One row per machine and serial ever seen: its last known state and details, first and last sighting.
 * A serial names a device only on its own machine (two laptops sharing a log each have an `emulator-5554`),
 * so rows are keyed by the host of the event's actor as well; events recorded before hosts were named give
 * host ''.
 */
export interface DeviceRow {
  /** The machine whose adb saw the device; '' for a row built from events recorded before hosts were named. */
  readonly host: string;
  readonly serial: string;
  readonly state: string;
  readonly connected: number;
  readonly kind: string;
  readonly model: string | null;
  readonly manufacturer: string | null;
  readonly api_level: number | null;
  readonly abi: string | null;
  readonly avd_name: string | null;
  readonly first_seen: number;
  readonly last_seen: number;
}

export const devicesProjection: Projection = {
  name: 'devices',
  // 2: keyed by host as well as serial.
  version: 2,
  handles: ['device.connected', 'device.disconnected', 'device.state_changed'],
  tables: ['devices'],
  ddl: [
    `CREATE TABLE IF NOT EXISTS devices (
      host TEXT NOT NULL, serial TEXT NOT NULL, state TEXT NOT NULL, connected INTEGER NOT NULL, kind TEXT NOT NULL,
      model TEXT, manufacturer TEXT, api_level INTEGER, abi TEXT, avd_name TEXT,
      first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, PRIMARY KEY (host, serial))`,
  ],
  apply(db: SqlConnection, event: StoredEvent) {
    const host = event.actor.host ?? '';
    const serial = (event.data as { serial: string }).serial;
    if (host !== '') {
      // A row from before hosts were named was written on a machine that reads it as its own (readDevices).
      // A host's first event about that serial continues it, as a copy: the '' row stays for other hosts.
      db.prepare(
        `INSERT INTO devices (host, serial, state, connected, kind, model, manufacturer, api_level, abi, avd_name, first_seen, last_seen)
         SELECT CAST(@host AS TEXT), legacy.serial, legacy.state, legacy.connected, legacy.kind, legacy.model, legacy.manufacturer,
                legacy.api_level, legacy.abi, legacy.avd_name, legacy.first_seen, legacy.last_seen
         FROM devices AS legacy WHERE legacy.host = '' AND legacy.serial = @serial
         ON CONFLICT (host, serial) DO NOTHING`,
      ).run({ host, serial });
    }
    switch (event.type) {
      case 'device.connected':
      case 'device.state_changed': {
        const d = event.data as DeviceConnectedData | DeviceStateChangedData;
        const state = 'state' in d ? d.state : d.to;
        // Details are only known while the device is online; keep the last known ones otherwise. The kept
        // values are qualified (devices.model): PostgreSQL finds a bare name ambiguous with excluded's.
        db.prepare(
          `INSERT INTO devices (host, serial, state, connected, kind, model, manufacturer, api_level, abi, avd_name, first_seen, last_seen)
           VALUES (@host, @serial, @state, 1, @kind, @model, @manufacturer, @api_level, @abi, @avd_name, @at, @at)
           ON CONFLICT(host, serial) DO UPDATE SET state = excluded.state, connected = 1, kind = excluded.kind,
             model = COALESCE(excluded.model, devices.model), manufacturer = COALESCE(excluded.manufacturer, devices.manufacturer),
             api_level = COALESCE(excluded.api_level, devices.api_level), abi = COALESCE(excluded.abi, devices.abi),
             avd_name = COALESCE(excluded.avd_name, devices.avd_name), last_seen = excluded.last_seen`,
        ).run({
          host,
          serial: d.serial,
          state,
          kind: d.kind,
          model: d.model,
          manufacturer: d.manufacturer,
          api_level: d.api_level,
          abi: d.abi,
          avd_name: d.avd_name,
          at: event.at,
        });
        break;
      }
      case 'device.disconnected': {
        const d = event.data as DeviceDisconnectedData;
        db.prepare(
          `UPDATE devices SET connected = 0, state = 'disconnected', last_seen = ? WHERE host = ? AND serial = ?`,
        ).run(event.at, host, d.serial);
        break;
      }
    }
  },
};

/**
 * The rows of the devices `@host` sees: its own, and those recorded before hosts were named ('', only a
 * single-machine log has them, so they are read as this machine's, as the build lock adopts its old rows)
 * for serials the host has no row of yet. Used as `WHERE ${HOST_DEVICES}` with a `host` parameter.
 */
export const HOST_DEVICES = `(devices.host = @host OR (devices.host = '' AND NOT EXISTS (
  SELECT 1 FROM devices AS mine WHERE mine.host = @host AND mine.serial = devices.serial)))`;

/** The devices of one machine (this one unless named), one row per serial; other machines' are not listed. */
export function readDevices(store: StoreReader, host: string = thisHost()): DeviceRow[] {
  return store.prepareRead(`SELECT * FROM devices WHERE ${HOST_DEVICES} ORDER BY serial`).all({ host }) as DeviceRow[];
}
