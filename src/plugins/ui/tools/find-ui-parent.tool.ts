import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { nodeByElementId } from '../../../android/ui/element-ids.js';
import { findActionableAncestor, findParent } from '../../../android/ui/ui-selectors.js';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { UiReader } from '../services/ui-reader.js';
import { elementField } from './ui-tool-fields.js';
import { elementOutput, screenOutput } from './ui-tool-output.js';

export function createFindUiParentTool(deps: { reader: UiReader }) {
  return defineTool({
    name: 'find_ui_parent',
    toolset: 'ui',
    kind: 'R',
    title: 'Find an element’s parent',
    description:
      'The parent of an element, and its nearest ancestor a tap acts on: what to target when a label itself is not clickable (a text inside a list row).',
    input: z.object({ device_serial: deviceSerialField, element: elementField }),
    output: z.object({
      ...screenOutput,
      element: elementOutput.describe('The element asked about.'),
      parent: elementOutput.optional().describe('Absent for the root.'),
      actionable: elementOutput.optional().describe('Nearest actionable ancestor (or the element itself).'),
    }),
    async handler(args, ctx) {
      const capture = await deps.reader.capture(args.device_serial, ctx);
      const node = nodeByElementId(capture.snapshot, args.element);
      if (!node) {
        throw new ToolError(
          'NOT_FOUND',
          `No element ${JSON.stringify(args.element.slice(0, 200))} on the current screen (screen_hash ${capture.screenHash}); ids and paths change with the screen: read it again with get_ui_hierarchy or find_ui_elements.`,
        );
      }
      const parent = findParent(capture.snapshot, node.path);
      const actionable = findActionableAncestor(capture.snapshot, node.path);
      return {
        data: {
          ...deps.reader.facts(capture),
          element: deps.reader.element(capture, node),
          ...(parent ? { parent: deps.reader.element(capture, parent) } : {}),
          ...(actionable ? { actionable: deps.reader.element(capture, actionable) } : {}),
        },
        summary: `${node.path}: parent ${parent?.path ?? 'none (root)'}, actionable ${actionable?.path ?? 'none'}`,
      };
    },
  });
}
