// Bundles the CLI into dist/ with esbuild. Code splitting keeps `droidwright mcp` from loading what
// only other commands need (Ink/React, the simulator), which is what keeps start-up fast.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  jsx: 'automatic',
  // Native addons and packages that resolve files relative to themselves stay in node_modules.
  external: [
    'better-sqlite3',
    'sharp',
    '@devicefarmer/adbkit',
    '@devicefarmer/adbkit-apkreader',
    'ink',
    'react',
    'react/jsx-runtime',
  ],
  banner: {
    js: "import { createRequire as __droidwrightCreateRequire } from 'node:module'; const require = __droidwrightCreateRequire(import.meta.url);",
  },
  minify: true,
  logLevel: 'warning',
});
