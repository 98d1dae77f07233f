/*
 * A PostgreSQL event log chosen with --store through the built CLI, against a real server: commands read and write it
 * (the default SQLite file is never made), the witness stays on this machine, doctor checks the connection, events
 * migrate moves logs both ways, TLS options reach the driver, an unreachable server is a one-line failure naming it,
 * and the password in the URL is never printed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { witnessPath } from '../../../src/kernel/store-location.js';
import { type CliEnv, type CliResult, freePort, runCli, startMcpClient } from '../../support/mcp-client.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { isAlive, sleep } from '../../support/wait.js';

const PASSWORD = 'hunter2-pw';
const temp = createTempHome('e2e-pg-store');
let cluster: PostgresCluster;
let env: CliEnv;
let project: string;
const outputs: CliResult[] = [];

/** trust authentication ignores the password; it is in the URL to prove it never comes out. */
function withPassword(url: string, query = '?sslmode=disable'): string {
  return `${url.replace('postgres@', `postgres:${PASSWORD}@`)}${query}`;
}

async function cli(argv: string[], extra: Partial<CliEnv> = {}): Promise<CliResult> {
  const result = await runCli({ ...env, ...extra }, argv);
  outputs.push(result);
  return result;
}

interface Finding {
  check: string;
  status: string;
  summary: string;
  fix: string | null;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  env = { home: join(temp.home, 'data'), adbPort: await freePort(), extra: { HOME: temp.home } };
  project = createFakeGradleProject(temp.home, 'app');
});
afterAll(() => {
  cluster?.stop();
  temp.cleanup();
});
afterEach(() => {
  for (const { stdout, stderr } of outputs.splice(0)) {
    expect(stdout).not.toContain(PASSWORD);
    expect(stderr).not.toContain(PASSWORD);
  }
});

test('--store postgres://… is the log every command uses; doctor checks it; the witness stays in the data directory', async () => {
  const url = withPassword(cluster.createDatabase('droidwright_cli'));
  expect((await cli(['trust', '--yes', project, '--store', url])).code).toBe(0);
  const listed = JSON.parse((await cli(['events', 'list', '--json', '--store', url])).stdout) as { type: string }[];
  expect(listed.map((e) => e.type)).toEqual(['project.trusted']);
  // Nothing was written to the default log.
  expect(existsSync(join(env.home, 'events.db'))).toBe(false);

  const witness = witnessPath(env.home, url);
  expect(readFileSync(witness, 'utf8')).toContain('"seq":1');
  const verified = await cli(['events', 'verify', '--json', '--store', url]);
  expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, checked: 1, witness: { file: witness, heads: 1 } });

  const doctor = await cli(['doctor', '--json', '--store', url]);
  const report = JSON.parse(doctor.stdout) as {
    findings: Finding[];
    report: { store: Record<string, unknown>; event_log: Record<string, unknown> };
  };
  expect(report.report.store).toMatchObject({
    ok: true,
    kind: 'postgres',
    location: expect.stringMatching(new RegExp(`^postgres@127\\.0\\.0\\.1:${cluster.port}/droidwright_cli`)),
    reachable: true,
    server_version: expect.stringMatching(/^\d+/),
    schema_version: expect.any(Number),
    head: { seq: 1, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
  });
  expect(report.report.event_log).toMatchObject({ ok: true, checked: 1, anchors: 1 });
  expect(report.findings.find((f) => f.check === 'store')).toMatchObject({
    status: 'ok',
    summary: expect.stringMatching(
      /^event log in PostgreSQL \d+.* at postgres@127\.0\.0\.1:\d+\/droidwright_cli\S*: schema \d+, head seq 1 /,
    ),
  });
  const human = await cli(['doctor', '--store', url]);
  expect(human.stdout).toMatch(/✓ event log in PostgreSQL .*head seq 1/);
  expect(human.stdout).toMatch(/✓ event log intact: 1 events, hash chain verified against 1 witness head/);
});

test('droidwright mcp --store records its session in PostgreSQL and answers reads from it; stderr never shows the password', async () => {
  const url = withPassword(cluster.createDatabase('droidwright_mcp'));
  expect((await cli(['trust', '--yes', project, '--store', url])).code).toBe(0);
  const mcp = await startMcpClient(env, ['--store', url]);
  let stderr = '';
  try {
    const result = (await mcp.client.callTool({
      name: 'query_events',
      arguments: { types: ['project.*'], limit: 5 },
    })) as { isError?: boolean; structuredContent?: { events?: unknown[] } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.events).toHaveLength(1);
  } finally {
    stderr = mcp.stderr();
    await mcp.close();
  }
  expect(stderr).not.toContain(PASSWORD);
  const listed = JSON.parse((await cli(['events', 'list', '--json', '--store', url])).stdout) as { type: string }[];
  expect(listed.map((e) => e.type)).toEqual(expect.arrayContaining(['mcp.session_started', 'mcp.session_ended']));
  expect(existsSync(join(env.home, 'events.db'))).toBe(false);
});

test('events migrate moves a SQLite log into PostgreSQL and back, byte for byte', async () => {
  const local = createTempHome('e2e-pg-local');
  try {
    const localEnv = { home: local.home };
    for (const argv of [
      ['trust', '--yes', project],
      ['untrust', project],
      ['trust', '--yes', project],
    ])
      expect((await cli(argv, localEnv)).code).toBe(0);
    const team = withPassword(cluster.createDatabase('droidwright_team'));
    const up = await cli(['events', 'migrate', '--to', team, '--json'], localEnv);
    expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(up.stdout)).toMatchObject({
      ok: true,
      copied: 3,
      from: { kind: 'sqlite', verify: { ok: true } },
      to: { kind: 'postgres', verify: { ok: true, checked: 3 } },
    });
    const sqliteList = (await cli(['events', 'export'], localEnv)).stdout;
    expect((await cli(['events', 'export', '--store', team], localEnv)).stdout).toBe(sqliteList);

    // Written on PostgreSQL, then copied back into a new SQLite file: the same chain on both.
    expect((await cli(['untrust', project, '--store', team], localEnv)).code).toBe(0);
    const back = join(local.home, 'back.db');
    const down = await cli(['events', 'migrate', '--store', team, '--to', back], localEnv);
    expect(down.code).toBe(0);
    expect(down.stdout).toMatch(/^Copied 4 events \(seq 1\.\.4\)\./);
    expect(down.stdout).toMatch(
      /from +postgres:\/\/postgres@127\.0\.0\.1:\d+\/droidwright_team\S* \(postgres\): head seq 4/,
    );
    expect((await cli(['events', 'export', '--store', back], localEnv)).stdout).toBe(
      (await cli(['events', 'export', '--store', team], localEnv)).stdout,
    );
    // The SQLite log left behind holds the start of the same chain: what was written on PostgreSQL since comes over.
    const caughtUp = await cli(['events', 'migrate', '--store', team, '--to', join(local.home, 'events.db')], localEnv);
    expect(caughtUp.code).toBe(0);
    expect(caughtUp.stdout).toMatch(/^Copied 1 event \(seq 4\.\.4\), resuming after seq 3/);
  } finally {
    local.cleanup();
  }
});

test('TLS options reach the driver: sslmode=require against a server without TLS is reported with its fix', async () => {
  const url = withPassword(cluster.createDatabase('droidwright_tls'), '?sslmode=require');
  const doctor = await cli(['doctor', '--json', '--store', url]);
  const store = (JSON.parse(doctor.stdout) as { findings: Finding[] }).findings.find((f) => f.check === 'store');
  expect(store).toMatchObject({
    status: 'error',
    summary: expect.stringMatching(/SSL/),
    fix: expect.stringMatching(/sslmode/),
  });
});

test('server down: commands fail in one line naming the server and what to check; doctor gives the fix', async () => {
  const url = withPassword(cluster.createDatabase('droidwright_down'));
  expect((await cli(['trust', '--yes', project, '--store', url])).code).toBe(0);
  const pid = cluster.pid();
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  try {
    const where = `postgres@127.0.0.1:${cluster.port}/droidwright_down`;
    for (const argv of [
      ['events', 'list', '--store', url],
      ['untrust', project, '--store', url],
      ['sessions', 'list', '--store', url],
    ]) {
      const result = await cli(argv);
      expect({ argv, code: result.code, stdout: result.stdout }).toEqual({ argv, code: 1, stdout: '' });
      expect(result.stderr).toMatch(/^droidwright: Cannot reach the PostgreSQL event log at /);
      expect(result.stderr).toContain(where);
      expect(result.stderr).toMatch(/Check that the server is running and reachable/);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    const doctor = await cli(['doctor', '--json', '--store', url]);
    expect(doctor.code).toBe(1);
    const findings = (JSON.parse(doctor.stdout) as { findings: Finding[] }).findings;
    expect(findings.find((f) => f.check === 'store')).toMatchObject({
      status: 'error',
      summary: expect.stringMatching(
        new RegExp(`^Cannot reach the PostgreSQL event log at ${where}\\S*: connect ECONNREFUSED [^ ]+$`),
      ),
      fix: expect.stringMatching(new RegExp(`pg_isready -h 127\\.0\\.0\\.1 -p ${cluster.port}`)),
    });
    // One finding for one cause: the chain was not walked, and no second line says so.
    expect(findings.find((f) => f.check === 'event_log')).toBeUndefined();
  } finally {
    cluster.restart();
  }
  // Nothing was queued while it was down: the log holds exactly what was written before.
  const listed = JSON.parse((await cli(['events', 'list', '--json', '--store', url])).stdout) as { type: string }[];
  expect(listed.map((e) => e.type)).toEqual(['project.trusted']);
});
