// Child processes run plain JavaScript: bundle the TypeScript worker (and the real event store it
// imports) into one ESM file. better-sqlite3 stays external, pinned to this checkout's absolute path
// so the bundle resolves it from a temp directory.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function bundleWorker(entry = 'append-worker.ts'): Promise<string> {
  const root = process.cwd();
  const sqlite = createRequire(join(root, 'package.json')).resolve('better-sqlite3');
  const outfile = join(mkdtempSync(join(tmpdir(), 'droidwright-worker-')), entry.replace(/\.ts$/, '.mjs'));
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
