/** The install droidwright last recorded for one package on one device. */
export interface InstalledBuild {
  readonly deviceSerial: string;
  readonly package: string;
  readonly apkSha256: string;
  readonly apkPath: string;
  readonly versionCode: number;
  readonly versionName: string | null;
  /** The build that wrote the installed bytes, when the install could name it. */
  readonly buildId: string | null;
  readonly module: string | null;
  readonly variant: string | null;
  /** UTC epoch milliseconds of the `app.installed` event. */
  readonly installedAt: number;
  /** Seq of that `app.installed` event. */
  readonly installedSeq: number;
}

/**
 * What droidwright last installed on a device for a package. The device-admin plugin answers it from its
 * `installed_builds` read model; other plugins (crash records, retrace) ask through this token instead of reading
 * install events, so the install event's shape stays that plugin's business.
 */
export const InstalledBuildLookup = Symbol.for('droidwright.InstalledBuildLookup');
export interface InstalledBuildLookup {
  installedBuild(deviceSerial: string, pkg: string): InstalledBuild | null;
}
