// Child processes run plain JavaScript: bundle the TypeScript worker (and the real event store it
// imports) into one ESM file. better-sqlite3 stays external, pinned to this checkout's absolute path.
// The bundle is written under node_modules/.cache: the PostgreSQL client resolves `pg` at run time
// (createRequire in its worker thread), which only works from a directory inside this checkout.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

export async function bundleWorker(entry = 'append-worker.ts'): Promise<string> {
  const root = process.cwd();
  const sqlite = createRequire(join(root, 'package.json')).resolve('better-sqlite3');
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outfile = join(mkdtempSync(join(cache, 'droidwright-worker-')), entry.replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [join(root, 'test/integration/events', entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    plugins: [
      {
        name: 'pin-better-sqlite3',
        setup(b) {
          b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true }));
        },
      },
    ],
  });
  return outfile;
}
