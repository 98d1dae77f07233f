import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CapturedDump, parseCapturedDump } from '../ui/captured-dump.js';
import { ScenarioSchema, type Scenario, type ScenarioInput, type ScreenSpec } from './scenario-schema.js';

const capturedScreens = new WeakMap<ScreenSpec, CapturedDump>();

/** The captured dump a scenario screen shows (`"dump": "file.xml"`), or null for a drawn screen. */
export function capturedDumpOf(screen: ScreenSpec | undefined): CapturedDump | null {
  return (screen && capturedScreens.get(screen)) ?? null;
}

type RawScreen = { dump?: unknown; root?: unknown };
type RawScenario = { apps?: { screens?: Record<string, RawScreen> }[] };

/**
 * Reads every screen's `dump` file (relative to `baseDir`). The schema still wants a `root`; a minimal one is set,
 * and the captured nodes are what the device serves for that screen.
 */
function loadDumps(raw: unknown, baseDir: string): Map<string, CapturedDump> {
  const dumps = new Map<string, CapturedDump>();
  const apps = (raw as RawScenario | null)?.apps;
  if (!Array.isArray(apps)) return dumps;
  apps.forEach((app, a) => {
    for (const [name, screen] of Object.entries(app?.screens ?? {})) {
      if (typeof screen?.dump !== 'string') continue;
      const path = resolve(baseDir, screen.dump);
      let xml: string;
      try {
        xml = readFileSync(path, 'utf8');
      } catch (error) {
        throw new Error(
          `Invalid scenario: screen "${name}" names dump ${path}, which cannot be read: ${(error as Error).message}`,
        );
      }
      const dump = parseCapturedDump(xml, path);
      dumps.set(`${a}/${name}`, dump);
      screen.root ??= { class: 'android.widget.FrameLayout', bounds: [0, 0, 1, 1] };
    }
  });
  return dumps;
}

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

/** The activity a `--screen` dump is shown in. */
export const CAPTURED_ACTIVITY = '.CapturedScreenActivity';

/**
 * A scenario of one app showing one captured dump (`droidwright sim --screen FILE.xml`): the app is the
 * dump's foreground package, so the tools see the package the user captured. Also returns the display
 * size the dump was taken on.
 */
export function capturedScreenScenario(path: string): {
  scenario: ScenarioInput;
  packageName: string;
  width: number;
  height: number;
} {
  const absolute = resolve(path);
  const dump = parseCapturedDump(readFileSync(absolute, 'utf8'), absolute);
  const packageName =
    dump.foregroundPackage && /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/.test(dump.foregroundPackage)
      ? dump.foregroundPackage
      : 'com.droidwright.captured';
  let width = 0;
  let height = 0;
  for (const node of dump.order) {
    const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(node.attrs.get('bounds') ?? '');
    if (m) {
      width = Math.max(width, Number(m[3]));
      height = Math.max(height, Number(m[4]));
    }
  }
  return {
    packageName,
    width: width > 0 ? width : 1080,
    height: height > 0 ? height : 2400,
    scenario: {
      description: `The captured screen ${absolute}`,
      apps: [
        {
          package: packageName,
          label: 'Captured screen',
          activities: [{ name: CAPTURED_ACTIVITY, screen: 'captured', launcher: true }],
          screens: { captured: { activity: CAPTURED_ACTIVITY, dump: absolute } as never },
        },
      ],
    },
  };
}

/** A scenario name (from scenarios/), a path to a JSON file, or a parsed object. Throws with every zod issue. */
export function loadScenario(source: Scenario | ScenarioInput | string = DEFAULT_SCENARIO): Scenario {
  let raw: unknown = typeof source === 'object' ? structuredClone(source) : source;
  let origin = 'scenario object';
  let baseDir = process.cwd();
  if (typeof source === 'string') {
    const path = /[\\/]|\.json$/.test(source) ? resolve(source) : join(packageRoot(), 'scenarios', `${source}.json`);
    origin = path;
    baseDir = dirname(path);
    raw = JSON.parse(readFileSync(path, 'utf8'));
  }
  const dumps = loadDumps(raw, baseDir);
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`Invalid scenario (${origin}): ${issues}`);
  }
  parsed.data.apps.forEach((app, a) => {
    for (const [name, screen] of Object.entries(app.screens)) {
      const dump = dumps.get(`${a}/${name}`);
      if (dump) capturedScreens.set(screen, dump);
    }
  });
  return parsed.data;
}
