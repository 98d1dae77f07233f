import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { injectable } from 'inversify';

export interface ApplicationModule {
  /** Gradle path, e.g. `:app` (`:` for a single-module project). */
  readonly path: string;
  /** Directory, absolute. */
  readonly dir: string;
  readonly build_file: string;
  /** `applicationId` when the build file states it literally; null when computed or absent. */
  readonly application_id: string | null;
  /** `namespace` when stated literally. */
  readonly namespace: string | null;
}

/** Build scripts are user files of any size; only the start is needed to spot plugins and ids. */
const MAX_SCRIPT_BYTES = 512 * 1024;

export function readHead(path: string, max = MAX_SCRIPT_BYTES): string | null {
  let fd: number | undefined;
  try {
    if (!statSync(path).isFile()) return null;
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(max);
    const read = readSync(fd, buffer, 0, max, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"'])\/\/.*$/gm, '$1');
}

/** Gradle paths named by `include(...)` / `include '...'` statements in a settings script. */
export function parseIncludes(settings: string): string[] {
  const paths = new Set<string>();
  const source = stripComments(settings);
  const statement = /\binclude\s*\(?([^\n]*)/g;
  for (const match of source.matchAll(statement)) {
    for (const quoted of match[1]!.matchAll(/["']([^"']+)["']/g)) {
      const name = quoted[1]!.trim();
      if (name) paths.add(name.startsWith(':') ? name : `:${name}`);
    }
  }
  return [...paths];
}

const APPLICATION_PLUGIN = /com\.android\.application|plugins\.android\.application\b/;

export function parseApplicationId(script: string): { applicationId: string | null; namespace: string | null } {
  const source = stripComments(script);
  const id = /\bapplicationId\s*=?\s*["']([A-Za-z][\w.]*)["']/.exec(source);
  const ns = /\bnamespace\s*=?\s*["']([A-Za-z][\w.]*)["']/.exec(source);
  return { applicationId: id?.[1] ?? null, namespace: ns?.[1] ?? null };
}

/**
 * A quick, dependency-free look at a Gradle project: which modules apply the Android application
 * plugin. Reads files only; never runs project code.
 */
@injectable()
export class ProjectInspector {
  applicationModules(root: string): ApplicationModule[] {
    const settings = readHead(join(root, 'settings.gradle.kts')) ?? readHead(join(root, 'settings.gradle')) ?? '';
    const candidates = [':', ...parseIncludes(settings)];
    const modules: ApplicationModule[] = [];
    for (const gradlePath of candidates) {
      const dir = resolve(root, ...gradlePath.split(':').filter(Boolean));
      // An include like ':../../elsewhere' must not make us read outside the project.
      const rel = relative(root, dir);
      if (rel.startsWith('..') || rel.includes(`..${sep}`)) continue;
      for (const name of ['build.gradle.kts', 'build.gradle']) {
        const file = join(dir, name);
        const script = readHead(file);
        if (script === null) continue;
        if (APPLICATION_PLUGIN.test(stripComments(script))) {
          const { applicationId, namespace } = parseApplicationId(script);
          modules.push({ path: gradlePath, dir, build_file: file, application_id: applicationId, namespace });
        }
        break;
      }
    }
    return modules;
  }
}
