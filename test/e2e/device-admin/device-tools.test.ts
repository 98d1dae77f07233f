import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { buildTestApk } from '../../support/apk-builder.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { startMcpClient, type McpTestClient } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { commandCount, commandsRun } from '../../integration/android/support.js';
import { sleep } from '../../support/wait.js';

/*
 * Every device tool through the built CLI and the SDK's real client, against a simulated phone behind a
 * real adb server. The simulated device's command log shows exactly what ran on it.
 */

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

let home: { home: string; cleanup(): void };
let adb: TestAdbServer;
let phone: RunningSimulatedDevice;
let project: string;
let mcp: McpTestClient;
let debugApk: string;

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = await call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(' ')}`);
  return result.structuredContent!;
}

async function toolError(name: string, args: Record<string, unknown>): Promise<{ code: string; text: string }> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return { code: result._meta?.error_code, text: result.content.map((c) => c.text ?? '').join('\n') };
}

/** A call refused before anything ran (bad argument or policy): an isError result, code and field in _meta. */
async function refusal(
  name: string,
  args: Record<string, unknown>,
): Promise<{ message: string; data: Record<string, any> }> {
  const result = await call(name, args);
  if (!result.isError)
    throw new Error(`expected ${name} to be refused, got: ${JSON.stringify(result.structuredContent)}`);
  return { message: result.content.map((c) => c.text ?? '').join('\n'), data: result._meta ?? {} };
}

async function events(filter: Record<string, unknown>): Promise<any[]> {
  return (await ok('query_events', { limit: 100, verbose: true, ...filter })).events;
}

/** Runs `fn` and returns the device commands it caused (the exit-status echo left out). */
async function ran(fn: () => Promise<unknown>): Promise<(readonly string[])[]> {
  const before = commandCount(phone);
  await fn();
  return commandsRun(phone, before);
}

beforeAll(async () => {
  home = createTempHome('device-e2e');
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
  project = createFakeGradleProject(home.home, 'notes', { applicationId: 'com.example.notes' });
  const outputs = join(project, 'app', 'build', 'outputs', 'apk', 'debug');
  mkdirSync(outputs, { recursive: true });
  debugApk = (
    await buildTestApk({
      packageName: 'com.example.notes',
      versionCode: 15,
      versionName: '1.5.0',
      activities: ['.LoginActivity', '.NotesActivity'],
      permissions: ['android.permission.CAMERA'],
      outDir: outputs,
    })
  ).path;
  mcp = await startMcpClient({ home: home.home, adbPort: adb.port }, ['--project', project]);
});

afterAll(async () => {
  await mcp?.close();
  await phone?.stop();
  await adb?.stop();
  home?.cleanup();
});

describe('device tools over MCP', () => {
  it('lists every device tool with annotations that match its kind', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const kinds: Record<string, string> = {
      list_devices: 'R',
      get_device_info: 'R',
      dump_app_info: 'R',
      get_memory_info: 'R',
      get_app_runtime_state: 'R',
      get_exit_reasons: 'R',
      list_avds: 'R',
      install_apk: 'D',
      launch_app: 'W',
      stop_app: 'D',
      restart_app: 'D',
      grant_runtime_permission: 'W',
      revoke_runtime_permission: 'D',
      set_network_state: 'D',
      set_device_orientation: 'W',
      open_deep_link: 'W',
      open_app_settings: 'W',
      launch_avd: 'W',
      stop_avd: 'D',
    };
    for (const [name, kind] of Object.entries(kinds)) {
      const tool = byName.get(name);
      expect(tool).toBeDefined();
      expect(tool!.annotations?.readOnlyHint).toBe(kind === 'R');
      if (kind !== 'R') expect(tool!.annotations?.destructiveHint).toBe(kind === 'D');
      else expect(tool!.annotations?.destructiveHint).toBeUndefined();
    }
  });

  it('lists the device, records its arrival once, and describes it', async () => {
    const listed = await ok('list_devices');
    expect(listed.devices).toEqual([
      expect.objectContaining({
        serial: phone.serial,
        state: 'device',
        kind: 'wireless',
        model: 'Pixel 7',
        api_level: 34,
      }),
    ]);
    await ok('list_devices');
    const connected = await events({ types: ['device.*'] });
    expect(connected.map((e) => e.type)).toEqual(['device.connected']);
    // The device arrived on its own: recorded as the system's, with the agent's call as the observer.
    expect(connected[0]).toMatchObject({
      device: phone.serial,
      actor: expect.stringMatching(/^system /),
      data: { observed_by: expect.stringContaining('droidwright-e2e') },
    });

    const info = await ok('get_device_info');
    expect(info.device.serial).toBe(phone.serial);
    expect(info.screen).toMatchObject({ physical: { width: 1080, height: 2400 }, density_dpi: 420 });
    expect(info.network.airplane_mode).toBe(false);
  });

  it('reads the app: info, memory, runtime state and exit history', async () => {
    const app = await ok('dump_app_info', { package: 'com.example.notes' });
    expect(app).toMatchObject({ device_serial: phone.serial, version_code: 14, version_name: '1.4.0' });
    expect(app.permissions).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'android.permission.CAMERA', runtime: true })]),
    );

    const launched = await ok('launch_app', { package: 'com.example.notes' });
    const memory = await ok('get_memory_info', { package: 'com.example.notes' });
    expect(memory).toMatchObject({ running: true, pid: expect.any(Number), total_pss_kb: expect.any(Number) });
    const state = await ok('get_app_runtime_state', { package: 'com.example.notes' });
    expect(state).toMatchObject({ installed: true, running: true, foreground: true });
    expect(state.foreground_activity).toBe(launched.component.replace('/.', '.'));
    expect(state.activity_stack[0].activity).toBe(state.foreground_activity);

    // package defaults to the project's only application id.
    const exits = await ok('get_exit_reasons', {});
    expect(exits).toMatchObject({ package: 'com.example.notes', supported: true });
    expect((await toolError('dump_app_info', { package: 'com.not.installed' })).code).toBe('APP_NOT_INSTALLED');
  });

  it('installs the project build, hashing the canonical file, and records it', async () => {
    const installed = await ok('install_apk', { apk_path: 'app/build/outputs/apk/debug/com.example.notes-15.apk' });
    expect(installed).toMatchObject({
      package: 'com.example.notes',
      version_code: 15,
      apk_path: debugApk,
      build_id: null,
      module: ':app',
      launchable_activity: 'com.example.notes.LoginActivity',
    });
    expect(installed.apk_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await ok('dump_app_info', { package: 'com.example.notes' })).version_code).toBe(15);
    const [event] = await events({ types: ['app.installed'] });
    expect(event).toMatchObject({
      device: phone.serial,
      package: 'com.example.notes',
      data: expect.objectContaining({ apk_sha256: installed.apk_sha256, version_code: 15 }),
    });

    // A symlinked build output is installed by its canonical path.
    const link = join(project, 'app', 'build', 'outputs', 'apk', 'latest.apk');
    symlinkSync(debugApk, link);
    expect((await ok('install_apk', { apk_path: link })).apk_path).toBe(debugApk);
  });

  it("refuses APKs that are not the project's build outputs", async () => {
    const outside = await buildTestApk({ packageName: 'com.example.notes', versionCode: 16, outDir: home.home });
    expect((await refusal('install_apk', { apk_path: outside.path })).data).toMatchObject({
      error_code: 'PATH_OUTSIDE_PROJECT',
    });
    const escaping = join(project, 'app', 'build', 'outputs', 'apk', 'escape.apk');
    symlinkSync(outside.path, escaping);
    expect((await refusal('install_apk', { apk_path: escaping })).data).toMatchObject({
      error_code: 'PATH_OUTSIDE_PROJECT',
    });
    const stray = join(project, 'app', 'stray.apk');
    writeFileSync(stray, 'x');
    expect((await refusal('install_apk', { apk_path: 'app/stray.apk' })).data).toMatchObject({
      error_code: 'PATH_OUTSIDE_PROJECT',
    });
    expect((await refusal('install_apk', { apk_path: '../../../etc/passwd' })).data).toMatchObject({
      error_code: 'INVALID_ARGUMENT',
    });
  });

  it("reports the package manager's refusal as INSTALL_FAILED", async () => {
    const outputs = join(project, 'app', 'build', 'outputs', 'apk', 'old');
    mkdirSync(outputs, { recursive: true });
    const older = await buildTestApk({ packageName: 'com.example.notes', versionCode: 3, outDir: outputs });
    const failure = await toolError('install_apk', { apk_path: older.path });
    expect(failure.code).toBe('INSTALL_FAILED');
    expect(failure.text).toContain('INSTALL_FAILED_VERSION_DOWNGRADE');
  });

  it('launches with am start -W timings and fails on error text even when am exits 0', async () => {
    const launched = await ok('launch_app', { package: 'com.example.notes', activity: '.NotesActivity' });
    expect(launched).toMatchObject({ component: 'com.example.notes/.NotesActivity', method: 'component' });
    expect(launched.wait_ms === null || Number.isInteger(launched.wait_ms)).toBe(true);
    const missing = await toolError('launch_app', { package: 'com.example.notes', activity: '.NoSuchActivity' });
    expect(missing.code).toBe('LAUNCH_FAILED');
    expect(missing.text).toContain('does not exist');
    expect((await events({ types: ['app.launched'] })).length).toBeGreaterThanOrEqual(2);
  });

  it('stops and restarts the project app, with the Displayed time, and clears data only with an explicit serial', async () => {
    expect(await ok('stop_app', { package: 'com.example.notes' })).toMatchObject({ was_running: true });
    const restarted = await ok('restart_app', { package: 'com.example.notes' });
    expect(restarted).toMatchObject({
      cleared_data: false,
      total_ms: expect.any(Number),
      display_ms: expect.any(Number),
    });
    expect((await refusal('restart_app', { package: 'com.example.notes', clear_data: true })).message).toContain(
      'device_serial',
    );
    expect(
      await ok('restart_app', { package: 'com.example.notes', clear_data: true, device_serial: phone.serial }),
    ).toMatchObject({ cleared_data: true });
    const types = (await events({ package: 'com.example.notes', types: ['app.stopped', 'app.restarted'] })).map(
      (e) => e.type,
    );
    expect(types).toEqual(['app.restarted', 'app.restarted', 'app.stopped']);
  });

  it('refuses packages outside the project unless allow_foreign_package is true, before touching the device', async () => {
    for (const [tool, extra] of [
      ['stop_app', {}],
      ['restart_app', {}],
      ['grant_runtime_permission', { permission: 'android.permission.CAMERA' }],
      ['revoke_runtime_permission', { permission: 'android.permission.CAMERA' }],
    ] as const) {
      const commands = await ran(async () => {
        const refused = await refusal(tool, { package: 'com.example.weather', ...extra });
        expect(refused.data).toMatchObject({ error_code: 'PACKAGE_OUT_OF_SCOPE' });
        expect(refused.message).toContain('com.example.notes');
      });
      expect(commands).toEqual([]);
    }
    expect(await ok('stop_app', { package: 'com.example.weather', allow_foreign_package: true })).toMatchObject({
      package: 'com.example.weather',
    });
  });

  it('grants and revokes runtime permissions', async () => {
    expect(
      await ran(() =>
        ok('grant_runtime_permission', { package: 'com.example.notes', permission: 'android.permission.CAMERA' }),
      ),
    ).toContainEqual(['pm', 'grant', 'com.example.notes', 'android.permission.CAMERA']);
    const granted = (await ok('dump_app_info', { package: 'com.example.notes' })).permissions.find(
      (p: any) => p.name === 'android.permission.CAMERA',
    );
    expect(granted.granted).toBe(true);
    await ok('revoke_runtime_permission', { package: 'com.example.notes', permission: 'android.permission.CAMERA' });
    const failure = await toolError('grant_runtime_permission', {
      package: 'com.example.notes',
      permission: 'android.permission.READ_CONTACTS',
    });
    expect(failure.code).toBe('COMMAND_FAILED');
    expect((await events({ types: ['permission.*'] })).map((e) => e.type)).toEqual([
      'permission.revoked',
      'permission.granted',
    ]);
  });

  it('switches the network, returns the previous state, and never cuts wireless adb', async () => {
    const changed = await ok('set_network_state', { mobile_data: false });
    expect(changed.previous.mobile_data).toBe(true);
    expect(changed.current.mobile_data).toBe(false);
    await ok('set_network_state', { mobile_data: true });
    for (const args of [{ wifi: false }, { airplane_mode: true }, { wifi: false, device_serial: phone.serial }]) {
      const commands = await ran(async () =>
        expect((await refusal('set_network_state', args)).message).toContain('wireless adb'),
      );
      expect(commands).toEqual([]);
    }
    expect((await events({ types: ['network.changed'] })).length).toBe(2);
  });

  it('locks the orientation and reports the previous one', async () => {
    const first = await ok('set_device_orientation', { orientation: 'landscape' });
    const second = await ok('set_device_orientation', { orientation: 'auto' });
    expect(first.orientation).toBe('landscape');
    expect(second.previous).toBe('landscape');
    expect((await events({ types: ['orientation.changed'] })).length).toBe(2);
  });

  it('opens deep links quoted, refuses schemes that open no app, and reports unresolved intents', async () => {
    const uri = 'notes://note/1?id=1;reboot&x=$(id)`id`\'"';
    const commands = await ran(() => ok('open_deep_link', { uri, package: 'com.example.notes' }));
    expect(commands).toEqual([
      ['am', 'start', '-W', '-a', 'android.intent.action.VIEW', '-d', uri, '-p', 'com.example.notes'],
    ]);
    // Without a package, the notes app's intent filter takes notes://note/<id> to its detail screen.
    const opened = await ok('open_deep_link', { uri: 'notes://note/3' });
    expect(opened).toMatchObject({
      activity: 'com.example.notes/.NoteDetailActivity',
      launch_state: expect.any(String),
    });
    expect(opened.total_ms).toEqual(expect.any(Number));
    // The app that handled the link is the package the event concerns, so a package filter finds it.
    const [linkEvent] = await events({ types: ['deep_link.opened'], package: 'com.example.notes' });
    expect(linkEvent).toMatchObject({ package: 'com.example.notes', data: { uri: 'notes://note/3' } });
    expect((await ok('get_app_runtime_state', { package: 'com.example.notes' })).foreground_activity).toBe(
      'com.example.notes.NoteDetailActivity',
    );
    for (const blocked of [
      'javascript:alert(1)',
      '  JavaScript:alert(1)',
      'DATA:text/html,x',
      'file:///sdcard/x',
      'content://x',
      'intent://x#Intent;end',
      'about:blank',
      'blob:x',
      'vbscript:x',
    ]) {
      expect(await ran(() => refusal('open_deep_link', { uri: blocked }))).toEqual([]);
    }
    const unresolved = await toolError('open_deep_link', { uri: 'nothing-handles-this://x' });
    expect(unresolved.code).toBe('LAUNCH_FAILED');
    expect(unresolved.text).toContain('unable to resolve');
    expect(await events({ types: ['deep_link.opened'] })).toHaveLength(2);
  });

  it('opens the app settings screen with the quoted package URI', async () => {
    let result: ToolResult | undefined;
    const commands = await ran(
      async () => (result = await call('open_app_settings', { package: 'com.example.notes' })),
    );
    expect(commands.filter((c) => c[0] === 'am')).toEqual([
      ['am', 'start', '-W', '-a', 'android.settings.APPLICATION_DETAILS_SETTINGS', '-d', 'package:com.example.notes'],
    ]);
    // Settings answers the intent with App info for that package, and it is what the device shows now.
    expect(result!.isError).toBeFalsy();
    expect(result!.structuredContent).toMatchObject({
      package: 'com.example.notes',
      activity: 'com.android.settings/.applications.InstalledAppDetails',
    });
    expect(await ok('get_app_runtime_state', { package: 'com.android.settings' })).toMatchObject({
      foreground: true,
      foreground_activity: 'com.android.settings.applications.InstalledAppDetails',
    });
    expect(await events({ types: ['app.settings_opened'] })).toHaveLength(1);
    expect((await toolError('open_app_settings', { package: 'com.not.installed' })).code).toBe('APP_NOT_INSTALLED');
  });
});

describe('hostile arguments never reach the device unquoted', () => {
  const hostile = ['com.x;reboot', 'com.x && id', '$(id)', '`id`', 'com.x\nreboot', "com.x' 'y", '-n', '--user 0'];

  it('refuses hostile packages, activities, permissions and serials in every device tool before anything runs', async () => {
    const cases: [string, Record<string, unknown>][] = [];
    for (const value of hostile) {
      cases.push(
        ['dump_app_info', { package: value }],
        ['get_memory_info', { package: value }],
        ['get_app_runtime_state', { package: value }],
        ['get_exit_reasons', { package: value }],
        ['launch_app', { package: value }],
        ['stop_app', { package: value, allow_foreign_package: true }],
        ['restart_app', { package: value, allow_foreign_package: true }],
        ['open_app_settings', { package: value }],
        ['grant_runtime_permission', { package: 'com.example.notes', permission: value }],
        ['revoke_runtime_permission', { package: 'com.example.notes', permission: value }],
        ['launch_app', { package: 'com.example.notes', activity: value }],
        ['open_deep_link', { uri: 'notes://x', package: value }],
        ['get_device_info', { device_serial: value }],
        ['stop_avd', { device_serial: value }],
        ['launch_avd', { name: value }],
      );
    }
    for (const [tool, args] of cases) {
      const before = commandCount(phone);
      const refused = (await call(tool, args)).isError === true;
      expect({ tool, args, refused }).toEqual({ tool, args, refused: true });
      expect(commandsRun(phone, before)).toEqual([]);
    }
  });

  it('passes a hostile deep link to am as exactly one argument', async () => {
    for (const uri of ['x://a;reboot', 'x://a && id', 'x://$(id)', 'x://`id`', "x://a'b", 'x://a b', 'x://-n']) {
      const commands = await ran(() => call('open_deep_link', { uri, package: 'com.example.notes' }));
      expect(commands).toEqual([
        ['am', 'start', '-W', '-a', 'android.intent.action.VIEW', '-d', uri, '-p', 'com.example.notes'],
      ]);
    }
  });
});

describe('device selection', () => {
  let second: RunningSimulatedDevice;

  beforeAll(async () => {
    second = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, model: 'Pixel 8' } });
  });
  afterAll(async () => {
    await second?.stop();
  });

  it('never guesses between several devices and names what it sees', async () => {
    const several = await toolError('get_device_info', {});
    expect(several.code).toBe('MULTIPLE_DEVICES');
    expect(several.text).toContain(phone.serial);
    expect(several.text).toContain(second.serial);
    expect((await ok('get_device_info', { device_serial: second.serial })).device.model).toBe('Pixel 8');
    const unknown = await toolError('get_device_info', { device_serial: '127.0.0.1:1' });
    expect(unknown.code).toBe('DEVICE_NOT_FOUND');
    expect(unknown.text).toContain(phone.serial);
  });

  it('reports an offline device and records the state change', async () => {
    await second.stop();
    const deadline = Date.now() + 10_000;
    while ((await adb.devices()).get(second.serial) === 'device' && Date.now() < deadline) await sleep(100);
    const state = (await adb.devices()).get(second.serial);
    const failure = await toolError('get_device_info', { device_serial: second.serial });
    expect(failure.code).toBe(state === undefined ? 'DEVICE_NOT_FOUND' : 'DEVICE_OFFLINE');
    // With one device online again, no serial is needed.
    expect((await ok('get_device_info', {})).device.serial).toBe(phone.serial);
    const changes = (await events({ device: second.serial, types: ['device.*'] })).map((e) => e.type);
    expect(changes[0]).toBe(state === undefined ? 'device.disconnected' : 'device.state_changed');
  });
});
