import { ContainerModule } from 'inversify';
import { EventContribution } from '../../events/event-definition.js';
import { InstalledBuildLookup } from '../../kernel/installed-build-lookup.js';
import { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { deviceAdminEvents } from './device-admin.events.js';
import { DeviceAdminToolset } from './device-admin.toolset.js';
import { installedBuildsProjection } from './installed-builds.projection.js';
import { ApkInstaller } from './services/apk-installer.js';
import { InstalledBuildIndex } from './services/installed-build-index.js';
import { AppController } from './services/app-controller.js';
import { NetworkController } from './services/network-controller.js';
import { OrientationController } from './services/orientation-controller.js';
import { RunConfigurationRunner } from './services/run-configuration-runner.js';

const deviceAdminEventContribution: EventContribution = {
  events: () => deviceAdminEvents,
  projections: () => [installedBuildsProjection],
};

export const deviceAdminModule = new ContainerModule(({ bind }) => {
  bind(ApkInstaller).toSelf().inSingletonScope();
  bind(AppController).toSelf().inSingletonScope();
  bind(NetworkController).toSelf().inSingletonScope();
  bind(OrientationController).toSelf().inSingletonScope();
  bind(InstalledBuildIndex).toSelf().inSingletonScope();
  bind(RunConfigurationRunner).toSelf().inSingletonScope();
  bind<InstalledBuildLookup>(InstalledBuildLookup).toService(InstalledBuildIndex);
  bind(DeviceAdminToolset).toSelf().inSingletonScope();
  bind<ToolsetContribution>(ToolsetContribution).toService(DeviceAdminToolset);
  bind<EventContribution>(EventContribution).toConstantValue(deviceAdminEventContribution);
});
