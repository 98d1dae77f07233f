import { inject, injectable } from 'inversify';
import { RunConfigurationCatalog } from '../../android/run-configurations/run-configuration-catalog.js';
import { Settings } from '../../kernel/settings.js';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { BuildHistory } from './services/build-history.js';
import { BuildService } from './services/build-service.js';
import { VariantBuildRunner } from './services/variant-build-runner.js';
import { createBuildRunConfigurationTool } from './tools/build-run-configuration.tool.js';
import { createCancelBuildTool } from './tools/cancel-build.tool.js';
import { createCompareBuildsTool } from './tools/compare-builds.tool.js';
import { createFindApkPathTool } from './tools/find-apk-path.tool.js';
import { createGetBuildConfigTool } from './tools/get-build-config.tool.js';
import { createGetBuildErrorsTool } from './tools/get-build-errors.tool.js';
import { createGetBuildLogTool } from './tools/get-build-log.tool.js';
import { createGetBuildStatusTool } from './tools/get-build-status.tool.js';
import { createListBuildHistoryTool } from './tools/list-build-history.tool.js';
import { createListBuildVariantsTool } from './tools/list-build-variants.tool.js';
import { createRunGradleTaskTool } from './tools/run-gradle-task.tool.js';
import { createRunTestsTool } from './tools/run-tests.tool.js';
import { createSetActiveVariantTool } from './tools/set-active-variant.tool.js';

@injectable()
export class BuildToolset implements ToolsetContribution {
  readonly name = 'build' as const;
  readonly description =
    'Gradle builds and tests of the trusted project with structured diagnostics, APK lookup, variants and a build history shared by every agent (one build per project at a time).';

  constructor(
    @inject(BuildService) private readonly service: BuildService,
    @inject(BuildHistory) private readonly history: BuildHistory,
    @inject(Settings) private readonly settings: Settings,
    @inject(RunConfigurationCatalog) private readonly catalog: RunConfigurationCatalog,
    @inject(VariantBuildRunner) private readonly runner: VariantBuildRunner,
  ) {}

  tools(): readonly AnyToolDefinition[] {
    const deps = { service: this.service, history: this.history, settings: this.settings };
    return [
      createRunGradleTaskTool(deps),
      createGetBuildStatusTool(deps),
      createGetBuildErrorsTool(deps),
      createGetBuildLogTool(deps),
      createCancelBuildTool(deps),
      createListBuildVariantsTool(deps),
      createSetActiveVariantTool(deps),
      createFindApkPathTool(deps),
      createRunTestsTool(deps),
      createGetBuildConfigTool(deps),
      createListBuildHistoryTool(deps),
      createCompareBuildsTool(deps),
      createBuildRunConfigurationTool({ service: this.service, catalog: this.catalog, runner: this.runner }),
    ];
  }
}
