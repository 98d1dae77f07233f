import { InvalidArgumentsError } from '../kernel/errors.js';

/** Schemes that open no app: script, inline data, local files and content, raw intents, browser internals. */
export const BLOCKED_SCHEMES = [
  'javascript',
  'vbscript',
  'data',
  'file',
  'content',
  'intent',
  'about',
  'blob',
] as const;

export const MAX_URI_LENGTH = 2048;

/** Trims, checks shape and scheme, and returns the URI to open with its lowercase scheme. */
export function validateDeepLink(raw: string, field = 'uri'): { uri: string; scheme: string } {
  if (typeof raw !== 'string') throw new InvalidArgumentsError(`${field} must be a string.`, 'INVALID_ARGUMENT', field);
  const uri = raw.trim();
  if (uri.length === 0 || uri.length > MAX_URI_LENGTH) {
    throw new InvalidArgumentsError(`${field} must be 1 to ${MAX_URI_LENGTH} characters.`, 'INVALID_ARGUMENT', field);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f]/.test(uri))
    throw new InvalidArgumentsError(
      `${field} must not contain control characters or line breaks.`,
      'INVALID_ARGUMENT',
      field,
    );
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri);
  if (!m)
    throw new InvalidArgumentsError(
      `${field} must start with a scheme such as https: or myapp: (got ${JSON.stringify(uri.slice(0, 80))}).`,
      'INVALID_ARGUMENT',
      field,
    );
  const scheme = m[1]!.toLowerCase();
  if ((BLOCKED_SCHEMES as readonly string[]).includes(scheme)) {
    throw new InvalidArgumentsError(
      `${field} uses the ${scheme}: scheme, which opens no app and is refused. Pass an http(s) app link or the app's own deep-link scheme.`,
      'INVALID_ARGUMENT',
      field,
    );
  }
  return { uri, scheme };
}
