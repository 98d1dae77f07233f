/**
 * Stable JSON serialization for hashing: object keys sorted by UTF-16 code unit, no whitespace,
 * otherwise exactly JSON.stringify (toJSON honoured, undefined object members dropped, undefined
 * array items become null). Values JSON cannot round-trip (NaN, Infinity, bigint, functions,
 * symbols, cycles) throw instead of being silently altered, because a hash over a value that reads
 * back differently could never be verified.
 *
 * Invariant the hash chain relies on: canonicalJson(JSON.parse(canonicalJson(x))) === canonicalJson(x).
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, new Set(), '$');
}

export class CanonicalJsonError extends TypeError {
  override readonly name = 'CanonicalJsonError';
}

function serialize(value: unknown, ancestors: Set<object>, path: string): string {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON('');
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`${path} is ${value}, which JSON cannot represent`);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(`${path} is a ${typeof value}, which JSON cannot represent`);
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (ancestors.has(obj)) throw new CanonicalJsonError(`${path} is a circular reference`);
  ancestors.add(obj);
  try {
    if (Array.isArray(obj)) {
      const items = obj.map((item: unknown, i) =>
        item === undefined ? 'null' : serialize(item, ancestors, `${path}[${i}]`),
      );
      return `[${items.join(',')}]`;
    }
    const record = obj as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member === undefined) continue;
      members.push(`${JSON.stringify(key)}:${serialize(member, ancestors, `${path}.${key}`)}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(obj);
  }
}
