import { inject, injectable } from 'inversify';
import { AppInspector } from '../../../android/app-inspector.js';
import { AvdController } from '../../../android/avd-controller.js';
import { DeviceInspector } from '../../../android/device-inspector.js';
import { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import type { AnyToolDefinition } from '../../../kernel/tool-definition.js';
import { DebugSessionReader } from './debug-session-reader.js';
import { createDumpAppInfoTool } from '../tools/dump-app-info.tool.js';
import { createGetAppRuntimeStateTool } from '../tools/get-app-runtime-state.tool.js';
import { createGetDeviceInfoTool } from '../tools/get-device-info.tool.js';
import { createGetExitReasonsTool } from '../tools/get-exit-reasons.tool.js';
import { createGetMemoryInfoTool } from '../tools/get-memory-info.tool.js';
import { createListAvdsTool } from '../tools/list-avds.tool.js';
import { createListDevicesTool } from '../tools/list-devices.tool.js';

/** The core toolset's read-only device and app tools, wired to the shared Android services. */
@injectable()
export class DeviceTools {
  constructor(
    @inject(DeviceInspector) private readonly devices: DeviceInspector,
    @inject(AppInspector) private readonly apps: AppInspector,
    @inject(AvdController) private readonly avds: AvdController,
    @inject(PackageScopeGuard) private readonly scope: PackageScopeGuard,
    @inject(DebugSessionReader) private readonly sessions: DebugSessionReader,
  ) {}

  tools(): readonly AnyToolDefinition[] {
    const { devices, apps, avds, scope, sessions } = this;
    return [
      createListDevicesTool({ inspector: devices }),
      createGetDeviceInfoTool({ inspector: devices }),
      createDumpAppInfoTool({ devices, apps, scope, sessions }),
      createGetMemoryInfoTool({ devices, apps, scope }),
      createGetAppRuntimeStateTool({ devices, apps, scope }),
      createGetExitReasonsTool({ devices, apps, scope }),
      createListAvdsTool({ avds }),
    ];
  }
}
