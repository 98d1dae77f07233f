import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** Canonical form used as the trust key, so a symlinked path and its target are one project. */
export function canonicalProjectRoot(root: string): string {
  const absolute = resolve(root);
  return existsSync(absolute) ? realpathSync(absolute) : absolute;
}

/**
 * Whether a person allowed a project's build code to run. The core plugin implements it beside its
 * `trusted_projects` projection; the kernel's trust policy and the build worker depend only on this.
 * An implementation answers from the log itself (the newest grant or revocation), never from a read
 * model alone, and answers false when it cannot read: an unreadable record never grants trust.
 */
export const ProjectTrust = Symbol.for('droidwright.ProjectTrust');
export interface ProjectTrust {
  isTrusted(root: string): boolean;
}
