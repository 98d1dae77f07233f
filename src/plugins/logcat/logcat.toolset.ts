import { inject, injectable, optional } from 'inversify';
import { DeviceInspector } from '../../android/device-inspector.js';
import { PackageScopeGuard } from '../../android/package-scope-guard.js';
import { EventStoreProvider } from '../../kernel/event-store-provider.js';
import { Settings } from '../../kernel/settings.js';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { LogLineStore } from './services/log-line-store.js';
import { LogcatStreams } from './services/logcat-streams.js';
import { createClearLogcatTool } from './tools/clear-logcat.tool.js';
import { createGetLogcatEntriesTool } from './tools/get-logcat-entries.tool.js';
import { createGetLogcatStatsTool } from './tools/get-logcat-stats.tool.js';
import { createWaitForLogTool } from './tools/wait-for-log.tool.js';

/** The device log and the crashes in it, streamed once per device for every droidwright process. */
@injectable()
export class LogcatToolset implements ToolsetContribution {
  readonly name = 'logcat' as const;
  readonly description =
    "Stream a device's log into a store every agent shares, search it, wait for a line, and read crashes, native crashes and ANRs grouped by signature, linked to the installed build and retraced with its R8 mapping.";

  constructor(
    @inject(DeviceInspector) private readonly devices: DeviceInspector,
    @inject(LogLineStore) private readonly store: LogLineStore,
    @inject(PackageScopeGuard) private readonly scopeGuard: PackageScopeGuard,
    @inject(Settings) private readonly settings: Settings,
    @inject(EventStoreProvider) private readonly events: EventStoreProvider,
    @inject(LogcatStreams) @optional() private readonly streams: LogcatStreams | undefined,
  ) {}

  tools(): readonly AnyToolDefinition[] {
    const { devices, store, events } = this;
    const scope = () => this.scopeGuard.scope();
    const retention = () => ({
      maxLines: this.settings.get().logcatRetentionLines,
      maxBytes: this.settings.get().logcatRetentionBytes,
    });
    const tools: AnyToolDefinition[] = [
      createGetLogcatEntriesTool({ devices, store, scope }),
      createClearLogcatTool({ devices, store }),
    ];
    // Worker control comes with the logcat worker; the tools that need it are served once it is bound.
    const streams = this.streams;
    if (streams) {
      tools.push(
        createGetLogcatStatsTool({ devices, store, streams, retention }),
        createWaitForLogTool({ devices, store, streams, events, scope }),
      );
    }
    return tools;
  }
}
