import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { UI_DIFF_DEFAULT_MAX_ENTRIES } from '../../../android/ui/ui-diff.js';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { UiReader } from '../services/ui-reader.js';
import { diffData, diffOutput, screenOutput } from './ui-tool-output.js';

export function createCompareUiStateTool(deps: { reader: UiReader }) {
  return defineTool({
    name: 'compare_ui_state',
    toolset: 'ui',
    kind: 'R',
    title: 'What changed on screen',
    description:
      "+ added, - removed, ~ changed elements and app or activity change since your previous read of this device's screen; cheaper than a full read.",
    input: z.object({
      device_serial: deviceSerialField,
      max_entries: z
        .number()
        .int()
        .min(1)
        .max(200)
        .default(UI_DIFF_DEFAULT_MAX_ENTRIES)
        .describe('Most added/removed/changed entries.'),
    }),
    output: z.object({ ...screenOutput, diff: diffOutput.describe('Changes since your previous read.') }),
    async handler(args, ctx) {
      const serial = await deps.reader.selectDevice(args.device_serial, ctx);
      if (!deps.reader.capturer.latest(serial)) {
        throw new ToolError(
          'NOT_FOUND',
          `No earlier read of ${serial} in this session to compare with. Read the screen first (get_ui_hierarchy), act, then call compare_ui_state.`,
        );
      }
      const capture = await deps.reader.capturer.capture(serial, { signal: ctx.signal });
      const previous = deps.reader.capturer.previous(serial)!;
      const diff = deps.reader.diff(previous, capture, args.max_entries);
      return {
        data: { ...deps.reader.facts(capture), diff: diffData(diff) },
        summary: diff.sameScreen
          ? 'screen unchanged'
          : `${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed${diff.packageChanged ? `; now in ${diff.afterPackage ?? 'no app'}` : ''}`,
      };
    },
  });
}
