// Child processes run plain JavaScript: bundles a TypeScript script of ours (with the real sources it imports)
// into one ESM file under node_modules/.cache, where its packages resolve from this checkout.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from './mcp-client.js';

export async function bundleScript(entry: string): Promise<{ path: string; remove(): void }> {
  const cache = join(REPO_ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outfile = join(mkdtempSync(join(cache, 'droidwright-script-')), 'script.mjs');
  await build({
    entryPoints: [join(REPO_ROOT, entry)],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  return { path: outfile, remove: () => rmSync(dirname(outfile), { recursive: true, force: true }) };
}
