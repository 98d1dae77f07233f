/** `dumpsys battery`. */
export interface BatteryInfo {
  readonly level: number | null;
  readonly scale: number | null;
  /** Percent (level/scale), or null. */
  readonly percent: number | null;
  readonly status: 'unknown' | 'charging' | 'discharging' | 'not_charging' | 'full' | null;
  readonly health: string | null;
  readonly plugged: 'ac' | 'usb' | 'wireless' | 'dock' | null;
  /** Degrees Celsius. */
  readonly temperatureC: number | null;
  readonly voltageMv: number | null;
  readonly present: boolean | null;
}

const STATUS = { 1: 'unknown', 2: 'charging', 3: 'discharging', 4: 'not_charging', 5: 'full' } as const;
const HEALTH: Record<number, string> = {
  1: 'unknown',
  2: 'good',
  3: 'overheat',
  4: 'dead',
  5: 'over_voltage',
  6: 'failure',
  7: 'cold',
};

function keyValues(output: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of output.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z][A-Za-z ]*?):\s*(.*?)\s*$/.exec(line);
    if (m && !map.has(m[1]!)) map.set(m[1]!, m[2]!);
  }
  return map;
}

function num(value: string | undefined): number | null {
  return value !== undefined && /^-?\d+$/.test(value) ? Number(value) : null;
}

export function parseBattery(output: string): BatteryInfo | null {
  if (!/battery/i.test(output)) return null;
  const kv = keyValues(output);
  const level = num(kv.get('level'));
  const scale = num(kv.get('scale'));
  const status = num(kv.get('status'));
  const health = num(kv.get('health'));
  const temperature = num(kv.get('temperature'));
  const plugged =
    kv.get('AC powered') === 'true'
      ? 'ac'
      : kv.get('USB powered') === 'true'
        ? 'usb'
        : kv.get('Wireless powered') === 'true'
          ? 'wireless'
          : kv.get('Dock powered') === 'true'
            ? 'dock'
            : null;
  return {
    level,
    scale,
    percent: level !== null && scale ? Math.round((level * 100) / scale) : null,
    status: status !== null ? (STATUS[status as keyof typeof STATUS] ?? 'unknown') : null,
    health: health !== null ? (HEALTH[health] ?? `code ${health}`) : null,
    plugged,
    temperatureC: temperature !== null ? temperature / 10 : null,
    voltageMv: num(kv.get('voltage')),
    present: kv.has('present') ? kv.get('present') === 'true' : null,
  };
}

export interface ScreenSize {
  readonly physical: { width: number; height: number } | null;
  readonly override: { width: number; height: number } | null;
}

/** `wm size`: `Physical size: 1080x2400` and, when set, `Override size: 720x1600`. */
export function parseWmSize(output: string): ScreenSize {
  const read = (label: string): { width: number; height: number } | null => {
    const m = new RegExp(`${label} size:\\s*(\\d+)x(\\d+)`).exec(output);
    return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
  };
  return { physical: read('Physical'), override: read('Override') };
}

/** `wm density`: `Physical density: 420`, `Override density: 320`. */
export function parseWmDensity(output: string): { physical: number | null; override: number | null } {
  const read = (label: string): number | null => {
    const m = new RegExp(`${label} density:\\s*(\\d+)`).exec(output);
    return m ? Number(m[1]) : null;
  };
  return { physical: read('Physical'), override: read('Override') };
}

/** A global/system `settings get` value: `null` (unset) and blank read as null. */
export function parseSettingValue(output: string): string | null {
  const value = output.trim();
  return value === '' || value === 'null' ? null : value;
}
