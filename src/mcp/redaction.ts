import { createHash } from 'node:crypto';

/** Longest string argument kept verbatim in the audit log; a longer one is kept as length + SHA-256. */
export const MAX_RECORDED_STRING = 256;
/** Longest argument name kept in the audit log (names are hostile input too). */
export const MAX_RECORDED_KEY = 100;
/**
 * The most a call's recorded arguments may take as JSON. Far below the store's 256 KiB event bound, so
 * recording a call can never fail for the size of what the client sent.
 */
export const MAX_RECORDED_ARGUMENT_BYTES = 8 * 1024;
const MAX_DEPTH = 4;
const MAX_ITEMS = 50;
const HEAD_CHARS = 64;

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

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function fingerprint(value: unknown): { redacted: true; length: number; sha256: string } {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return { redacted: true, length: text.length, sha256: sha256(text) };
}

/** A value too long to keep: its start, its length and its hash, so an auditor can still match it. */
function digestOf(value: unknown): { truncated: true; head: string; length: number; sha256: string } {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return { truncated: true, head: text.slice(0, HEAD_CHARS), length: text.length, sha256: sha256(text) };
}

function bound(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > MAX_RECORDED_STRING ? digestOf(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return digestOf(value);
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => bound(item, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`…[+${value.length - MAX_ITEMS} items]`);
    return items;
  }
  return boundEntries(Object.entries(value), (item) => bound(item, depth + 1));
}

function boundEntries(
  entries: [string, unknown][],
  recordValue: (value: unknown, key: string) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries.slice(0, MAX_ITEMS))
    out[truncateUtf8(key, MAX_RECORDED_KEY)] = recordValue(item, key);
  if (entries.length > MAX_ITEMS) out['…'] = `[+${entries.length - MAX_ITEMS} keys]`;
  return out;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/**
 * What the audit log keeps of a call's arguments: sensitive fields become `{redacted, length, sha256}`
 * (an auditor can confirm a known value without the log holding it); long strings, deep values and
 * big collections become `{truncated, head, length, sha256}` or are cut; names are cut. The whole stays
 * within MAX_RECORDED_ARGUMENT_BYTES: the largest values are replaced by their digest until it fits.
 */
export function redactArguments(args: unknown, sensitive: readonly string[] = []): Record<string, unknown> {
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    return args === undefined ? {} : { value: bound(args, 1) };
  const entries = Object.entries(args as Record<string, unknown>);
  const out = boundEntries(entries, (value, key) => (sensitive.includes(key) ? fingerprint(value) : bound(value, 1)));
  if (jsonBytes(out) <= MAX_RECORDED_ARGUMENT_BYTES) return out;
  const bySize = Object.keys(out).sort((a, b) => jsonBytes(out[b]) - jsonBytes(out[a]));
  for (const key of bySize) {
    out[key] = digestOf(out[key]);
    if (jsonBytes(out) <= MAX_RECORDED_ARGUMENT_BYTES) return out;
  }
  return { '…': digestOf(args) };
}
