import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { isAlive } from '../../support/wait.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';

// The harness every PostgreSQL test stands on: a real server, a database per test, a restart, a stop by PID.
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(() => cluster?.stop());

test('a cluster serves SQL, survives a restart, and its postmaster is gone after stop', () => {
  const url = cluster.createDatabase();
  const database = new URL(url).pathname.slice(1);
  expect(cluster.psql('SELECT 40 + 2', database).trim()).toBe('42');
  const before = cluster.pid();
  cluster.restart();
  expect(cluster.pid()).not.toBe(before);
  expect(isAlive(before)).toBe(false);
  expect(cluster.psql('SELECT current_database()', database).trim()).toBe(database);
  const pid = cluster.pid();
  cluster.stop();
  expect(isAlive(pid)).toBe(false);
});
