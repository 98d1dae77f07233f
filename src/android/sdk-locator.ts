import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isExecutableFile, resolveHostExecutable } from '../kernel/host-executable.js';

export { isExecutableFile };

/*
 * Where the Android SDK and its tools live. The order is the user's explicit choice first (settings),
 * then the standard environment variables, then PATH, then the places installers put the SDK. Only
 * absolute locations count: a relative one would be looked up from the working directory, usually the
 * project, and the project must never supply a tool we run.
 */

export interface LocatedTool {
  readonly path: string;
  /** How it was found, for health checks and error hints. */
  readonly source:
    | 'settings'
    | 'ANDROID_HOME'
    | 'ANDROID_SDK_ROOT'
    | 'settings-sdk'
    | 'PATH'
    | 'known-location'
    | 'adb-sdk';
}

export interface SdkLocatorInput {
  readonly adbPath?: string;
  readonly androidSdk?: string;
  readonly env: NodeJS.ProcessEnv;
  /** Defaults to the OS home; tests pass a temp HOME. */
  readonly home?: string;
  /** The selected project's root: PATH entries inside it are not searched. */
  readonly projectRoot?: string | null;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function homeOf(input: SdkLocatorInput): string {
  return input.home ?? input.env.HOME ?? homedir();
}

/** Candidate SDK roots, most explicit first, without duplicates. */
export function sdkRootCandidates(input: SdkLocatorInput): { root: string; source: LocatedTool['source'] }[] {
  const out: { root: string; source: LocatedTool['source'] }[] = [];
  const add = (root: string | undefined, source: LocatedTool['source']): void => {
    const trimmed = root?.trim();
    if (!trimmed || !isAbsolute(trimmed)) return;
    const abs = resolve(trimmed);
    if (!out.some((c) => c.root === abs)) out.push({ root: abs, source });
  };
  add(input.androidSdk, 'settings-sdk');
  add(input.env.ANDROID_HOME, 'ANDROID_HOME');
  add(input.env.ANDROID_SDK_ROOT, 'ANDROID_SDK_ROOT');
  const home = homeOf(input);
  for (const known of [
    join(home, 'Android', 'Sdk'),
    join(home, 'Library', 'Android', 'sdk'),
    '/usr/lib/android-sdk',
    '/opt/android-sdk',
  ]) {
    add(known, 'known-location');
  }
  return out;
}

/** A host tool from the absolute PATH entries outside the project (see kernel/host-executable). */
export function onPath(name: string, env: NodeJS.ProcessEnv, projectRoot?: string | null): string | undefined {
  return resolveHostExecutable(name, { env, exclude: [projectRoot] }) ?? undefined;
}

/** The adb binary: settings.adbPath, $ANDROID_HOME / $ANDROID_SDK_ROOT / settings SDK, PATH, known installs. */
export function locateAdb(input: SdkLocatorInput): LocatedTool | null {
  if (input.adbPath && isAbsolute(input.adbPath) && isExecutableFile(input.adbPath))
    return { path: resolve(input.adbPath), source: 'settings' };
  const roots = sdkRootCandidates(input);
  for (const { root, source } of roots.filter((r) => r.source !== 'known-location')) {
    const adb = join(root, 'platform-tools', 'adb');
    if (isExecutableFile(adb)) return { path: adb, source };
  }
  const fromPath = onPath('adb', input.env, input.projectRoot);
  if (fromPath) return { path: fromPath, source: 'PATH' };
  for (const { root } of roots.filter((r) => r.source === 'known-location')) {
    const adb = join(root, 'platform-tools', 'adb');
    if (isExecutableFile(adb)) return { path: adb, source: 'known-location' };
  }
  return null;
}

/**
 * The SDK `emulator` binary. Only SDK roots count (never PATH): the emulator must match the SDK whose
 * system images the AVDs reference. An adb found inside an SDK also names that SDK.
 */
export function locateEmulator(input: SdkLocatorInput): LocatedTool | null {
  const roots = sdkRootCandidates(input);
  const adb = locateAdb(input);
  if (adb?.path.endsWith(join('platform-tools', 'adb'))) {
    const root = dirname(dirname(adb.path));
    if (!roots.some((r) => r.root === root)) roots.push({ root, source: 'adb-sdk' });
  }
  for (const { root, source } of roots) {
    const emulator = join(root, 'emulator', 'emulator');
    if (isExecutableFile(emulator)) return { path: emulator, source };
  }
  return null;
}

/** The SDK root used for hints: the first candidate that exists. */
export function locateSdkRoot(input: SdkLocatorInput): string | null {
  return sdkRootCandidates(input).find((c) => isDirectory(c.root))?.root ?? null;
}

/** adb's server port: `ANDROID_ADB_SERVER_PORT` when it is a valid port, else 5037. */
export function adbServerPort(env: NodeJS.ProcessEnv): number {
  const raw = env.ANDROID_ADB_SERVER_PORT?.trim();
  if (raw && /^\d+$/.test(raw)) {
    const port = Number(raw);
    if (port > 0 && port < 65536) return port;
  }
  return 5037;
}

/** The SDK's R8 `retrace` (Command-line Tools): `latest` first, then the newest version directory. */
export function locateRetrace(sdkRoot: string | null): string | null {
  if (!sdkRoot || !isAbsolute(sdkRoot)) return null;
  const base = join(sdkRoot, 'cmdline-tools');
  let versions: string[];
  try {
    versions = readdirSync(base).sort((a, b) => (a === 'latest' ? -1 : b === 'latest' ? 1 : b.localeCompare(a)));
  } catch {
    return null;
  }
  for (const dir of versions) {
    const path = join(base, dir, 'bin', 'retrace');
    if (isExecutableFile(path)) return path;
  }
  return null;
}
