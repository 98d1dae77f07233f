import type { SqlConnection } from '../events/sql-connection.js';
import type { Projection, StoreReader, StoredEvent } from '../events/event-definition.js';
import type { DeviceConnectedData, DeviceDisconnectedData, DeviceStateChangedData } from './device.events.js';

/** One row per serial ever seen: its last known state and details, first and last sighting. */
export interface DeviceRow {
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
  version: 1,
  handles: ['device.connected', 'device.disconnected', 'device.state_changed'],
  tables: ['devices'],
  ddl: [
    `CREATE TABLE IF NOT EXISTS devices (
      serial TEXT PRIMARY KEY, state TEXT NOT NULL, connected INTEGER NOT NULL, kind TEXT NOT NULL,
      model TEXT, manufacturer TEXT, api_level INTEGER, abi TEXT, avd_name TEXT,
      first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL)`,
  ],
  apply(db: SqlConnection, event: StoredEvent) {
    switch (event.type) {
      case 'device.connected':
      case 'device.state_changed': {
        const d = event.data as DeviceConnectedData | DeviceStateChangedData;
        const state = 'state' in d ? d.state : d.to;
        // Details are only known while the device is online; keep the last known ones otherwise. The kept
        // values are qualified (devices.model): PostgreSQL finds a bare name ambiguous with excluded's.
        db.prepare(
          `INSERT INTO devices (serial, state, connected, kind, model, manufacturer, api_level, abi, avd_name, first_seen, last_seen)
           VALUES (@serial, @state, 1, @kind, @model, @manufacturer, @api_level, @abi, @avd_name, @at, @at)
           ON CONFLICT(serial) DO UPDATE SET state = excluded.state, connected = 1, kind = excluded.kind,
             model = COALESCE(excluded.model, devices.model), manufacturer = COALESCE(excluded.manufacturer, devices.manufacturer),
             api_level = COALESCE(excluded.api_level, devices.api_level), abi = COALESCE(excluded.abi, devices.abi),
             avd_name = COALESCE(excluded.avd_name, devices.avd_name), last_seen = excluded.last_seen`,
        ).run({
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
        db.prepare(`UPDATE devices SET connected = 0, state = 'disconnected', last_seen = ? WHERE serial = ?`).run(
          event.at,
          d.serial,
        );
        break;
      }
    }
  },
};

export function readDevices(store: StoreReader): DeviceRow[] {
  return store.prepareRead('SELECT * FROM devices ORDER BY serial').all() as DeviceRow[];
}
