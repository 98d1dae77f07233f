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

export const elementOutput = z.object({
  id: z.string().describe('Element id, for element targets.'),
  path: z.string().describe('Tree path.'),
  class: z.string(),
  text: z.string().optional(),
  content_desc: z.string().optional(),
  resource_id: z.string().optional(),
  hint: z.string().optional(),
  bounds: z.array(z.number().int()).optional().describe('[left, top, right, bottom].'),
  center: z.array(z.number().int()).optional().describe('[x, y].'),
  flags: z.string().optional().describe('click long scroll check(ed) edit password focused selected disabled.'),
});

export const diffOutput = z.object({
  before_hash: z.string(),
  same_screen: z.boolean(),
  package_changed: z.boolean(),
  activity_changed: z.boolean().optional().describe('Unknown when either activity was.'),
  added: z.array(z.string()).describe('Rows new on this screen.'),
  removed: z.array(z.string()).describe('Rows gone.'),
  changed: z.array(z.object({ id: z.string(), before: z.string(), after: z.string(), fields: z.array(z.string()) })),
  omitted: z.number().int().describe('Entries left out of the lists.'),
});

export function diffData(diff: UiDiff): z.infer<typeof diffOutput> {
  return {
    before_hash: diff.beforeHash,
    same_screen: diff.sameScreen,
    package_changed: diff.packageChanged,
    ...(diff.activityChanged !== null ? { activity_changed: diff.activityChanged } : {}),
    added: [...diff.added],
    removed: [...diff.removed],
    changed: diff.changed.map((c) => ({ id: c.id, before: c.before, after: c.after, fields: [...c.fields] })),
    omitted: diff.omitted,
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
