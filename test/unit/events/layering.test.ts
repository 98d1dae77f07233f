import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const SRC = join(REPO_ROOT, 'src');

/** Every module specifier a file names: static imports, re-exports, `import type`, and dynamic import(). */
function specifiersOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  for (const match of source.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  for (const match of source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `src/<layer>/...` of every relative import of the files under `src/<layer>`, as "file -> target". */
function importsOutside(layer: string, allowed: readonly string[]): string[] {
  const offending: string[] = [];
  for (const file of filesUnder(join(SRC, layer))) {
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = relative(SRC, resolve(dirname(file), specifier));
      const targetLayer = target.split(/[\\/]/)[0]!;
      if (!allowed.includes(targetLayer)) offending.push(`${relative(REPO_ROOT, file)} -> src/${target}`);
    }
  }
  return offending;
}

describe('layering', () => {
  it('finds the imports it is meant to police (the scan is not vacuous)', () => {
    const sample = `import type { Actor } from '../shared/actor.js';\nexport { x } from './x.js';\nimport './side-effect.js';\nconst m = await import('../kernel/errors.js');`;
    expect(specifiersOf(sample)).toEqual(['../shared/actor.js', './x.js', './side-effect.js', '../kernel/errors.js']);
    expect(filesUnder(join(SRC, 'events')).length).toBeGreaterThan(5);
    expect(importsOutside('events', ['events'])).toContain('src/events/event-definition.ts -> src/shared/actor.js');
  });

  it('src/events imports nothing from src/kernel or any layer above it: only itself and src/shared', () => {
    expect(importsOutside('events', ['events', 'shared'])).toEqual([]);
  });

  it('src/shared is a leaf: it imports nothing else from src', () => {
    expect(importsOutside('shared', ['shared'])).toEqual([]);
  });
});
