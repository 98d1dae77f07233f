import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScenarioSchema, type Scenario, type ScenarioInput } from './scenario-schema.js';

/** The directory holding package.json, found by walking up from this module (works from src/ and from dist/). */
export function packageRoot(from = moduleDir()): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scenarios'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package root with a scenarios/ folder above ${from}.`);
    dir = parent;
  }
}

function moduleDir(): string {
  // Jest runs the sources as ESM, the bundle runs as ESM too: import.meta.url is available in both.
  return dirname(fileURLToPath(import.meta.url));
}

export const DEFAULT_SCENARIO = 'notes-app';

/** A scenario name (from scenarios/), a path to a JSON file, or a parsed object. Throws with every zod issue. */
export function loadScenario(source: Scenario | ScenarioInput | string = DEFAULT_SCENARIO): Scenario {
  let raw: unknown = source;
  let origin = 'scenario object';
  if (typeof source === 'string') {
    const path = /[\\/]|\.json$/.test(source) ? resolve(source) : join(packageRoot(), 'scenarios', `${source}.json`);
    origin = path;
    raw = JSON.parse(readFileSync(path, 'utf8'));
  }
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`Invalid scenario (${origin}): ${issues}`);
  }
  return parsed.data;
}
