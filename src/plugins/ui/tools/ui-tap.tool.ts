import { z } from 'zod';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { nodeAt, targetRecord, type UiActionRunner } from '../services/ui-action-runner.js';
import type { UiInput } from '../services/ui-input.js';
import { actionOutput, deviceSerialField, expectScreenHashField } from '../ui-action-fields.js';
import { UiTapped } from '../ui.events.js';

const coordinate = (from: string) => z.number().int().min(0).max(100_000).describe(`Pixels from the ${from}.`);

export function createUiTapTool(deps: { runner: UiActionRunner; input: UiInput }) {
  return defineTool({
    name: 'ui_tap',
    toolset: 'ui',
    kind: 'W',
    title: 'Tap at coordinates',
    description:
      'Tap a screen point. Prefer ui_tap_element: an element cannot be missed when the layout moves. Returns the diff.',
    input: z.object({
      device_serial: deviceSerialField,
      x: coordinate('left'),
      y: coordinate('top'),
      long_press: z.boolean().optional().describe('Hold 0.8 s.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: actionOutput,
    async handler(args, ctx) {
      const frame = await deps.runner.begin(args, ctx);
      const screen = frame.before.snapshot.screen;
      if (screen && (args.x >= screen.right || args.y >= screen.bottom)) {
        throw new InvalidArgumentsError(
          `(${args.x}, ${args.y}) is off the screen (${screen.right}×${screen.bottom}); use coordinates from get_ui_hierarchy, or ui_tap_element.`,
          'INVALID_ARGUMENT',
          args.x >= screen.right ? 'x' : 'y',
        );
      }
      const point = { x: args.x, y: args.y };
      const hit = nodeAt(frame.before.snapshot, args.x, args.y);
      const longPress = args.long_press ?? false;
      if (longPress) await deps.input.longPress(frame.serial, args.x, args.y, ctx.signal);
      else await deps.input.tap(frame.serial, args.x, args.y, ctx.signal);
      const after = await deps.runner.afterAction(frame, ctx, (capture) =>
        ctx.append(
          UiTapped,
          { ...deps.runner.eventBase(frame, capture), target: targetRecord(hit, point), long_press: longPress },
          deps.runner.eventMeta(frame),
        ),
      );
      const data = deps.runner.output(frame, after, hit);
      return {
        data,
        summary: deps.runner.summary(`${longPress ? 'long-pressed' : 'tapped'} ${args.x},${args.y}`, data),
      };
    },
  });
}
