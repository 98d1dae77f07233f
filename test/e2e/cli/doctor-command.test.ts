import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { rechainLog } from '../../support/log-tampering.js';
import { CLI, type CliEnv, freePort, runCli, startMcpClient } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';

interface DoctorJson {
  ok: boolean;
  findings: { check: string; status: 'ok' | 'warning' | 'error'; summary: string; fix: string | null }[];
  report: {
    adb: { ok: boolean; path: string | null; server: { reachable: boolean } };
    devices: { ok: boolean; listed: boolean; devices: { serial: string; state: string }[] };
    project: { ok: boolean; path: string | null; trusted: boolean | null };
    event_log: { ok: boolean; checked: number };
    all_ok: boolean;
  };
  agents: { id: string; registration: string }[];
}

const statusOf = (json: DoctorJson, check: string) => json.findings.find((f) => f.check === check)?.status;

/** The SDK folders installers use (adb is found there even without PATH), hidden by a private mount where we can. */
const KNOWN_SDKS = ['/usr/lib/android-sdk', '/opt/android-sdk'].filter((dir) => existsSync(dir));
/** A host program's absolute path, found on the test's own PATH (the doctor's PATH is empty). */
const which = (name: string): string =>
  spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
const canHideSdks = KNOWN_SDKS.length === 0 || spawnSync('unshare', ['-rm', 'true'], { stdio: 'ignore' }).status === 0;

describe('droidwright doctor', () => {
  const temp = createTempHome('e2e-doctor');
  let adb: TestAdbServer;
  let phone: RunningSimulatedDevice;
  let env: CliEnv;
  let project: string;

  beforeAll(async () => {
    adb = await startAdbServer();
    phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
    project = createFakeGradleProject(temp.home, 'app');
    const home = join(temp.home, 'user');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    env = { home: join(home, '.droidwright'), adbPort: adb.port, extra: { HOME: home } };
  });
  afterAll(async () => {
    await phone?.stop();
    await adb?.stop();
    temp.cleanup();
  });

  test('--json on this machine with a simulated device: the device, the project, trust, the log, the agents', async () => {
    expect((await runCli(env, ['trust', '--yes', project])).code).toBe(0);
    const result = await runCli(env, ['doctor', '--json'], { cwd: project });
    const json = JSON.parse(result.stdout) as DoctorJson;
    // Exit 1 exactly when a finding blocks work (on a machine without a JDK, for one).
    expect(result.code).toBe(json.findings.some((f) => f.status === 'error') ? 1 : 0);
    expect(json.ok).toBe(result.code === 0);
    expect(statusOf(json, 'node')).toBe('ok');
    expect(statusOf(json, 'adb')).toBe('ok');
    expect(statusOf(json, 'adb_server')).toBe('ok');
    expect(json.report.devices).toMatchObject({ ok: true, listed: true });
    expect(json.report.devices.devices).toContainEqual(
      expect.objectContaining({ serial: phone.serial, state: 'device' }),
    );
    expect(statusOf(json, 'devices')).toBe('ok');
    expect(json.report.project).toMatchObject({ ok: true, trusted: true });
    expect(statusOf(json, 'trust')).toBe('ok');
    expect(statusOf(json, 'gradle_wrapper')).toBe('ok');
    expect(statusOf(json, 'data_dir')).toBe('ok');
    expect(json.report.event_log.ok).toBe(true);
    expect(json.report.event_log.checked).toBeGreaterThan(0);
    // Cursor is "installed" (its folder exists) and droidwright is not registered with it yet.
    expect(json.agents).toEqual([expect.objectContaining({ id: 'cursor', registration: 'absent' })]);
    expect(json.findings.find((f) => f.check === 'agent cursor')).toMatchObject({
      status: 'warning',
      fix: 'Run `droidwright setup`.',
    });

    // run_health_check is the same implementation, through the real MCP client.
    const mcp = await startMcpClient(env, [], { cwd: project });
    try {
      const tool = await mcp.client.callTool({ name: 'run_health_check', arguments: { verify_event_log: true } });
      const data = tool.structuredContent as DoctorJson['report'];
      expect(data.devices.devices).toEqual(json.report.devices.devices.map(({ serial, state }) => ({ serial, state })));
      expect(data.project).toMatchObject({ ok: true, trusted: true });
      expect(data.event_log.ok).toBe(true);
      expect(data.all_ok).toBe(json.report.all_ok);
      const refused = await mcp.client.callTool({ name: 'run_health_check', arguments: { verify_event_log: 'yes' } });
      expect(refused.isError).toBe(true);
    } finally {
      await mcp.close();
    }

    expect((await runCli(env, ['setup', '--agent', 'cursor'])).code).toBe(0);
    const human = await runCli(env, ['doctor'], { cwd: project });
    expect(human.code).toBe(result.code);
    expect(human.stdout).toContain(`✓ 1 device(s) online: ${phone.serial}`);
    expect(human.stdout).toMatch(/✓ Cursor: registered as `.*cli\.js mcp`, skill installed/);
    expect(human.stdout).toContain('✓ project trusted: builds may run');
  });

  test('a tampered event log blocks work: ✗ with the seq, exit 1', async () => {
    const home = join(temp.home, 'tampered');
    const tamperedEnv: CliEnv = { ...env, home };
    expect((await runCli(tamperedEnv, ['trust', '--yes', project])).code).toBe(0);
    rechainLog(join(home, 'events.db'), (_seq, data) => ({ ...(data as object), root: '/somewhere/else' }));
    const result = await runCli(tamperedEnv, ['doctor'], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ event log .*events\.db does not verify/);
    expect(result.stdout).toMatch(/fix: The event log does not verify/);
  });

  (canHideSdks ? test : test.skip)(
    'with adb missing from PATH (and from the usual SDK folders): ✗ adb with the fix, exit 1',
    async () => {
      const empty = join(temp.home, 'empty-dir');
      mkdirSync(empty, { recursive: true });
      const extra = { ...env.extra, PATH: empty, ANDROID_HOME: '', ANDROID_SDK_ROOT: '' };
      const command = [process.execPath, CLI, 'doctor', '--json'];
      // A private mount namespace hides Debian's /usr/lib/android-sdk from the doctor only.
      const hide = KNOWN_SDKS.map((dir) => `${which('mount')} --bind '${empty}' '${dir}'`).join(' && ');
      const args =
        KNOWN_SDKS.length === 0
          ? command
          : [which('unshare'), '-rm', which('sh'), '-c', `${hide} && exec "$@"`, 'sh', ...command];
      const child = spawnSync(args[0]!, args.slice(1), {
        env: {
          ...process.env,
          DROIDWRIGHT_HOME: join(temp.home, 'no-adb'),
          ANDROID_ADB_SERVER_PORT: String(await freePort()),
          ...extra,
        },
        cwd: temp.home,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(child.status).toBe(1);
      const json = JSON.parse(child.stdout) as DoctorJson;
      expect(json.ok).toBe(false);
      expect(json.report.adb).toMatchObject({ ok: false, path: null });
      expect(json.findings.find((f) => f.check === 'adb')).toMatchObject({
        status: 'error',
        fix: expect.stringContaining('Install Android SDK platform-tools and put them on PATH'),
      });
    },
  );
});
