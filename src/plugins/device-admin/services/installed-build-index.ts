import { inject, injectable } from 'inversify';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import type { InstalledBuild, InstalledBuildLookup } from '../../../kernel/installed-build-lookup.js';
import { readInstalledBuilds } from '../installed-builds.projection.js';

/** Answers "what did droidwright last install here" from the `installed_builds` read model. */
@injectable()
export class InstalledBuildIndex implements InstalledBuildLookup {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  installedBuild(deviceSerial: string, pkg: string): InstalledBuild | null {
    const row = readInstalledBuilds(this.store(), { device: deviceSerial, package: pkg })[0];
    if (!row) return null;
    return {
      deviceSerial: row.device_serial,
      package: row.package,
      apkSha256: row.apk_sha256,
      apkPath: row.apk_path,
      versionCode: row.version_code,
      versionName: row.version_name,
      buildId: row.build_id,
      module: row.module,
      variant: row.variant,
      installedAt: row.installed_at,
      installedSeq: row.seq,
    };
  }
}
