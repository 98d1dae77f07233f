import { z } from 'zod';
import { deviceSerialField } from '../../android/device-tool-fields.js';

/*
 * Fields every acting tool shares, described once: the same argument means the same thing in every tool, and
 * tools/list stays small because each description is short.
 */

export { deviceSerialField };

export const expectScreenHashField = z
  .string()
  .regex(/^[0-9a-f]{8,64}$/, 'a screen_hash as the UI tools return it')
  .optional()
  .describe('screen_hash you last read; if the screen differs, nothing is done (SCREEN_CHANGED).');

export const elementField = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .describe('Element id or tree path from get_ui_hierarchy or find_ui_elements.');

export const selectorField = z
  .object({
    text: z.string().max(1000).optional().describe('Exact text.'),
    text_contains: z.string().min(1).max(1000).optional().describe('Text or desc contains (any case).'),
    resource_id: z.string().min(1).max(512).optional().describe('Resource id or its entry name.'),
    content_desc: z.string().max(1000).optional().describe('Exact content-desc.'),
    class: z.string().min(1).max(256).optional().describe('Class or simple name.'),
  })
  .strict()
  .optional()
  .describe('Instead of element: fields that must all match exactly one element.');

export const directionField = z.enum(['up', 'down', 'left', 'right']);

/** What every acting tool returns: the screen after it acted, as a diff against the screen before. */
export const actionOutputShape = {
  device_serial: z.string().describe('The device.'),
  screen_hash: z.string().describe('Hash of the screen after the action: pass it as expect_screen_hash next.'),
  screen_changed: z.boolean().describe('Whether the screen hash changed.'),
  target: z.string().optional().describe('The element acted on, as a view row.'),
  activity_changed: z.boolean().optional().describe('Whether another activity is in front.'),
  package: z.string().optional().describe('The app in front, when it changed.'),
  added: z.array(z.string()).optional().describe('Rows that appeared.'),
  removed: z.array(z.string()).optional().describe('Rows that disappeared.'),
  changed: z.array(z.string()).optional().describe('Rows that changed, `before → after`.'),
  omitted: z.number().int().optional().describe('Diff entries left out.'),
};

export const actionOutput = z.object(actionOutputShape);
export type ActionOutput = z.infer<typeof actionOutput>;
