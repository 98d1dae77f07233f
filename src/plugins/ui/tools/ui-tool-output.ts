import { z } from 'zod';
import type { UiDiff } from '../../../android/ui/ui-diff.js';
import type { Page } from '../../../kernel/bounded-output.js';

/*
 * Output fields the ui reading tools share. Every result names the screen it was read from: screen_hash
 * is what the acting tools take as expect_screen_hash, so an action is refused if the screen changed since.
 */

export const screenOutput = {
  device_serial: z.string().describe('The device.'),
  screen_hash: z.string().describe('Hash of the screen read; pass as expect_screen_hash to act on it.'),
  package: z.string().optional().describe('The app in the foreground.'),
  activity: z.string().optional().describe('The resumed activity, when the device said.'),
};

/** An element as one line: `id path Class "text" desc="…" res=… hint="…" [l,t][r,b] @x,y flags` (absent parts left out). */
export const elementOutput = z.string();

/** A diff as lines: `+ row` added, `- row` removed, `~ id fields: before → after` changed. */
export const diffOutput = z.object({
  before_hash: z.string(),
  same_screen: z.boolean(),
  app_changed: z.boolean().optional(),
  activity_changed: z.boolean().optional(),
  changes: z.array(z.string()),
  omitted: z.number().int().optional(),
});

export function diffData(diff: UiDiff): z.infer<typeof diffOutput> {
  return {
    before_hash: diff.beforeHash,
    same_screen: diff.sameScreen,
    ...(diff.packageChanged ? { app_changed: true } : {}),
    ...(diff.activityChanged !== null ? { activity_changed: diff.activityChanged } : {}),
    changes: [
      ...diff.added.map((row) => `+ ${row}`),
      ...diff.removed.map((row) => `- ${row}`),
      ...diff.changed.map((c) => `~ ${c.id} ${c.fields.join(',')}: ${c.before} → ${c.after}`),
    ],
    ...(diff.omitted > 0 ? { omitted: diff.omitted } : {}),
  };
}

/** ` (N more: pass next_cursor)` when a page did not reach the end of its list. */
export function leftOut(page: Page<unknown>): string {
  if (!page.has_more || page.next_cursor === undefined) return '';
  return ` (${page.total - Number(page.next_cursor)} more: pass next_cursor)`;
}

/** The shape with every field optional, descriptions kept. */
export function partialShape<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(
    Object.entries(shape).map(([k, v]) => [k, v.optional().describe(v.description ?? k)]),
  ) as never;
}
