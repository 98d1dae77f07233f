import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, relative, resolve, sep } from 'node:path';

/*
 * Host tools (java, adb, git, the emulator, sdkmanager …) are found on PATH, but only in absolute PATH
 * entries outside the selected project. An empty or relative entry (`.`, `bin`) is looked up from the
 * working directory, which is usually the project: a project could otherwise ship its own `java` or
 * `adb` and have it run by a health check. A project's own `gradlew` is the one project executable
 * droidwright runs, and only for a trusted project; it is addressed by absolute path, never looked up.
 */

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

export interface HostLookup {
  /** Where PATH is read from. */
  readonly env: NodeJS.ProcessEnv;
  /** Directories whose PATH entries are skipped (the selected project: its files are not host tools). */
  readonly exclude?: readonly (string | null | undefined)[];
}

/** The PATH entries host tools may come from: absolute, and not inside an excluded directory. */
export function hostPathEntries(lookup: HostLookup): string[] {
  const excluded = (lookup.exclude ?? []).filter((d): d is string => !!d && isAbsolute(d)).map(canonical);
  const out: string[] = [];
  for (const entry of (lookup.env.PATH ?? '').split(delimiter)) {
    if (!entry || !isAbsolute(entry)) continue;
    if (excluded.length > 0) {
      const real = canonical(entry);
      if (excluded.some((dir) => within(dir, real))) continue;
    }
    if (!out.includes(entry)) out.push(entry);
  }
  return out;
}

/** True for a plain command name (`java`), as opposed to a path (`./java`, `bin/java`, `/usr/bin/java`). */
export function isBareCommandName(name: string): boolean {
  return (
    name !== '' &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    !name.includes(sep) &&
    basename(name) === name
  );
}

/**
 * The absolute path of a host tool found in an absolute PATH entry outside the excluded directories,
 * or null. Only bare names are looked up; a path is a caller's bug.
 */
export function resolveHostExecutable(name: string, lookup: HostLookup): string | null {
  if (!isBareCommandName(name)) throw new TypeError(`resolveHostExecutable takes a command name, not a path: ${name}`);
  for (const dir of hostPathEntries(lookup)) {
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/**
 * PATH as children get it: the absolute entries only, so a host tool that runs further programs
 * (a wrapper script, git's helpers) cannot pick one up from its working directory either.
 */
export function hostChildPath(pathValue: string | undefined): string | undefined {
  if (pathValue === undefined) return undefined;
  return pathValue
    .split(delimiter)
    .filter((entry) => entry !== '' && isAbsolute(entry))
    .join(delimiter);
}
