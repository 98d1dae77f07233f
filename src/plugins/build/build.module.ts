import { ContainerModule } from 'inversify';
import { EventContribution } from '../../events/event-definition.js';
import { ShutdownParticipant } from '../../kernel/shutdown-participant.js';
import { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { buildHistoryProjection } from './build-history.projection.js';
import { buildEvents } from './build.events.js';
import { BuildToolset } from './build.toolset.js';
import { BuildHistory } from './services/build-history.js';
import { BuildService } from './services/build-service.js';

const buildEventContribution: EventContribution = {
  events: () => buildEvents,
  projections: () => [buildHistoryProjection],
};

export const buildModule = new ContainerModule(({ bind }) => {
  bind(BuildHistory).toSelf().inSingletonScope();
  bind(BuildService).toSelf().inSingletonScope();
  bind<ShutdownParticipant>(ShutdownParticipant).toService(BuildService);
  bind(BuildToolset).toSelf().inSingletonScope();
  bind<ToolsetContribution>(ToolsetContribution).toService(BuildToolset);
  bind<EventContribution>(EventContribution).toConstantValue(buildEventContribution);
});
