import { ContainerModule } from 'inversify';
import { EventContribution } from '../../events/event-definition.js';
import { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { uiEvents } from './ui.events.js';
import { UiToolset } from './ui.toolset.js';

const uiEventContribution: EventContribution = {
  events: () => uiEvents,
  projections: () => [],
};

export const uiModule = new ContainerModule(({ bind }) => {
  bind(UiToolset).toSelf().inSingletonScope();
  bind<ToolsetContribution>(ToolsetContribution).toService(UiToolset);
  bind<EventContribution>(EventContribution).toConstantValue(uiEventContribution);
});
