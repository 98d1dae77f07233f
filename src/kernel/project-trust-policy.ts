import { inject, injectable, optional } from 'inversify';
import { InvalidArgumentsError } from './errors.js';
import { ProjectTrust } from './project-trust.js';
import { SelectedProject } from './project-selection.js';
import type { ToolCall, ToolCallPolicy } from './tool-call-policy.js';

/**
 * An O tool runs the project's own code (Gradle), so it runs only in a project a person trusted. With
 * no project selected the tool itself answers PROJECT_NOT_FOUND. The build worker checks again before
 * it starts Gradle, since trust may be revoked in between. Fails closed: no ProjectTrust, no trust.
 */
@injectable()
export class ProjectTrustPolicy implements ToolCallPolicy {
  constructor(
    // Bound by the core plugin; without it nothing can vouch for a project, so O tools are refused.
    @inject(ProjectTrust) @optional() private readonly trust: ProjectTrust | undefined,
    @inject(SelectedProject) private readonly project: SelectedProject,
  ) {}

  check({ tool }: ToolCall): void {
    if (tool.kind !== 'O') return;
    const root = this.project.root;
    if (!root || this.trust?.isTrusted(root) === true) return;
    throw new InvalidArgumentsError(
      `The project ${root} is not trusted, so ${tool.name} may not run its Gradle build. Ask the user to review it and run \`droidwright trust ${root}\` in their own terminal; an agent cannot grant trust.`,
      'PROJECT_NOT_TRUSTED',
    );
  }
}
