import { truncateUtf8 } from './redaction.js';

/** A string printed bare when it is short and on one line; quoted (escapes visible) otherwise. */
function scalar(value: unknown): string {
  if (typeof value === 'string')
    return /^[^\n\r\t"]{0,200}$/.test(value) && value.trim() === value ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** Nested values as JSON without their nulls: compact, and still unambiguous. */
function compactJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (v === null ? undefined : v)) ?? '';
}

/** `key=value, key=value` for one object, nulls left out. */
function inline(object: Record<string, unknown>): string {
  return Object.entries(object)
    .filter(([, v]) => !isEmpty(v))
    .map(([k, v]) => `${k}=${v !== null && typeof v === 'object' ? compactJson(v) : scalar(v)}`)
    .join(', ');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function renderField(key: string, value: unknown): string[] {
  if (Array.isArray(value)) {
    const allSimple = value.every((v) => typeof v !== 'object' || v === null);
    const short = value.every((v) => typeof v !== 'string' || (v.length <= 60 && !v.includes(', ')));
    if (allSimple && short) return [`${key}: ${value.map(scalar).join(', ')}`];
    return [
      `${key} (${value.length}):`,
      ...value.map((v) => `- ${isPlainObject(v) ? inline(v) : typeof v === 'object' ? compactJson(v) : scalar(v)}`),
    ];
  }
  if (isPlainObject(value)) return [`${key}: ${inline(value)}`];
  return [`${key}: ${scalar(value)}`];
}

/**
 * The text content of a successful call: its one-line summary, then the result as compact lines
 * (`key: value`, one line per list item, nulls and empty lists left out) rather than a second JSON dump
 * of `structuredContent`, so a model that reads only text still has every fact at about half the bytes.
 * Cut at a line boundary to `maxBytes`, saying so.
 */
export function renderResultText(summary: string, data: Record<string, unknown>, maxBytes: number): string {
  const lines = [summary];
  for (const [key, value] of Object.entries(data)) if (!isEmpty(value)) lines.push(...renderField(key, value));
  const text = lines.join('\n');
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const note = '\n… (text cut here; structuredContent holds the complete result)';
  const budget = maxBytes - Buffer.byteLength(note, 'utf8');
  let out = '';
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (bytes + size > budget) {
      if (out === '') out = truncateUtf8(line, Math.max(0, budget));
      break;
    }
    out += (out === '' ? '' : '\n') + line;
    bytes += size;
  }
  return out + note;
}
