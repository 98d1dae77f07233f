import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { pollScreen } from '../services/ui-polling.js';
import type { UiReader } from '../services/ui-reader.js';
import { screenOutput } from './ui-tool-output.js';

export function createUiWaitForIdleTool(deps: { reader: UiReader }) {
  return defineTool({
    name: 'ui_wait_for_idle',
    toolset: 'ui',
    kind: 'R',
    title: 'Wait for the screen to settle',
    description:
      'Re-read the screen until two reads in a row match (same screen_hash), up to timeout_ms: after a transition, before reading or acting.',
    input: z.object({
      device_serial: deviceSerialField,
      timeout_ms: z.number().int().min(100).max(30_000).default(5000).describe('Give up after.'),
    }),
    output: z.object({
      ...screenOutput,
      elapsed_ms: z.number().int().describe('Time waited.'),
      reads: z.number().int().describe('Screen reads it took.'),
    }),
    async handler(args, ctx) {
      const serial = await deps.reader.selectDevice(args.device_serial, ctx);
      const outcome = await pollScreen(deps.reader.capturer, serial, ctx, args.timeout_ms, (capture, previous) =>
        previous && previous.screenHash === capture.screenHash ? capture : null,
      );
      if (!outcome.done) {
        throw new ToolError(
          'TIMEOUT',
          `The screen was still changing after ${Math.round(args.timeout_ms / 1000)} s (${outcome.captures} reads${outcome.lastError ? `; last read failed: ${outcome.lastError}` : ''}). An animation or a live value (a clock, a progress bar) may never settle: read the screen and go on if it shows what you need.`,
        );
      }
      return {
        data: { ...deps.reader.facts(outcome.capture), elapsed_ms: outcome.elapsedMs, reads: outcome.captures },
        summary: `screen settled after ${outcome.elapsedMs} ms (${outcome.captures} reads)`,
      };
    },
  });
}
