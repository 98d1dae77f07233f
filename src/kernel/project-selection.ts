import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface ProjectSelection {
  /** Canonical project root, or null when no Gradle project was found. */
  readonly root: string | null;
  readonly selectedBy: 'flag' | 'cwd' | 'none';
}

/** The project this process works on. Bound in the container to the result of selectProject. */
export const SelectedProject = Symbol.for('droidwright.SelectedProject');
export type SelectedProject = ProjectSelection;

/** Thrown when `--project` names something that is not a directory; the CLI prints it and exits 2. */
export class ProjectSelectionError extends Error {
  override readonly name = 'ProjectSelectionError';
}

const SETTINGS_FILES = ['settings.gradle.kts', 'settings.gradle'];

export function isGradleRoot(dir: string): boolean {
  return SETTINGS_FILES.some((file) => existsSync(join(dir, file)));
}

/**
 * `--project` wins (it must be an existing directory). Otherwise the nearest ancestor of the working
 * directory with a Gradle settings file, so starting inside `app/src` still finds the root.
 */
export function selectProject(opts: { projectPath?: string; cwd: string }): ProjectSelection {
  if (opts.projectPath !== undefined) {
    const given = resolve(opts.cwd, opts.projectPath);
    let stat;
    try {
      stat = statSync(given);
    } catch {
      throw new ProjectSelectionError(`--project ${opts.projectPath}: no such directory (${given}).`);
    }
    if (!stat.isDirectory())
      throw new ProjectSelectionError(`--project ${opts.projectPath}: not a directory (${given}).`);
    return { root: realpathSync(given), selectedBy: 'flag' };
  }
  let dir: string;
  try {
    dir = realpathSync(resolve(opts.cwd));
  } catch {
    return { root: null, selectedBy: 'none' };
  }
  for (;;) {
    if (isGradleRoot(dir)) return { root: dir, selectedBy: 'cwd' };
    const parent = dirname(dir);
    if (parent === dir) return { root: null, selectedBy: 'none' };
    dir = parent;
  }
}
