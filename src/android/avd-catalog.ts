import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export interface AvdEntry {
  readonly name: string;
  /** The `.avd` directory. */
  readonly path: string | null;
  readonly target: string | null;
  readonly apiLevel: number | null;
  readonly abi: string | null;
  readonly device: string | null;
  readonly displayName: string | null;
}

/** AVD names as the emulator accepts them; anything else is refused before a process is spawned. */
export const AVD_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Where AVD definitions live, in the emulator's own order: `$ANDROID_AVD_HOME`, `$ANDROID_USER_HOME/avd`,
 * the legacy `$ANDROID_SDK_HOME/.android/avd`, then `$HOME/.android/avd`.
 */
export function avdHome(env: NodeJS.ProcessEnv): string {
  if (env.ANDROID_AVD_HOME?.trim()) return resolve(env.ANDROID_AVD_HOME.trim());
  if (env.ANDROID_USER_HOME?.trim()) return join(resolve(env.ANDROID_USER_HOME.trim()), 'avd');
  if (env.ANDROID_SDK_HOME?.trim()) return join(resolve(env.ANDROID_SDK_HOME.trim()), '.android', 'avd');
  return join(env.HOME?.trim() || homedir(), '.android', 'avd');
}

/** `key=value` lines; later duplicates do not override. Bounded: config files are small. */
export function parseIni(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.slice(0, 256 * 1024).split(/\r?\n/)) {
    const m = /^\s*([^#=\s][^=]*?)\s*=\s*(.*?)\s*$/.exec(line);
    if (m && !(m[1]! in out)) out[m[1]!] = m[2]!;
  }
  return out;
}

function readIni(path: string): Record<string, string> | null {
  try {
    if (statSync(path).size > 256 * 1024) return null;
    return parseIni(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

const MAX_AVDS = 200;

/** Every AVD defined in the AVD home, sorted by name. A broken definition is listed with what could be read. */
export function listAvds(env: NodeJS.ProcessEnv): AvdEntry[] {
  const home = avdHome(env);
  let files: string[];
  try {
    files = readdirSync(home).filter((f) => f.endsWith('.ini'));
  } catch {
    return [];
  }
  const entries: AvdEntry[] = [];
  for (const file of files.sort().slice(0, MAX_AVDS)) {
    const name = file.slice(0, -'.ini'.length);
    if (!AVD_NAME.test(name)) continue;
    const ini = readIni(join(home, file)) ?? {};
    let path: string | null = null;
    if (ini.path && isAbsolute(ini.path)) path = ini.path;
    else if (ini['path.rel']) path = resolve(home, '..', ini['path.rel']);
    else path = join(home, `${name}.avd`);
    const config = path ? (readIni(join(path, 'config.ini')) ?? {}) : {};
    const target = ini.target ?? config['image.sysdir.1'] ?? null;
    const api = /android-(\d+)/.exec(target ?? '') ?? /android-(\d+)/.exec(config['image.sysdir.1'] ?? '');
    entries.push({
      name,
      path,
      target,
      apiLevel: api ? Number(api[1]) : null,
      abi: config['abi.type'] ?? null,
      device: config['hw.device.name'] ?? null,
      displayName: config['avd.ini.displayname'] ?? null,
    });
  }
  return entries;
}
