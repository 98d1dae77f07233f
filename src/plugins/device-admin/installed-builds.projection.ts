import type { SqlConnection } from '../../events/sql-connection.js';
import type { Projection, StoreReader, StoredEvent } from '../../events/event-definition.js';
import { thisHost } from '../../shared/actor.js';
import type { AppInstalledData } from './device-admin.events.js';

/**
 * The latest install per machine, device and package: which APK (hash), version and build is on the device
 * now. A serial names a device only on its own machine (two laptops sharing a log each have an
 * `emulator-5554`), so rows are keyed by the host of the installing actor as well.
 */
export interface InstalledBuildRow {
  /** The machine the install ran on; '' for an install recorded before hosts were named. */
  readonly host: string;
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
  // 2: keyed by host as well as device and package.
  version: 2,
  handles: ['app.installed'],
  tables: ['installed_builds'],
  ddl: [
    `CREATE TABLE IF NOT EXISTS installed_builds (
      host TEXT NOT NULL, device_serial TEXT NOT NULL, package TEXT NOT NULL, apk_sha256 TEXT NOT NULL, apk_path TEXT NOT NULL,
      version_code INTEGER NOT NULL, version_name TEXT, build_id TEXT, module TEXT, variant TEXT,
      installed_at INTEGER NOT NULL, seq INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_session TEXT,
      PRIMARY KEY (host, device_serial, package))`,
    'CREATE INDEX IF NOT EXISTS installed_builds_sha ON installed_builds (apk_sha256)',
  ],
  apply(db: SqlConnection, event: StoredEvent) {
    const d = event.data as AppInstalledData;
    db.prepare(
      `INSERT INTO installed_builds (host, device_serial, package, apk_sha256, apk_path, version_code, version_name, build_id, module, variant, installed_at, seq, actor_kind, actor_session)
       VALUES (@host, @device_serial, @package, @apk_sha256, @apk_path, @version_code, @version_name, @build_id, @module, @variant, @at, @seq, @actor_kind, @actor_session)
       ON CONFLICT(host, device_serial, package) DO UPDATE SET apk_sha256 = excluded.apk_sha256, apk_path = excluded.apk_path,
         version_code = excluded.version_code, version_name = excluded.version_name, build_id = excluded.build_id,
         module = excluded.module, variant = excluded.variant, installed_at = excluded.installed_at, seq = excluded.seq,
         actor_kind = excluded.actor_kind, actor_session = excluded.actor_session`,
    ).run({
      host: event.actor.host ?? '',
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

/** `WHERE ${HOST_INSTALLS}` with a `host` parameter: the rows that machine sees (readInstalledBuilds). */
export const HOST_INSTALLS = `(installed_builds.host = @host OR (installed_builds.host = '' AND NOT EXISTS (
  SELECT 1 FROM installed_builds AS mine WHERE mine.host = @host AND mine.device_serial = installed_builds.device_serial
    AND mine.package = installed_builds.package)))`;

/**
 * The installs on one machine's devices (this one unless `host` names another): its own rows, and those
 * recorded before hosts were named ('', only a single-machine log has them, so read as this machine's) for
 * device and package pairs the host has not installed since.
 */
export function readInstalledBuilds(
  store: StoreReader,
  filter: { device?: string; package?: string; host?: string } = {},
): InstalledBuildRow[] {
  return store
    .prepareRead(
      `SELECT * FROM installed_builds WHERE ${HOST_INSTALLS}
         AND (CAST(@device AS TEXT) IS NULL OR device_serial = @device) AND (CAST(@package AS TEXT) IS NULL OR package = @package)
       ORDER BY installed_at DESC, seq DESC LIMIT 500`,
    )
    .all({
      host: filter.host ?? thisHost(),
      device: filter.device ?? null,
      package: filter.package ?? null,
    }) as InstalledBuildRow[];
}
