import { afterAll, beforeAll, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { createPgSqlConnection, toPostgresDdl } from '../../../src/events/postgres/pg-sql-connection.js';
import { PgSyncClient } from '../../../src/events/postgres/pg-sync-client.js';
import type { SqlConnection } from '../../../src/events/sql-connection.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(() => cluster?.stop());

const SCHEMA = `CREATE TABLE items (id TEXT PRIMARY KEY, at INTEGER NOT NULL, score REAL, tags TEXT, body BLOB) WITHOUT ROWID;
CREATE INDEX items_at ON items (at)`;

/** The same portable statements on both stores must give the same rows. */
function exercise(db: SqlConnection): unknown[] {
  const results: unknown[] = [];
  const insert = db.prepare('INSERT OR IGNORE INTO items (id, at, score, tags, body) VALUES (?, ?, ?, ?, ?)');
  results.push(insert.run('a', 1_700_000_000_000, 0.5, '["x","y"]', Buffer.from([1, 2])).changes);
  results.push(insert.run('a', 1, 1, null, null).changes);
  results.push(insert.run('b', 2 ** 40, null, '["y"]', null).changes);
  results.push(
    db
      .prepare(
        `INSERT INTO items (id, at) VALUES (@id, @at)
         ON CONFLICT (id) DO UPDATE SET at = MAX(items.at, excluded.at)`,
      )
      .run({ id: 'b', at: 2 ** 41 }).changes,
  );
  results.push(db.prepare('SELECT id, at, score FROM items ORDER BY id').all());
  results.push(db.prepare('SELECT id FROM items WHERE id = :id').get({ id: 'zzz' }));
  results.push(
    db
      .prepare(
        'SELECT items.id AS item_id, json_each.value AS tag FROM items, json_each(items.tags) WHERE json_each.value = ? ORDER BY items.id',
      )
      .all('y'),
  );
  results.push(
    db
      .prepare('SELECT count(*) AS n FROM items WHERE CAST(@since AS INTEGER) IS NULL OR at >= @since')
      .get({ since: null }),
  );
  results.push(db.prepare('SELECT body FROM items WHERE id = ?').get('a'));
  results.push(db.prepare('DELETE FROM items WHERE at < ?').run(2 ** 40).changes);
  return results;
}

test('the same portable SQL gives the same results on SQLite and PostgreSQL', () => {
  const sqlite = new Database(':memory:');
  sqlite.exec(SCHEMA);
  const expected = exercise(sqlite as unknown as SqlConnection);

  const client = PgSyncClient.connect(cluster.createDatabase());
  try {
    const db = createPgSqlConnection(client, 'writer');
    db.exec(SCHEMA);
    expect(exercise(db)).toEqual(expected);
    expect(expected[4]).toEqual([
      { id: 'a', at: 1_700_000_000_000, score: 0.5 },
      { id: 'b', at: 2 ** 41, score: null },
    ]);
    expect(toPostgresDdl(SCHEMA)).not.toContain('ROWID');
  } finally {
    client.close();
  }
});

test('a non-portable statement fails at prepare, a bad argument before it reaches the server', () => {
  const client = PgSyncClient.connect(cluster.createDatabase());
  try {
    const db = createPgSqlConnection(client, 'writer');
    db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY)');
    expect(() => db.prepare('INSERT OR REPLACE INTO t VALUES (?)')).toThrow(TypeError);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    expect(() => insert.run(true)).toThrow(/can only bind/);
    expect(() => insert.run()).toThrow(/Too few/);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
    // The reader session is read-only whatever the SQL says.
    const reader = createPgSqlConnection(client, 'reader');
    expect(() => reader.prepare('INSERT INTO t VALUES (?)').run(1)).toThrow(/read-only/);
  } finally {
    client.close();
  }
});
