import type { Client } from '@devicefarmer/adbkit';

export interface AdbKitEntry {
  createClient(options: { host?: string; port?: number; bin?: string }): Client;
}

let adbkit: Promise<AdbKitEntry> | undefined;

/**
 * adbkit costs ~150 ms to load (node-forge), which `droidwright mcp` must not pay before its first
 * tools/list, so it is loaded on first use. The package is CommonJS: its named exports are reachable
 * only through the default import under ESM.
 */
export function loadAdbKit(): Promise<AdbKitEntry> {
  adbkit ??= import('@devicefarmer/adbkit').then(
    (module) => (module as unknown as { default: { Adb: AdbKitEntry } }).default.Adb,
  );
  return adbkit;
}

/**
 * adbkit-apkreader shares its bluebird with adbkit, and adbkit turns on bluebird cancellation when it
 * loads — which bluebird refuses once any of its promises exist ("cannot enable cancellation after
 * promises are in use"). So adbkit always loads first, whichever of the two is needed first.
 */
export async function loadApkReader(): Promise<typeof import('@devicefarmer/adbkit-apkreader').default> {
  await loadAdbKit();
  return (await import('@devicefarmer/adbkit-apkreader')).default;
}
