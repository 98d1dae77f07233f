import { ContainerModule } from 'inversify';
import { EventContribution } from '../events/event-definition.js';
import { AdbService } from './adb-service.js';
import { AppInspector } from './app-inspector.js';
import { AvdController } from './avd-controller.js';
import { deviceEvents } from './device.events.js';
import { DeviceInspector } from './device-inspector.js';
import { DeviceSelector } from './device-selector.js';
import { DeviceTracker } from './device-tracker.js';
import { devicesProjection } from './devices.projection.js';
import { PackageScopeGuard } from './package-scope-guard.js';
import { PackageScopePolicy } from './package-scope-policy.js';
import { ToolCallPolicy } from '../kernel/tool-call-policy.js';

const deviceEventContribution: EventContribution = {
  events: () => deviceEvents,
  projections: () => [devicesProjection],
};

/** Shared Android access every device-facing plugin uses: one adb door, one selection rule, one device log. */
export const androidModule = new ContainerModule(({ bind }) => {
  bind(AdbService).toSelf().inSingletonScope();
  bind(DeviceSelector).toSelf().inSingletonScope();
  bind(DeviceTracker).toSelf().inSingletonScope();
  bind(DeviceInspector).toSelf().inSingletonScope();
  bind(AppInspector).toSelf().inSingletonScope();
  bind(AvdController).toSelf().inSingletonScope();
  bind(PackageScopeGuard).toSelf().inSingletonScope();
  bind<ToolCallPolicy>(ToolCallPolicy).to(PackageScopePolicy).inSingletonScope();
  bind<EventContribution>(EventContribution).toConstantValue(deviceEventContribution);
});
