import { inject, injectable } from 'inversify';
import { AvdController } from '../../android/avd-controller.js';
import { DeviceInspector } from '../../android/device-inspector.js';
import { SelectedProject } from '../../kernel/project-selection.js';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { ApkInstaller } from './services/apk-installer.js';
import { AppController } from './services/app-controller.js';
import { NetworkController } from './services/network-controller.js';
import { OrientationController } from './services/orientation-controller.js';
import { RunConfigurationRunner } from './services/run-configuration-runner.js';
import { createGrantRuntimePermissionTool } from './tools/grant-runtime-permission.tool.js';
import { createInstallApkTool } from './tools/install-apk.tool.js';
import { createLaunchAppTool } from './tools/launch-app.tool.js';
import { createLaunchAvdTool } from './tools/launch-avd.tool.js';
import { createOpenAppSettingsTool } from './tools/open-app-settings.tool.js';
import { createOpenDeepLinkTool } from './tools/open-deep-link.tool.js';
import { createRestartAppTool } from './tools/restart-app.tool.js';
import { createRevokeRuntimePermissionTool } from './tools/revoke-runtime-permission.tool.js';
import { createRunRunConfigurationTool } from './tools/run-run-configuration.tool.js';
import { createSetDeviceOrientationTool } from './tools/set-device-orientation.tool.js';
import { createSetNetworkStateTool } from './tools/set-network-state.tool.js';
import { createStopAppTool } from './tools/stop-app.tool.js';
import { createStopAvdTool } from './tools/stop-avd.tool.js';

/** Installing, launching and stopping apps, their permissions, and device state (network, orientation, emulators). */
@injectable()
export class DeviceAdminToolset implements ToolsetContribution {
  readonly name = 'device-admin' as const;
  readonly description =
    "Install the project's builds and launch, stop and restart apps; grant or revoke runtime permissions; switch network and orientation; open deep links and app settings; start and stop emulators. Destructive tools act only on the project's apps unless told otherwise.";

  constructor(
    @inject(SelectedProject) private readonly project: SelectedProject,
    @inject(DeviceInspector) private readonly devices: DeviceInspector,
    @inject(AvdController) private readonly avds: AvdController,
    @inject(ApkInstaller) private readonly installer: ApkInstaller,
    @inject(AppController) private readonly apps: AppController,
    @inject(NetworkController) private readonly network: NetworkController,
    @inject(OrientationController) private readonly orientation: OrientationController,
    @inject(RunConfigurationRunner) private readonly runConfigurations: RunConfigurationRunner,
  ) {}

  tools(): readonly AnyToolDefinition[] {
    const { project, devices, avds, installer, apps, network, orientation } = this;
    return [
      createInstallApkTool({ project, devices, installer }),
      createLaunchAppTool({ devices, apps }),
      createRunRunConfigurationTool({ project, runner: this.runConfigurations }),
      createStopAppTool({ devices, apps }),
      createRestartAppTool({ devices, apps }),
      createGrantRuntimePermissionTool({ devices, apps }),
      createRevokeRuntimePermissionTool({ devices, apps }),
      createSetNetworkStateTool({ devices, network }),
      createSetDeviceOrientationTool({ devices, orientation }),
      createOpenDeepLinkTool({ devices, apps }),
      createOpenAppSettingsTool({ devices, apps }),
      createLaunchAvdTool({ avds }),
      createStopAvdTool({ avds }),
    ];
  }
}
