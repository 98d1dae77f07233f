import { z } from 'zod';
import { boundsArea, type UiNode } from '../../../android/ui/ui-dump-parser.js';
import { resolveSingleTarget } from '../../../android/ui/ui-selectors.js';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { targetFromArgs, targetRecord, type UiActionRunner } from '../services/ui-action-runner.js';
import type { UiCapture } from '../services/ui-capturer.js';
import type { UiInput } from '../services/ui-input.js';
import { fingerDirectionToReveal, swipeAcross } from '../services/swipe-geometry.js';
import {
  actionOutputShape,
  deviceSerialField,
  directionField,
  elementField,
  expectScreenHashField,
  selectorFields,
} from '../ui-action-fields.js';
import { UiSwiped } from '../ui.events.js';

export const MAX_SCROLL_SWIPES = 25;
const SCROLL_SWIPE_MS = 400;

export function createUiScrollUntilElementTool(deps: { runner: UiActionRunner; input: UiInput }) {
  return defineTool({
    name: 'ui_scroll_until_element',
    toolset: 'ui',
    kind: 'W',
    title: 'Scroll until an element shows',
    description: `Scroll until the selector's element is on screen (≤ ${MAX_SCROLL_SWIPES} swipes; stops at the end). Returns it and the diff.`,
    input: z.object({
      device_serial: deviceSerialField,
      text: selectorFields.text.describe('Exact text.'),
      text_contains: selectorFields.text_contains.describe('Text/desc contains.'),
      resource_id: selectorFields.resource_id.describe('Resource id.'),
      container: elementField.describe('Where to swipe; default largest scrollable.'),
      direction: directionField.optional().describe('Where to look; default down.'),
      max_swipes: z.number().int().min(1).max(MAX_SCROLL_SWIPES).optional().describe('Default 10.'),
      expect_screen_hash: expectScreenHashField,
    }),
    output: z.object({ ...actionOutputShape, swipes: z.number().int().describe('Swipes made.') }),
    async handler(args, ctx) {
      const target = targetFromArgs({ ...args, element: undefined });
      if (!target || !('selector' in target))
        throw new InvalidArgumentsError('Say what to find: text, resource_id, …', 'INVALID_ARGUMENT', 'text');
      const selector = target.selector;
      const frame = await deps.runner.begin(args, ctx);
      const snapshot = frame.before.snapshot;
      let container: UiNode | null = null;
      if (args.container !== undefined)
        container = deps.runner.resolve(frame, { element: args.container }, { requireEnabled: false });
      else
        for (const node of snapshot.nodes)
          if (node.flags.scrollable && boundsArea(node.bounds) > boundsArea(container?.bounds ?? null))
            container = node;
      const bounds = container?.bounds ?? snapshot.screen;
      if (!bounds)
        throw new InvalidArgumentsError(
          'The screen size is unknown; name a container.',
          'INVALID_ARGUMENT',
          'container',
        );
      const path = swipeAcross(bounds, fingerDirectionToReveal(args.direction ?? 'down'));
      const limit = args.max_swipes ?? 10;
      let current: UiCapture = frame.before;
      let swipes = 0;
      for (;;) {
        const found = resolveSingleTarget(current.snapshot, { selector }, { requireEnabled: false });
        if (found.ok) {
          const data = { ...deps.runner.output(frame, current, found.node, current), swipes };
          return { data, summary: deps.runner.summary(`found ${found.node.path} after ${swipes} swipes`, data) };
        }
        if (found.reason === 'ambiguous') deps.runner.resolve({ serial: frame.serial, before: current }, { selector });
        if (swipes >= limit) break;
        const step = { serial: frame.serial, before: current };
        await deps.input.swipe(frame.serial, path.from, path.to, SCROLL_SWIPE_MS, ctx.signal);
        swipes++;
        const next = await deps.runner.afterAction(step, ctx, (capture) =>
          ctx.append(
            UiSwiped,
            {
              ...deps.runner.eventBase(step, capture),
              from: path.from,
              to: path.to,
              duration_ms: SCROLL_SWIPE_MS,
              target: container ? targetRecord(container, container.center ?? path.from) : null,
            },
            deps.runner.eventMeta(step),
          ),
        );
        const moved = next.screenHash !== current.screenHash;
        current = next;
        if (!moved) {
          throw new ToolError(
            'ELEMENT_NOT_FOUND',
            `No element matching the selector after ${swipes} swipes: the screen stopped moving (the end of the list). Try direction ${args.direction === 'up' ? 'down' : 'up'}, another container, or loosen the selector.`,
            { screen_hash: current.screenHash, swipes },
          );
        }
      }
      throw new ToolError(
        'ELEMENT_NOT_FOUND',
        `No element matching the selector after ${swipes} swipes (max_swipes ${limit}); raise max_swipes (≤ ${MAX_SCROLL_SWIPES}) or check the selector with find_ui_elements.`,
        { screen_hash: current.screenHash, swipes },
      );
    },
  });
}
