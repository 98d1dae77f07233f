import { z } from 'zod';
import { isEditable } from '../../../android/ui/ui-dump-parser.js';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { describeNode, targetFromArgs, targetRecord, type UiActionRunner } from '../services/ui-action-runner.js';
import type { UiInput } from '../services/ui-input.js';
import { checkTextSize, MAX_TEXT_BYTES, textDigest, type UiTextEntry } from '../services/ui-text-entry.js';
import {
  actionOutput,
  deviceSerialField,
  elementField,
  expectScreenHashField,
  selectorFields,
} from '../ui-action-fields.js';
import { UiTextEntered } from '../ui.events.js';

export function createUiFillInputTool(deps: { runner: UiActionRunner; input: UiInput; text: UiTextEntry }) {
  return defineTool({
    name: 'ui_fill_input',
    toolset: 'ui',
    kind: 'W',
    title: 'Fill a text field',
    description: `Tap a text field, clear it, type value (≤ ${MAX_TEXT_BYTES} bytes). Refuses a non-editable target. Returns the diff.`,
    input: z.object({
      device_serial: deviceSerialField,
      element: elementField,
      ...selectorFields,
      value: z.string().max(MAX_TEXT_BYTES).describe('Text to put in; empty clears.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: actionOutput,
    sensitive: ['value'],
    async handler(args, ctx) {
      const target = targetFromArgs(args)!;
      checkTextSize(args.value, 'value');
      const frame = await deps.runner.begin(args, ctx);
      const field = deps.runner.resolve(frame, target);
      if (!isEditable(field)) {
        throw new ToolError(
          'ELEMENT_NOT_EDITABLE',
          `${describeNode(frame.before.snapshot, field)} is not a text field; target an element marked edit in get_ui_hierarchy.`,
          { screen_hash: frame.before.screenHash },
        );
      }
      const point = field.center!;
      await deps.input.tap(frame.serial, point.x, point.y, ctx.signal);
      await deps.text.clear(frame.serial, field, ctx.signal);
      const method = args.value ? await deps.text.type(frame.serial, args.value, ctx.signal) : 'input_text';
      const after = await deps.runner.afterAction(frame, ctx, (capture) =>
        ctx.append(
          UiTextEntered,
          {
            ...deps.runner.eventBase(frame, capture),
            target: targetRecord(field, point),
            ...textDigest(args.value),
            method,
            cleared_first: true,
          },
          deps.runner.eventMeta(frame),
        ),
      );
      const data = deps.runner.output(frame, after, field);
      return {
        data,
        summary: deps.runner.summary(`filled ${field.path} with ${[...args.value].length} characters`, data),
      };
    },
  });
}
