import type { SqlConnection, SqlRunResult, SqlStatement } from '../sql-connection.js';
import type { PgSession, PgSyncClient } from './pg-sync-client.js';
import { type PostgresTranslation, toPostgresDdl, translateToPostgres } from './postgres-dialect.js';

export { toPostgresDdl };

/**
 * The SqlConnection that projections, side-table writers and readers get on the PostgreSQL store: the
 * same portable SQL they run on better-sqlite3, translated (postgres-dialect.ts) and run on one session of
 * the synchronous client. It adds no transaction of its own: the store's append (writer session) or the
 * read-only reader session decides that.
 */
export function createPgSqlConnection(client: PgSyncClient, session: PgSession): SqlConnection {
  return {
    prepare(sql: string): SqlStatement {
      // Translating here, not on first run, is what makes a non-portable statement fail where it is written.
      return new PgStatement(client, session, translateCached(sql));
    },
    exec(sql: string): unknown {
      // exec carries DDL (table migrations) and parameterless statements; several may be separated by `;`,
      // which PostgreSQL's simple query protocol accepts as one call.
      client.query(session, translateCached(sql, true).sql);
      return undefined;
    },
  };
}

class PgStatement implements SqlStatement {
  constructor(
    private readonly client: PgSyncClient,
    private readonly session: PgSession,
    private readonly translation: PostgresTranslation,
  ) {}

  run(...params: unknown[]): SqlRunResult {
    return { changes: this.execute(params).rowCount };
  }

  get(...params: unknown[]): unknown {
    return this.execute(params).rows[0];
  }

  all(...params: unknown[]): unknown[] {
    return this.execute(params).rows;
  }

  private execute(params: unknown[]) {
    return this.client.query(this.session, this.translation.sql, bindParameters(this.translation, params));
  }
}

/**
 * The caller's arguments as $1..$n, checked the way better-sqlite3 checks them, so code that passes on
 * one store does not fail (or silently bind something else) on the other.
 */
export function bindParameters(translation: PostgresTranslation, args: readonly unknown[]): unknown[] {
  const spec = translation.params;
  // better-sqlite3 accepts arrays as argument lists too: run([a, b]) is run(a, b).
  const flat = args.flatMap((a) => (Array.isArray(a) ? a : [a]));
  if (spec.style === 'named') {
    const bag = flat[0];
    if (flat.length !== 1 || bag === null || typeof bag !== 'object' || Buffer.isBuffer(bag)) {
      throw new TypeError(
        `This statement takes named parameters (${spec.names.map((n) => `@${n}`).join(', ')}): pass one object.`,
      );
    }
    return spec.names.map((name) => {
      if (!Object.hasOwn(bag, name)) throw new RangeError(`Missing named parameter "${name}"`);
      return checkValue((bag as Record<string, unknown>)[name]);
    });
  }
  const count = spec.style === 'positional' ? spec.count : 0;
  if (flat.length < count) throw new RangeError('Too few parameter values were provided');
  if (flat.length > count) throw new RangeError('Too many parameter values were provided');
  return flat.map(checkValue);
}

function checkValue(value: unknown): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') {
    return value;
  }
  if (Buffer.isBuffer(value)) return value;
  // better-sqlite3's own message: a boolean bound on one store and refused on the other would be a trap.
  throw new TypeError('SQLite3 can only bind numbers, strings, bigints, buffers, and null');
}

const CACHE_LIMIT = 1000;
const cache = new Map<string, PostgresTranslation>();
const ddlCache = new Map<string, PostgresTranslation>();

/**
 * Statements are prepared over and over (projections prepare per event), so each SQL text is translated
 * once. Texts are constants in the source, so the cache stays small; the bound only guards against a
 * caller building SQL with values in it.
 */
function translateCached(sql: string, ddl = false): PostgresTranslation {
  const map = ddl ? ddlCache : cache;
  const hit = map.get(sql);
  if (hit) return hit;
  const translation = ddl ? { sql: toPostgresDdl(sql), params: { style: 'none' as const } } : translateToPostgres(sql);
  if (map.size >= CACHE_LIMIT) map.delete(map.keys().next().value as string);
  map.set(sql, translation);
  return translation;
}
