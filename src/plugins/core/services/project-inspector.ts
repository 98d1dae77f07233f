import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { injectable } from 'inversify';
import { applicationModules, loadGradleProject } from '../../../android/gradle-project-model.js';

export interface ApplicationModule {
  /** Gradle path, e.g. `:app` (`:` for a single-module project). */
  readonly path: string;
  /** Directory, absolute. */
  readonly dir: string;
  readonly build_file: string | null;
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

/**
 * The project's application modules as the shared Gradle project model reads them (statically:
 * never runs project code), in the shape `get_project_info` reports.
 */
@injectable()
export class ProjectInspector {
  applicationModules(root: string): ApplicationModule[] {
    return applicationModules(loadGradleProject(root)).map((module) => ({
      path: module.path,
      dir: module.dir,
      build_file: module.buildFile,
      application_id: module.applicationId,
      namespace: module.namespace,
    }));
  }
}
