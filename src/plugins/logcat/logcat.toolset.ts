import { inject, injectable } from 'inversify';
import { DeviceInspector } from '../../android/device-inspector.js';
import { PackageScopeGuard } from '../../android/package-scope-guard.js';
import { EventStoreProvider } from '../../kernel/event-store-provider.js';
import { Settings } from '../../kernel/settings.js';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { LogLineStore } from './services/log-line-store.js';
import { LogcatStreams } from './services/logcat-streams.js';
import { CrashHistory } from './services/crash-history.js';
import { CrashRetracer } from './services/crash-retracer.js';
import { createClearLogcatTool } from './tools/clear-logcat.tool.js';
import { createGetCrashLogsTool } from './tools/get-crash-logs.tool.js';
import { createGetCrashStackTraceTool } from './tools/get-crash-stack-trace.tool.js';
import { createGetLogcatEntriesTool } from './tools/get-logcat-entries.tool.js';
import { createGetLogcatStatsTool } from './tools/get-logcat-stats.tool.js';
import { createStartLogcatTool } from './tools/start-logcat.tool.js';
import { createStopLogcatTool } from './tools/stop-logcat.tool.js';
import { createWaitForLogTool } from './tools/wait-for-log.tool.js';

/** The device log and the crashes in it, streamed once per device for every droidwright process. */
@injectable()
export class LogcatToolset implements ToolsetContribution {
  readonly name = 'logcat' as const;
  readonly description =
    "Stream a device's log into a store every agent shares, search it, wait for a line, and read crashes, native crashes and ANRs grouped by signature, linked to the installed build and retraced with its R8 mapping.";

  @inject(DeviceInspector) private readonly devices!: DeviceInspector;
  @inject(LogcatStreams) private readonly streams!: LogcatStreams;
  @inject(LogLineStore) private readonly store!: LogLineStore;
  @inject(PackageScopeGuard) private readonly scopeGuard!: PackageScopeGuard;
  @inject(Settings) private readonly settings!: Settings;
  @inject(EventStoreProvider) private readonly events!: EventStoreProvider;
  @inject(CrashHistory) private readonly crashes!: CrashHistory;
  @inject(CrashRetracer) private readonly retracer!: CrashRetracer;

  tools(): readonly AnyToolDefinition[] {
    const { devices, streams, store, events, crashes, retracer } = this;
    const scope = () => this.scopeGuard.scope();
    const retention = () => ({
      maxLines: this.settings.get().logcatRetentionLines,
      maxBytes: this.settings.get().logcatRetentionBytes,
    });
    return [
      createStartLogcatTool({ devices, streams }),
      createStopLogcatTool({ devices, streams }),
      createGetLogcatEntriesTool({ devices, store, scope }),
      createGetLogcatStatsTool({ devices, store, streams, retention }),
      createClearLogcatTool({ devices, store }),
      createWaitForLogTool({ devices, store, streams, events, scope }),
      createGetCrashLogsTool({ crashes, retracer, scope: this.scopeGuard }),
      createGetCrashStackTraceTool({ crashes, retracer, scope: this.scopeGuard, lines: () => store }),
    ];
  }
}
