import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import { targetFromArgs, targetRecord, type UiActionRunner } from '../services/ui-action-runner.js';
import type { UiInput } from '../services/ui-input.js';
import {
  actionOutput,
  deviceSerialField,
  elementField,
  expectScreenHashField,
  selectorFields,
} from '../ui-action-fields.js';
import { UiTapped } from '../ui.events.js';

export function createUiTapElementTool(deps: { runner: UiActionRunner; input: UiInput }) {
  return defineTool({
    name: 'ui_tap_element',
    toolset: 'ui',
    kind: 'W',
    title: 'Tap an element',
    description:
      'Tap one element (id, path or selector). Refuses missing, disabled or ambiguous targets. Returns the diff.',
    input: z.object({
      device_serial: deviceSerialField,
      element: elementField,
      ...selectorFields,
      long_press: z.boolean().optional().describe('Hold 0.8 s.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: actionOutput,
    async handler(args, ctx) {
      const target = targetFromArgs(args)!;
      const frame = await deps.runner.begin(args, ctx);
      const node = deps.runner.resolve(frame, target);
      const point = node.center!;
      const longPress = args.long_press ?? false;
      if (longPress) await deps.input.longPress(frame.serial, point.x, point.y, ctx.signal);
      else await deps.input.tap(frame.serial, point.x, point.y, ctx.signal);
      const after = await deps.runner.afterAction(frame, ctx, (capture) =>
        ctx.append(
          UiTapped,
          { ...deps.runner.eventBase(frame, capture), target: targetRecord(node, point), long_press: longPress },
          deps.runner.eventMeta(frame),
        ),
      );
      const data = deps.runner.output(frame, after, node);
      return { data, summary: deps.runner.summary(`${longPress ? 'long-pressed' : 'tapped'} ${node.path}`, data) };
    },
  });
}
