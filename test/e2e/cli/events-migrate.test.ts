/*
 * `--store` / DROIDWRIGHT_STORE and `events migrate` through the built CLI, on SQLite files (the PostgreSQL pairs are in
 * test/e2e/cli/postgres-store.test.ts): the default is unchanged, a chosen file is the log every command reads and
 * writes, a copy verifies with its own witness, a re-run copies nothing, and a different chain is refused untouched.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { witnessPath } from '../../../src/kernel/store-location.js';
import { type CliEnv, freePort, runCli } from '../../support/mcp-client.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';

const temp = createTempHome('e2e-migrate');
let env: CliEnv;
let project: string;
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

beforeAll(async () => {
  env = { home: join(temp.home, 'data'), adbPort: await freePort(), extra: { HOME: temp.home } };
  project = createFakeGradleProject(temp.home, 'app');
  for (const argv of [
    ['trust', '--yes', project],
    ['untrust', project],
    ['trust', '--yes', project],
  ]) {
    expect((await runCli(env, argv)).code).toBe(0);
  }
});
afterAll(() => temp.cleanup());

test('events migrate --to FILE copies the log as stored; --store and DROIDWRIGHT_STORE read the copy', async () => {
  const copy = join(temp.home, 'copies', 'team.db');
  const migrated = await runCli(env, ['events', 'migrate', '--to', copy, '--json']);
  expect({ code: migrated.code, stderr: migrated.stderr }).toEqual({ code: 0, stderr: '' });
  const report = json(migrated.stdout);
  expect(report).toMatchObject({
    ok: true,
    copied: 3,
    resumedAfter: 0,
    from: { location: join(env.home, 'events.db'), kind: 'sqlite', verify: { ok: true, checked: 3 } },
    to: { location: copy, kind: 'sqlite', verify: { ok: true, checked: 3 } },
  });
  expect((report.to as { head: unknown }).head).toEqual((report.from as { head: unknown }).head);

  const original = (await runCli(env, ['events', 'list', '--json'])).stdout;
  expect((await runCli(env, ['events', 'list', '--json', '--store', copy])).stdout).toBe(original);
  expect(
    (await runCli({ ...env, extra: { ...env.extra, DROIDWRIGHT_STORE: copy } }, ['events', 'list', '--json'])).stdout,
  ).toBe(original);

  // The copy has this machine's witness of its own, beside the default log's.
  const witness = witnessPath(env.home, copy);
  expect(witness).not.toBe(join(env.home, 'witness.jsonl'));
  expect(readFileSync(witness, 'utf8')).toContain(`"seq":3`);
  const verified = await runCli(env, ['events', 'verify', '--json', '--store', copy]);
  expect(verified.code).toBe(0);
  expect(json(verified.stdout)).toMatchObject({ ok: true, checked: 3, witness: { file: witness, heads: 1 } });

  // Written through the copy (a relative --store is taken from the working directory): the default log is untouched.
  expect((await runCli(env, ['untrust', project, '--store', join('copies', 'team.db')], { cwd: temp.home })).code).toBe(
    0,
  );
  expect(JSON.parse((await runCli(env, ['events', 'list', '--json', '--store', copy])).stdout)).toHaveLength(4);
  expect(JSON.parse((await runCli(env, ['events', 'list', '--json'])).stdout)).toHaveLength(3);

  // A re-run finds the copy already holds the whole source, plus the event written to it since.
  const again = await runCli(env, ['events', 'migrate', '--to', copy]);
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/^Nothing to copy: the destination already holds the whole source and 1 later event/);
  expect(again.stdout).toMatch(/ from +\S+events\.db \(sqlite\): head seq 3 [0-9a-f]{16}…, verifies/);
  expect(again.stdout).toMatch(/ to +\S+team\.db \(sqlite\): head seq 4 [0-9a-f]{16}…, verifies/);
});

test('a different chain is refused with exit 1 and nothing written; a log appended to since is brought over', async () => {
  const other = createTempHome('e2e-migrate-other');
  try {
    const otherEnv = { ...env, home: other.home };
    expect((await runCli(otherEnv, ['trust', '--yes', project])).code).toBe(0);
    const before = (await runCli(env, ['events', 'digest'])).stdout;
    const refused = await runCli(env, ['events', 'migrate', '--from', join(other.home, 'events.db'), '--json']);
    expect(refused.code).toBe(1);
    expect(json(refused.stdout)).toMatchObject({ ok: false, reason: expect.stringMatching(/holds a different log/) });
    expect(refused.stderr).toMatch(
      /^droidwright: not migrated: The destination \S+events\.db holds a different log: .*Refusing to merge two chains; nothing was written/,
    );
    expect((await runCli(env, ['events', 'digest'])).stdout).toBe(before);

    // The other way round into an empty file, then the source grows and a second run copies only the new event.
    const into = join(other.home, 'copy.db');
    expect((await runCli(otherEnv, ['events', 'migrate', '--to', into, '--json'])).code).toBe(0);
    expect((await runCli(otherEnv, ['untrust', project])).code).toBe(0);
    const resumed = await runCli(otherEnv, ['events', 'migrate', '--to', into]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(
      /^Copied 1 event \(seq 2\.\.2\), resuming after seq 1, which the destination already held\./,
    );
    expect(resumed.stdout).toContain(`To use it: --store ${into} (or DROIDWRIGHT_STORE=${into})`);
  } finally {
    other.cleanup();
  }
});

test('bad store locations are usage errors that never repeat a password', async () => {
  const noSides = await runCli(env, ['events', 'migrate']);
  expect(noSides).toMatchObject({ code: 2, stderr: expect.stringMatching(/--to LOCATION.*--from LOCATION/) });
  const same = await runCli(env, ['events', 'migrate', '--to', join(env.home, 'events.db')]);
  expect(same).toMatchObject({ code: 2, stderr: expect.stringMatching(/are the same log/) });
  const unknownScheme = await runCli(env, ['events', 'list', '--store', 'mysql://root@db/x']);
  expect(unknownScheme).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/postgres:\/\/ or postgresql:\/\/ URL/),
  });
  for (const store of ['postgres://alice:hunter2@db.example.com:5432', 'postgres://alice:hunter2@[db/x']) {
    const result = await runCli(env, ['events', 'list', '--store', store]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--store (names no database|is not a valid PostgreSQL URL)/);
    expect(result.stderr).not.toContain('hunter2');
  }
  const fromEnv = await runCli({ ...env, extra: { ...env.extra, DROIDWRIGHT_STORE: 'postgres://alice:hunter2@[x' } }, [
    'events',
    'list',
  ]);
  expect(fromEnv.code).toBe(2);
  expect(fromEnv.stderr).toMatch(/\$DROIDWRIGHT_STORE is not a valid PostgreSQL URL/);
  expect(fromEnv.stderr).not.toContain('hunter2');
  // Nothing was created for a refused location.
  expect(existsSync(join(temp.home, 'mysql:'))).toBe(false);
});
