import { createHash } from 'node:crypto';

/** Longest string argument kept verbatim in the audit log. */
export const MAX_RECORDED_STRING = 256;
const MAX_DEPTH = 4;
const MAX_ITEMS = 50;

/** Cuts text to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const ellipsis = '…';
  let out = '';
  let bytes = Buffer.byteLength(ellipsis, 'utf8');
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out + ellipsis;
}

function fingerprint(value: unknown): { redacted: true; length: number; sha256: string } {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return { redacted: true, length: [...text].length, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
}

function bound(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_RECORDED_STRING
      ? `${value.slice(0, MAX_RECORDED_STRING)}…[+${value.length - MAX_RECORDED_STRING} chars]`
      : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => bound(item, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`…[+${value.length - MAX_ITEMS} items]`);
    return items;
  }
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const [key, item] of Object.entries(value)) {
    if (++count > MAX_ITEMS) {
      out['…'] = `[+${Object.keys(value).length - MAX_ITEMS} keys]`;
      break;
    }
    out[key] = bound(item, depth + 1);
  }
  return out;
}

/**
 * What the audit log keeps of a call's arguments: sensitive fields become `{redacted, length, sha256}`
 * (an auditor can confirm a known value without the log holding it), long strings and big
 * collections are cut.
 */
export function redactArguments(args: unknown, sensitive: readonly string[] = []): Record<string, unknown> {
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    return args === undefined ? {} : { value: bound(args, 1) };
  const out: Record<string, unknown> = {};
  const entries = Object.entries(args as Record<string, unknown>);
  for (const [key, value] of entries.slice(0, MAX_ITEMS)) {
    out[key] = sensitive.includes(key) ? fingerprint(value) : bound(value, 1);
  }
  if (entries.length > MAX_ITEMS) out['…'] = `[+${entries.length - MAX_ITEMS} keys]`;
  return out;
}
