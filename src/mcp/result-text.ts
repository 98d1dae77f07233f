import { truncateUtf8 } from './redaction.js';

/** A string printed bare when it is short and on one line; quoted (escapes visible) otherwise. */
function scalar(value: unknown): string {
  if (typeof value === 'string')
    return /^[^\n\r\t"]{0,200}$/.test(value) && value.trim() === value ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

/** A value that fits on its part of a line: a scalar, or a list of short scalars as `[a, b]`. */
function inlineValue(value: unknown): string | undefined {
  if (isScalar(value)) return scalar(value);
  if (Array.isArray(value) && value.every(isScalar)) {
    const short = value.every((v) => typeof v !== 'string' || (v.length <= 60 && !v.includes(', ')));
    if (short) return `[${value.map(scalar).join(', ')}]`;
  }
  return undefined;
}

/** An object's inline fields as `key=value, …` (nulls and empty lists left out), and the fields that need lines. */
function splitFields(object: Record<string, unknown>): { inline: string; nested: [string, unknown][] } {
  const parts: string[] = [];
  const nested: [string, unknown][] = [];
  for (const [key, value] of Object.entries(object)) {
    if (isEmpty(value)) continue;
    const shown = inlineValue(value);
    if (shown !== undefined) parts.push(`${key}=${shown}`);
    else nested.push([key, value]);
  }
  return { inline: parts.join(', '), nested };
}

/** Lines for one field at an indentation: nested objects and lists of objects go one level deeper. */
function renderField(key: string, value: unknown, indent: string, depth: number): string[] {
  const shown = inlineValue(value);
  if (shown !== undefined) return [`${indent}${key}: ${Array.isArray(value) ? shown.slice(1, -1) : shown}`];
  if (depth > 6) return [`${indent}${key}: ${JSON.stringify(value)}`];
  if (Array.isArray(value)) {
    const lines = [`${indent}${key} (${value.length}):`];
    for (const item of value) {
      if (isPlainObject(item)) {
        const { inline, nested } = splitFields(item);
        lines.push(`${indent}- ${inline}`);
        for (const [k, v] of nested) lines.push(...renderField(k, v, `${indent}  `, depth + 1));
      } else {
        lines.push(`${indent}- ${inlineValue(item) ?? JSON.stringify(item)}`);
      }
    }
    return lines;
  }
  const { inline, nested } = splitFields(value as Record<string, unknown>);
  const lines = [`${indent}${key}: ${inline}`.trimEnd()];
  for (const [k, v] of nested) lines.push(...renderField(k, v, `${indent}  `, depth + 1));
  return lines;
}

/**
 * The text content of a successful call: its one-line summary, then the result as compact lines
 * (`key: value`, one line per list item with nested lists indented below it, nulls and empty lists left out) rather than a second JSON dump
 * of `structuredContent`, so a model that reads only text still has every fact at about half the bytes.
 * Cut at a line boundary to `maxBytes`, saying so.
 */
export function renderResultText(summary: string, data: Record<string, unknown>, maxBytes: number): string {
  const lines = [summary];
  for (const [key, value] of Object.entries(data)) if (!isEmpty(value)) lines.push(...renderField(key, value, '', 0));
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
