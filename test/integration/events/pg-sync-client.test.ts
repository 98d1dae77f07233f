import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { PgQueryError, PgSyncClient } from '../../../src/events/postgres/pg-sync-client.js';
import { StoreUnavailableError } from '../../../src/events/store-unavailable-error.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';
import { freePort } from '../../support/free-port.js';

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(() => cluster?.stop());

test('statements run synchronously, int8 and booleans come back as SQLite would give them', () => {
  const client = PgSyncClient.connect(cluster.createDatabase());
  try {
    client.query('writer', 'CREATE TABLE t (id BIGINT PRIMARY KEY, name TEXT)');
    expect(client.query('writer', 'INSERT INTO t VALUES ($1, $2), ($3, $4)', [1, 'a', 2 ** 40, 'b']).rowCount).toBe(2);
    const rows = client.query(
      'reader',
      'SELECT id, name, id > 1 AS big, count(*) OVER () AS n FROM t ORDER BY id',
    ).rows;
    expect(rows).toEqual([
      { id: 1, name: 'a', big: 0, n: 2 },
      { id: 2 ** 40, name: 'b', big: 1, n: 2 },
    ]);
    expect(() => client.query('writer', 'INSERT INTO t VALUES (1, $1)', ['dup'])).toThrow(PgQueryError);
    // The reader session is read-only, whatever the statement says.
    expect(() => client.query('reader', 'DELETE FROM t')).toThrow(/read-only/);
    expect(client.query('writer', 'SELECT count(*) AS n FROM t').rows[0].n).toBe(2);
  } finally {
    client.close();
  }
});

test('an unreachable server is STORE_UNAVAILABLE naming where, never the password', async () => {
  const port = await freePort();
  const attempt = () =>
    PgSyncClient.connect(`postgres://alice:s3cret@127.0.0.1:${port}/log`, { connectTimeoutMs: 2000 });
  expect(attempt).toThrow(StoreUnavailableError);
  try {
    attempt();
  } catch (error) {
    expect((error as Error).message).toContain(`alice@127.0.0.1:${port}/log`);
    expect((error as Error).message).not.toContain('s3cret');
  }
});

test('a connection lost inside a transaction fails until ROLLBACK; outside one, the next call reconnects; NOTIFY reaches listeners', async () => {
  const client = PgSyncClient.connect(cluster.createDatabase());
  try {
    const heard: string[] = [];
    client.listen('droidwright_test', (payload) => heard.push(payload));
    client.query('writer', "NOTIFY droidwright_test, 'one'");
    for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual(['one']);
    client.query('writer', 'CREATE TABLE t (n BIGINT)');
    client.query('writer', 'BEGIN');
    client.query('writer', 'INSERT INTO t VALUES (1)');
    cluster.restart();
    // Never a silent reconnect in the middle: the first insert was rolled back with the connection.
    expect(() => client.query('writer', 'INSERT INTO t VALUES (2)')).toThrow(StoreUnavailableError);
    expect(() => client.query('writer', 'COMMIT')).toThrow(StoreUnavailableError);
    client.query('writer', 'ROLLBACK');
    expect(client.query('writer', 'SELECT count(*) AS n FROM t').rows).toEqual([{ n: 0 }]);
    cluster.restart();
    expect(client.query('writer', 'SELECT 1 AS one').rows).toEqual([{ one: 1 }]);
    // The listener connection comes back on its own within a second or two.
    for (let i = 0; i < 150 && heard.length < 2; i++) {
      client.query('writer', "NOTIFY droidwright_test, 'two'");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(heard).toContain('two');
  } finally {
    client.close();
  }
});

test('back-to-back statements each get their own reply, never a late wake-up from the one before', () => {
  const client = PgSyncClient.connect(cluster.createDatabase());
  try {
    // A worker's notify for call n can arrive while call n+1 already waits; only the reply flag may end a wait.
    for (let i = 0; i < 3000; i++) expect(client.query('writer', 'SELECT $1::int AS i', [i]).rows[0].i).toBe(i);
  } finally {
    client.close();
  }
});
