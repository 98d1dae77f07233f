/*
 * The conventions every command follows, through the built CLI: `--help` and `droidwright help` on stdout with exit 0,
 * a usage error on stderr with the one-line usage and exit 2, `--json` on every command that prints data, `--home`
 * before or after the command, and a completion script bash loads.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { adbHostRequest, freePort } from '../../../src/android/adb-server-process.js';
import { parserOptions } from '../../../src/cli/command-line.js';
import type { CommandSpec } from '../../../src/cli/command-spec.js';
import { commandSpecs } from '../../../src/cli/command-specs.js';
import { freeEmulatorPort } from '../../../src/sim/start-simulated-device.js';
import { openTestLineStore } from '../../integration/logcat/line-store-support.js';
import { CLI, runCli, startMcpClient, stopPid, type CliEnv } from '../../support/mcp-client.js';
import { trackPid, untrackPid } from '../../support/process-tracker.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { isAlive, sleep } from '../../support/wait.js';

function walk(specs: readonly CommandSpec[], prefix: string[] = []): { path: string[]; spec: CommandSpec }[] {
  return specs.flatMap((spec) => [
    { path: [...prefix, spec.name], spec },
    ...walk(spec.subcommands ?? [], [...prefix, spec.name]),
  ]);
}

const all = walk(commandSpecs);

const temp = createTempHome('e2e-conventions');
let env: CliEnv;
let project: string;

beforeAll(async () => {
  // HOME too: the simulated emulator keeps its console token there, as the emulator does.
  env = { home: join(temp.home, 'data'), adbPort: await freePort(), extra: { HOME: temp.home } };
  project = createFakeGradleProject(temp.home, 'app-project');
});
afterAll(() => temp.cleanup());

describe('help', () => {
  test.each(all.map(({ path, spec }) => [path.join(' '), spec] as const))(
    '%s: --help, -h and droidwright help on stdout, exit 0, every flag and the examples',
    async (name, spec) => {
      const path = name.split(' ');
      for (const argv of [
        [...path, '--help'],
        [...path, '-h'],
        ['help', ...path],
      ]) {
        const result = await runCli(env, argv);
        expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 0, stderr: '' });
        expect(result.stdout.startsWith(`Usage: droidwright ${spec.usage}\n`)).toBe(true);
        for (const flag of Object.keys(parserOptions(spec))) expect(result.stdout).toContain(`--${flag}`);
        expect(result.stdout).toContain('\nExamples:\n');
      }
    },
  );

  test('droidwright help and --help list the commands people run on stdout; bare droidwright is a usage error', async () => {
    for (const argv of [['help'], ['--help'], ['-h']]) {
      const result = await runCli(env, argv);
      expect(result.code).toBe(0);
      for (const spec of commandSpecs) {
        if (spec.hidden) expect(result.stdout).not.toMatch(new RegExp(`^  ${spec.name} `, 'm'));
        else expect(result.stdout).toMatch(new RegExp(`^  ${spec.name} `, 'm'));
      }
    }
    const bare = await runCli(env, []);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toMatch(/^droidwright \d+\.\d+\.\d+/);
  });

  test('--version prints the version alone', async () => {
    for (const argv of [['--version'], ['--home', temp.home, '--version']]) {
      const result = await runCli(env, argv);
      expect(result).toEqual({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/), stderr: '' });
    }
  });
});

describe('usage errors', () => {
  test.each(all.filter(({ spec }) => !spec.subcommands).map(({ path, spec }) => [path.join(' '), spec] as const))(
    '%s --no-such-flag: stderr with the one-line usage, exit 2',
    async (name, spec) => {
      const result = await runCli(env, [...name.split(' '), '--no-such-flag']);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `droidwright: Unknown option '--no-such-flag'.\nUsage: droidwright ${spec.usage}\n`,
      });
    },
  );

  test('a command that needs a subcommand, an unknown command and a missing argument', async () => {
    const events = await runCli(env, ['events']);
    expect(events.code).toBe(2);
    expect(events.stdout).toBe('');
    expect(events.stderr).toMatch(/^Usage: droidwright events <command>/);
    expect(await runCli(env, ['events', 'nope'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /unknown events command "nope".*\nUsage: droidwright events <command> \[options\]\n$/,
      ),
    });
    expect(await runCli(env, ['frobnicate'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^droidwright: unknown command "frobnicate".*\nUsage: droidwright \[--home DIR\]/),
    });
    expect(await runCli(env, ['completion'])).toMatchObject({
      code: 2,
      stderr: 'droidwright: missing SHELL.\nUsage: droidwright completion bash|zsh|fish\n',
    });
    expect(await runCli(env, ['completion', 'tcsh'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/tcsh/) });
  });
});

describe('--home', () => {
  test('before or after the command, the same as DROIDWRIGHT_HOME', async () => {
    const before = join(temp.home, 'home-before');
    const after = join(temp.home, 'home-after');
    expect((await runCli(env, ['--home', before, 'trust', '--yes', project])).code).toBe(0);
    expect((await runCli(env, ['untrust', project, `--home=${after}`])).code).toBe(0);
    expect(existsSync(join(before, 'events.db'))).toBe(true);
    expect(existsSync(join(after, 'events.db'))).toBe(true);
    const listed = JSON.parse((await runCli(env, ['events', 'list', '--json', '--home', before])).stdout) as {
      type: string;
    }[];
    expect(listed.map((e) => e.type)).toEqual(['project.trusted']);
    // DROIDWRIGHT_HOME (env.home) was not touched.
    expect(existsSync(join(env.home, 'events.db'))).toBe(false);
  });
});

/** The data commands and a command line for each: a test below fails when a command with --json is missing here. */
const jsonCases: Record<string, { argv: () => string[]; lines?: boolean; check(parsed: unknown[]): void }> = {
  trust: {
    argv: () => ['trust', '--yes', '--json', project],
    check: ([result]) => expect(result).toEqual({ root: project, trusted: true, changed: true }),
  },
  untrust: {
    argv: () => ['untrust', '--json', project],
    check: ([result]) => expect(result).toEqual({ root: project, trusted: false, changed: true }),
  },
  'events list': {
    argv: () => ['events', 'list', '--json'],
    check: ([list]) => expect(Array.isArray(list)).toBe(true),
  },
  'events tail': {
    argv: () => ['events', 'tail', '--json'],
    check: ([list]) => expect(Array.isArray(list)).toBe(true),
  },
  'events trace': {
    argv: () => ['events', 'trace', 'session', sessionId, '--json'],
    check: ([trace]) => expect(trace).toMatchObject({ kind: 'session' }),
  },
  'events verify': {
    argv: () => ['events', 'verify', '--json'],
    check: ([r]) => expect(r).toMatchObject({ ok: true }),
  },
  'events digest': {
    argv: () => ['events', 'digest', '--json'],
    check: ([d]) => expect(d).toMatchObject({ seq: expect.any(Number), hash: expect.stringMatching(/^[0-9a-f]{64}$/) }),
  },
  'events export': {
    argv: () => ['events', 'export', '--json'],
    lines: true,
    check: (events) => expect(events.length).toBeGreaterThan(2),
  },
  'events migrate': {
    argv: () => ['events', 'migrate', '--to', join(temp.home, 'migrated.db'), '--json'],
    check: ([r]) =>
      expect(r).toMatchObject({
        ok: true,
        copied: expect.any(Number),
        from: { kind: 'sqlite' },
        to: { kind: 'sqlite' },
      }),
  },
  'events stats': {
    argv: () => ['events', 'stats', '--json'],
    check: ([s]) => expect(s).toMatchObject({ events: expect.any(Number) }),
  },
  'events rebuild': {
    argv: () => ['events', 'rebuild', '--json'],
    check: ([r]) => expect(r).toMatchObject({ rebuilt: expect.any(Array), events: expect.any(Number) }),
  },
  logcat: {
    argv: () => ['logcat', '--json'],
    lines: true,
    check: (lines) => expect(lines).toEqual([expect.objectContaining({ tag: 'Conventions', level: 'I' })]),
  },
  'sessions list': {
    argv: () => ['sessions', 'list', '--json'],
    check: ([r]) => expect(r).toEqual({ sessions: [], total: 0 }),
  },
  // Need an install on a device: their JSON is checked in test/e2e/core/debug-sessions.test.ts.
  'sessions show': { argv: () => [], check: () => undefined },
  'sessions verify': { argv: () => [], check: () => undefined },
  // Needs a Gradle project: checked in test/e2e/device-admin/run-configurations.test.ts.
  'runconfig list': { argv: () => [], check: () => undefined },
  // Need fake agents and a device: checked in test/e2e/cli/setup-command.test.ts and doctor-command.test.ts.
  setup: { argv: () => [], check: () => undefined },
  doctor: { argv: () => [], check: () => undefined },
  // Long-running: its one JSON line is checked in the sim test below.
  sim: { argv: () => [], check: () => undefined },
};
let sessionId = '';

describe('--json', () => {
  test('every command with --json has a case here', () => {
    const withJson = all.filter(({ spec }) => spec.flags?.json).map(({ path }) => path.join(' '));
    expect(withJson.sort()).toEqual(Object.keys(jsonCases).sort());
  });

  test('prints one JSON document (JSON Lines for streams) for each data command', async () => {
    // An MCP session to trace: a real client connects to droidwright mcp and leaves.
    const mcp = await startMcpClient(env);
    await mcp.close();
    const started = JSON.parse(
      (await runCli(env, ['events', 'list', '--json', '--type', 'mcp.session_started'])).stdout,
    ) as { actor: { session: string } }[];
    sessionId = started[0]!.actor.session.slice(0, 8);
    const store = openTestLineStore(env.home);
    store.append(
      'emulator-5554',
      [{ time: '', timeMs: Date.UTC(2026, 0, 31), pid: 1, tid: 1, level: 'I', tag: 'Conventions', message: 'm' }],
      () => null,
    );
    store.close();
    for (const [name, testCase] of Object.entries(jsonCases)) {
      const argv = testCase.argv();
      if (argv.length === 0) continue;
      const result = await runCli(env, argv);
      expect({ name, code: result.code, stderr: result.stderr }).toEqual({ name, code: 0, stderr: '' });
      const text = result.stdout.trimEnd();
      const parsed = testCase.lines ? text.split('\n').map((line) => JSON.parse(line)) : [JSON.parse(text)];
      if (!testCase.lines) expect(text.split('\n')).toHaveLength(1);
      testCase.check(parsed);
    }
  });
});

describe('droidwright sim for people', () => {
  test("--emulator-port takes the emulator's even console port; --adb-server starts a private adb server", async () => {
    const consolePort = (await freeEmulatorPort()) - 1;
    const serial = `emulator-${consolePort}`;
    const child = spawn(
      process.execPath,
      [CLI, 'sim', '--emulator-port', String(consolePort), '--adb-server', '--json'],
      { env: { ...process.env, HOME: temp.home, DROIDWRIGHT_HOME: env.home }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    trackPid(child.pid!);
    let adbPid: number | undefined;
    try {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const deadline = Date.now() + 30_000;
      while (!stdout.includes('\n') && Date.now() < deadline) await sleep(50);
      const up = JSON.parse(stdout.split('\n')[0]!) as {
        serial: string;
        adb_port: number;
        console_port: number;
        adb_server: { port: number; pid: number; started: boolean };
        pid: number;
      };
      adbPid = up.adb_server.pid;
      trackPid(adbPid);
      expect(up).toEqual({
        serial,
        adb_port: consolePort + 1,
        console_port: consolePort,
        adb_server: { port: expect.any(Number), pid: expect.any(Number), started: true },
        pid: child.pid,
      });
      // The private server lists it at once, and the completion of --device offers it.
      expect(await adbHostRequest(up.adb_server.port, 'host:devices')).toContain(`${serial}\tdevice`);
      const completed = await runCli({ ...env, adbPort: up.adb_server.port }, [
        '__complete',
        '--',
        'logcat',
        '-s',
        'emu',
      ]);
      expect(completed.stdout).toBe(`${serial}\n`);

      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // The adb server it started is stopped with it.
      const gone = Date.now() + 5_000;
      while (isAlive(adbPid) && Date.now() < gone) await sleep(50);
      expect(isAlive(adbPid)).toBe(false);
    } finally {
      await stopPid(child.pid);
      await stopPid(adbPid);
      untrackPid(child.pid!);
      if (adbPid) untrackPid(adbPid);
    }
  });

  test('without --json it prints the export line to paste', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'sim', '--adb-server', '--emulator-port', String((await freeEmulatorPort()) - 1)],
      {
        env: { ...process.env, HOME: temp.home, DROIDWRIGHT_HOME: env.home },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    trackPid(child.pid!);
    let adbPid: number | undefined;
    try {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const deadline = Date.now() + 30_000;
      while (!/^export ANDROID_ADB_SERVER_PORT=\d+$/m.test(stdout) && Date.now() < deadline) await sleep(50);
      expect(stdout).toMatch(/^export ANDROID_ADB_SERVER_PORT=\d+$/m);
      adbPid = Number(/\(pid (\d+)\)/.exec(stdout)?.[1]);
      trackPid(adbPid);
    } finally {
      await stopPid(child.pid);
      untrackPid(child.pid!);
      const gone = Date.now() + 5_000;
      while (adbPid && isAlive(adbPid) && Date.now() < gone) await sleep(50);
      if (adbPid) {
        expect(isAlive(adbPid)).toBe(false);
        await stopPid(adbPid);
        untrackPid(adbPid);
      }
    }
  });
});

describe('completion', () => {
  test('bash loads the script and completes commands, subcommands and flags', () => {
    const script = `
      droidwright() { "${process.execPath}" "${CLI}" "$@"; }
      source <(droidwright completion bash)
      complete -p droidwright
      COMP_WORDS=(droidwright ev); COMP_CWORD=1; _droidwright; echo "1:\${COMPREPLY[*]}"
      COMP_WORDS=(droidwright events ve); COMP_CWORD=2; _droidwright; echo "2:\${COMPREPLY[*]}"
      COMP_WORDS=(droidwright mcp --toolsets dev); COMP_CWORD=3; _droidwright; echo "3:\${COMPREPLY[*]}"
      COMP_WORDS=(droidwright retrace --mapp); COMP_CWORD=2; _droidwright; echo "4:\${COMPREPLY[*]}"
    `;
    const result = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      env: { ...process.env, DROIDWRIGHT_HOME: env.home },
    });
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      'complete -F _droidwright droidwright',
      '1:events',
      '2:verify',
      '3:device-admin',
      '4:--mapping',
      '',
    ]);
  });

  test.each(['zsh', 'fish'])('%s: the script parses where the shell is installed', async (shell) => {
    const script = (await runCli(env, ['completion', shell])).stdout;
    expect(script).toContain('__complete --');
    const which = spawnSync('sh', ['-c', `command -v ${shell}`], { encoding: 'utf8' });
    if (which.status !== 0) return; // not installed here: the bash test covers the shared protocol
    const check = spawnSync(shell, shell === 'zsh' ? ['-n'] : ['--no-execute'], { input: script, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
