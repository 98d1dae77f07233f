import { z } from 'zod';
import { InvalidArgumentsError } from './errors.js';

/*
 * Every tool result must fit a model's context: at most 128 KiB on the wire, structured content and
 * text together. The text repeats the data in a compact rendering, so each tool keeps its structured
 * data under DATA_BUDGET_BYTES as measured by `wireBytes`, and every list pages with a cursor.
 */

/** The most one tool result may take on the wire (the JSON of the whole result message). */
export const WIRE_LIMIT_BYTES = 128 * 1024;

/** What a tool's structured data may take, leaving the same again for its text rendering and the envelope. */
export const DATA_BUDGET_BYTES = 56 * 1024;

/**
 * Bytes a value costs once as JSON and once more as JSON quoted inside the text (quotes and control
 * characters escaped twice): an upper bound of either copy, so data measured with it fits the wire twice.
 */
export function wireBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(JSON.stringify(value) ?? 'null'));
}

/**
 * The leading items whose `wireBytes` add up to at most `budget`. `exhausted` is true when an item
 * was left out for size (callers then say so and offer a cursor). Producers bound each item, so the
 * first item is always taken to guarantee progress.
 */
export function takeWithinBudget<T>(
  items: Iterable<T>,
  budget: number = DATA_BUDGET_BYTES,
  measure: (item: T) => number = wireBytes,
): { taken: T[]; exhausted: boolean } {
  const taken: T[] = [];
  let used = 0;
  for (const item of items) {
    used += measure(item) + 1;
    if (used > budget && taken.length > 0) return { taken, exhausted: true };
    taken.push(item);
  }
  return { taken, exhausted: false };
}

/** Cuts a string to `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `limit` and `cursor` input fields of a list tool. */
export function pageInput(defaultLimit: number, maxLimit: number, noun: string) {
  return {
    limit: z.number().int().min(1).max(maxLimit).default(defaultLimit).describe(`Most ${noun} per page.`),
    cursor: z.string().max(20).optional().describe('The next_cursor you got.'),
  };
}

/** `total`, `has_more` and `next_cursor` output fields of a list tool. */
export const pageOutput = {
  total: z.number().int().describe('Items the whole list holds.'),
  has_more: z.boolean().describe('More items follow; pass next_cursor as cursor.'),
  next_cursor: z.string().optional().describe('Cursor of the next page, when has_more.'),
};

export interface Page<T> {
  readonly items: T[];
  readonly total: number;
  readonly has_more: boolean;
  readonly next_cursor?: string;
}

/** The offset an offset cursor stands for; a cursor that is not one is refused naming the field. */
export function decodeOffsetCursor(cursor: string | undefined, field = 'cursor'): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,12}$/.test(cursor))
    throw new InvalidArgumentsError(
      `${field} must be the next_cursor of a previous page (digits only); omit it for the first page.`,
      'INVALID_ARGUMENT',
      field,
    );
  return Number(cursor);
}

/**
 * One page of a list of `total` items that `fetch` reads by offset (e.g. SQL LIMIT/OFFSET): from the
 * cursor's offset, at most `limit` items, within the byte budget.
 */
export function pageFrom<T>(
  fetch: (offset: number, limit: number) => readonly T[],
  total: number,
  page: { limit: number; cursor?: string },
  budget: number = DATA_BUDGET_BYTES,
): Page<T> {
  const offset = decodeOffsetCursor(page.cursor);
  const { taken } = takeWithinBudget(offset < total ? fetch(offset, page.limit) : [], budget);
  const end = offset + taken.length;
  const hasMore = end < total;
  return { items: taken, total, has_more: hasMore, ...(hasMore ? { next_cursor: String(end) } : {}) };
}

/** One page of a list held in memory (see pageFrom). */
export function pageOf<T>(
  all: readonly T[],
  page: { limit: number; cursor?: string },
  budget: number = DATA_BUDGET_BYTES,
): Page<T> {
  return pageFrom((offset, limit) => all.slice(offset, offset + limit), all.length, page, budget);
}

/** The page metadata of `pageOf`, for spreading into a tool's data. */
export function pageInfo<T>(page: Page<T>): { total: number; has_more: boolean; next_cursor?: string } {
  return { total: page.total, has_more: page.has_more, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) };
}

/** `T` with every nullable property made optional (null dropped), recursively through objects and arrays. */
export type NullsOmitted<T> = T extends null
  ? undefined
  : T extends readonly (infer U)[]
    ? NullsOmitted<U>[]
    : T extends object
      ? { [K in keyof T as null extends T[K] ? never : K]: NullsOmitted<T[K]> } & {
          [K in keyof T as null extends T[K] ? K : never]?: NullsOmitted<Exclude<T[K], null>>;
        }
      : T;

/**
 * Drops null-valued properties (recursively through plain objects and arrays): output schemas mark
 * those fields optional, so an absent field means "unknown" or "not applicable".
 */
export function omitNulls<T>(value: T): NullsOmitted<T> {
  return strip(value) as NullsOmitted<T>;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== null) out[key] = strip(v);
  return out;
}

/**
 * Every string in `value` (recursively through plain objects and arrays) cut to `max` characters:
 * for views of files or device output, where one absurd value must not fill the reply.
 */
export function clipStrings<T>(value: T, max: number): T {
  if (typeof value === 'string') return clip(value, max) as T;
  if (Array.isArray(value)) return value.map((v) => clipStrings(v, max)) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = clipStrings(v, max);
  return out as T;
}
