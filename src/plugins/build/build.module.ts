import { ContainerModule } from 'inversify';
import { EventContribution } from '../../events/event-definition.js';
import { BuildArtifactLookup } from '../../kernel/build-artifact-lookup.js';
import { BuildMappingLookup } from '../../kernel/build-mapping-lookup.js';
import { BuildRunner } from '../../kernel/build-runner.js';
import { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { buildHistoryProjection } from './build-history.projection.js';
import { buildTables } from './build-tables.js';
import { buildEvents } from './build.events.js';
import { BuildToolset } from './build.toolset.js';
import { BuildArtifactIndex } from './services/build-artifact-index.js';
import { BuildHistory } from './services/build-history.js';
import { BuildMappingIndex } from './services/build-mapping-index.js';
import { BuildLauncher, DetachedBuildLauncher } from './services/build-launcher.js';
import { BuildService } from './services/build-service.js';
import { BuildWorker } from './services/build-worker.js';
import { VariantBuildRunner } from './services/variant-build-runner.js';

const buildEventContribution: EventContribution = {
  events: () => buildEvents,
  projections: () => [buildHistoryProjection],
  tables: () => buildTables,
};

// Builds run in their own worker processes, so `droidwright mcp` has nothing to wait for when it exits.
// Every plugin module is loaded whatever `--toolsets` serves (that only filters the tools listed), so the
// artifact lookup other plugins use is bound even when the build tools are not served.
export const buildModule = new ContainerModule(({ bind }) => {
  bind(BuildHistory).toSelf().inSingletonScope();
  bind(BuildArtifactIndex).toSelf().inSingletonScope();
  bind<BuildArtifactLookup>(BuildArtifactLookup).toService(BuildArtifactIndex);
  bind(BuildMappingIndex).toSelf().inSingletonScope();
  bind<BuildMappingLookup>(BuildMappingLookup).toService(BuildMappingIndex);
  bind(BuildWorker).toSelf().inSingletonScope();
  bind<BuildLauncher>(BuildLauncher).to(DetachedBuildLauncher).inSingletonScope();
  bind(BuildService).toSelf().inSingletonScope();
  // device-admin's run_run_configuration builds through this, on run_gradle_task's path.
  bind(VariantBuildRunner).toSelf().inSingletonScope();
  bind<BuildRunner>(BuildRunner).toService(VariantBuildRunner);
  bind(BuildToolset).toSelf().inSingletonScope();
  bind<ToolsetContribution>(ToolsetContribution).toService(BuildToolset);
  bind<EventContribution>(EventContribution).toConstantValue(buildEventContribution);
});
