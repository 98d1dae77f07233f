import { z } from 'zod';
import { FIND_MAX } from '../../../android/ui/ui-selectors.js';

/*
 * Input fields the ui reading tools share. Descriptions are short on purpose: every tool's published
 * schema stays near 1 KB in tools/list, which every client reads at start-up.
 */

const text = (what: string) => z.string().min(1).max(500).optional().describe(what);

/** Selector fields, combined with AND (see ui-selectors.ts for how each matches). */
export const selectorFields = {
  text: text('Exact text.'),
  text_contains: text('Case-insensitive substring of text or content-desc.'),
  resource_id: text('Resource id, whole (com.x:id/login) or entry name (login).'),
  content_desc: text('Exact content-desc.'),
  class: text('Class, whole or simple name (Button).'),
  clickable: z.boolean().optional().describe('Clickable or not.'),
  enabled: z.boolean().optional().describe('Enabled or not.'),
};

export const elementField = z
  .string()
  .min(1)
  .max(4000)
  .describe('Element id (login_button, n3f0a) or tree path (0.2.1) from a view of the current screen.');

export const findMaxField = z
  .number()
  .int()
  .min(1)
  .max(FIND_MAX)
  .default(20)
  .describe(`Most matches to return (default 20, max ${FIND_MAX}).`);
