import { z } from 'zod';
import type { UiNode } from '../../../android/ui/ui-dump-parser.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { targetFromArgs, targetRecord, type UiActionRunner } from '../services/ui-action-runner.js';
import type { UiInput } from '../services/ui-input.js';
import { type SwipePath, swipeAcross } from '../services/swipe-geometry.js';
import {
  actionOutput,
  deviceSerialField,
  directionField,
  elementField,
  expectScreenHashField,
  selectorField,
} from '../ui-action-fields.js';
import { UiSwiped } from '../ui.events.js';

const point = z.number().int().min(0).max(100_000);

export function createUiSwipeTool(deps: { runner: UiActionRunner; input: UiInput }) {
  return defineTool({
    name: 'ui_swipe',
    toolset: 'ui',
    kind: 'W',
    title: 'Swipe',
    description:
      'Swipe a direction across an element (or the screen), or along from/to points. Finger "up" reveals content below. ui_scroll_until_element finds what is off screen. Returns the screen diff.',
    input: z.object({
      device_serial: deviceSerialField,
      direction: directionField.optional().describe('Finger direction across the element or screen.'),
      element: elementField,
      selector: selectorField,
      from: z.object({ x: point, y: point }).strict().optional().describe('Instead of direction: start point.'),
      to: z.object({ x: point, y: point }).strict().optional().describe('With from: end point.'),
      duration_ms: z.number().int().min(50).max(5000).optional().describe('Default 300.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: actionOutput,
    async handler(args, ctx) {
      const byPoints = args.from !== undefined || args.to !== undefined;
      if (byPoints && (args.from === undefined || args.to === undefined))
        throw new InvalidArgumentsError('Give both from and to.', 'INVALID_ARGUMENT', args.from ? 'to' : 'from');
      if (byPoints === (args.direction !== undefined))
        throw new InvalidArgumentsError(
          'Give a direction (with an optional element or selector), or from and to points.',
          'INVALID_ARGUMENT',
          'direction',
        );
      const target = byPoints ? null : targetFromArgs(args, false);
      const frame = await deps.runner.begin(args, ctx);
      let node: UiNode | null = null;
      let path: SwipePath;
      if (byPoints) path = { from: args.from!, to: args.to! };
      else {
        if (target) node = deps.runner.resolve(frame, target, { requireEnabled: false });
        const bounds = node?.bounds ?? frame.before.snapshot.screen;
        if (!bounds)
          throw new InvalidArgumentsError(
            'The screen size is unknown; give from and to points.',
            'INVALID_ARGUMENT',
            'direction',
          );
        path = swipeAcross(bounds, args.direction!);
      }
      const duration = args.duration_ms ?? 300;
      await deps.input.swipe(frame.serial, path.from, path.to, duration, ctx.signal);
      const after = await deps.runner.afterAction(frame, ctx, (capture) =>
        ctx.append(
          UiSwiped,
          {
            ...deps.runner.eventBase(frame, capture),
            from: path.from,
            to: path.to,
            duration_ms: duration,
            target: node ? targetRecord(node, node.center ?? path.from) : null,
          },
          deps.runner.eventMeta(frame),
        ),
      );
      const data = deps.runner.output(frame, after, node);
      return {
        data,
        summary: deps.runner.summary(`swiped ${path.from.x},${path.from.y} → ${path.to.x},${path.to.y}`, data),
      };
    },
  });
}
