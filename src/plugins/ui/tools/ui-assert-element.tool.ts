import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { type UiNode, isOnScreen, overlapsScreen } from '../../../android/ui/ui-dump-parser.js';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { UiReader } from '../services/ui-reader.js';
import { selectorFields } from './ui-tool-fields.js';
import { elementOutput, screenOutput } from './ui-tool-output.js';

const EXPECTATIONS = [
  'visible',
  'absent',
  'enabled',
  'disabled',
  'checked',
  'unchecked',
  'focused',
  'selected',
] as const;
type Expectation = (typeof EXPECTATIONS)[number];

const holds: Record<Exclude<Expectation, 'absent'>, (node: UiNode) => boolean> = {
  visible: () => true,
  enabled: (n) => n.flags.enabled,
  disabled: (n) => !n.flags.enabled,
  checked: (n) => n.flags.checked,
  unchecked: (n) => n.flags.checkable && !n.flags.checked,
  focused: (n) => n.flags.focused,
  selected: (n) => n.flags.selected,
};

export function createUiAssertElementTool(deps: { reader: UiReader }) {
  return defineTool({
    name: 'ui_assert_element',
    toolset: 'ui',
    kind: 'R',
    title: 'Check an element',
    description:
      'Check the screen now: elements matching all selector fields given are visible (or as expect says). ASSERTION_FAILED says what was found.',
    input: z.object({
      device_serial: deviceSerialField,
      ...selectorFields,
      expect: z.enum(EXPECTATIONS).default('visible').describe('What must hold.'),
      count: z.number().int().min(0).max(1000).optional().describe('Exact number of visible matches.'),
    }),
    output: z.object({
      ...screenOutput,
      passed: z.literal(true).describe('Always true: a failure is an error.'),
      matched: z.number().int().describe('Visible matches.'),
      element: elementOutput.optional().describe('The first match.'),
    }),
    async handler(args, ctx) {
      const { device_serial, expect, count, ...selector } = args;
      deps.reader.requireSelector(selector);
      const capture = await deps.reader.capture(device_serial, ctx);
      const { snapshot } = capture;
      const found = deps.reader.find(capture, selector, 100);
      const visible = found.matches.filter((n) => isOnScreen(n) && overlapsScreen(n.bounds, snapshot.screen));
      const failure = (what: string): ToolError =>
        new ToolError(
          'ASSERTION_FAILED',
          `Expected ${expect}${count !== undefined ? ` ×${count}` : ''} but ${what} (screen_hash ${capture.screenHash}).`,
          { screen_hash: capture.screenHash },
        );
      if (count !== undefined && visible.length !== count) throw failure(`${visible.length} visible elements match`);
      if (expect === 'absent') {
        if (visible.length > 0) throw failure(`${visible.length} visible: ${visible[0].path} ${describe(visible[0])}`);
      } else {
        if (visible.length === 0)
          throw failure(found.total > 0 ? `${found.total} match only off screen or hidden` : 'nothing matches');
        const bad = visible.find((n) => !holds[expect](n));
        if (bad) throw failure(`${bad.path} ${describe(bad)} is not`);
      }
      return {
        data: {
          ...deps.reader.facts(capture),
          passed: true as const,
          matched: visible.length,
          ...(visible[0] ? { element: deps.reader.element(capture, visible[0]) } : {}),
        },
        summary: `passed: ${expect} (${visible.length} visible match${visible.length === 1 ? '' : 'es'})`,
      };
    },
  });
}

function describe(node: UiNode): string {
  const label = node.text || node.contentDesc || node.resourceId;
  return label ? JSON.stringify(label.slice(0, 80)) : node.className;
}
