import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readApkManifest, qualifyClassName, type ApkManifestInfo } from '../../android/apk-manifest.js';
import { type R8Frames, readR8Frames } from './r8-frames.js';
import type { SeededRandom } from './random.js';
import type { AppSpec, IntentFilterSpec } from './scenario/scenario-schema.js';
import { filterMatches, type IntentQuery } from './intent-resolver.js';
import { FRAMEWORK_PACKAGE, RESOLVER_ACTIVITY, SETTINGS_PACKAGE, settingsAppSpec } from './system-apps.js';

/** Runtime ("dangerous") permissions: only these are grantable/revocable with pm grant/revoke. */
export const RUNTIME_PERMISSIONS = new Set([
  'android.permission.ACCESS_BACKGROUND_LOCATION',
  'android.permission.ACCESS_COARSE_LOCATION',
  'android.permission.ACCESS_FINE_LOCATION',
  'android.permission.ACCESS_MEDIA_LOCATION',
  'android.permission.ACTIVITY_RECOGNITION',
  'android.permission.ANSWER_PHONE_CALLS',
  'android.permission.BLUETOOTH_ADVERTISE',
  'android.permission.BLUETOOTH_CONNECT',
  'android.permission.BLUETOOTH_SCAN',
  'android.permission.BODY_SENSORS',
  'android.permission.CALL_PHONE',
  'android.permission.CAMERA',
  'android.permission.GET_ACCOUNTS',
  'android.permission.NEARBY_WIFI_DEVICES',
  'android.permission.POST_NOTIFICATIONS',
  'android.permission.READ_CALENDAR',
  'android.permission.READ_CALL_LOG',
  'android.permission.READ_CONTACTS',
  'android.permission.READ_EXTERNAL_STORAGE',
  'android.permission.READ_MEDIA_AUDIO',
  'android.permission.READ_MEDIA_IMAGES',
  'android.permission.READ_MEDIA_VIDEO',
  'android.permission.READ_PHONE_NUMBERS',
  'android.permission.READ_PHONE_STATE',
  'android.permission.READ_SMS',
  'android.permission.RECEIVE_SMS',
  'android.permission.RECORD_AUDIO',
  'android.permission.SEND_SMS',
  'android.permission.WRITE_CALENDAR',
  'android.permission.WRITE_CALL_LOG',
  'android.permission.WRITE_CONTACTS',
  'android.permission.WRITE_EXTERNAL_STORAGE',
]);

/** Install-time permissions the platform defines (so pm grant can tell "not changeable" from "unknown"). */
const NORMAL_PERMISSIONS = new Set([
  'android.permission.INTERNET',
  'android.permission.ACCESS_NETWORK_STATE',
  'android.permission.ACCESS_WIFI_STATE',
  'android.permission.WAKE_LOCK',
  'android.permission.VIBRATE',
  'android.permission.FOREGROUND_SERVICE',
  'android.permission.RECEIVE_BOOT_COMPLETED',
  'android.permission.SCHEDULE_EXACT_ALARM',
  'android.permission.USE_BIOMETRIC',
  'android.permission.NFC',
  'android.permission.BLUETOOTH',
  'android.permission.CHANGE_WIFI_STATE',
  'android.permission.SYSTEM_ALERT_WINDOW',
  'android.permission.WRITE_SETTINGS',
  'android.permission.REQUEST_INSTALL_PACKAGES',
]);

export function isKnownPermission(name: string): boolean {
  return RUNTIME_PERMISSIONS.has(name) || NORMAL_PERMISSIONS.has(name);
}

export interface InstalledPackage {
  readonly name: string;
  readonly uid: number;
  versionCode: number;
  versionName: string;
  label: string;
  minSdk: number;
  targetSdk: number;
  readonly system: boolean;
  codePath: string;
  debuggable: boolean;
  requestedPermissions: string[];
  readonly grantedPermissions: Set<string>;
  /** Fully qualified activity class names. */
  activities: string[];
  launcherActivity: string | null;
  readonly firstInstallTimeMs: number;
  lastUpdateTimeMs: number;
  installer: string | null;
  enabled: boolean;
  /** Scenario behaviour for this package (screens, transitions), when the scenario defines it. */
  spec: AppSpec | null;
  /** Declared <intent-filter>s by fully qualified activity; the launcher's MAIN/LAUNCHER filter is implied. */
  intentFilters: IntentFilterEntry[];
  /** A minified APK's renamed frames: its crashes print them, as R8-processed code does. */
  r8Frames?: R8Frames | null;
}

export interface IntentFilterEntry {
  readonly activity: string;
  readonly filter: IntentFilterSpec;
}

/** An activity an intent resolved to. */
export interface ResolvedActivity {
  readonly pkg: InstalledPackage;
  readonly activity: string;
}

const LAUNCHER_FILTER: IntentFilterSpec = {
  actions: ['android.intent.action.MAIN'],
  categories: ['android.intent.category.LAUNCHER'],
  data: [],
};

function filtersOf(spec: AppSpec): IntentFilterEntry[] {
  return spec.activities.flatMap((a) =>
    (a.intentFilters ?? []).map((filter) => ({ activity: qualifyClassName(spec.package, a.name), filter })),
  );
}

export function apkPathOf(pkg: InstalledPackage): string {
  return `${pkg.codePath}/base.apk`;
}

/** System apps of a Google emulator image: [package, uid, label, launcher activity or null, apk dir]. */
const SYSTEM_PACKAGES: readonly [string, number, string, string | null, string][] = [
  ['android', 1000, 'Android System', null, '/system/framework/framework-res.apk'],
  ['com.android.systemui', 10120, 'System UI', null, '/system_ext/priv-app/SystemUIGoogle'],
  ['com.android.settings', 1000, 'Settings', 'com.android.settings.Settings', '/system_ext/priv-app/SettingsGoogle'],
  ['com.android.phone', 1001, 'Phone Services', null, '/system/priv-app/TeleService'],
  ['com.android.shell', 2000, 'Shell', null, '/system/priv-app/Shell'],
  ['com.android.providers.settings', 1000, 'Settings Storage', null, '/system/priv-app/SettingsProvider'],
  [
    'com.android.providers.media.module',
    10109,
    'Media Storage',
    null,
    '/apex/com.android.mediaprovider/priv-app/MediaProviderGoogle',
  ],
  ['com.google.android.apps.nexuslauncher', 10134, 'Pixel Launcher', null, '/system_ext/priv-app/NexusLauncherRelease'],
  ['com.google.android.gms', 10104, 'Google Play services', null, '/product/priv-app/PrebuiltGmsCore'],
  [
    'com.android.vending',
    10105,
    'Google Play Store',
    'com.android.vending.AssetBrowserActivity',
    '/product/priv-app/Phonesky',
  ],
  ['com.android.chrome', 10140, 'Chrome', 'com.google.android.apps.chrome.Main', '/product/app/Chrome'],
  [
    'com.google.android.dialer',
    10128,
    'Phone',
    'com.google.android.dialer.extensions.GoogleDialtactsActivity',
    '/product/priv-app/GoogleDialer',
  ],
  ['com.android.camera2', 10141, 'Camera', 'com.android.camera.CameraLauncher', '/product/app/Camera2'],
  [
    'com.google.android.apps.messaging',
    10137,
    'Messages',
    'com.google.android.apps.messaging.ui.ConversationListActivity',
    '/product/app/PrebuiltBugle',
  ],
];

export type InstallOutcome =
  | { ok: true; pkg: InstalledPackage; replaced: InstalledPackage | null }
  | { ok: false; failure: string };

export class PackageManager {
  private readonly packages = new Map<string, InstalledPackage>();
  private nextUid = 10180;

  constructor(
    private readonly rng: SeededRandom,
    private readonly clock: () => number,
    bootTimeMs: number,
  ) {
    for (const [name, uid, label, launcher, codePath] of SYSTEM_PACKAGES) {
      this.packages.set(name, {
        name,
        uid,
        versionCode: 34,
        versionName: '14',
        label,
        minSdk: 34,
        targetSdk: 34,
        system: true,
        codePath,
        debuggable: false,
        requestedPermissions: [],
        grantedPermissions: new Set(),
        activities: launcher ? [launcher] : [],
        launcherActivity: launcher,
        firstInstallTimeMs: bootTimeMs - 86_400_000,
        lastUpdateTimeMs: bootTimeMs - 86_400_000,
        installer: null,
        enabled: true,
        spec: null,
        intentFilters: [],
      });
    }
  }

  /**
   * Gives Settings its screens and intent filters, and the framework its chooser activity. Called once the
   * scenario's design size is known, because screens are laid out in that coordinate space.
   */
  attachSystemApps(design: { width: number; height: number }): void {
    const settings = this.packages.get(SETTINGS_PACKAGE);
    if (settings && !settings.spec) {
      settings.spec = settingsAppSpec(design);
      settings.activities = settings.spec.activities.map((a) => qualifyClassName(SETTINGS_PACKAGE, a.name));
      settings.intentFilters = filtersOf(settings.spec);
    }
    const framework = this.packages.get(FRAMEWORK_PACKAGE);
    if (framework && !framework.activities.includes(RESOLVER_ACTIVITY)) framework.activities.push(RESOLVER_ACTIVITY);
  }

  /**
   * PackageManager.queryIntentActivities for an activity start: every enabled activity whose filter matches, in
   * install order; `-p` narrows the search to one package.
   */
  resolveActivities(intent: IntentQuery): ResolvedActivity[] {
    const found: ResolvedActivity[] = [];
    const candidates =
      intent.packageName !== undefined
        ? [this.packages.get(intent.packageName)].filter((p) => p !== undefined)
        : [...this.packages.values()];
    for (const pkg of candidates) {
      if (!pkg.enabled) continue;
      const entries = pkg.launcherActivity
        ? [{ activity: pkg.launcherActivity, filter: LAUNCHER_FILTER }, ...pkg.intentFilters]
        : pkg.intentFilters;
      for (const { activity, filter } of entries) {
        if (!pkg.activities.includes(activity) || found.some((f) => f.pkg === pkg && f.activity === activity)) continue;
        if (filterMatches(filter, intent)) found.push({ pkg, activity });
      }
    }
    return found;
  }

  get(name: string): InstalledPackage | undefined {
    return this.packages.get(name);
  }

  list(): InstalledPackage[] {
    return [...this.packages.values()];
  }

  private newCodePath(name: string): string {
    const token = () => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      let s = '';
      for (let i = 0; i < 22; i++) s += alphabet[this.rng.int(0, 63)];
      return s;
    };
    return `/data/app/~~${token()}==/${name}-${token()}==`;
  }

  /** Puts a scenario app on the device as if it had been installed before the session began. */
  installScenarioApp(spec: AppSpec, installedAtMs: number): InstalledPackage {
    const launcher = spec.activities.find((a) => a.launcher) ?? spec.activities[0];
    const pkg: InstalledPackage = {
      name: spec.package,
      uid: this.nextUid++,
      versionCode: spec.versionCode,
      versionName: spec.versionName,
      label: spec.label,
      minSdk: spec.minSdk,
      targetSdk: spec.targetSdk,
      system: false,
      codePath: this.newCodePath(spec.package),
      debuggable: spec.debuggable,
      requestedPermissions: [...spec.permissions],
      grantedPermissions: new Set(),
      activities: spec.activities.map((a) => qualifyClassName(spec.package, a.name)),
      launcherActivity: qualifyClassName(spec.package, launcher.name),
      firstInstallTimeMs: installedAtMs,
      lastUpdateTimeMs: installedAtMs,
      installer: 'com.android.shell',
      enabled: true,
      spec,
      intentFilters: filtersOf(spec),
    };
    this.packages.set(pkg.name, pkg);
    return pkg;
  }

  /** Reads an APK's manifest through a host temp file; null when the bytes are not a readable APK. */
  async readManifest(bytes: Buffer): Promise<(ApkManifestInfo & { r8Frames: R8Frames | null }) | null> {
    const dir = await mkdtemp(join(tmpdir(), 'droidwright-sim-apk-'));
    try {
      const file = join(dir, 'base.apk');
      await writeFile(file, bytes);
      const manifest = await readApkManifest(file);
      return { ...manifest, r8Frames: await readR8Frames(file) };
    } catch {
      return null;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** PackageManagerService's install decision for a parsed APK (install flags as pm passes them). */
  install(
    manifest: ApkManifestInfo & { r8Frames?: R8Frames | null },
    flags: { grantAll: boolean; allowDowngrade: boolean; allowTest: boolean },
    specFor: (name: string) => AppSpec | null,
  ): InstallOutcome {
    const existing = this.packages.get(manifest.packageName);
    if (existing?.system) {
      return {
        ok: false,
        failure: `INSTALL_FAILED_UPDATE_INCOMPATIBLE: Package ${manifest.packageName} signatures do not match previously installed version; ignoring!`,
      };
    }
    if (existing && manifest.versionCode < existing.versionCode && !flags.allowDowngrade) {
      return {
        ok: false,
        failure: `INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code ${manifest.versionCode} is older than current ${existing.versionCode}`,
      };
    }
    if (manifest.minSdk !== null && manifest.minSdk > 34) {
      return {
        ok: false,
        failure: `INSTALL_FAILED_OLDER_SDK: Failed parse during installPackageLI: /data/app/vmdl.tmp/base.apk (at Binary XML file line #7): Requires newer sdk version #${manifest.minSdk} (current version is #34)`,
      };
    }
    const now = this.clock();
    const spec = specFor(manifest.packageName);
    const pkg: InstalledPackage = {
      name: manifest.packageName,
      uid: existing?.uid ?? this.nextUid++,
      versionCode: manifest.versionCode,
      versionName: manifest.versionName,
      label: manifest.label ?? spec?.label ?? manifest.packageName,
      minSdk: manifest.minSdk ?? 1,
      targetSdk: manifest.targetSdk ?? manifest.minSdk ?? 1,
      system: false,
      codePath: this.newCodePath(manifest.packageName),
      debuggable: spec?.debuggable ?? true,
      requestedPermissions: manifest.permissions,
      grantedPermissions: new Set(
        [...(existing?.grantedPermissions ?? [])].filter((p) => manifest.permissions.includes(p)),
      ),
      activities: manifest.activities,
      launcherActivity: manifest.launchableActivity,
      firstInstallTimeMs: existing?.firstInstallTimeMs ?? now,
      lastUpdateTimeMs: now,
      installer: 'com.android.shell',
      enabled: true,
      spec,
      // The APK reader does not read intent filters, so a scenario app keeps the links its scenario declares.
      intentFilters: spec ? filtersOf(spec) : [],
      r8Frames: manifest.r8Frames ?? null,
    };
    if (spec) {
      // The scenario's screens drive the app; its activities exist whatever the APK declares.
      for (const a of spec.activities) {
        const fq = qualifyClassName(spec.package, a.name);
        if (!pkg.activities.includes(fq)) pkg.activities.push(fq);
      }
    }
    if (flags.grantAll)
      for (const p of pkg.requestedPermissions) if (RUNTIME_PERMISSIONS.has(p)) pkg.grantedPermissions.add(p);
    this.packages.set(pkg.name, pkg);
    return { ok: true, pkg, replaced: existing ?? null };
  }

  remove(name: string): InstalledPackage | undefined {
    const pkg = this.packages.get(name);
    if (pkg && !pkg.system) this.packages.delete(name);
    return pkg;
  }
}
