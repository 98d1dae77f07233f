import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import { targetRecord, type UiActionRunner } from '../services/ui-action-runner.js';
import { checkTextSize, MAX_TEXT_BYTES, textDigest, type UiTextEntry } from '../services/ui-text-entry.js';
import { actionOutput, deviceSerialField, expectScreenHashField } from '../ui-action-fields.js';
import { UiTextEntered } from '../ui.events.js';
import { requireFocusedField } from './ui-type-text.tool.js';

export function createUiTypeTextUnicodeTool(deps: { runner: UiActionRunner; text: UiTextEntry }) {
  return defineTool({
    name: 'ui_type_text_unicode',
    toolset: 'ui',
    kind: 'W',
    title: 'Type any text',
    description: `Type any Unicode (≤ ${MAX_TEXT_BYTES} bytes) into the focused field via ADBKeyboard or the clipboard (Clipper), saying what to install if neither is there. Returns the diff.`,
    input: z.object({
      device_serial: deviceSerialField,
      text: z.string().min(1).max(MAX_TEXT_BYTES).describe('Text to type, exactly.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: actionOutput,
    sensitive: ['text'],
    async handler(args, ctx) {
      checkTextSize(args.text);
      const frame = await deps.runner.begin(args, ctx);
      const field = requireFocusedField(frame);
      const method = await deps.text.typeUnicode(frame.serial, args.text, ctx.signal);
      const after = await deps.runner.afterAction(frame, ctx, (capture) =>
        ctx.append(
          UiTextEntered,
          {
            ...deps.runner.eventBase(frame, capture),
            target: targetRecord(field, field.center ?? { x: 0, y: 0 }),
            ...textDigest(args.text),
            method,
            cleared_first: false,
          },
          deps.runner.eventMeta(frame),
        ),
      );
      const data = deps.runner.output(frame, after, field);
      return { data, summary: deps.runner.summary(`typed ${[...args.text].length} characters (${method})`, data) };
    },
  });
}
