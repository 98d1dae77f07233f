import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { takeWithinBudget } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { UiReader } from '../services/ui-reader.js';
import { findMaxField, selectorFields } from './ui-tool-fields.js';
import { elementOutput, screenOutput } from './ui-tool-output.js';

export function createFindUiElementsTool(deps: { reader: UiReader }) {
  return defineTool({
    name: 'find_ui_elements',
    toolset: 'ui',
    kind: 'R',
    title: 'Find elements',
    description:
      'Elements matching all selector fields given, in screen order, as lines: id path Class "text" bounds @x,y flags; act on them by id or path.',
    input: z.object({ device_serial: deviceSerialField, ...selectorFields, max: findMaxField }),
    output: z.object({
      ...screenOutput,
      matches: z.array(elementOutput).describe('Matches in screen order.'),
      total: z.number().int().describe('Matching elements on the screen.'),
    }),
    async handler(args, ctx) {
      const { device_serial, max, ...selector } = args;
      const capture = await deps.reader.capture(device_serial, ctx);
      const found = deps.reader.find(capture, selector, max);
      const { taken } = takeWithinBudget(found.matches.map((node) => deps.reader.element(capture, node)));
      return {
        data: { ...deps.reader.facts(capture), matches: taken, total: found.total },
        summary:
          found.total === 0
            ? 'no element matches'
            : `${found.total} match${found.total === 1 ? '' : 'es'}${taken.length < found.total ? ` (first ${taken.length} shown)` : ''}`,
      };
    },
  });
}
