import { z } from 'zod';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import {
  focusedEditable,
  type UiActionFrame,
  targetRecord,
  type UiActionRunner,
} from '../services/ui-action-runner.js';
import type { UiInput } from '../services/ui-input.js';
import { checkAsciiTypeable, checkTextSize, MAX_TEXT_BYTES, textDigest } from '../services/ui-text-entry.js';
import { actionOutput, deviceSerialField, expectScreenHashField } from '../ui-action-fields.js';
import { UiTextEntered } from '../ui.events.js';

/** The focused text field of the frame, or a refusal saying how to focus one. */
export function requireFocusedField(frame: UiActionFrame) {
  const field = focusedEditable(frame.before.snapshot);
  if (!field)
    throw new ToolError(
      'ELEMENT_NOT_FOUND',
      'No text field has focus, so typed text would go nowhere. Use ui_fill_input with the field, or tap it first (ui_tap_element).',
      { screen_hash: frame.before.screenHash },
    );
  return field;
}

export function createUiTypeTextTool(deps: { runner: UiActionRunner; input: UiInput }) {
  return defineTool({
    name: 'ui_type_text',
    toolset: 'ui',
    kind: 'W',
    title: 'Type text',
    description: `Type printable ASCII (≤ ${MAX_TEXT_BYTES} bytes) into the focused field, appending. ui_fill_input targets a field; ui_type_text_unicode types other text. Returns the diff.`,
    input: z.object({
      device_serial: deviceSerialField,
      text: z.string().min(1).max(MAX_TEXT_BYTES).describe('Text to type, exactly.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: actionOutput,
    sensitive: ['text'],
    async handler(args, ctx) {
      checkTextSize(args.text);
      checkAsciiTypeable(args.text);
      const frame = await deps.runner.begin(args, ctx);
      const field = requireFocusedField(frame);
      await deps.input.typeAscii(frame.serial, args.text, ctx.signal);
      const after = await deps.runner.afterAction(frame, ctx, (capture) =>
        ctx.append(
          UiTextEntered,
          {
            ...deps.runner.eventBase(frame, capture),
            target: targetRecord(field, field.center ?? { x: 0, y: 0 }),
            ...textDigest(args.text),
            method: 'input_text',
            cleared_first: false,
          },
          deps.runner.eventMeta(frame),
        ),
      );
      const data = deps.runner.output(frame, after, field);
      return { data, summary: deps.runner.summary(`typed ${args.text.length} characters`, data) };
    },
  });
}
