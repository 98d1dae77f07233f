import { z } from 'zod';
import { FIND_MAX } from '../../../android/ui/ui-selectors.js';

/*
 * Input fields the ui reading tools share. Descriptions are short on purpose: every tool's published
 * schema stays near 1 KB in tools/list, which every client reads at start-up.
 */

const text = (what: string) => z.string().max(500).optional().describe(what);

/** Selector fields, combined with AND (see ui-selectors.ts for how each matches). */
export const selectorFields = {
  text: text('Exact text.'),
  text_contains: text('Substring of text or desc, any case.'),
  resource_id: text('Resource id or entry name.'),
  content_desc: text('Exact content-desc.'),
  class: text('Class or simple name (Button).'),
  clickable: z.boolean().optional().describe('Clickable?'),
  enabled: z.boolean().optional().describe('Enabled?'),
};

/** `limit` and `cursor` of the row views, described briefly (see bounded-output.ts for the paging rules). */
export function rowPageFields(defaultRows: number, maxRows: number) {
  return {
    limit: z.number().int().min(1).max(maxRows).default(defaultRows).describe('Rows per page.'),
    cursor: z.string().max(20).optional().describe('next_cursor, to continue.'),
  };
}

export const elementField = z
  .string()
  .min(1)
  .max(4000)
  .describe('Element id or tree path from a read of the current screen.');

export const findMaxField = z.number().int().min(1).max(FIND_MAX).default(20).describe('Most matches.');
