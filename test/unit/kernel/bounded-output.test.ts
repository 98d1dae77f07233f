import {
  DATA_BUDGET_BYTES,
  decodeOffsetCursor,
  omitNulls,
  pageOf,
  takeWithinBudget,
  wireBytes,
} from '../../../src/kernel/bounded-output.js';
import { InvalidArgumentsError } from '../../../src/kernel/errors.js';

describe('bounded output', () => {
  it('measures a value as its JSON quoted inside a text, never less than the JSON itself', () => {
    const value = { s: '"quoted" \u0001 control' };
    expect(wireBytes(value)).toBe(Buffer.byteLength(JSON.stringify(JSON.stringify(value))));
    expect(wireBytes(value)).toBeGreaterThan(Buffer.byteLength(JSON.stringify(value)));
  });

  it('takes items until the budget, always the first, and says when it stopped for size', () => {
    const items = Array.from({ length: 100 }, (_, i) => 'x'.repeat(1000) + i);
    const { taken, exhausted } = takeWithinBudget(items, 10_000);
    expect(taken.length).toBeGreaterThan(5);
    expect(taken.length).toBeLessThan(10);
    expect(exhausted).toBe(true);
    expect(takeWithinBudget(['y'.repeat(50_000)], 100).taken).toHaveLength(1);
    expect(takeWithinBudget([1, 2, 3]).exhausted).toBe(false);
  });

  it('pages a list by limit, budget and cursor until the end', () => {
    const all = Array.from({ length: 2500 }, (_, i) => ({ i, text: 'z'.repeat(200) }));
    const seen: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = pageOf(all, { limit: 1000, cursor });
      expect(page.total).toBe(2500);
      expect(wireBytes(page.items)).toBeLessThanOrEqual(DATA_BUDGET_BYTES + 1024);
      seen.push(...page.items.map((x) => x.i));
      if (!page.has_more) {
        expect(page.next_cursor).toBeUndefined();
        break;
      }
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(all.map((x) => x.i));
  });

  it('refuses a cursor that is not one, naming the field', () => {
    expect(decodeOffsetCursor(undefined)).toBe(0);
    expect(decodeOffsetCursor('42')).toBe(42);
    expect(() => decodeOffsetCursor('-1')).toThrow(InvalidArgumentsError);
    expect(() => decodeOffsetCursor('1e9', 'cursor')).toThrow(/cursor must be the next_cursor/);
  });

  it('drops null properties recursively but keeps null array elements and non-plain objects', () => {
    const date = new Date(0);
    expect(omitNulls({ a: null, b: 1, c: { d: null, e: [null, { f: null }] }, g: date })).toEqual({
      b: 1,
      c: { e: [null, {}] },
      g: date,
    });
  });
});
