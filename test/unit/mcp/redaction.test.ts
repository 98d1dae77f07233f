import { createHash } from 'node:crypto';
import {
  MAX_RECORDED_ARGUMENT_BYTES,
  MAX_RECORDED_STRING,
  redactArguments,
  truncateUtf8,
} from '../../../src/mcp/redaction.js';

describe('redactArguments', () => {
  test('sensitive fields become length + sha256, never the value', () => {
    const out = redactArguments({ text: 'hunter2', serial: 'emulator-5554' }, ['text']);
    expect(out.serial).toBe('emulator-5554');
    expect(out.text).toEqual({
      redacted: true,
      length: 7,
      sha256: createHash('sha256').update('hunter2').digest('hex'),
    });
    expect(JSON.stringify(out)).not.toContain('hunter2');
  });

  test('long strings, big arrays and deep objects are bounded', () => {
    const out = redactArguments({
      long: 'x'.repeat(1000),
      list: Array.from({ length: 80 }, (_, i) => i),
      deep: { a: { b: { c: { d: { e: 1 } } } } },
    });
    expect(out.long).toEqual({
      truncated: true,
      head: 'x'.repeat(64),
      length: 1000,
      sha256: createHash('sha256').update('x'.repeat(1000)).digest('hex'),
    });
    expect(MAX_RECORDED_STRING).toBeLessThan(1000);
    expect(out.list).toHaveLength(51);
    expect(JSON.stringify(out.deep)).toContain('"truncated":true');
  });

  test('whatever the client sends, the record stays within its byte budget; names are cut', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [
        `${'k'.repeat(5000)}${i}`,
        Array.from({ length: 60 }, () => 'v'.repeat(250)),
      ]),
    );
    const out = redactArguments(wide);
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(MAX_RECORDED_ARGUMENT_BYTES);
    for (const key of Object.keys(out)) expect(Buffer.byteLength(key)).toBeLessThanOrEqual(100);
    const huge = redactArguments({ blob: 'y'.repeat(5 * 1024 * 1024), small: 'ok' });
    expect(huge.small).toBe('ok');
    expect(huge.blob).toMatchObject({ truncated: true, length: 5 * 1024 * 1024 });
  });

  test('odd argument shapes still produce a record', () => {
    expect(redactArguments(undefined)).toEqual({});
    expect(redactArguments('str')).toEqual({ value: 'str' });
  });

  test('truncateUtf8 keeps whole characters within the byte budget', () => {
    expect(truncateUtf8('short', 120)).toBe('short');
    const cut = truncateUtf8('é'.repeat(100), 120);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(120);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toContain('\uFFFD');
  });
});
