// docs/team-store.md's database set-up, run as written against a real server: the owner creates the schema,
// a machine's role appends and takes its locks but cannot change an event, the auditor's role verifies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { EventCatalog } from '../../../src/events/event-catalog.js';
import { EventStore } from '../../../src/events/event-store.js';
import { collectEventContributions, createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { BuildLock } from '../../../src/plugins/build/services/build-lock.js';
import { ProjectUntrusted } from '../../../src/plugins/core/core.events.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { cliActor } from '../../../src/shared/actor.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';
import { REPO_ROOT } from '../../support/mcp-client.js';

let cluster: PostgresCluster;
const open: EventStore[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(() => {
  for (const store of open) store.close();
  cluster?.stop();
});

/** The ```sql blocks of the page, each split into its statements. */
function documentedSql(): string[][] {
  const page = readFileSync(join(REPO_ROOT, 'docs', 'team-store.md'), 'utf8');
  return [...page.matchAll(/```sql\n([\s\S]*?)```/g)].map((block) =>
    block[1]!
      .split('\n')
      .map((line) => line.replace(/--.*$/, '').trimEnd())
      .join('\n')
      .split(/;\s*\n/)
      .map((statement) => statement.trim().replace(/;$/, ''))
      .filter((statement) => statement.length > 0),
  );
}

test('the documented roles: machines append and lock but cannot rewrite; the auditor verifies', () => {
  const [roles, grants] = documentedSql();
  expect(roles).toBeDefined();
  expect(grants).toBeDefined();
  for (const statement of roles!) cluster.psql(statement);
  const home = process.env.DROIDWRIGHT_HOME!;
  const container = createContainer({ home, cwd: home, readOnly: false, env: process.env }, pluginModules);
  try {
    const { events, projections, tables } = collectEventContributions(container);
    const as = (role: string, readOnly = false) => {
      const store = EventStore.open({
        path: cluster.url('droidwright').replace('postgres@', `${role}@`),
        catalog: new EventCatalog(events),
        projections,
        tables,
        readonly: readOnly,
      });
      open.push(store);
      return store;
    };
    // The owner's first open makes every table; then the grants, as the owner.
    as('droidwright_owner');
    for (const statement of grants!) {
      cluster.psql(`SET ROLE droidwright_owner; ${statement}`, 'droidwright');
    }

    const laptop = as('laptop_alice');
    const event = laptop.append(
      ProjectUntrusted,
      { root: '/home/alice/app', by: 'cli' },
      { stream: 'project:/home/alice/app', actor: { ...cliActor(), host: 'laptop-alice' } },
    );
    expect(event.seq).toBe(1);
    expect(new BuildLock(laptop, 'laptop-alice').acquire('/home/alice/app', 'b1')).toMatchObject({ acquired: true });
    expect(() => cluster.psql("UPDATE events SET data = '{}'", 'droidwright')).toThrow(/append-only/);
    expect(() => cluster.psql('SET ROLE laptop_alice; DELETE FROM events WHERE seq = 1', 'droidwright')).toThrow(
      /permission denied|append-only/,
    );

    const runner = as('ci_runner_3');
    expect(runner.lastSeq()).toBe(1);
    const auditor = as('auditor', true);
    expect(auditor.verify()).toMatchObject({ ok: true, checked: 1 });
    expect(() =>
      cluster.psql(
        "SET ROLE auditor; INSERT INTO build_locks (host, project_root, build_id, pid, started_at) VALUES ('x', 'y', 'z', 1, 1)",
        'droidwright',
      ),
    ).toThrow(/permission denied/);
  } finally {
    disposeContainer(container);
  }
});
