import type { IntentDataSpec, IntentFilterSpec } from './scenario/scenario-schema.js';

export const CATEGORY_DEFAULT = 'android.intent.category.DEFAULT';

/** What an implicit activity start asks for, as `am start` builds it from -a/-c/-d/-t/-p. */
export interface IntentQuery {
  readonly action?: string;
  readonly categories: readonly string[];
  readonly data?: string;
  readonly type?: string;
  /** `-p`: only this package's activities take part. */
  readonly packageName?: string;
}

/** The parts of a URI an intent filter looks at, split as android.net.Uri does. */
export interface UriParts {
  readonly scheme: string | null;
  readonly host: string | null;
  readonly port: number | null;
  readonly path: string | null;
}

export function parseUri(uri: string): UriParts {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(uri);
  if (!m) return { scheme: null, host: null, port: null, path: uri.split(/[?#]/)[0] || null };
  const [, scheme, rest] = m;
  if (!rest.startsWith('//')) return { scheme, host: null, port: null, path: null };
  const afterSlashes = rest.slice(2);
  const end = afterSlashes.search(/[/?#]/);
  const authority = end < 0 ? afterSlashes : afterSlashes.slice(0, end);
  const tail = end < 0 ? '' : afterSlashes.slice(end);
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const portMatch = /:(\d+)$/.exec(hostPort);
  const host = portMatch ? hostPort.slice(0, portMatch.index) : hostPort;
  const path = tail.split(/[?#]/)[0];
  return { scheme, host: host || null, port: portMatch ? Number(portMatch[1]) : null, path: path || null };
}

function hostMatches(filterHost: string, host: string | null): boolean {
  if (host === null) return false;
  // A leading `*` matches any prefix; hosts compare case-insensitively, as AuthorityEntry.match does.
  const wild = filterHost.startsWith('*');
  const want = (wild ? filterHost.slice(1) : filterHost).toLowerCase();
  const have = host.toLowerCase();
  return wild ? have.length >= want.length && have.endsWith(want) : have === want;
}

function mimeMatches(filterType: string, type: string): boolean {
  if (filterType === '*/*' || filterType === '*') return true;
  const [fMajor, fMinor] = filterType.toLowerCase().split('/');
  const [major, minor] = type.toLowerCase().split('/');
  return fMajor === major && (fMinor === '*' || fMinor === minor);
}

/**
 * IntentFilter.matchData: the filter's <data> entries merge into sets of schemes, authorities, paths and types;
 * paths only count when the filter names an authority; a filter without schemes or types takes only data-less
 * intents; a filter with types only takes no-scheme, content: and file: URIs.
 */
function matchData(entries: readonly IntentDataSpec[], data: string | undefined, type: string | undefined): boolean {
  const schemes = entries.flatMap((d) => (d.scheme !== undefined ? [d.scheme] : []));
  const authorities = entries.flatMap((d) => (d.host !== undefined ? [{ host: d.host, port: d.port }] : []));
  const paths = entries.flatMap((d) => [
    ...(d.path !== undefined ? [{ literal: d.path }] : []),
    ...(d.pathPrefix !== undefined ? [{ prefix: d.pathPrefix }] : []),
  ]);
  const types = entries.flatMap((d) => (d.mimeType !== undefined ? [d.mimeType] : []));
  const uri = data !== undefined ? parseUri(data) : null;
  if (schemes.length === 0 && types.length === 0) return data === undefined && type === undefined;
  if (schemes.length > 0) {
    if (!schemes.includes(uri?.scheme ?? '')) return false;
    if (authorities.length > 0) {
      const authority = authorities.some(
        (a) => hostMatches(a.host, uri?.host ?? null) && (a.port === undefined || a.port === uri?.port),
      );
      if (!authority) return false;
      if (paths.length > 0) {
        const path = uri?.path ?? null;
        if (path === null || !paths.some((p) => ('literal' in p ? p.literal === path : path.startsWith(p.prefix))))
          return false;
      }
    }
  } else if (uri?.scheme && !['content', 'file'].includes(uri.scheme)) {
    return false;
  }
  if (types.length > 0) return type !== undefined && types.some((t) => mimeMatches(t, type));
  return type === undefined;
}

/** IntentFilter.match for an activity start: startActivity resolves with MATCH_DEFAULT_ONLY, so DEFAULT is required. */
export function filterMatches(filter: IntentFilterSpec, intent: IntentQuery): boolean {
  if (intent.action !== undefined ? !filter.actions.includes(intent.action) : filter.actions.length === 0) return false;
  const required = new Set([...intent.categories, CATEGORY_DEFAULT]);
  for (const c of required) if (!filter.categories.includes(c)) return false;
  return matchData(filter.data, intent.data, intent.type);
}
