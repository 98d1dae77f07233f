import type { ToolContext } from '../../../kernel/tool-definition.js';
import { AppInstallObserved } from '../core.events.js';
import type { DebugSessionReader } from './debug-session-reader.js';

/** What a package read gives that tells one install from another. */
export interface InstalledPackageState {
  readonly versionCode: number | null;
  readonly versionName: string | null;
  readonly lastUpdateTime: string | null;
}

/**
 * Records `app.install_observed` when a tool reads a package installed by something droidwright does not know
 * (adb by hand, Android Studio, a store): no install known for the device and package, the newest one seen
 * uninstalled, a versionCode that differs
 * from the newest known install, or a lastUpdateTime other than the one the newest observed install saw. The
 * device prints lastUpdateTime in its local time with no zone, so it is not compared with the time of a
 * droidwright install. Once per observed install: the same lastUpdateTime is never recorded twice.
 */
export function recordObservedInstall(
  ctx: ToolContext,
  sessions: DebugSessionReader,
  serial: string,
  pkg: string,
  state: InstalledPackageState,
  observedBy: string,
): boolean {
  const known = sessions.newestInstall(serial, pkg);
  const updateTime = state.lastUpdateTime ?? '';
  const unknown =
    known === undefined ||
    known.state === 'ended' ||
    (state.versionCode !== null && state.versionCode !== known.version_code) ||
    (known.observed_update_time !== null && known.observed_update_time !== updateTime);
  if (!unknown) return false;
  ctx.append(
    AppInstallObserved,
    {
      device_serial: serial,
      package: pkg,
      version_code: state.versionCode,
      version_name: state.versionName?.slice(0, 200) ?? null,
      last_update_time: state.lastUpdateTime?.slice(0, 64) ?? null,
      // Hashing the APK would mean pulling it off the device: not cheap for a read tool, so no hash and no build.
      apk_sha256: null,
      build_id: null,
      observed_by: observedBy,
    },
    { stream: `device:${serial}`, device: serial, package: pkg },
  );
  return true;
}
