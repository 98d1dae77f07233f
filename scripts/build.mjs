// Bundles the CLI into dist/ with esbuild. Code splitting keeps `droidwright mcp` from loading what
// only other commands need (Ink/React, the simulator), which is what keeps start-up fast.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

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

// The tool catalog `droidwright mcp` answers initialize and tools/list from before it loads anything else
// (src/mcp/tool-catalog.ts): generated from the live registry of every plugin at each build, so a tool added
// anywhere is listed with no step of its own. The generator is bundled outside dist/ (inside node_modules, so
// its external packages resolve) and run here.
const generator = new URL('../node_modules/.cache/droidwright-build-tool-catalog.mjs', import.meta.url);
await build({
  stdin: {
    contents: "export { buildToolCatalog } from './src/mcp/build-tool-catalog.ts';",
    resolveDir: new URL('..', import.meta.url).pathname,
    loader: 'ts',
  },
  outfile: generator.pathname,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'sharp', '@devicefarmer/adbkit', '@devicefarmer/adbkit-apkreader'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
const { buildToolCatalog } = await import(`${pathToFileURL(generator.pathname).href}?${Date.now()}`);
writeFileSync(new URL('../dist/tool-catalog.json', import.meta.url), JSON.stringify(buildToolCatalog()));
