/**
 * The loop debug sessions exist for, through the real MCP client, a real adb server and the simulated phone:
 * build → install → launch → crash → fix → rebuild → install → launch gives two sessions, and
 * compare_debug_sessions with no arguments names the crash that is gone and the source file the fix changed.
 * Then the CLI exports the crashing session as a bundle that verifies against the log, and fails once edited.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import type { TestAdbServer } from '../../support/adb-server.js';
import { recordDeviceCrashes } from '../../support/device-crash-recording.js';
import { type CliEnv, type McpTestClient, resultData, resultErrorText, runCli } from '../../support/mcp-client.js';
import { type NotesAppSession, startNotesAppSession } from '../../support/notes-app-session.js';
import { createTempHome } from '../../support/temp-home.js';
import { sleep } from '../../support/wait.js';

const PACKAGE = 'com.example.notes';
const SOURCE = 'app/src/main/kotlin/com/example/notes/data/NoteStore.kt';

const data = resultData;
const errorText = resultErrorText;

describe('debug sessions: build → crash → fix → rebuild, through the MCP client', () => {
  const temp = createTempHome('debug-sessions-e2e');
  let adb: TestAdbServer;
  let phone: RunningSimulatedDevice;
  let mcp: McpTestClient | undefined;
  let env: CliEnv;
  let project: string;
  let session: NotesAppSession | undefined;

  beforeAll(async () => {
    session = await startNotesAppSession(temp.home, (copy) => {
      mkdirSync(join(copy, SOURCE, '..'), { recursive: true });
      writeFileSync(join(copy, SOURCE), 'class NoteStore { fun all() = requireOpen() }\n');
    });
    ({ adb, phone, env, project, mcp } = session);
  }, 60_000);

  afterAll(async () => {
    await session?.stop();
    temp.cleanup();
  });

  const call = (name: string, args: Record<string, unknown> = {}) =>
    mcp!.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const shell = async (...args: string[]) => {
    const r = await adb.adb(['-s', phone.serial, 'shell', ...args]);
    expect(r.exitCode).toBe(0);
  };

  const recordCrashesFromDeviceLog = () => recordDeviceCrashes(adb, phone.serial, PACKAGE, { home: env.home, project });

  async function buildInstallLaunch(): Promise<string> {
    const build = data(await call('run_gradle_task', { task: 'assembleDebug' }));
    expect(build.status).toBe('success');
    const apk = data(await call('find_apk_path', { variant: 'debug' }));
    data(await call('install_apk', { device_serial: phone.serial, apk_path: apk.path }));
    data(await call('launch_app', { device_serial: phone.serial, package: PACKAGE }));
    return build.build_id as string;
  }

  it('gives two sessions, and compare with no arguments names the crash gone and the changed source file', async () => {
    const crashingBuild = await buildInstallLaunch();
    // Sign in, wait for the notes list, tap Crash: the simulated app's scenario buttons, by their bounds.
    await shell('logcat', '-c');
    await shell('input', 'tap', '540', '600');
    await shell('input', 'text', 'ada@example.com');
    await shell('input', 'tap', '540', '800');
    await shell('input', 'text', 'secret1');
    await shell('input', 'tap', '540', '1072');
    await sleep(1500);
    await shell('input', 'tap', '284', '2112');
    expect(await recordCrashesFromDeviceLog()).toBe(1);
    data(await call('get_exit_reasons', { device_serial: phone.serial, package: PACKAGE }));

    // The fix, then the loop again; this time nobody presses the crashing button's code path.
    writeFileSync(join(project, SOURCE), 'class NoteStore { fun all() = if (open) items else emptyList() }\n');
    const fixedBuild = await buildInstallLaunch();
    expect(fixedBuild).not.toBe(crashingBuild);

    const list = data(await call('list_debug_sessions', {}));
    const sessions = list.sessions as Record<string, unknown>[];
    expect(list.total).toBe(2);
    expect(sessions.map((s) => [s.state, s.launches, s.crashes])).toEqual([
      ['open', 1, 0],
      ['superseded', 1, 1],
    ]);
    expect(sessions[1]!.build).toMatch(new RegExp(`^${crashingBuild} debug v15`));
    expect(data(await call('list_debug_sessions', { only_crashing: true })).total).toBe(1);

    const crashed = data(await call('get_debug_session', { session_id: sessions[1]!.session_id }));
    expect(crashed.build).toMatchObject({ build_id: crashingBuild, tasks: ['assembleDebug'], status: 'success' });
    const [crash] = crashed.crashes as Record<string, unknown>[];
    expect(crash).toMatchObject({
      kind: 'java',
      title: 'java.lang.IllegalStateException: Note store is not initialised',
      verified: true,
    });
    expect((crash!.lines as string[]).join('\n')).toMatch(/FATAL EXCEPTION/);
    const categories = (crashed.events as { category: string }[]).map((e) => e.category);
    expect(categories).toEqual(expect.arrayContaining(['launch', 'crash', 'exit_reasons', 'tool_call']));
    const paged = data(await call('get_debug_session', { session_id: sessions[1]!.session_id, max_events: 1 }));
    expect(paged).toMatchObject({ has_more: true });
    expect((paged.events as unknown[]).length).toBe(1);

    const compared = data(await call('compare_debug_sessions', {}));
    expect(compared).toMatchObject({
      chosen: true,
      from: { session_id: sessions[1]!.session_id },
      to: { session_id: sessions[0]!.session_id },
      crashes_new: [],
      changed_files: [{ path: SOURCE, change: 'modified' }],
      changed_files_partial: false,
    });
    expect((compared.crashes_gone as { title: string }[]).map((c) => c.title)).toEqual([
      'java.lang.IllegalStateException: Note store is not initialised',
    ]);
    expect((compared.build_differences as { field: string }[]).map((d) => d.field)).toContain('build_id');

    expect(errorText(await call('get_debug_session', { session_id: 'ds-999999' }))).toMatch(/SESSION_NOT_FOUND/);
    // The same session as a resource (droidwright://sessions/{id}), read through get_debug_session.
    const resource = await mcp!.client.readResource({ uri: `droidwright://sessions/${sessions[1]!.session_id}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text)).toMatchObject({
      session: { session_id: sessions[1]!.session_id, crashes: 1 },
    });
    await expect(mcp!.client.readResource({ uri: 'droidwright://sessions/ds-999999' })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringMatching(/SESSION_NOT_FOUND/),
    });
    expect(errorText(await call('compare_debug_sessions', { from: sessions[1]!.session_id }))).toMatch(
      /INVALID_ARGUMENT/,
    );

    // The CLI: list, show, export a bundle that verifies against the log; an edited bundle does not.
    const listed = await runCli(env, ['sessions', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${sessions[1]!.session_id} superseded ${PACKAGE}`);
    expect((await runCli(env, ['sessions', 'show', sessions[1]!.session_id as string])).stdout).toMatch(
      /crash seq \d+ .* java: java.lang.IllegalStateException/,
    );
    const bundle = join(temp.home, 'session.json');
    const exported = await runCli(env, ['sessions', 'export', sessions[1]!.session_id as string, '--out', bundle]);
    expect(exported.code).toBe(0);
    const verified = await runCli(env, ['sessions', 'verify', bundle]);
    expect({ code: verified.code, stderr: verified.stderr }).toEqual({ code: 0, stderr: '' });
    expect(verified.stdout).toMatch(/The bundle verifies: .* build log: matches build.finished/);
    writeFileSync(
      bundle,
      readFileSync(bundle, 'utf8').replaceAll('Note store is not initialised', 'Note store is fine'),
    );
    const tampered = await runCli(env, ['sessions', 'verify', bundle]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/does NOT verify:\n/);
    expect(tampered.stderr).toMatch(/- event seq \d+: its content does not match its hash \(edited\)/);
    expect((await runCli(env, ['sessions', 'show', 'ds-999999'])).code).toBe(2);
    expect((await runCli(env, ['events', 'verify', '--projections'])).code).toBe(0);

    // Uninstalled behind droidwright's back: the next device tool that finds it gone ends the open session.
    await shell('pm', 'uninstall', PACKAGE);
    expect(errorText(await call('dump_app_info', { device_serial: phone.serial, package: PACKAGE }))).toMatch(
      /APP_NOT_INSTALLED/,
    );
    const ended = data(await call('get_debug_session', { session_id: sessions[0]!.session_id }));
    expect(ended.session).toMatchObject({ state: 'ended', end_reason: 'not installed (seen by dump_app_info)' });
    expect(data(await call('list_debug_sessions', { state: 'open' })).total).toBe(0);

    // Installed again by hand with adb: the next dump_app_info sees an install it does not know and opens a
    // session for it, once however often it looks.
    const apk = data(await call('find_apk_path', { variant: 'debug' }));
    const installed = await adb.adb(['-s', phone.serial, 'install', '-r', apk.path as string]);
    expect(installed.exitCode).toBe(0);
    data(await call('dump_app_info', { device_serial: phone.serial, package: PACKAGE }));
    data(await call('dump_app_info', { device_serial: phone.serial, package: PACKAGE }));
    const open = data(await call('list_debug_sessions', { state: 'open' })) as {
      total: number;
      sessions: { session_id: string }[];
    };
    expect(open.total).toBe(1);
    const observed = data(await call('get_debug_session', { session_id: open.sessions[0]!.session_id }));
    expect(observed.session).toMatchObject({ state: 'open', installed_by: 'observed' });
  }, 240_000);
});
