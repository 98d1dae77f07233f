import { inject, injectable, optional } from 'inversify';
import { DeviceInspector } from '../../android/device-inspector.js';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { LogcatStreams } from './services/logcat-streams.js';
import { PackageScopeGuard } from '../../android/package-scope-guard.js';
import { CrashHistory } from './services/crash-history.js';
import { CrashRetracer } from './services/crash-retracer.js';
import { LogLineStore } from './services/log-line-store.js';
import { createGetCrashLogsTool } from './tools/get-crash-logs.tool.js';
import { createGetCrashStackTraceTool } from './tools/get-crash-stack-trace.tool.js';
import { createStartLogcatTool } from './tools/start-logcat.tool.js';
import { createStopLogcatTool } from './tools/stop-logcat.tool.js';

/** The device log and the crashes in it, streamed once per device for every droidwright process. */
@injectable()
export class LogcatToolset implements ToolsetContribution {
  readonly name = 'logcat' as const;
  readonly description =
    "Stream a device's log into a store every agent shares, search it, wait for a line, and read crashes, native crashes and ANRs grouped by signature, linked to the installed build and retraced with its R8 mapping.";

  @inject(DeviceInspector) private readonly devices!: DeviceInspector;
  @inject(LogcatStreams) private readonly streams!: LogcatStreams;
  @inject(CrashHistory) private readonly crashes!: CrashHistory;
  @inject(CrashRetracer) private readonly retracer!: CrashRetracer;
  @inject(PackageScopeGuard) private readonly scope!: PackageScopeGuard;
  /** The device log's own store, when bound: crash tools show the lines around a crash from it. */
  @inject(LogLineStore) @optional() private readonly lineStore?: LogLineStore;

  tools(): readonly AnyToolDefinition[] {
    const { devices, streams } = this;
    return [
      createStartLogcatTool({ devices, streams }),
      createStopLogcatTool({ devices, streams }),
      createGetCrashLogsTool({ crashes: this.crashes, retracer: this.retracer, scope: this.scope }),
      createGetCrashStackTraceTool({
        crashes: this.crashes,
        retracer: this.retracer,
        scope: this.scope,
        lines: () => this.lineStore ?? null,
      }),
    ];
  }
}
