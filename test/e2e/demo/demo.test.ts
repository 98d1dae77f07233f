import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, CLI, stopPid } from '../../support/mcp-client.js';
import { isAlive } from '../../support/wait.js';

describe('droidwright demo (the README main-job line)', () => {
  let home: string;
  let demoPid: number | undefined;

  beforeAll(() => {
    assertBuilt();
    home = mkdtempSync(join(tmpdir(), 'droidwright-test-demo-'));
  });

  afterAll(async () => {
    await stopPid(demoPid);
    rmSync(home, { recursive: true, force: true });
  });

  test('runs the scripted agent session end to end, leaves a verifiable log and stops what it started', async () => {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    env.DROIDWRIGHT_HOME = home;
    // The demo's device is an emulator, which keeps its console token in $HOME.
    env.HOME = home;
    delete env.ANDROID_ADB_SERVER_PORT;

    const child = spawn(process.execPath, [CLI, 'demo', '--no-wait'], {
      env,
      cwd: home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    demoPid = child.pid;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('The scripted session completed.');
    // Every toolset's main path ran: build, find, install linked to the build, launch, and a refusal on purpose.
    expect(stdout).toMatch(/← Build \w+ \(assembleDebug\) succeeded/);
    expect(stdout).toMatch(/← installed com\.example\.notes 1\.5\.0 \(15\) on emulator-\d+ from build \w+/);
    // Emulator mode: airplane mode can be switched, which a wireless (TCP) serial refuses.
    expect(stdout).toMatch(/← emulator-\d+: airplane_mode on/);
    expect(stdout).toMatch(/← launched com\.example\.notes\/\.LoginActivity in \d+ ms \(cold\)/);
    // The refusal is a tool result the model reads (isError), not a JSON-RPC error.
    expect(stdout).toMatch(
      /✗ uri uses the javascript: scheme, which opens no app and is refused\..*\(error_code: INVALID_ARGUMENT\)/,
    );

    // The adb server the demo started is gone.
    const adbPid = Number(/\(pid (\d+), started for this demo\)/.exec(stdout)?.[1]);
    expect(adbPid).toBeGreaterThan(0);
    expect(isAlive(adbPid)).toBe(false);

    const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env, cwd: home, encoding: 'utf8' });
    const verify = cli(['events', 'verify']);
    expect(verify.status).toBe(0);
    const listed = JSON.parse(cli(['events', 'list', '--json', '--limit', '500']).stdout) as {
      type: string;
      actor: { kind: string };
    }[];
    const types = new Set(listed.map((e) => e.type));
    for (const type of [
      'project.trusted',
      'project.untrusted',
      'mcp.session_started',
      'build.started',
      'build.finished',
      'app.installed',
      'app.launched',
      'app.restarted',
      'app.stopped',
      'orientation.changed',
      'mcp.session_ended',
    ]) {
      expect(types).toContain(type);
    }
  });
});
