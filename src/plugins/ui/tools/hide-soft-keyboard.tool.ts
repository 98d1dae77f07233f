import { z } from 'zod';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { UiActionRunner } from '../services/ui-action-runner.js';
import type { UiInput } from '../services/ui-input.js';
import { KEYCODE_BACK } from '../services/ui-keys.js';
import { actionOutputShape, deviceSerialField, expectScreenHashField } from '../ui-action-fields.js';
import { UiKeySent } from '../ui.events.js';

export function createHideSoftKeyboardTool(deps: { runner: UiActionRunner; input: UiInput }) {
  return defineTool({
    name: 'hide_soft_keyboard',
    toolset: 'ui',
    kind: 'W',
    title: 'Hide the soft keyboard',
    description:
      'Close the on-screen keyboard if it is up (a BACK that only closes it); does nothing otherwise. Returns the diff.',
    input: z.object({ device_serial: deviceSerialField, expect_screen_hash: expectScreenHashField }),
    output: z.object({ ...actionOutputShape, was_shown: z.boolean().describe('Whether the keyboard was up.') }),
    async handler(args, ctx) {
      const frame = await deps.runner.begin(args, ctx);
      const shown = await deps.input.keyboardShown(frame.serial, ctx.signal);
      if (shown === null) {
        throw new ToolError(
          'COMMAND_FAILED',
          `${frame.serial} does not report whether its keyboard is up (no mInputShown in dumpsys input_method); if the screen shows it, send_ui_key back closes it.`,
        );
      }
      if (!shown) {
        const data = { ...deps.runner.output(frame, frame.before), was_shown: false };
        return { data, summary: 'the soft keyboard was not shown; nothing sent' };
      }
      await deps.input.hideKeyboard(frame.serial, ctx.signal);
      const after = await deps.runner.afterAction(frame, ctx, (capture) =>
        ctx.append(
          UiKeySent,
          { ...deps.runner.eventBase(frame, capture), key: 'hide_soft_keyboard', keycode: KEYCODE_BACK },
          deps.runner.eventMeta(frame),
        ),
      );
      const data = { ...deps.runner.output(frame, after), was_shown: true };
      return { data, summary: deps.runner.summary('hid the soft keyboard', data) };
    },
  });
}
