import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Projection } from '../../../src/events/event-definition.js';
import { removeTempDirs, tempDir } from '../../support/event-store-fixtures.js';
import { cases } from '../../support/projection-cases.js';
import {
  allProjections,
  appendGiven,
  openPluginStore,
  pluginCatalog,
  postgresLocations,
  readModelAfter,
  rowsOnSqlite,
  type StoreLocations,
  sqliteLocations,
  tableRows,
} from '../../support/projection-spec.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';
import { bundleWorker } from './bundle-worker.js';

// Every projection, on both stores: appends from this process and from a second one (a real child process
// on the same file or database), then a rebuild from the log must give exactly the live read model; and the
// same events give the same rows on SQLite and on PostgreSQL.
let writer: string;
let cluster: PostgresCluster;
beforeAll(async () => {
  writer = await bundleWorker('projection-writer.ts');
  cluster = await startPostgresCluster();
});
afterAll(() => {
  cluster?.stop();
  rmSync(dirname(writer), { recursive: true, force: true });
  removeTempDirs();
});
const stores: [string, () => StoreLocations][] = [
  ['sqlite', () => sqliteLocations],
  ['postgres', () => postgresLocations(cluster)],
];

test('every projection in src has a case here', async () => {
  const files = (readdirSync('src', { recursive: true }) as string[]).filter((f) => f.endsWith('.projection.ts'));
  const exported: string[] = [];
  for (const file of files) {
    const module = (await import(join(process.cwd(), 'src', file))) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      const p = value as Partial<Projection> | null;
      if (p && typeof p === 'object' && typeof p.apply === 'function' && Array.isArray(p.tables))
        exported.push(p.name!);
    }
  }
  expect(exported.sort()).toEqual(allProjections.map((p) => p.name).sort());
  expect(cases.map((c) => c.projection?.name).sort()).toEqual(allProjections.map((p) => p.name).sort());
});

describe.each(stores)('on %s', (storeName, locations) => {
  describe.each(cases.map((c) => [c.projection.name, c] as const))('projection %s', (_name, c) => {
    test('given its events, holds the expected rows', () => {
      const { rows, log } = readModelAfter(c.projection, c.parts.flat(), locations());
      expect(Object.fromEntries(Object.entries(rows).map(([table, r]) => [table, r.length]))).toEqual(c.rowCounts);
      // The read model must not depend on the store: the same log gives the same rows, values and types.
      if (storeName === 'postgres') expect(rows).toEqual(rowsOnSqlite(c.projection, log));
    });

    test('a rebuild from the log equals the live read model after appends from two processes', () => {
      const dir = tempDir('droidwright-projection-');
      const path = storeName === 'sqlite' ? join(dir, 'events.db') : locations().fresh().path;
      const store = openPluginStore(path);
      try {
        appendGiven(store, pluginCatalog(), c.parts[0]);
        const eventsFile = join(dir, 'events.json');
        writeFileSync(eventsFile, JSON.stringify(c.parts[1]));
        const child = spawnSync(process.execPath, [writer, path, eventsFile], { encoding: 'utf8', timeout: 30_000 });
        expect({ status: child.status, stderr: child.stderr, stdout: child.stdout }).toEqual({
          status: 0,
          stderr: '',
          stdout: `appended ${c.parts[1].length}\n`,
        });
        appendGiven(store, pluginCatalog(), c.parts[2]);
        expect(store.lastSeq()).toBe(c.parts.flat().length);

        const live = tableRows(store, c.projection.tables);
        expect(Object.fromEntries(Object.entries(live).map(([table, r]) => [table, r.length]))).toEqual(c.rowCounts);
        expect(store.rebuildProjections([c.projection.name]).rebuilt).toEqual([c.projection.name]);
        expect(tableRows(store, c.projection.tables)).toEqual(live);
      } finally {
        store.close();
      }
    });
  });
});
