import { ContainerModule } from 'inversify';
import { EventContribution } from '../../events/event-definition.js';
import { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { logcatEvents } from './logcat.events.js';
import { LogcatToolset } from './logcat.toolset.js';

const logcatEventContribution: EventContribution = {
  events: () => logcatEvents,
  projections: () => [],
};

export const logcatModule = new ContainerModule(({ bind }) => {
  bind(LogcatToolset).toSelf().inSingletonScope();
  bind<ToolsetContribution>(ToolsetContribution).toService(LogcatToolset);
  bind<EventContribution>(EventContribution).toConstantValue(logcatEventContribution);
});
