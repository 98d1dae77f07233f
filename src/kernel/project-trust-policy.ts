import { inject, injectable } from 'inversify';
import { InvalidArgumentsError } from './errors.js';
import { ProjectTrust } from './project-trust.js';
import { SelectedProject } from './project-selection.js';
import type { ToolCall, ToolCallPolicy } from './tool-call-policy.js';

/**
 * An O tool runs the project's own code (Gradle), so it runs only in a project a person trusted. With
 * no project selected the tool itself answers PROJECT_NOT_FOUND. The build worker checks again before
 * it starts Gradle, since trust may be revoked in between.
 */
@injectable()
export class ProjectTrustPolicy implements ToolCallPolicy {
  constructor(
    @inject(ProjectTrust) private readonly trust: ProjectTrust,
    @inject(SelectedProject) private readonly project: SelectedProject,
  ) {}

  check({ tool }: ToolCall): void {
    if (tool.kind !== 'O') return;
    const root = this.project.root;
    if (!root || this.trust.isTrusted(root)) return;
    throw new InvalidArgumentsError(
      `The project ${root} is not trusted, so ${tool.name} may not run its Gradle build. Ask the user to review it and run \`droidwright trust ${root}\` in their own terminal; an agent cannot grant trust.`,
      'PROJECT_NOT_TRUSTED',
    );
  }
}
