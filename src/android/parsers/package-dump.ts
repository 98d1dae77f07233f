/** The parts of `dumpsys package <pkg>` an agent needs. Absent fields are null. */
export interface PackageDump {
  readonly packageName: string;
  readonly versionCode: number | null;
  readonly versionName: string | null;
  readonly minSdk: number | null;
  readonly targetSdk: number | null;
  readonly codePath: string | null;
  readonly dataDir: string | null;
  readonly firstInstallTime: string | null;
  readonly lastUpdateTime: string | null;
  readonly installerPackageName: string | null;
  readonly flags: readonly string[];
  readonly requestedPermissions: readonly string[];
  /** Install-time and runtime permissions with their grant state (runtime ones for user 0 first seen). */
  readonly permissions: readonly PermissionState[];
}

export interface PermissionState {
  readonly name: string;
  readonly granted: boolean;
  readonly runtime: boolean;
}

/**
 * Reads the `Package [pkg]` block. `dumpsys package` also prints other packages that mention `pkg`
 * (shared users, queries), so only the block for exactly this package counts. Null when there is none.
 */
export function parsePackageDump(output: string, packageName: string): PackageDump | null {
  const lines = output.split(/\r?\n/);
  const start = lines.findIndex((l) =>
    new RegExp(`^\\s*Package \\[${packageName.replace(/\./g, '\\.')}\\] \\(`).test(l),
  );
  if (start < 0) return null;
  const indent = /^\s*/.exec(lines[start]!)![0].length;
  const block: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim().length > 0 && /^\s*/.exec(line)![0].length <= indent) break;
    block.push(line);
  }
  const field = (key: string): string | null => {
    for (const line of block) {
      const m = new RegExp(`(?:^|\\s)${key}=(.*?)(?=\\s+[A-Za-z]+=|$)`).exec(line);
      if (m) return m[1]!.trim();
    }
    return null;
  };
  const int = (value: string | null): number | null => (value !== null && /^\d+$/.test(value) ? Number(value) : null);
  const requested: string[] = [];
  const permissions: PermissionState[] = [];
  let mode: 'requested' | 'install' | 'runtime' | null = null;
  for (const line of block) {
    const trimmed = line.trim();
    if (/^requested permissions:$/.test(trimmed)) mode = 'requested';
    else if (/^install permissions:$/.test(trimmed)) mode = 'install';
    else if (/^runtime permissions:$/.test(trimmed)) mode = 'runtime';
    // Any other section header (`declared permissions:`, `User 0: …`) ends the current list.
    else if (/^[a-zA-Z ]+:$/.test(trimmed) || /^User \d+:/.test(trimmed)) mode = null;
    else if (mode === 'requested') {
      const m = /^([\w.]+)(?::|,|$|\s)/.exec(trimmed);
      if (m) requested.push(m[1]!);
    } else if (mode === 'install' || mode === 'runtime') {
      const m = /^([\w.]+): granted=(true|false)/.exec(trimmed);
      if (m && !permissions.some((p) => p.name === m[1]))
        permissions.push({ name: m[1]!, granted: m[2] === 'true', runtime: mode === 'runtime' });
    }
  }
  const flagsRaw = field('pkgFlags') ?? field('flags');
  const versionLine = block.find((l) => /versionCode=/.test(l)) ?? '';
  return {
    packageName,
    versionCode: int(/versionCode=(\d+)/.exec(versionLine)?.[1] ?? null),
    versionName: field('versionName'),
    minSdk: int(/minSdk=(\d+)/.exec(versionLine)?.[1] ?? null),
    targetSdk: int(/targetSdk=(\d+)/.exec(versionLine)?.[1] ?? null),
    codePath: field('codePath'),
    dataDir: field('dataDir'),
    firstInstallTime: field('firstInstallTime'),
    lastUpdateTime: field('lastUpdateTime'),
    installerPackageName: field('installerPackageName'),
    flags: flagsRaw
      ? flagsRaw
          .replace(/^\[\s*|\s*\]$/g, '')
          .split(/\s+/)
          .filter(Boolean)
      : [],
    requestedPermissions: requested,
    permissions,
  };
}

/** `pm path pkg` → the APK paths (`package:/data/app/…/base.apk` per line). */
export function parsePmPath(output: string): string[] {
  return output
    .split(/\r?\n/)
    .map((l) => /^package:(.+)$/.exec(l.trim())?.[1])
    .filter((p): p is string => Boolean(p));
}
