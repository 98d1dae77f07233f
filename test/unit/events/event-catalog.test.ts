import { z } from 'zod';
import { canonicalJson, CanonicalJsonError } from '../../../src/events/canonical-json.js';
import { EventCatalog, EventValidationError, eventTypeNameProblem } from '../../../src/events/event-catalog.js';
import { defineEvent } from '../../../src/events/event-definition.js';
import { globToRegExp, toSqlGlob, typeMatcher } from '../../../src/events/glob.js';
import { testCatalog, thingHappened } from '../../support/event-store-fixtures.js';

const def = (type: string) => defineEvent({ type, version: 1, description: 'd', schema: z.object({}) });

describe('EventCatalog', () => {
  it('accepts past-tense dotted snake_case names', () => {
    for (const type of ['build.finished', 'mcp.tool_called', 'app.installed', 'logcat.stream_begun', 'a.b_c.d_sent']) {
      expect(eventTypeNameProblem(type)).toBeUndefined();
    }
  });

  it('refuses undotted, non-lowercase and present-tense names', () => {
    expect(() => new EventCatalog([def('build')])).toThrow(/lowercase dotted/);
    expect(() => new EventCatalog([def('Build.Finished')])).toThrow(/lowercase dotted/);
    expect(() => new EventCatalog([def('build.tool-called')])).toThrow(/lowercase dotted/);
    expect(() => new EventCatalog([def('build..finished')])).toThrow(/lowercase dotted/);
    expect(() => new EventCatalog([def('build.start')])).toThrow(/past-tense/);
  });

  it('refuses a type declared twice', () => {
    expect(() => new EventCatalog([thingHappened, thingHappened])).toThrow(/declared twice/);
  });

  it('lists types and returns parsed data', () => {
    const catalog = testCatalog();
    expect(catalog.types()).toEqual(['other.app_installed', 'test.thing_happened', 'test.thing_removed']);
    expect(catalog.get('test.thing_removed')?.version).toBe(2);
    expect(catalog.validate('test.thing_happened', { name: 'a', count: 2, extra: 'dropped' })).toEqual({
      name: 'a',
      count: 2,
    });
  });

  it('names the type and the zod issue path on bad data, and refuses unknown types', () => {
    const catalog = testCatalog();
    let error: EventValidationError | undefined;
    try {
      catalog.validate('test.thing_happened', { name: 'a', count: 1, tags: ['ok', 7] });
    } catch (e) {
      error = e as EventValidationError;
    }
    expect(error).toBeInstanceOf(EventValidationError);
    expect(error!.message).toContain('test.thing_happened');
    expect(error!.message).toContain('data.tags[1]');
    expect(error!.paths).toEqual(['data.tags[1]']);
    expect(() => catalog.validate('test.never_declared', {})).toThrow(/Unknown event type "test.never_declared"/);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"z":1}]},"b":1}',
    );
    expect(canonicalJson([undefined, 'x'])).toBe('[null,"x"]');
  });

  it('round-trips: serializing the parsed output gives the same text', () => {
    const value = { s: 'ü\u2028"\\', n: -0.1, e: 1e21, big: 2 ** 53, d: new Date(0), nested: [{ b: true, a: false }] };
    const once = canonicalJson(value);
    expect(canonicalJson(JSON.parse(once))).toBe(once);
  });

  it('throws on values JSON cannot round-trip', () => {
    expect(() => canonicalJson({ x: NaN })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ x: Infinity })).toThrow(/\$\.x/);
    expect(() => canonicalJson({ x: 1n })).toThrow(CanonicalJsonError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(/circular/);
  });
});

describe('type globs', () => {
  it('matches exact names and * anywhere', () => {
    const match = typeMatcher(['build.*', '*.installed', 'mcp.tool_called']);
    expect(match('build.finished')).toBe(true);
    expect(match('app.installed')).toBe(true);
    expect(match('mcp.tool_called')).toBe(true);
    expect(match('mcp.tool_calledx')).toBe(false);
    expect(match('buildx.finished')).toBe(false);
    expect(globToRegExp('a.b').test('aXb')).toBe(false);
    expect(toSqlGlob('a?[b]*')).toBe('a[?][[]b]*');
  });
});

describe('event hash', () => {
  it('hashes the canonical JSON of exactly the chained fields, however they were serialized', async () => {
    const { computeEventHash, hashCanonicalRow } = await import('../../../src/events/event-hash.js');
    const { createHash } = await import('node:crypto');
    const fields = {
      seq: 7,
      id: 'id-7',
      at: 1700000000000,
      type: 'test.thing_happened',
      v: 1,
      stream: 's',
      actor: { pid: 1, kind: 'cli' as const },
      device: null,
      package: 'p',
      correlation: null,
      data: { z: [1, { b: 2, a: 'é' }], a: null },
      prev_hash: 'f'.repeat(64),
    };
    const expected = createHash('sha256').update(canonicalJson(fields)).digest('hex');
    expect(computeEventHash(fields)).toBe(expected);
    expect(
      hashCanonicalRow({ ...fields, actorJson: canonicalJson(fields.actor), dataJson: canonicalJson(fields.data) }),
    ).toBe(expected);
  });
});
