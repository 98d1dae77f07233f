import { z } from 'zod';
import type { UiNode } from '../../../android/ui/ui-dump-parser.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { targetRecord, type UiActionRunner } from '../services/ui-action-runner.js';
import type { UiInput } from '../services/ui-input.js';
import { type SwipePath, swipeAcross } from '../services/swipe-geometry.js';
import {
  actionOutput,
  deviceSerialField,
  directionField,
  elementField,
  expectScreenHashField,
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
      'Swipe a finger direction across an element or the screen (up shows content below), or between points. Returns the diff.',
    input: z.object({
      device_serial: deviceSerialField,
      direction: directionField.optional().describe('Finger direction.'),
      element: elementField.describe('Element to swipe on (id or path).'),
      points: z.array(point).length(4).optional().describe('Or: [x1, y1, x2, y2].'),
      duration_ms: z.number().int().min(50).max(5000).optional().describe('Default 300.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: actionOutput,
    async handler(args, ctx) {
      const byPoints = args.points !== undefined;
      if (byPoints === (args.direction !== undefined))
        throw new InvalidArgumentsError(
          'Give a direction (with an optional element or selector), or points [from_x, from_y, to_x, to_y].',
          'INVALID_ARGUMENT',
          'direction',
        );
      const target = byPoints || args.element === undefined ? null : { element: args.element };
      const frame = await deps.runner.begin(args, ctx);
      let node: UiNode | null = null;
      let path: SwipePath;
      if (args.points) {
        const [fromX, fromY, toX, toY] = args.points;
        path = { from: { x: fromX, y: fromY }, to: { x: toX, y: toY } };
      } else {
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
