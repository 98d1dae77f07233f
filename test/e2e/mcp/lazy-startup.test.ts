import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, CLI, REPO_ROOT } from '../../support/mcp-client.js';

const DIST = join(REPO_ROOT, 'dist');

/** Files and packages a bundle chunk imports statically (dynamic import() excluded). */
function staticImports(source: string): { chunks: string[]; packages: string[] } {
  const chunks: string[] = [];
  const packages: string[] = [];
  for (const match of source.matchAll(/^\s*(?:import|export)\s+(?:[^'"();]*?\s+from\s+)?["']([^"']+)["'];?\s*$/gm)) {
    const spec = match[1]!;
    if (spec.startsWith('./')) chunks.push(spec.slice(2));
    else packages.push(spec);
  }
  return { chunks, packages };
}

test('droidwright mcp loads neither Ink/React, sharp, the simulator nor the TUI at start-up', () => {
  assertBuilt();
  const entry = readFileSync(CLI, 'utf8');
  const mcpChunk = /import\("\.\/(mcp-command-[\w-]+\.js)"\)/.exec(entry)?.[1];
  expect(mcpChunk).toBeDefined();

  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [mcpChunk!, ...staticImports(entry).chunks];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(join(DIST, file), 'utf8');
    const { chunks, packages: pkgs } = staticImports(source);
    queue.push(...chunks);
    for (const p of pkgs) packages.add(p);
    // esbuild marks each bundled source file with a `// src/...` comment.
    expect(source).not.toMatch(/^\/\/ src\/(sim|tui|demo)\//m);
  }
  for (const forbidden of ['ink', 'react', 'react/jsx-runtime', 'sharp']) expect(packages).not.toContain(forbidden);
  expect([...seen].some((f) => /^(sim|demo|tui)-command|simulated/.test(f))).toBe(false);
});

test('droidwright mcp answers the handshake and tools/list before evaluating zod, the MCP SDK or inversify', () => {
  assertBuilt();
  const entry = readFileSync(CLI, 'utf8');
  const mcpChunk = /import\("\.\/(mcp-command-[\w-]+\.js)"\)/.exec(entry)?.[1];
  expect(mcpChunk).toBeDefined();
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [mcpChunk!, ...staticImports(entry).chunks];
  let source = '';
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(DIST, file), 'utf8');
    source += text;
    const found = staticImports(text);
    queue.push(...found.chunks);
    for (const p of found.packages) packages.add(p);
  }
  // Everything statically reachable from the mcp command is the start-up path (the rest is import()ed later).
  expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
  expect(source.length).toBeLessThan(40_000);
  for (const marker of ['ZodObject', 'McpError']) expect(source).not.toContain(marker);
  expect(readFileSync(join(DIST, 'tool-catalog.json'), 'utf8').length).toBeGreaterThan(1000);
});
