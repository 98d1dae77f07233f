// The package ships no types; this declares the part the simulated package manager uses.
declare module '@devicefarmer/adbkit-apkreader' {
  export interface ApkIntentFilter {
    actions: { name: string }[];
    categories: { name: string }[];
  }
  export interface ApkActivity {
    name: string;
    exported?: boolean;
    intentFilters: ApkIntentFilter[];
  }
  export interface ApkManifest {
    package: string;
    versionCode?: number;
    versionName?: string;
    usesPermissions: { name: string }[];
    usesSdk?: { minSdkVersion?: number; targetSdkVersion?: number } | null;
    application?: {
      label?: string;
      activities: ApkActivity[];
      launcherActivities: ApkActivity[];
    };
  }
  export interface ApkReaderInstance {
    readManifest(): Promise<ApkManifest>;
    /** One entry of the APK (a zip), e.g. an asset. */
    readContent(path: string): Promise<Buffer>;
  }
  const ApkReader: { open(path: string): Promise<ApkReaderInstance> };
  export default ApkReader;
}
