import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { INTERACTIVE_VIEW_DEFAULT_ROWS, INTERACTIVE_VIEW_MAX_ROWS } from '../../../android/ui/interactive-view.js';
import { pageInfo, pageOutput } from '../../../kernel/bounded-output.js';
import { rowPageFields } from './ui-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { UiReader } from '../services/ui-reader.js';
import { leftOut, screenOutput } from './ui-tool-output.js';

export function createListClickableElementsTool(deps: { reader: UiReader }) {
  return defineTool({
    name: 'list_clickable_elements',
    toolset: 'ui',
    kind: 'R',
    title: 'List what can be acted on',
    description:
      'Only the elements a tap, check or text entry acts on, one row each: id class "label" @x,y flags; target them by id. Returns screen_hash.',
    input: z.object({
      device_serial: deviceSerialField,
      ...rowPageFields(INTERACTIVE_VIEW_DEFAULT_ROWS, INTERACTIVE_VIEW_MAX_ROWS),
    }),
    output: z.object({ ...screenOutput, rows: z.array(z.string()).describe('One row per element.'), ...pageOutput }),
    async handler(args, ctx) {
      const capture = await deps.reader.capture(args.device_serial, ctx);
      const page = deps.reader.rows(capture, args, true);
      return {
        data: { ...deps.reader.facts(capture), rows: page.items, ...pageInfo(page) },
        summary: `${page.items.length} of ${page.total} actionable elements${leftOut(page)}`,
      };
    },
  });
}
