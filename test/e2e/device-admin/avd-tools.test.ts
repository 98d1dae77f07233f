import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulatedDevice, type RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { adbHostRequest, startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { REPO_ROOT, startMcpClient, stopPid, type McpTestClient } from '../../support/mcp-client.js';
import { isPortFree } from '../../support/free-port.js';
import { createTempHome } from '../../support/temp-home.js';

/*
 * AVD tools against a fixture SDK whose `emulator` starts a simulated device in emulator mode, with
 * AVD definitions in a temporary HOME.
 */

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

const FIXTURE_SDK = join(REPO_ROOT, 'test', 'fixtures', 'sdk');

let home: { home: string; cleanup(): void };
let adb: TestAdbServer;
let mcp: McpTestClient;
let other: RunningSimulatedDevice;
const launchedPids: number[] = [];
const originalHome = process.env.HOME;

function defineAvd(avdHome: string, name: string, config: Record<string, string>): void {
  mkdirSync(join(avdHome, `${name}.avd`), { recursive: true });
  writeFileSync(
    join(avdHome, `${name}.ini`),
    `avd.ini.encoding=UTF-8\npath=${join(avdHome, `${name}.avd`)}\npath.rel=avd/${name}.avd\ntarget=android-34\n`,
  );
  writeFileSync(
    join(avdHome, `${name}.avd`, 'config.ini'),
    `${Object.entries(config)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 })) as ToolResult;
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = await call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(' ')}`);
  return result.structuredContent!;
}

async function failure(name: string, args: Record<string, unknown>): Promise<{ code: string; text: string }> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  return { code: result._meta?.error_code, text: result.content.map((c) => c.text ?? '').join('\n') };
}

async function oddPortPair(): Promise<number> {
  let port = 40001 + 2 * Math.floor(Math.random() * 5000);
  while (!((await isPortFree(port - 1)) && (await isPortFree(port)))) port += 2;
  return port;
}

beforeAll(async () => {
  home = createTempHome('avd-e2e');
  // The emulator console keeps its auth token in $HOME; keep it, like the AVDs, in the temp home.
  process.env.HOME = home.home;
  const avdHome = join(home.home, '.android', 'avd');
  defineAvd(avdHome, 'Pixel_7_API_34', {
    'abi.type': 'x86_64',
    'hw.device.name': 'pixel_7',
    'avd.ini.displayname': 'Pixel 7 API 34',
    'image.sysdir.1': 'system-images/android-34/google_apis/x86_64/',
  });
  defineAvd(avdHome, 'Other_AVD', { 'abi.type': 'x86_64' });
  defineAvd(avdHome, 'Broken_AVD', { 'fixture.fail': 'true' });
  adb = await startAdbServer();
  // An emulator that is already running with another AVD: launch_avd must never mistake it for the new one.
  const port = await oddPortPair();
  other = await startSimulatedDevice({
    emulatorPort: port,
    androidOptions: { avd: 'Other_AVD', backgroundLogRate: 0 },
  });
  // The emulator's own notice: adb registers the device and closes the socket without a reply.
  await adbHostRequest(adb.port, `host:emulator:${port}`).catch(() => undefined);
  await adb.waitForDevice(other.serial);
  mcp = await startMcpClient(
    {
      home: home.home,
      adbPort: adb.port,
      extra: { HOME: home.home, ANDROID_SDK_ROOT: FIXTURE_SDK, ANDROID_HOME: FIXTURE_SDK },
    },
    [],
    { cwd: home.home },
  );
});

afterAll(async () => {
  await mcp?.close();
  for (const pid of launchedPids) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await stopPid(pid);
  }
  await other?.stop();
  await adb?.stop();
  process.env.HOME = originalHome;
  home?.cleanup();
});

describe('AVD tools', () => {
  it('lists AVDs from the AVD home with the running one marked', async () => {
    const { avds } = await ok('list_avds');
    expect(avds.map((a: any) => a.name)).toEqual(['Broken_AVD', 'Other_AVD', 'Pixel_7_API_34']);
    expect(avds[2]).toMatchObject({
      target: 'android-34',
      api_level: 34,
      abi: 'x86_64',
      device: 'pixel_7',
      display_name: 'Pixel 7 API 34',
    });
    expect(avds[2]).not.toHaveProperty('running_serial');
    expect(avds[1]).toMatchObject({ running_serial: other.serial });
  });

  it('reports an AVD that is already running without starting a second emulator', async () => {
    expect(await ok('launch_avd', { name: 'Other_AVD' })).toMatchObject({
      device_serial: other.serial,
      already_running: true,
    });
  });

  it('launches an AVD with the SDK emulator, waits for its serial, and stops it', async () => {
    const launched = await ok('launch_avd', { name: 'Pixel_7_API_34' });
    expect(launched).toMatchObject({ avd_name: 'Pixel_7_API_34', already_running: false });
    expect(launched.device_serial).toMatch(/^emulator-\d+$/);
    expect(launched.device_serial).not.toBe(other.serial);
    const { events } = await ok('query_events', { types: ['avd.*'], verbose: true });
    expect(events[0]).toMatchObject({
      type: 'avd.launched',
      device: launched.device_serial,
      data: expect.objectContaining({ pid: expect.any(Number) }),
    });
    launchedPids.push(events[0].data.pid);

    const devices = await ok('list_devices');
    expect(devices.devices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ serial: launched.device_serial, kind: 'emulator', avd_name: 'Pixel_7_API_34' }),
      ]),
    );
    expect(await ok('launch_avd', { name: 'Pixel_7_API_34' })).toMatchObject({
      device_serial: launched.device_serial,
      already_running: true,
    });

    const stopped = await ok('stop_avd', { device_serial: launched.device_serial });
    expect(stopped).toMatchObject({ device_serial: launched.device_serial, avd_name: 'Pixel_7_API_34' });
    expect((await adb.devices()).has(launched.device_serial)).toBe(false);
    const after = await ok('query_events', { types: ['avd.stopped'] });
    expect(after.events).toHaveLength(1);
  });

  it('fails when the emulator exits before it comes online, or the AVD does not exist', async () => {
    const broken = await failure('launch_avd', { name: 'Broken_AVD' });
    expect(broken.code).toBe('COMMAND_FAILED');
    expect(broken.text).toContain('Broken AVD system path');
    expect((await failure('launch_avd', { name: 'Nope' })).code).toBe('NOT_FOUND');
  });

  it('stops only emulators that adb lists', async () => {
    expect((await failure('stop_avd', { device_serial: '127.0.0.1:5555' })).code).toBe('INVALID_ARGUMENT');
    expect((await failure('stop_avd', { device_serial: 'emulator-5998' })).code).toBe('DEVICE_NOT_FOUND');
  });
});
