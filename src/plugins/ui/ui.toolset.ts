import { injectable } from 'inversify';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';

/** The screen of the running app: compact views to read, element-targeted actions guarded by the screen hash. */
@injectable()
export class UiToolset implements ToolsetContribution {
  readonly name = 'ui' as const;
  readonly description =
    "See the device's screen as a compact list of what can be acted on, a sparse tree, a diff or a picture, and tap, type, swipe and send keys by element, each refused when the screen changed since the agent looked (expect_screen_hash).";

  tools(): readonly AnyToolDefinition[] {
    return [];
  }
}
