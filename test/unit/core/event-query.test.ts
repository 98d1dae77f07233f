import { InvalidArgumentsError } from '../../../src/kernel/errors.js';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { compactEvent, parseTimeBound, presentEvent } from '../../../src/plugins/core/services/event-query.js';
import { trustCommand } from '../../../src/plugins/core/tools/get-project-info.tool.js';

describe('event query helpers', () => {
  test('time bounds: ISO, epoch ms, ages', () => {
    expect(parseTimeBound('2025-01-31T12:00:00Z', 'since')).toBe(Date.parse('2025-01-31T12:00:00Z'));
    expect(parseTimeBound(1700000000000, 'since')).toBe(1700000000000);
    expect(parseTimeBound('1700000000000', 'since')).toBe(1700000000000);
    const age = parseTimeBound('2h', 'since');
    expect(Math.abs(Date.now() - 2 * 3_600_000 - age)).toBeLessThan(5000);
    expect(() => parseTimeBound('yesterday-ish', 'until')).toThrow(InvalidArgumentsError);
  });

  test('big event data is cut and marked', () => {
    const base: StoredEvent = {
      seq: 1,
      id: 'i',
      at: 0,
      type: 'x.happened',
      v: 1,
      stream: 's',
      actor: { kind: 'cli', pid: 1 },
      device: null,
      package: null,
      correlation: null,
      data: { small: true },
      prevHash: '',
      hash: '',
    };
    expect(presentEvent(base)).toMatchObject({
      at: '1970-01-01T00:00:00.000Z',
      data: { small: true },
      data_truncated: false,
      actor: { kind: 'cli', session: null },
    });
    const big = presentEvent({ ...base, data: { blob: 'x'.repeat(5000) } }, 100);
    expect(big.data_truncated).toBe(true);
    expect((big.data as { preview: string }).preview).toHaveLength(100);
  });

  test('the compact line names actor, subject and the scalar data, bounded, without nulls', () => {
    const event: StoredEvent = {
      seq: 7,
      id: 'i',
      at: 0,
      type: 'app.installed',
      v: 1,
      stream: 'device:s',
      actor: { kind: 'agent', session: '0123456789abcdef', client: 'claude-code', pid: 42 },
      device: 'emulator-5554',
      package: 'com.example.app',
      correlation: null,
      data: {
        device_serial: 'emulator-5554',
        package: 'com.example.app',
        version_code: 3,
        build_id: null,
        note: 'n'.repeat(5000),
        nested: { a: 1 },
      },
      prevHash: '',
      hash: '',
    };
    const line = compactEvent(event);
    expect(line).toEqual({
      seq: 7,
      at: '1970-01-01T00:00:00.000Z',
      type: 'app.installed',
      actor: 'agent claude-code 01234567 pid 42',
      device: 'emulator-5554',
      package: 'com.example.app',
      summary: expect.stringMatching(/^version_code=3 note=n+/),
    });
    expect(line.summary.length).toBeLessThanOrEqual(201);
    expect(compactEvent({ ...event, device: null, package: null })).not.toHaveProperty('device');
    // On a log several machines share, an actor on another machine is named with its host; this one's is not.
    const fromLaptop = { ...event, actor: { ...event.actor, host: 'laptop-b' } };
    expect(compactEvent(fromLaptop, 'laptop-a').actor).toBe('agent claude-code 01234567 pid 42 on laptop-b');
    expect(compactEvent(fromLaptop, 'laptop-b').actor).toBe('agent claude-code 01234567 pid 42');
    expect(presentEvent(fromLaptop).actor).toMatchObject({ pid: 42, host: 'laptop-b' });
    expect(presentEvent(event).actor.host).toBeNull();
  });

  test('trust hint quotes paths a terminal would split', () => {
    expect(trustCommand('/home/me/app')).toBe('droidwright trust /home/me/app');
    expect(trustCommand("/home/me/my app's")).toBe(`droidwright trust '/home/me/my app'"'"'s'`);
  });
});

describe('query_events page budget', () => {
  test('a page of large events stops under the byte budget and says there is more', async () => {
    const { createQueryEventsTool } = await import('../../../src/plugins/core/tools/query-events.tool.js');
    const events: StoredEvent[] = Array.from({ length: 501 }, (_, i) => ({
      seq: 501 - i,
      id: `e${i}`,
      at: 0,
      type: 'x.happened',
      v: 1,
      stream: 's',
      actor: { kind: 'cli', pid: 1 },
      device: null,
      package: null,
      correlation: null,
      data: { blob: 'x'.repeat(1900) },
      prevHash: '',
      hash: '',
    }));
    const store = { query: (filter: { limit: number }) => events.slice(0, filter.limit), lastSeq: () => 501 };
    const tool = createQueryEventsTool({ store: () => store as never });
    const args = tool.input.parse({ limit: 500 });
    const result = await tool.handler(args, {} as never);
    const bytes = Buffer.byteLength(JSON.stringify(result.data.events));
    expect(result.data.count).toBeLessThan(500);
    expect(result.data.count).toBeGreaterThan(30);
    expect(bytes).toBeLessThanOrEqual(128 * 1024);
    expect(result.data.has_more).toBe(true);
  });
});
