import type { SqlConnection } from '../../events/sql-connection.js';
import type { z } from 'zod';
import { signatureHash } from '../../android/logcat/crash-signature.js';
import type { Projection, StoreReader, StoredEvent } from '../../events/event-definition.js';
import { thisHost } from '../../shared/actor.js';
import type { AppCrashed, AppNativeCrashed, AppNotResponding } from './logcat.events.js';

type Data<E> = E extends { schema: z.ZodType<infer D> } ? D : never;
type CrashData = Data<typeof AppCrashed> | Data<typeof AppNativeCrashed> | Data<typeof AppNotResponding>;

export type CrashKind = 'java' | 'native' | 'anr';

const KIND_OF_TYPE: Readonly<Record<string, CrashKind>> = {
  'app.crashed': 'java',
  'app.native_crashed': 'native',
  'app.not_responding': 'anr',
};

/** Groups are per package: one signature in two apps is two bugs. */
export function crashGroupId(pkg: string | null, signatureHashValue: string): string {
  return signatureHash(`${pkg ?? ''}\n${signatureHashValue}`);
}

/** One line naming what happened: the exception and its message, the signal and abort message, the ANR reason. */
export function crashTitle(type: string, data: CrashData): string {
  let title: string;
  if (type === 'app.crashed') {
    const d = data as Data<typeof AppCrashed>;
    title = d.message ? `${d.exception_class}: ${d.message}` : d.exception_class;
  } else if (type === 'app.native_crashed') {
    const d = data as Data<typeof AppNativeCrashed>;
    title = `${d.signal ?? 'fatal signal'}${d.abort_message ? `: ${d.abort_message}` : ''}`;
  } else {
    const d = data as Data<typeof AppNotResponding>;
    title = `ANR${d.reason ? `: ${d.reason}` : ''}`;
  }
  const line = title.split('\n', 1)[0]!;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

export interface CrashGroupRow {
  readonly group_id: string;
  readonly package: string | null;
  readonly kind: CrashKind;
  readonly signature: string;
  readonly signature_hash: string;
  readonly title: string;
  readonly crashes: number;
  readonly first_seen_at: number;
  readonly last_seen_at: number;
  readonly first_seq: number;
  readonly last_seq: number;
  readonly last_device: string;
}

export interface CrashRow {
  readonly seq: number;
  readonly group_id: string;
  readonly kind: CrashKind;
  /** The machine whose logcat saw the crash; '' for a crash recorded before hosts were named. */
  readonly host: string;
  readonly device_serial: string;
  readonly package: string | null;
  readonly pid: number | null;
  readonly title: string;
  readonly at: number;
  readonly time_ms: number | null;
  readonly build_id: string | null;
  readonly apk_sha256: string | null;
}

/**
 * Crashes, native crashes and ANRs grouped by signature per package (counts, first and last seen, the builds each
 * group was seen in), plus one row per crash so tools page through them without scanning the log. Pure function of
 * the app.crashed / app.native_crashed / app.not_responding events.
 */
export const crashesProjection: Projection = {
  name: 'crashes',
  // 2: each crash keeps the host of the machine that saw it, so a device filter on a shared log means this
  // machine's device (two laptops' emulator-5554 are two devices).
  version: 2,
  handles: ['app.crashed', 'app.native_crashed', 'app.not_responding'],
  tables: ['crash_groups', 'crash_group_builds', 'crashes'],
  ddl: [
    `CREATE TABLE IF NOT EXISTS crash_groups (
      group_id TEXT PRIMARY KEY, package TEXT, kind TEXT NOT NULL, signature TEXT NOT NULL,
      signature_hash TEXT NOT NULL, title TEXT NOT NULL, crashes INTEGER NOT NULL,
      first_seen_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, first_seq INTEGER NOT NULL,
      last_seq INTEGER NOT NULL, last_device TEXT NOT NULL)`,
    'CREATE INDEX IF NOT EXISTS crash_groups_by_last ON crash_groups (last_seq)',
    'CREATE INDEX IF NOT EXISTS crash_groups_by_package ON crash_groups (package, last_seq)',
    `CREATE TABLE IF NOT EXISTS crash_group_builds (
      group_id TEXT NOT NULL, apk_sha256 TEXT NOT NULL, build_id TEXT, version_code INTEGER NOT NULL,
      variant TEXT, crashes INTEGER NOT NULL, last_seq INTEGER NOT NULL,
      PRIMARY KEY (group_id, apk_sha256))`,
    `CREATE TABLE IF NOT EXISTS crashes (
      seq INTEGER PRIMARY KEY, group_id TEXT NOT NULL, kind TEXT NOT NULL, host TEXT NOT NULL, device_serial TEXT NOT NULL,
      package TEXT, pid INTEGER, title TEXT NOT NULL, at INTEGER NOT NULL, time_ms INTEGER,
      build_id TEXT, apk_sha256 TEXT)`,
    'CREATE INDEX IF NOT EXISTS crashes_by_group ON crashes (group_id, seq)',
    'CREATE INDEX IF NOT EXISTS crashes_by_device ON crashes (device_serial, host, seq)',
    'CREATE INDEX IF NOT EXISTS crashes_by_package ON crashes (package, seq)',
  ],
  apply(db: SqlConnection, event: StoredEvent) {
    const kind = KIND_OF_TYPE[event.type];
    if (!kind) return;
    const d = event.data as CrashData;
    const groupId = crashGroupId(d.package, d.signature_hash);
    const title = crashTitle(event.type, d);
    // Existing values are qualified (crash_groups.crashes): PostgreSQL finds a bare name in DO UPDATE
    // ambiguous with excluded's.
    db.prepare(
      `INSERT INTO crash_groups (group_id, package, kind, signature, signature_hash, title, crashes, first_seen_at, last_seen_at, first_seq, last_seq, last_device)
       VALUES (@group_id, @package, @kind, @signature, @signature_hash, @title, 1, @at, @at, @seq, @seq, @device)
       ON CONFLICT(group_id) DO UPDATE SET crashes = crash_groups.crashes + 1, title = excluded.title, last_seen_at = excluded.last_seen_at,
         last_seq = excluded.last_seq, last_device = excluded.last_device`,
    ).run({
      group_id: groupId,
      package: d.package,
      kind,
      signature: d.signature,
      signature_hash: d.signature_hash,
      title,
      at: event.at,
      seq: event.seq,
      device: d.device_serial,
    });
    if (d.build) {
      db.prepare(
        `INSERT INTO crash_group_builds (group_id, apk_sha256, build_id, version_code, variant, crashes, last_seq)
         VALUES (?, ?, ?, ?, ?, 1, ?)
         ON CONFLICT(group_id, apk_sha256) DO UPDATE SET crashes = crash_group_builds.crashes + 1, last_seq = excluded.last_seq,
           build_id = COALESCE(excluded.build_id, crash_group_builds.build_id)`,
      ).run(groupId, d.build.apk_sha256, d.build.build_id, d.build.version_code, d.build.variant, event.seq);
    }
    db.prepare(
      `INSERT INTO crashes (seq, group_id, kind, host, device_serial, package, pid, title, at, time_ms, build_id, apk_sha256)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      event.seq,
      groupId,
      kind,
      event.actor.host ?? '',
      d.device_serial,
      d.package,
      d.pid,
      title,
      event.at,
      d.time_ms,
      d.build?.build_id ?? null,
      d.build?.apk_sha256 ?? null,
    );
  },
};

export interface CrashGroupBuildRow {
  readonly group_id: string;
  readonly apk_sha256: string;
  readonly build_id: string | null;
  readonly version_code: number;
  readonly variant: string | null;
  readonly crashes: number;
  readonly last_seq: number;
}

/**
 * A device is a serial on one machine: `@host`'s own crashes and those recorded before hosts were named.
 * Used as `WHERE ${ON_HOST_DEVICE}` with `device` and `host` parameters.
 */
const ON_HOST_DEVICE = `device_serial = @device AND host IN (@host, '')`;

/**
 * Newest groups first (by their latest crash), optionally for some packages and one device of `host` (this
 * machine by default), from an offset.
 */
export function readCrashGroups(
  store: StoreReader,
  filter: { packages: readonly string[] | null; device: string | null; offset: number; limit: number },
  host: string = thisHost(),
): { groups: CrashGroupRow[]; total: number } {
  const packages = filter.packages === null ? null : JSON.stringify(filter.packages);
  const where = `(CAST(@packages AS TEXT) IS NULL OR package IN (SELECT value FROM json_each(@packages)))
    AND (CAST(@device AS TEXT) IS NULL OR group_id IN (SELECT group_id FROM crashes WHERE ${ON_HOST_DEVICE}))`;
  const groups = store
    .prepareRead(`SELECT * FROM crash_groups WHERE ${where} ORDER BY last_seq DESC LIMIT @limit OFFSET @offset`)
    .all({ packages, device: filter.device, host, limit: filter.limit, offset: filter.offset }) as CrashGroupRow[];
  const total = (
    store
      .prepareRead(`SELECT COUNT(*) AS n FROM crash_groups WHERE ${where}`)
      .get({ packages, device: filter.device, host }) as {
      n: number;
    }
  ).n;
  return { groups, total };
}

export function readCrashGroup(store: StoreReader, groupId: string): CrashGroupRow | null {
  return (store.prepareRead('SELECT * FROM crash_groups WHERE group_id = ?').get(groupId) as CrashGroupRow) ?? null;
}

/** The builds a group was seen in, most recent first (at most 20). */
export function readCrashGroupBuilds(store: StoreReader, groupId: string): CrashGroupBuildRow[] {
  return store
    .prepareRead('SELECT * FROM crash_group_builds WHERE group_id = ? ORDER BY last_seq DESC LIMIT 20')
    .all(groupId) as CrashGroupBuildRow[];
}

/** The newest crash of a group, or of some packages (any group) on a device of `host`, or of anything. */
export function readNewestCrash(
  store: StoreReader,
  filter: { groupId?: string; packages?: readonly string[] | null; device?: string | null },
  host: string = thisHost(),
): CrashRow | null {
  if (filter.groupId !== undefined) {
    return (
      (store
        .prepareRead('SELECT * FROM crashes WHERE group_id = ? ORDER BY seq DESC LIMIT 1')
        .get(filter.groupId) as CrashRow) ?? null
    );
  }
  const packages = filter.packages ? JSON.stringify(filter.packages) : null;
  return (
    (store
      .prepareRead(
        `SELECT * FROM crashes WHERE (CAST(@packages AS TEXT) IS NULL OR package IN (SELECT value FROM json_each(@packages)))
          AND (CAST(@device AS TEXT) IS NULL OR (${ON_HOST_DEVICE})) ORDER BY seq DESC LIMIT 1`,
      )
      .get({ packages, device: filter.device ?? null, host }) as CrashRow) ?? null
  );
}
