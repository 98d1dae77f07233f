import type { SqlConnection } from '../../events/sql-connection.js';
import type { Projection, StoreReader, StoredEvent } from '../../events/event-definition.js';
import type { AppInstalledData } from './device-admin.events.js';

/** The latest install per device and package: which APK (hash), version and build is on the device now. */
export interface InstalledBuildRow {
  readonly device_serial: string;
  readonly package: string;
  readonly apk_sha256: string;
  readonly apk_path: string;
  readonly version_code: number;
  readonly version_name: string | null;
  readonly build_id: string | null;
  readonly module: string | null;
  readonly variant: string | null;
  readonly installed_at: number;
  readonly seq: number;
  readonly actor_kind: string;
  readonly actor_session: string | null;
}

export const installedBuildsProjection: Projection = {
  name: 'installed_builds',
  version: 1,
  handles: ['app.installed'],
  tables: ['installed_builds'],
  ddl: [
    `CREATE TABLE IF NOT EXISTS installed_builds (
      device_serial TEXT NOT NULL, package TEXT NOT NULL, apk_sha256 TEXT NOT NULL, apk_path TEXT NOT NULL,
      version_code INTEGER NOT NULL, version_name TEXT, build_id TEXT, module TEXT, variant TEXT,
      installed_at INTEGER NOT NULL, seq INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_session TEXT,
      PRIMARY KEY (device_serial, package))`,
    'CREATE INDEX IF NOT EXISTS installed_builds_sha ON installed_builds (apk_sha256)',
  ],
  apply(db: SqlConnection, event: StoredEvent) {
    const d = event.data as AppInstalledData;
    db.prepare(
      `INSERT INTO installed_builds (device_serial, package, apk_sha256, apk_path, version_code, version_name, build_id, module, variant, installed_at, seq, actor_kind, actor_session)
       VALUES (@device_serial, @package, @apk_sha256, @apk_path, @version_code, @version_name, @build_id, @module, @variant, @at, @seq, @actor_kind, @actor_session)
       ON CONFLICT(device_serial, package) DO UPDATE SET apk_sha256 = excluded.apk_sha256, apk_path = excluded.apk_path,
         version_code = excluded.version_code, version_name = excluded.version_name, build_id = excluded.build_id,
         module = excluded.module, variant = excluded.variant, installed_at = excluded.installed_at, seq = excluded.seq,
         actor_kind = excluded.actor_kind, actor_session = excluded.actor_session`,
    ).run({
      device_serial: d.device_serial,
      package: d.package,
      apk_sha256: d.apk_sha256,
      apk_path: d.apk_path,
      version_code: d.version_code,
      version_name: d.version_name,
      build_id: d.build_id,
      module: d.module,
      variant: d.variant,
      at: event.at,
      seq: event.seq,
      actor_kind: event.actor.kind,
      actor_session: event.actor.session ?? null,
    });
  },
};

export function readInstalledBuilds(
  store: StoreReader,
  filter: { device?: string; package?: string } = {},
): InstalledBuildRow[] {
  return store
    .prepareRead(
      `SELECT * FROM installed_builds WHERE (CAST(@device AS TEXT) IS NULL OR device_serial = @device) AND (CAST(@package AS TEXT) IS NULL OR package = @package)
       ORDER BY installed_at DESC, seq DESC LIMIT 500`,
    )
    .all({ device: filter.device ?? null, package: filter.package ?? null }) as InstalledBuildRow[];
}
