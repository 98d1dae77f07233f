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
import { RunConfigurationApprovals } from './run-configurations/run-configuration-approvals.js';
import { RunConfigurationCatalog } from './run-configurations/run-configuration-catalog.js';
import { RunPlanner } from './run-configurations/run-planner.js';
import { runConfigurationEventContribution } from './run-configurations/run-configurations.events.js';
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
  // Run configurations are read by three plugins (core lists, build builds, device-admin runs) and approved by people.
  bind(RunConfigurationApprovals).toSelf().inSingletonScope();
  bind(RunConfigurationCatalog).toSelf().inSingletonScope();
  bind(RunPlanner).toSelf().inSingletonScope();
  bind<EventContribution>(EventContribution).toConstantValue(runConfigurationEventContribution);
});
