import { inject, injectable } from 'inversify';
import { DeviceInspector } from '../../android/device-inspector.js';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { LogcatStreams } from './services/logcat-streams.js';
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

  tools(): readonly AnyToolDefinition[] {
    const { devices, streams } = this;
    return [createStartLogcatTool({ devices, streams }), createStopLogcatTool({ devices, streams })];
  }
}
