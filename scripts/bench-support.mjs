// Helpers shared by the benchmark scripts.
import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A port the OS says is free now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Bundles modules of ours from their TypeScript sources (`contents`: export lines relative to the checkout) into
 * `node_modules/.cache/<name>.mjs`, inside node_modules so the bundle's external packages (adbkit, sharp,
 * better-sqlite3) resolve, and returns its path: a benchmark then needs no full build.
 */
export async function bundleSources(name, contents) {
  const { build } = await import('esbuild');
  const outfile = join(root, 'node_modules', '.cache', `${name}.mjs`);
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    external: ['better-sqlite3', 'sharp', '@devicefarmer/adbkit', '@devicefarmer/adbkit-apkreader'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return outfile;
}

/** {@link bundleSources}, then the bundle's exports. */
export async function loadSources(name, contents) {
  return import(pathToFileURL(await bundleSources(name, contents)).href);
}

/** Pids of processes whose environment has HOME=`home` (a peer's daemon, e.g. mobile-mcp's mobilecli), from /proc. */
export function pidsWithHome(home) {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`HOME=${home}`)) pids.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

/**
 * One request to an adb server's host service (`host:devices`, `host:connect:…`), answered with the server's whole
 * reply as text: `OKAY` and the length-prefixed payload, or `FAIL` and the reason.
 */
export function adbHostRequest(port, service) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks = [];
    socket.on('connect', () => socket.write(service.length.toString(16).padStart(4, '0') + service));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
