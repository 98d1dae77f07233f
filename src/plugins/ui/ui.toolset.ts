import { inject, injectable } from 'inversify';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import type { ToolsetContribution } from '../../kernel/toolset-contribution.js';
import { ScreenshotService } from './services/screenshot-service.js';
import { UiReader } from './services/ui-reader.js';
import { createCompareUiStateTool } from './tools/compare-ui-state.tool.js';
import { createFindUiElementsTool } from './tools/find-ui-elements.tool.js';
import { createFindUiParentTool } from './tools/find-ui-parent.tool.js';
import { createGetUiHierarchyTool } from './tools/get-ui-hierarchy.tool.js';
import { createListClickableElementsTool } from './tools/list-clickable-elements.tool.js';
import { createScreenshotTool } from './tools/screenshot.tool.js';
import { createUiAssertElementTool } from './tools/ui-assert-element.tool.js';
import { createUiWaitForIdleTool } from './tools/ui-wait-for-idle.tool.js';
import { createWaitForElementTool } from './tools/wait-for-element.tool.js';
import { UiActionTools } from './ui-action-tools.js';

/** The screen of the running app: compact views to read, element-targeted actions guarded by the screen hash. */
@injectable()
export class UiToolset implements ToolsetContribution {
  readonly name = 'ui' as const;
  readonly description =
    "See the device's screen as a compact list of what can be acted on, a sparse tree, a diff or a picture, and tap, type, swipe and send keys by element, each refused when the screen changed since the agent looked (expect_screen_hash).";

  @inject(UiReader) private readonly reader!: UiReader;
  @inject(ScreenshotService) private readonly screenshots!: ScreenshotService;
  @inject(UiActionTools) private readonly actionTools!: UiActionTools;

  tools(): readonly AnyToolDefinition[] {
    const { reader, screenshots } = this;
    return [
      createGetUiHierarchyTool({ reader }),
      createListClickableElementsTool({ reader }),
      createFindUiElementsTool({ reader }),
      createFindUiParentTool({ reader }),
      createCompareUiStateTool({ reader }),
      createWaitForElementTool({ reader }),
      createUiWaitForIdleTool({ reader }),
      createUiAssertElementTool({ reader }),
      createScreenshotTool({ reader, screenshots }),
      ...this.actionTools.tools(),
    ];
  }
}
