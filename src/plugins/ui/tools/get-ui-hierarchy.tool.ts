import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { INTERACTIVE_VIEW_DEFAULT_ROWS, INTERACTIVE_VIEW_MAX_ROWS } from '../../../android/ui/interactive-view.js';
import { pageInfo, pageOutput } from '../../../kernel/bounded-output.js';
import { rowPageFields } from './ui-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { UiReader } from '../services/ui-reader.js';
import { diffData, diffOutput, leftOut, partialShape, screenOutput } from './ui-tool-output.js';

export function createGetUiHierarchyTool(deps: { reader: UiReader }) {
  return defineTool({
    name: 'get_ui_hierarchy',
    toolset: 'ui',
    kind: 'R',
    title: 'Read the screen',
    description:
      'Read the screen. interactive: a row per element (id class "label" @x,y flags); act by id, not coordinates. sparse: nested tree (whole tree in tree_file past 16 KiB). diff: changes since your last read. screen_hash is for expect_screen_hash.',
    input: z.object({
      device_serial: deviceSerialField,
      view: z.enum(['interactive', 'sparse', 'diff']).default('interactive').describe('Which view.'),
      ...rowPageFields(INTERACTIVE_VIEW_DEFAULT_ROWS, INTERACTIVE_VIEW_MAX_ROWS),
    }),
    output: z.object({
      ...screenOutput,
      view: z.enum(['interactive', 'sparse', 'diff']).describe('The view returned.'),
      rows: z.array(z.string()).optional().describe('Interactive view rows.'),
      ...partialShape(pageOutput),
      tree: z.array(z.unknown()).optional().describe('Sparse tree roots.'),
      tree_file: z.string().optional().describe('The whole sparse tree, when the one shown was cut.'),
      diff: diffOutput.optional().describe('Changes since your last read.'),
    }),
    async handler(args, ctx) {
      const capture = await deps.reader.capture(args.device_serial, ctx);
      const facts = deps.reader.facts(capture);
      if (args.view === 'sparse') {
        const { tree, file } = deps.reader.sparse(capture);
        return {
          data: {
            ...facts,
            view: 'sparse' as const,
            tree: tree.roots,
            ...(file ? { tree_file: file } : {}),
          },
          summary: `sparse tree of ${capture.snapshot.nodes.length} nodes${file ? `, cut to 16 KiB (whole tree in ${file})` : ''}`,
        };
      }
      const previous = deps.reader.capturer.previous(capture.deviceSerial);
      if (args.view === 'diff' && previous) {
        const diff = deps.reader.diff(previous, capture, 50);
        return {
          data: { ...facts, view: 'diff' as const, diff: diffData(diff) },
          summary: diff.sameScreen
            ? 'screen unchanged since your last read'
            : `${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed since your last read`,
        };
      }
      const page = deps.reader.rows(capture, args);
      return {
        data: { ...facts, view: 'interactive' as const, rows: page.items, ...pageInfo(page) },
        summary: `${page.items.length} of ${page.total} elements${leftOut(page)}${args.view === 'diff' ? '; no earlier read of this device to diff against, so the full view' : ''}`,
      };
    },
  });
}
