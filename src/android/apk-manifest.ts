import { loadApkReader } from './adbkit-loader.js';

export interface ApkManifestInfo {
  packageName: string;
  versionCode: number;
  versionName: string;
  /** Fully qualified class name of the MAIN/LAUNCHER activity, when the APK has one. */
  launchableActivity: string | null;
  /** Fully qualified class names of all declared activities. */
  activities: string[];
  permissions: string[];
  label: string | null;
  minSdk: number | null;
  targetSdk: number | null;
}

/** Android resolves ".Foo" and "Foo" against the manifest package. */
export function qualifyClassName(packageName: string, name: string): string {
  if (name.startsWith('.')) return packageName + name;
  if (!name.includes('.')) return `${packageName}.${name}`;
  return name;
}

/** Reads the binary AndroidManifest.xml of an APK file on the host. Throws when the file is not a readable APK. */
export async function readApkManifest(path: string): Promise<ApkManifestInfo> {
  const ApkReader = await loadApkReader();
  const reader = await ApkReader.open(path);
  const m = await reader.readManifest();
  const pkg = m.package;
  const app = m.application;
  const launcher = app?.launcherActivities?.[0]?.name;
  return {
    packageName: pkg,
    versionCode: m.versionCode ?? 0,
    versionName: m.versionName ?? '',
    launchableActivity: launcher ? qualifyClassName(pkg, launcher) : null,
    activities: (app?.activities ?? []).map((a) => qualifyClassName(pkg, a.name)),
    permissions: (m.usesPermissions ?? []).map((p) => p.name),
    label: typeof app?.label === 'string' ? app.label : null,
    minSdk: m.usesSdk?.minSdkVersion ?? null,
    targetSdk: m.usesSdk?.targetSdkVersion ?? null,
  };
}
