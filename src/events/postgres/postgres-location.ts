import type { EventStore, EventStoreOptions } from '../event-store.js';
import { PostgresEventStore } from './postgres-event-store.js';

/** `postgres://` and `postgresql://` URLs name a PostgreSQL log; anything else is a SQLite file. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The URL with its password removed (and any `password` query parameter), so it can be printed,
 * logged and recorded. Unparseable text is replaced entirely rather than risk echoing a secret.
 */
export function redactLocation(location: string): string {
  if (!isPostgresLocation(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = '';
    for (const key of [...url.searchParams.keys()]) {
      if (/pass|secret|key$/i.test(key)) url.searchParams.set(key, 'redacted');
    }
    return url.toString().replace(/:@/, '@');
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

/** Opens the PostgreSQL event log at `options.path` (see PostgresEventStore.open). */
export function openPostgresEventStore(options: EventStoreOptions): EventStore {
  return PostgresEventStore.open(options);
}
