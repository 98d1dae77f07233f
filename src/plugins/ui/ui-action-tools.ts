import { inject, injectable } from 'inversify';
import type { AnyToolDefinition } from '../../kernel/tool-definition.js';
import { UiActionRunner } from './services/ui-action-runner.js';
import { UiInput } from './services/ui-input.js';
import { UiTextEntry } from './services/ui-text-entry.js';
import { createClearFocusedInputTool } from './tools/clear-focused-input.tool.js';
import { createHideSoftKeyboardTool } from './tools/hide-soft-keyboard.tool.js';
import { createSendUiKeyTool } from './tools/send-ui-key.tool.js';
import { createUiFillInputTool } from './tools/ui-fill-input.tool.js';
import { createUiScrollUntilElementTool } from './tools/ui-scroll-until-element.tool.js';
import { createUiSwipeTool } from './tools/ui-swipe.tool.js';
import { createUiTapElementTool } from './tools/ui-tap-element.tool.js';
import { createUiTapTool } from './tools/ui-tap.tool.js';
import { createUiTypeTextUnicodeTool } from './tools/ui-type-text-unicode.tool.js';
import { createUiTypeTextTool } from './tools/ui-type-text.tool.js';

/** The ui toolset's acting tools (kind W), built over the shared action frame; the toolset lists them. */
@injectable()
export class UiActionTools {
  constructor(
    @inject(UiActionRunner) private readonly runner: UiActionRunner,
    @inject(UiInput) private readonly input: UiInput,
    @inject(UiTextEntry) private readonly text: UiTextEntry,
  ) {}

  tools(): readonly AnyToolDefinition[] {
    const { runner, input, text } = this;
    return [
      createUiTapElementTool({ runner, input }),
      createUiTapTool({ runner, input }),
      createUiFillInputTool({ runner, input, text }),
      createUiTypeTextTool({ runner, input }),
      createUiTypeTextUnicodeTool({ runner, text }),
      createClearFocusedInputTool({ runner, text }),
      createHideSoftKeyboardTool({ runner, input }),
      createSendUiKeyTool({ runner, input }),
      createUiSwipeTool({ runner, input }),
      createUiScrollUntilElementTool({ runner, input }),
    ];
  }
}
