import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { pollScreen } from '../services/ui-polling.js';
import type { UiReader } from '../services/ui-reader.js';
import { selectorFields } from './ui-tool-fields.js';
import { elementOutput, screenOutput } from './ui-tool-output.js';

const SHOWN = 5;

export function createWaitForElementTool(deps: { reader: UiReader }) {
  return defineTool({
    name: 'wait_for_element',
    toolset: 'ui',
    kind: 'R',
    title: 'Wait for an element',
    description:
      'Re-read the screen until an element matching all selector fields appears (gone: disappears), within timeout_ms: for loading and transitions.',
    input: z.object({
      device_serial: deviceSerialField,
      ...selectorFields,
      gone: z.boolean().default(false).describe('Wait until nothing matches instead.'),
      timeout_ms: z.number().int().min(100).max(30_000).default(15_000).describe('Give up after.'),
    }),
    output: z.object({
      ...screenOutput,
      matches: z.array(elementOutput).describe(`First ${SHOWN} matches.`),
      total: z.number().int().describe('Matches in all.'),
      elapsed_ms: z.number().int().describe('Time waited.'),
    }),
    async handler(args, ctx) {
      const { device_serial, gone, timeout_ms, ...selector } = args;
      const serial = await deps.reader.selectDevice(device_serial, ctx);
      deps.reader.requireSelector(selector);
      const outcome = await pollScreen(deps.reader.capturer, serial, ctx, timeout_ms, (capture) => {
        const found = deps.reader.find(capture, selector, SHOWN);
        return found.total > 0 !== gone ? found : null;
      });
      if (!outcome.done) {
        throw new ToolError(
          'TIMEOUT',
          `${gone ? 'Elements still matched' : 'No element matched'} after ${Math.round(timeout_ms / 1000)} s (${outcome.captures} reads${outcome.last ? `, last screen_hash ${outcome.last.screenHash}` : ''}${outcome.lastError ? `; last read failed: ${outcome.lastError}` : ''}). Read the screen (get_ui_hierarchy) to see what it shows, then adjust the selector or act first.`,
        );
      }
      const { capture, result } = outcome;
      return {
        data: {
          ...deps.reader.facts(capture),
          matches: result.matches.map((node) => deps.reader.element(capture, node)),
          total: result.total,
          elapsed_ms: outcome.elapsedMs,
        },
        summary: gone
          ? `no element matches after ${outcome.elapsedMs} ms`
          : `${result.total} match${result.total === 1 ? '' : 'es'} after ${outcome.elapsedMs} ms`,
      };
    },
  });
}
