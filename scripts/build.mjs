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
  plugins: [
    {
      // The MCP server never validates client data with JSON Schema (it is given its own validator), so
      // its Ajv provider is replaced by a stub; the SDK client (used by `droidwright demo`) keeps Ajv.
      name: 'server-without-ajv',
      setup(b) {
        b.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) =>
          /[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]/.test(args.importer)
            ? { path: new URL('../src/mcp/server-ajv-stub.ts', import.meta.url).pathname }
            : undefined,
        );
      },
    },
  ],
  banner: {
    js: "import { createRequire as __droidwrightCreateRequire } from 'node:module'; const require = __droidwrightCreateRequire(import.meta.url);",
  },
  minify: true,
  logLevel: 'warning',
});
