import { ContainerModule } from 'inversify';
import { EventContribution } from '../../events/event-definition.js';
import { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { DeviceUiCapturer } from './services/device-ui-capturer.js';
import { ScreenshotService } from './services/screenshot-service.js';
import { UiReader } from './services/ui-reader.js';
import { UiCapturer } from './services/ui-capturer.js';
import { UiActionRunner } from './services/ui-action-runner.js';
import { UiInput } from './services/ui-input.js';
import { UiTextEntry } from './services/ui-text-entry.js';
import { UiActionTools } from './ui-action-tools.js';
import { uiEvents } from './ui.events.js';
import { uiTables } from './ui-tables.js';
import { UiToolset } from './ui.toolset.js';

const uiEventContribution: EventContribution = {
  events: () => uiEvents,
  projections: () => [],
  tables: () => uiTables,
};

export const uiModule = new ContainerModule(({ bind }) => {
  bind(DeviceUiCapturer).toSelf().inSingletonScope();
  bind<UiCapturer>(UiCapturer).toService(DeviceUiCapturer);
  bind(UiReader).toSelf().inSingletonScope();
  bind(ScreenshotService).toSelf().inSingletonScope();
  bind(UiInput).toSelf().inSingletonScope();
  bind(UiTextEntry).toSelf().inSingletonScope();
  bind(UiActionRunner).toSelf().inSingletonScope();
  bind(UiActionTools).toSelf().inSingletonScope();
  bind(UiToolset).toSelf().inSingletonScope();
  bind<ToolsetContribution>(ToolsetContribution).toService(UiToolset);
  bind<EventContribution>(EventContribution).toConstantValue(uiEventContribution);
});
