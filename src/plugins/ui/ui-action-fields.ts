import { z } from 'zod';
import { deviceSerialField } from '../../android/device-tool-fields.js';

/*
 * Fields every acting tool shares, described once: the same argument means the same thing in every tool, and
 * tools/list stays small because each description is short.
 */

export { deviceSerialField };

export const expectScreenHashField = z.string().optional().describe('Last screen_hash; refused if it differs.');

export const elementField = z.string().min(1).max(512).optional().describe('Element id or tree path.');

/*
 * Selector fields, flat as find_ui_elements takes them, combined with AND (the three that name an element;
 * content-desc is matched by text_contains, anything else is targeted by its id). Lengths are checked by the handler
 * (targetFromArgs), which keeps each bound out of the published schema.
 */
export const selectorFields = {
  text: z.string().optional().describe('Or: exact text.'),
  text_contains: z.string().optional().describe('Or: text/desc contains.'),
  resource_id: z.string().optional().describe('Or: resource id.'),
};

export const directionField = z.enum(['up', 'down', 'left', 'right']);

/** What every acting tool returns: the screen after it acted, as a diff against the screen before. */
export const actionOutputShape = {
  device_serial: z.string().describe('The device.'),
  screen_hash: z.string().describe('Hash of the screen after the action: pass it as expect_screen_hash next.'),
  screen_changed: z.boolean().describe('Whether the screen hash changed.'),
  target: z.string().optional().describe('The element acted on, as a view row.'),
  diff: z
    .array(z.string())
    .optional()
    .describe('What changed: `+ row`, `- row`, `~ before → after`, `activity …`, `package …`, `… N more`.'),
};

export const actionOutput = z.object(actionOutputShape);
export type ActionOutput = z.infer<typeof actionOutput>;
