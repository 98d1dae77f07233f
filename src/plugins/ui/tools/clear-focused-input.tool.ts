import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import { targetRecord, type UiActionRunner } from '../services/ui-action-runner.js';
import { textDigest, type UiTextEntry } from '../services/ui-text-entry.js';
import { actionOutput, deviceSerialField, expectScreenHashField } from '../ui-action-fields.js';
import { UiTextEntered } from '../ui.events.js';
import { requireFocusedField } from './ui-type-text.tool.js';

export function createClearFocusedInputTool(deps: { runner: UiActionRunner; text: UiTextEntry }) {
  return defineTool({
    name: 'clear_focused_input',
    toolset: 'ui',
    kind: 'W',
    title: 'Clear the focused field',
    description: 'Delete all text in the focused text field. Returns the diff.',
    input: z.object({ device_serial: deviceSerialField, expect_screen_hash: expectScreenHashField }),
    output: actionOutput,
    async handler(args, ctx) {
      const frame = await deps.runner.begin(args, ctx);
      const field = requireFocusedField(frame);
      await deps.text.clear(frame.serial, field, ctx.signal);
      const after = await deps.runner.afterAction(frame, ctx, (capture) =>
        ctx.append(
          UiTextEntered,
          {
            ...deps.runner.eventBase(frame, capture),
            target: targetRecord(field, field.center ?? { x: 0, y: 0 }),
            ...textDigest(''),
            method: 'input_text',
            cleared_first: true,
          },
          deps.runner.eventMeta(frame),
        ),
      );
      const data = deps.runner.output(frame, after, field);
      return { data, summary: deps.runner.summary(`cleared ${field.path}`, data) };
    },
  });
}
