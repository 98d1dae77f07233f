import { inject, injectable } from 'inversify';
import { InvalidArgumentsError } from '../kernel/errors.js';
import { SelectedProject } from '../kernel/project-selection.js';
import { loadGradleProject, packageScope, type PackageScope } from './gradle-project-model.js';

/**
 * Package scope for tools that stop an app, wipe its data or change its permissions: they act only on the
 * selected project's application ids unless the caller passes `allow_foreign_package: true`. With no
 * project, or a project whose ids cannot be read, every package is foreign (the rule fails closed).
 * The scope is read on every call, so ids of a variant built a moment ago count at once.
 */
@injectable()
export class PackageScopeGuard {
  constructor(@inject(SelectedProject) private readonly project: SelectedProject) {}

  scope(): PackageScope | null {
    if (!this.project.root) return null;
    try {
      return packageScope(loadGradleProject(this.project.root));
    } catch {
      return null;
    }
  }

  require(
    pkg: string,
    allowForeign: boolean | undefined,
    field = 'package',
    allowField = 'allow_foreign_package',
  ): void {
    if (allowForeign === true) return;
    const scope = this.scope();
    if (scope?.isInScope(pkg)) return;
    const ids =
      scope && scope.packages.length > 0
        ? `The project's application ids are: ${scope.packages.slice(0, 20).join(', ')}.`
        : this.project.root
          ? `No application id could be read from the project at ${this.project.root}.`
          : 'No Gradle project is selected, so no package is in scope.';
    throw new InvalidArgumentsError(
      `${pkg} is not one of this project's apps. ${ids} Pass ${allowField}: true only if the user explicitly asked to act on ${pkg}.`,
      'PACKAGE_OUT_OF_SCOPE',
      field,
    );
  }

  /** The project's app when it has exactly one id; otherwise the caller must name the package. */
  defaultPackage(field = 'package'): string {
    const scope = this.scope();
    const ids = scope?.packages ?? [];
    if (ids.length === 1) return ids[0]!;
    if (ids.length === 0) {
      throw new InvalidArgumentsError(
        `${field} is required: ${this.project.root ? 'no application id could be read from the project' : 'no Gradle project is selected'}.`,
        'INVALID_ARGUMENT',
        field,
      );
    }
    throw new InvalidArgumentsError(
      `${field} is required: the project has several application ids (${ids.slice(0, 20).join(', ')}); pass the one installed on the device.`,
      'INVALID_ARGUMENT',
      field,
    );
  }
}
