import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: { root: string; version: string } | null | undefined;

/**
 * droidwright's own package directory and version, found by walking up from this module, so shipped
 * files (scenarios/, examples/) resolve both in the bundle (dist/) and when tests run the sources.
 */
export function droidwrightPackage(): { root: string; version: string } | null {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'droidwright') return (cached = { root: dir, version: pkg.version ?? '0.0.0' });
    } catch {
      // Not here; keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return (cached = null);
}

/** Absolute path of a file shipped in the package, e.g. `packagePath('scenarios', 'notes-app.json')`. */
export function packagePath(...segments: string[]): string {
  const pkg = droidwrightPackage();
  if (!pkg)
    throw new Error(
      'Cannot find the droidwright package directory (no package.json named "droidwright" above this module).',
    );
  return join(pkg.root, ...segments);
}
