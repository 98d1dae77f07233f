// Which event log a process uses: `--store` / $DROIDWRIGHT_STORE (a PostgreSQL URL or a SQLite file), else
// events.db in the data directory. Imported by `droidwright mcp`'s start-up path, so it imports no package and
// nothing that opens a store: only node builtins.
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { WITNESS_FILE } from '../events/event-witness.js';
import { eventsDbPath } from './paths.js';
import { UsageError } from './usage-error.js';

/** The environment variable behind `--store`; the CLI sets it from the flag so workers inherit the choice. */
export const STORE_ENV = 'DROIDWRIGHT_STORE';

/** Same test as the store's own `isPostgresLocation`, repeated so this module stays free of the store's imports. */
const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function isPostgresStore(location: string): boolean {
  return POSTGRES_URL.test(location);
}

/**
 * Checks a store location as given on the command line or in the environment: a postgres:// URL must parse
 * (TLS and other query options are kept as they are, for pg to read), anything else is a SQLite file made
 * absolute against `cwd` (workers start elsewhere). The message never repeats a URL: it may hold a password.
 */
export function normalizeStoreLocation(given: string, source: string, cwd: string = process.cwd()): string {
  const value = given.trim();
  if (value === '') throw new UsageError(`${source} is empty: give a postgres://… URL or a SQLite file.`);
  if (isPostgresStore(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(
        `${source} is not a valid PostgreSQL URL (expected postgres://user@host:port/database; the value is not shown, it may hold a password).`,
      );
    }
    if (url.pathname === '' || url.pathname === '/') {
      throw new UsageError(
        `${source} names no database: add it to the URL, e.g. postgres://user@${url.hostname || 'host'}:${url.port || '5432'}/droidwright.`,
      );
    }
    return value;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new UsageError(`${source} must be a postgres:// or postgresql:// URL or a SQLite file path.`);
  }
  return resolve(cwd, value);
}

/** The store chosen in the environment ($DROIDWRIGHT_STORE), checked; undefined when none is. */
export function storeFromEnv(env: NodeJS.ProcessEnv, cwd?: string): string | undefined {
  const value = env[STORE_ENV];
  if (value === undefined || value.trim() === '') return undefined;
  return normalizeStoreLocation(value, `$${STORE_ENV}`, cwd);
}

/** `{ store }` for RuntimeOptions when the environment chose one (workers inherit the parent's choice this way). */
export function storeOption(env: NodeJS.ProcessEnv): { store?: string } {
  const store = storeFromEnv(env);
  return store ? { store } : {};
}

/** Where the event log is for a process: the chosen store, else events.db in the data directory. */
export function eventLogLocation(options: { readonly home: string; readonly store?: string }): string {
  return options.store ?? eventsDbPath(options.home);
}

/**
 * The environment a droidwright child process (build or logcat worker) gets so it writes the same log as its
 * parent: the parent's store, or none (so an inherited $DROIDWRIGHT_STORE cannot point it elsewhere).
 */
export function storeEnv(
  env: NodeJS.ProcessEnv,
  options: { readonly home: string; readonly store?: string },
): NodeJS.ProcessEnv {
  const { [STORE_ENV]: _inherited, ...rest } = env;
  return { ...rest, DROIDWRIGHT_HOME: options.home, ...(options.store ? { [STORE_ENV]: options.store } : {}) };
}

/**
 * This machine's witness of a log: `witness.jsonl` in the data directory for the default log, and one file
 * per other store (`witness-<12 hex>.jsonl`, keyed by the PostgreSQL server and database, or the SQLite file),
 * so heads witnessed on one log are never checked against another. It stays on this machine whatever the store:
 * a second place, outside the database, that remembers how far this machine saw the log reach.
 */
export function witnessPath(home: string, store?: string): string {
  if (store === undefined || store === eventsDbPath(home)) return join(home, WITNESS_FILE);
  return join(home, `witness-${createHash('sha256').update(storeIdentity(store)).digest('hex').slice(0, 12)}.jsonl`);
}

/** Whether two locations name the same log (the same server and database, whatever the role or options). */
export function sameStore(a: string, b: string): boolean {
  return storeIdentity(a) === storeIdentity(b);
}

/** What names one log: server and database for PostgreSQL (not the role, the password or TLS options), else the path. */
function storeIdentity(store: string): string {
  if (!isPostgresStore(store)) return store;
  try {
    const url = new URL(store);
    // A Unix socket directory is given as ?host=/run/postgresql with no host in the authority.
    const host = url.hostname.toLowerCase() || url.searchParams.get('host') || 'localhost';
    return `postgres://${host}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return store;
  }
}
