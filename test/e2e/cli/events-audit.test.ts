import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import type { Actor } from '../../../src/shared/actor.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { rechainLog, truncateLog } from '../../support/log-tampering.js';
import { type CliEnv, freePort, runCli, startMcpClient } from '../../support/mcp-client.js';
import { createTempHome } from '../../support/temp-home.js';

const SESSION_A = '1a2b3c4d-0000-4000-8000-00000000000a';
const SESSION_B = '1a2b9999-0000-4000-8000-00000000000b';
const APK_SHA = 'a'.repeat(64);
const GRADLE_SHA = 'b'.repeat(64);

/**
 * One agent session (claude-code) that builds and installs, another (cursor) that only reads: written
 * through the real container, catalog and projections, as a `droidwright mcp` process would.
 */
function seedLog(home: string, project: string): void {
  const container = createContainer({ home, cwd: home, readOnly: false, env: process.env }, pluginModules);
  try {
    const store = container.get<EventStoreProvider>(EventStoreProvider)();
    const a: Actor = { kind: 'agent', session: SESSION_A, client: 'claude-code', clientVersion: '2.1.0', pid: 4101 };
    const b: Actor = { kind: 'agent', session: SESSION_B, client: 'cursor', clientVersion: '1.0', pid: 4102 };
    const started = (actor: Actor, session: string, client: string) => ({
      type: 'mcp.session_started',
      stream: `mcp:${session}`,
      actor,
      data: {
        session,
        client_name: client,
        client_version: actor.clientVersion ?? null,
        protocol_version: '2025-11-25',
        pid: actor.pid,
        toolsets: ['core', 'build', 'device-admin'],
        read_only: false,
        project_root: project,
      },
    });
    const called = (actor: Actor, session: string, tool: string, summary: string, extra = {}) => ({
      type: 'mcp.tool_called',
      stream: `mcp:${session}`,
      actor,
      data: {
        session,
        tool,
        toolset: 'core',
        kind: 'W',
        outcome: 'ok',
        error_code: null,
        duration_ms: 12,
        summary,
        arguments: {},
        ...extra,
      },
    });
    store.appendMany([started(a, SESSION_A, 'claude-code')]);
    store.appendMany([
      {
        type: 'build.started',
        stream: 'build:b-1',
        correlation: 'b-1',
        actor: a,
        data: {
          build_id: 'b-1',
          project_root: project,
          kind: 'build',
          tasks: [':app:assembleDebug'],
          args: [],
          module: ':app',
          variant: 'debug',
          pid: 4201,
          timeout_sec: 600,
          log_path: join(home, 'build-logs', 'b-1.log'),
          provenance: {
            git: { commit: '0123456789abcdef0123456789abcdef01234567', branch: 'main', dirty: true, changed_files: 2 },
            build_files: [{ path: 'app/build.gradle.kts', sha256: GRADLE_SHA }],
            gradle_version: '8.10',
            jdk: { java_home: '/usr/lib/jvm/17', source: 'JAVA_HOME', version: '17.0.12' },
          },
        },
      },
    ]);
    store.appendMany([
      {
        type: 'build.finished',
        stream: 'build:b-1',
        correlation: 'b-1',
        actor: a,
        data: {
          build_id: 'b-1',
          status: 'success',
          duration_ms: 42_000,
          exit_code: 0,
          signal: null,
          reason: null,
          cancelled_by: null,
          diagnostic_counts: { error: 0, warning: 1, info: 0 },
          diagnostics: [],
          diagnostics_total: 1,
          apks: [
            {
              path: 'app/build/outputs/apk/debug/app-debug.apk',
              module: ':app',
              variant: 'debug',
              sha256: APK_SHA,
              size: 1000,
              package: 'com.example.demo',
              version_code: 7,
              version_name: '1.7',
            },
          ],
          mappings: [],
          tests: null,
          log: { path: join(home, 'build-logs', 'b-1.log'), sha256: APK_SHA, bytes: 10, lines: 1, truncated_lines: 0 },
        },
      },
    ]);
    store.appendMany([called(a, SESSION_A, 'build_apk', 'build b-1 success')]);
    store.appendMany([
      {
        type: 'app.installed',
        stream: 'device:emulator-5554',
        device: 'emulator-5554',
        package: 'com.example.demo',
        correlation: 'build:b-1',
        actor: a,
        data: {
          device_serial: 'emulator-5554',
          package: 'com.example.demo',
          apk_path: 'app/build/outputs/apk/debug/app-debug.apk',
          apk_sha256: APK_SHA,
          apk_size: 1000,
          version_code: 7,
          version_name: '1.7',
          build_id: 'b-1',
          module: ':app',
          variant: 'debug',
          duration_ms: 900,
        },
      },
    ]);
    store.appendMany([called(a, SESSION_A, 'install_apk', 'installed com.example.demo 1.7 (7) on emulator-5554')]);
    store.appendMany([started(b, SESSION_B, 'cursor')]);
    store.appendMany([called(b, SESSION_B, 'get_project_info', 'project demo', { kind: 'R' })]);
    store.appendMany([
      {
        type: 'mcp.session_ended',
        stream: `mcp:${SESSION_A}`,
        actor: a,
        data: { session: SESSION_A, reason: 'stdin closed', calls: 2 },
      },
    ]);
  } finally {
    disposeContainer(container);
  }
}

describe('droidwright events: the auditor questions and verification', () => {
  const temp = createTempHome('e2e-audit');
  let env: CliEnv;
  const project = '/work/projects/demo';

  beforeAll(async () => {
    env = { home: join(temp.home, 'data'), adbPort: await freePort() };
    seedLog(env.home, project);
  });
  afterAll(() => temp.cleanup());

  const json = async (args: string[]) => {
    const result = await runCli(env, args);
    if (result.code !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout) as unknown;
  };

  test('list by client, tool and session prefix as printed, with the tool on call lines', async () => {
    const human = await runCli(env, ['events', 'list', '--type', 'mcp.tool_called']);
    expect(human.stdout).toMatch(/mcp\.tool_called\s+agent claude-code#1a2b3c4d \(pid 4101\)\s+tool=install_apk ok/);
    expect(human.stdout).toMatch(/agent cursor#1a2b9999 \(pid 4102\)\s+tool=get_project_info ok {2}project demo/);

    const byClient = (await json(['events', 'list', '--json', '--client', 'cursor'])) as StoredEvent[];
    expect(byClient.map((e) => e.type)).toEqual(['mcp.session_started', 'mcp.tool_called']);
    const globbed = (await json(['events', 'list', '--json', '--client', 'claude-*', '--limit', '3'])) as StoredEvent[];
    expect(globbed.map((e) => e.seq)).toEqual([5, 6, 9]);

    const byTool = (await json(['events', 'list', '--json', '--tool', 'install_apk'])) as StoredEvent[];
    expect(byTool.map((e) => [e.seq, (e.data as { tool: string }).tool])).toEqual([[6, 'install_apk']]);

    const bySession = (await json(['events', 'list', '--json', '--session', '#1a2b3c4d'])) as StoredEvent[];
    expect(bySession.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 9]);
    const both = (await json([
      'events',
      'list',
      '--json',
      '--session',
      '1a2b3c4d',
      '--tool',
      'build_*',
    ])) as StoredEvent[];
    expect(both.map((e) => e.seq)).toEqual([4]);

    const ambiguous = await runCli(env, ['events', 'list', '--session', '1a2b']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(`matches several sessions (${SESSION_A}, ${SESSION_B})`);
    expect(await json(['events', 'list', '--json', '--session', 'ffff'])).toEqual([]);

    const exported = await runCli(env, ['events', 'export', '--client', 'cursor']);
    expect(exported.stdout.trim().split('\n')).toHaveLength(2);
  });

  test('trace install: which client installed which build on which device, from which sources', async () => {
    const text = (await runCli(env, ['events', 'trace', 'install', '5'])).stdout;
    expect(text).toContain('install seq 5');
    expect(text).toContain('com.example.demo 1.7 (7) on emulator-5554 by agent claude-code#1a2b3c4d (pid 4101)');
    expect(text).toContain(`client:  claude-code 2.1.0, session #1a2b3c4d (${SESSION_A}), pid 4101`);
    expect(text).toMatch(/call: +6 .*install_apk +ok 12 ms/);
    expect(text).toContain('build b-1: build :app:assembleDebug (variant debug)');
    expect(text).toContain(
      'sources: commit 0123456789abcdef0123456789abcdef01234567 on main, dirty, 2 changed file(s)',
    );
    expect(text).toContain(`app/build.gradle.kts ${GRADLE_SHA.slice(0, 12)}`);
    expect(text).toMatch(/outcome: success .* after 42\.0 s/);
    expect(text).toContain('the installed APK (SHA-256) is an output this build recorded');
    expect(text.split('\n').length).toBeLessThan(25);

    const byPackage = (await json(['events', 'trace', 'install', 'com.example.demo', '--json'])) as {
      install: { seq: number };
      build: { provenance: { commit: string } };
      session: { client: string };
    };
    expect(byPackage).toMatchObject({
      kind: 'install',
      apk_from_build: true,
      install: { seq: 5, device: 'emulator-5554' },
      session: { client: 'claude-code' },
      build: { build_id: 'b-1', provenance: { dirty: true, changed_files: 2 } },
    });
    const missing = await runCli(env, ['events', 'trace', 'install', '3']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No install 3/);
  });

  test('trace build and session', async () => {
    const build = (await runCli(env, ['events', 'trace', 'build', 'b-1'])).stdout;
    expect(build).toMatch(/started .* by agent claude-code#1a2b3c4d/);
    expect(build).toContain('installs (1):');
    expect(build).toContain('seq 5');
    const session = (await runCli(env, ['events', 'trace', 'session', '#1a2b3c4d'])).stdout;
    expect(session).toContain('calls (2):');
    expect(session).toMatch(/build_apk +ok/);
    expect(session).toMatch(/session: .* \(stdin closed\)/);
    const asJson = (await json(['events', 'trace', 'session', '1a2b99', '--json'])) as {
      session: { client: string };
      calls: { tool: string }[];
    };
    expect(asJson.session.client).toBe('cursor');
    expect(asJson.calls.map((c) => c.tool)).toEqual(['get_project_info']);
    expect((await runCli(env, ['events', 'trace', 'device', 'x'])).code).toBe(2);
  });

  test('verify --projections catches a hand-inserted trusted_projects row', async () => {
    const ok = await runCli(env, ['events', 'verify', '--projections']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/read models equal a replay of the log \(.*trusted_projects.*\)/);
    expect(ok.stdout).toMatch(/contains all 1 head\(s\) recorded in the witness/);
    const forged = { ...env, home: join(temp.home, 'forged') };
    cpSync(env.home, forged.home, { recursive: true });
    const db = new Database(join(forged.home, 'events.db'));
    db.prepare('INSERT INTO trusted_projects (root, trusted_at, by) VALUES (?, ?, ?)').run('/evil', 1, 'cli');
    db.close();
    expect((await runCli(forged, ['events', 'verify'])).code).toBe(0);
    const result = await runCli(forged, ['events', 'verify', '--projections']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('does NOT verify: read model trusted_projects');
    expect(result.stderr).toContain('"root":"/evil"');
  });

  test('a re-chained or truncated copy of the log fails against the witness', async () => {
    const rechained = { ...env, home: join(temp.home, 'rechained') };
    cpSync(env.home, rechained.home, { recursive: true });
    rechainLog(join(rechained.home, 'events.db'), (seq, data) =>
      seq === 5 ? { ...(data as object), device_serial: 'emulator-9999' } : data,
    );
    expect((await runCli(rechained, ['events', 'verify', '--no-witness'])).code).toBe(0);
    const result = await runCli(rechained, ['events', 'verify']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/BROKEN at seq 9: .*witness\.jsonl line 1: the log was rewritten/);

    const truncated = { ...env, home: join(temp.home, 'truncated') };
    cpSync(env.home, truncated.home, { recursive: true });
    truncateLog(join(truncated.home, 'events.db'), 6);
    const cut = await runCli(truncated, ['events', 'verify', '--json']);
    expect(cut.code).toBe(1);
    expect(JSON.parse(cut.stdout)).toMatchObject({
      ok: false,
      firstBadSeq: 9,
      witness: { heads: 1 },
      reason: expect.stringContaining('the log ends at seq 6'),
    });
  });

  test('digest --sign and verify --digest --allowed-signers with ssh-keygen', async () => {
    const key = join(temp.home, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'auditor', '-f', key]);
    const other = join(temp.home, 'other_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
    const allowed = join(temp.home, 'allowed_signers');
    writeFileSync(allowed, `auditor@example.com ${readFileSync(`${key}.pub`, 'utf8')}`);

    const signed = await runCli(env, ['events', 'digest', '--sign', '--key', key]);
    expect(signed.code).toBe(0);
    const digest = JSON.parse(signed.stdout) as { seq: number; signature: string };
    expect(digest).toMatchObject({ seq: 9, signature: expect.stringContaining('BEGIN SSH SIGNATURE') });
    const digestFile = join(temp.home, 'signed-digest.json');
    writeFileSync(digestFile, signed.stdout);
    const ok = await runCli(env, ['events', 'verify', '--digest', digestFile, '--allowed-signers', allowed]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('it still extends the digest at seq 9, which is signed by auditor@example.com');

    const edited = join(temp.home, 'edited-digest.json');
    writeFileSync(edited, JSON.stringify({ ...digest, seq: 8 }));
    const bad = await runCli(env, ['events', 'verify', '--digest', edited, '--allowed-signers', allowed]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /digest does NOT verify: the digest's signature does not verify for auditor@example.com/,
    );

    const stranger = await runCli(env, ['events', 'digest', '--sign', '--key', other]);
    writeFileSync(edited, stranger.stdout);
    const unknown = await runCli(env, ['events', 'verify', '--digest', edited, '--allowed-signers', allowed]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not signed by a key listed in');
    expect((await runCli(env, ['events', 'verify', '--allowed-signers', allowed])).code).toBe(2);
  });

  test('a droidwright mcp server leaves the head it wrote in the witness when its client goes', async () => {
    const served = { ...env, home: join(temp.home, 'served') };
    const mcp = await startMcpClient(served, [], { cwd: temp.home });
    try {
      await mcp.client.callTool({ name: 'get_project_info', arguments: {} });
    } finally {
      await mcp.close();
    }
    const events = JSON.parse(
      (await runCli(served, ['events', 'list', '--json', '--limit', '1'])).stdout,
    ) as StoredEvent[];
    const witness = readFileSync(join(served.home, 'witness.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(witness.at(-1)!)).toMatchObject({ seq: events[0]!.seq, hash: events[0]!.hash, pid: mcp.pid });
    const verified = await runCli(served, ['events', 'verify']);
    expect(verified.code).toBe(0);
    expect(verified.stderr).toBe('');
  });

  test('verify --file checks an export offline, without a database', async () => {
    const exportFile = join(temp.home, 'export.jsonl');
    expect((await runCli(env, ['events', 'export', '--out', exportFile])).code).toBe(0);
    const offline = { ...env, home: join(temp.home, 'no-such-home') };
    const ok = await runCli(offline, ['events', 'verify', '--file', exportFile]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok: the export .*export\.jsonl, 9 events checked up to seq 9/);
    expect(existsSync(offline.home)).toBe(false);

    const lines = readFileSync(exportFile, 'utf8').trim().split('\n');
    lines[4] = lines[4]!.replace('emulator-5554', 'emulator-1234');
    const tampered = join(temp.home, 'tampered.jsonl');
    writeFileSync(tampered, `${lines.join('\n')}\n`);
    const bad = await runCli(offline, ['events', 'verify', '--file', tampered]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/the export .*tampered\.jsonl is BROKEN at seq 5: hash mismatch/);
  });
});
