import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InvalidArgumentsError, ToolError } from '../kernel/errors.js';
import { applicationModules, loadGradleProject, type GradleModule } from './gradle-project-model.js';

export interface ProjectApk {
  /** The canonical path (symlinks resolved): what gets hashed and installed. */
  readonly path: string;
  readonly module: GradleModule;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Resolves `apk_path` (absolute, or relative to the project root) to an `.apk` under an application
 * module's `build/outputs`, inside the project. Symlinks are resolved first and the canonical result is
 * checked, so a link that leaves the project is refused even when its own path looks fine.
 */
export function resolveProjectApk(projectRoot: string, apkPath: string): ProjectApk {
  if (typeof apkPath !== 'string' || apkPath.trim() === '' || apkPath.includes('\0') || apkPath.length > 4096) {
    throw new InvalidArgumentsError('apk_path must be a path to an .apk file.', 'INVALID_ARGUMENT', 'apk_path');
  }
  const root = realpathSync(projectRoot);
  const given = resolve(root, apkPath);
  if (!given.toLowerCase().endsWith('.apk')) {
    throw new InvalidArgumentsError(
      `apk_path must name an .apk file (got ${JSON.stringify(apkPath.slice(0, 200))}).`,
      'INVALID_ARGUMENT',
      'apk_path',
    );
  }
  // Refuse a path outside the project before touching it, with one answer whether or not it exists:
  // the tool must not tell an agent which files exist elsewhere, or where a link points.
  const outside = (): InvalidArgumentsError =>
    new InvalidArgumentsError(
      `apk_path is outside the project ${root}. Only APKs the project's build wrote can be installed.`,
      'PATH_OUTSIDE_PROJECT',
      'apk_path',
    );
  if (!inside(root, given)) throw outside();
  let canonical: string;
  try {
    canonical = realpathSync(given);
  } catch {
    throw new ToolError(
      'NOT_FOUND',
      `${given} does not exist. Build the app first (run_gradle_task assembleDebug) and pass the APK path the build reported.`,
    );
  }
  if (!inside(root, canonical)) throw outside();
  if (!canonical.toLowerCase().endsWith('.apk') || !statSync(canonical).isFile()) {
    throw new InvalidArgumentsError(
      `apk_path resolves to ${canonical}, which is not an .apk file.`,
      'INVALID_ARGUMENT',
      'apk_path',
    );
  }
  const project = loadGradleProject(root);
  const modules = applicationModules(project);
  for (const module of modules) {
    let outputs: string;
    try {
      outputs = realpathSync(join(module.dir, 'build', 'outputs'));
    } catch {
      continue;
    }
    if (inside(root, outputs) && inside(outputs, canonical) && canonical !== outputs)
      return { path: canonical, module };
  }
  const expected = modules.map((m) => join(m.dir, 'build', 'outputs')).join(', ');
  throw new InvalidArgumentsError(
    `apk_path ${canonical} is not under an application module's build outputs${expected ? ` (${expected})` : ' (the project has no application module)'}. Install only APKs the build produced.`,
    'PATH_OUTSIDE_PROJECT',
    'apk_path',
  );
}
