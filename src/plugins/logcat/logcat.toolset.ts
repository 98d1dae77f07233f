import { injectable } from 'inversify';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';

/** The device log and the crashes in it, streamed once per device for every droidwright process. */
@injectable()
export class LogcatToolset implements ToolsetContribution {
  readonly name = 'logcat' as const;
  readonly description =
    "Stream a device's log into a store every agent shares, search it, wait for a line, and read crashes, native crashes and ANRs grouped by signature, linked to the installed build and retraced with its R8 mapping.";

  tools(): readonly AnyToolDefinition[] {
    return [];
  }
}
