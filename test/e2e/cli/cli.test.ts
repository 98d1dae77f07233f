import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import { CLI, freePort, runCli, stopPid, type CliEnv } from '../../support/mcp-client.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { sleep } from '../../support/wait.js';

/** No stack traces for environment failures: one clear line. */
function expectCleanFailure(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(/^droidwright: /);
}

describe('droidwright CLI', () => {
  const temp = createTempHome('e2e-cli');
  let env: CliEnv;
  let project: string;

  beforeAll(async () => {
    env = { home: join(temp.home, 'data'), adbPort: await freePort() };
    project = createFakeGradleProject(temp.home, 'demo');
  });
  afterAll(() => temp.cleanup());

  test('help, version and usage errors', async () => {
    const none = await runCli(env, []);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/Usage: droidwright \[--home DIR\] <command>/);
    expect(none.stderr).toMatch(/\bmcp\b.*\bevents\b/s);
    expect((await runCli(env, ['help'])).code).toBe(0);
    const version = await runCli(env, ['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const unknown = await runCli(env, ['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    const badFlag = await runCli(env, ['events', 'list', '--bogus']);
    expect(badFlag.code).toBe(2);
    // The reason, then the one-line usage; no stack.
    expect(badFlag.stderr).toMatch(/^droidwright: Unknown option '--bogus'\.\nUsage: droidwright events list .*\n$/);
    expect((await runCli(env, ['events', 'nope'])).code).toBe(2);
    expect((await runCli(env, ['events', 'list', '--limit', 'x'])).code).toBe(2);
    expect((await runCli(env, ['events', 'list', '--since', 'whenever'])).code).toBe(1);
  });

  test('trust, list, untrust; refuses a directory that is not a Gradle project', async () => {
    // Without a terminal, trust needs an explicit --yes (a script the user wrote); an agent's shell gets a refusal.
    const unconfirmed = await runCli(env, ['trust'], { cwd: join(project, 'app') });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/asks for confirmation on a terminal/);
    // From an AI coding tool's own shell, not even --yes trusts a project.
    const fromAgent = await runCli({ ...env, extra: { ...env.extra, CLAUDECODE: '1' } }, ['trust', '--yes'], {
      cwd: join(project, 'app'),
    });
    expect(fromAgent.code).toBe(2);
    expect(fromAgent.stderr).toMatch(/inside an AI coding tool's shell \(CLAUDECODE set\)/);
    const trusted = await runCli(env, ['trust', '--yes'], { cwd: join(project, 'app') });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(`Trusted ${project}`);
    expect((await runCli(env, ['trust', project])).stdout).toContain('already trusted');
    const list = await runCli(env, ['trust', '--list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([
      { root: project, trustedAt: expect.any(Number), by: expect.stringMatching(/^cli \(pid \d+ on \S+\)$/) },
    ]);
    const notGradle = join(temp.home, 'plain');
    mkdirSync(notGradle);
    const refused = await runCli(env, ['trust', notGradle]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not a Gradle project/);
    expect((await runCli(env, ['trust'], { cwd: notGradle })).code).toBe(2);
    expect((await runCli(env, ['untrust', project])).stdout).toContain(`Revoked trust in ${project}`);
    const events = JSON.parse(
      (await runCli(env, ['events', 'list', '--json', '--type', 'project.*'])).stdout,
    ) as StoredEvent[];
    expect(events.map((e) => [e.type, e.actor.kind])).toEqual([
      ['project.trusted', 'cli'],
      ['project.untrusted', 'cli'],
    ]);
    // The grant says how it was confirmed and what environment ran it, for an auditor.
    expect(events[0]!.data).toMatchObject({ confirmed: 'flag', agent_env: [], parent_command: 'node' });
  });

  test('list, filters, export, stats, digest, verify --digest, rebuild', async () => {
    const human = await runCli(env, ['events', 'list']);
    expect(human.stdout).toMatch(/project\.trusted\s+cli \(pid \d+\)/);
    const filtered = JSON.parse(
      (await runCli(env, ['events', 'list', '--json', '--type', 'project.untrusted', '--limit', '5'])).stdout,
    ) as StoredEvent[];
    expect(filtered.map((e) => e.type)).toEqual(['project.untrusted']);
    expect(
      JSON.parse((await runCli(env, ['events', 'list', '--json', '--since', '2099-01-01T00:00:00Z'])).stdout),
    ).toEqual([]);

    const exportFile = join(temp.home, 'export.jsonl');
    const exported = await runCli(env, ['events', 'export', '--out', exportFile]);
    expect(exported.code).toBe(0);
    const lines = readFileSync(exportFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StoredEvent);
    expect(lines.map((e) => e.seq)).toEqual([1, 2]);
    expect(lines[1]!.prevHash).toBe(lines[0]!.hash);
    expect((await runCli(env, ['events', 'export'])).stdout.trim().split('\n')).toHaveLength(2);

    const stats = JSON.parse((await runCli(env, ['events', 'stats', '--json'])).stdout) as {
      events: number;
      byType: Record<string, number>;
    };
    expect(stats).toMatchObject({ events: 2, byType: { 'project.trusted': 1, 'project.untrusted': 1 } });

    const digest = await runCli(env, ['events', 'digest']);
    const parsed = JSON.parse(digest.stdout) as { seq: number; hash: string; at: number };
    expect(parsed).toMatchObject({ seq: 2, hash: lines[1]!.hash });
    const digestFile = join(temp.home, 'digest.json');
    writeFileSync(digestFile, digest.stdout);
    expect((await runCli(env, ['trust', '--yes', project])).code).toBe(0);
    const extended = await runCli(env, ['events', 'verify', '--digest', digestFile]);
    expect(extended.code).toBe(0);
    expect(extended.stdout).toMatch(/still extends the digest at seq 2/);
    writeFileSync(join(temp.home, 'forged.json'), JSON.stringify({ ...parsed, hash: 'f'.repeat(64) }));
    const forged = await runCli(env, ['events', 'verify', '--digest', join(temp.home, 'forged.json')]);
    expect(forged.code).toBe(1);
    expect((await runCli(env, ['events', 'verify', '--digest', join(temp.home, 'missing.json')])).code).toBe(2);

    const rebuilt = await runCli(env, ['events', 'rebuild']);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/Rebuilt .*trusted_projects.* from 3 events/);
  });

  test('tail -f follows appends made by other processes', async () => {
    const tail = spawn(
      process.execPath,
      [CLI, 'events', 'tail', '-f', '--json', '--type', 'project.*', '--limit', '1'],
      {
        env: { ...process.env, DROIDWRIGHT_HOME: env.home, ANDROID_ADB_SERVER_PORT: String(env.adbPort) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    tail.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const waitForLines = async (n: number) => {
        const deadline = Date.now() + 15_000;
        while (out.trim().split('\n').filter(Boolean).length < n) {
          if (Date.now() > deadline) throw new Error(`tail printed: ${out}`);
          await sleep(25);
        }
      };
      await waitForLines(1);
      expect((await runCli(env, ['untrust', project])).code).toBe(0);
      await waitForLines(2);
      const followed = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as StoredEvent);
      expect(followed.at(-1)!.type).toBe('project.untrusted');
      const exited = new Promise<number | null>((resolve) => tail.once('exit', resolve));
      tail.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      await stopPid(tail.pid);
    }
  });

  test('verify exits 1 naming the first bad seq when a row was rewritten', async () => {
    const dbPath = join(env.home, 'events.db');
    const db = new Database(dbPath);
    try {
      for (const { name } of db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'")
        .all() as { name: string }[]) {
        db.exec(`DROP TRIGGER ${name}`);
      }
      db.prepare("UPDATE events SET data = replace(data, 'cli', 'xyz') WHERE seq = 2").run();
    } finally {
      db.close();
    }
    const result = await runCli(env, ['events', 'verify']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/BROKEN at seq 2/);
  });

  test('a corrupt database or an unusable home: one clear line, non-zero exit', async () => {
    const corrupt: CliEnv = { ...env, home: join(temp.home, 'corrupt') };
    mkdirSync(corrupt.home);
    writeFileSync(join(corrupt.home, 'events.db'), 'definitely not sqlite '.repeat(500));
    for (const args of [
      ['events', 'list'],
      ['events', 'verify'],
      ['trust', project],
    ]) {
      const result = await runCli(corrupt, args);
      expect(result.code).toBe(1);
      expectCleanFailure(result.stderr);
      expect(result.stderr).toMatch(/not a readable droidwright event log/);
    }
    const fileAsHome: CliEnv = { ...env, home: join(temp.home, 'a-file') };
    writeFileSync(fileAsHome.home, 'x');
    const result = await runCli(fileAsHome, ['events', 'list']);
    expect(result.code).toBe(1);
    expectCleanFailure(result.stderr);
    expect(result.stderr).toMatch(/a-file is a file, not a directory/);
  });
});
