/**
 * The whole loop through the real MCP client, a real adb server and the simulated phone: build the minified release
 * of the demo project (the stand-in Gradle writes an R8 mapping and an APK whose code is renamed by it), install,
 * sign in, tap the crashing button; the crash logcat shows carries R8's renamed frames and r8-map-id marker; it is
 * recorded linked to the installed build, and get_crash_stack_trace with retrace gives back the source names and
 * lines. A later build that overwrites the mapping makes the same retrace a refusal, never a guess.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimulatedAndroidHandle } from '../../../src/sim/android/create-simulated-android.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import type { TestAdbServer } from '../../support/adb-server.js';
import { recordDeviceCrashes } from '../../support/device-crash-recording.js';
import { type CliEnv, type McpTestClient, resultData, resultErrorText } from '../../support/mcp-client.js';
import { type NotesAppSession, startNotesAppSession } from '../../support/notes-app-session.js';
import { createTempHome } from '../../support/temp-home.js';
import { sleep } from '../../support/wait.js';

const PACKAGE = 'com.example.notes';

const data = resultData;
const errorText = resultErrorText;

describe('minified build → crash → retrace, through the MCP client', () => {
  const temp = createTempHome('crash-retrace-e2e');
  let adb: TestAdbServer;
  let phone: RunningSimulatedDevice;
  let mcp: McpTestClient | undefined;
  let env: CliEnv;
  let project: string;
  let session: NotesAppSession | undefined;

  beforeAll(async () => {
    session = await startNotesAppSession(temp.home);
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

  it('gives the original frames of a crash in the installed minified build', async () => {
    const build = data(await call('run_gradle_task', { task: 'assembleRelease' }));
    expect(build.status).toBe('success');
    const buildId = build.build_id as string;
    const apk = data(await call('find_apk_path', { variant: 'release' }));
    const installed = data(await call('install_apk', { device_serial: phone.serial, apk_path: apk.path }));
    expect(installed.build_id).toBe(buildId);
    data(await call('launch_app', { device_serial: phone.serial, package: PACKAGE }));

    // Sign in, wait for the notes list, tap Crash: the scenario's buttons, by their bounds.
    await shell('input', 'tap', '540', '600');
    await shell('input', 'text', 'ada@example.com');
    await shell('input', 'tap', '540', '800');
    await shell('input', 'text', 'secret1');
    await shell('input', 'tap', '540', '1072');
    await sleep(1500);
    await shell('input', 'tap', '284', '2112');

    expect(await recordCrashesFromDeviceLog()).toBe(1);

    const logs = data(await call('get_crash_logs', {}));
    expect(logs.total).toBe(1);
    const group = (logs.groups as Record<string, unknown>[])[0]!;
    expect(group).toMatchObject({
      package: PACKAGE,
      kind: 'java',
      title: 'java.lang.IllegalStateException: Note store is not initialised',
      crashes: 1,
      builds: [`${buildId} release v15 ×1`],
    });
    const mapId = /pg_map_id: (\w+)/.exec(
      readFileSync(join(project, 'app/build/outputs/mapping/release/mapping.txt'), 'utf8'),
    )![1]!;
    // As R8-processed code prints them: renamed class and methods, minified lines, the map id as source file.
    expect(group.top_frames).toEqual([
      `at a.a.b(r8-map-id-${mapId}:11)`,
      `at a.a.a(r8-map-id-${mapId}:4)`,
      `at com.example.notes.NotesActivity.b(r8-map-id-${mapId}:12)`,
      `at com.example.notes.NotesActivity.a(r8-map-id-${mapId}:5)`,
      'at android.view.View.performClick(View.java:7659)',
    ]);

    const plain = data(await call('get_crash_stack_trace', { crash_group_id: group.crash_group_id }));
    expect(plain.hint).toMatch(/retrace: true/);
    expect(plain.build).toBe(`${buildId} release v15`);

    const retraced = data(await call('get_crash_stack_trace', { package: PACKAGE, retrace: true }));
    expect(retraced.retraced).toMatchObject({
      matched_by: 'pg_map_id',
      build_id: buildId,
      mapping: `${join(project, 'app/build/outputs/mapping/release/mapping.txt')} (built-in retrace)`,
    });
    const stack = (retraced.retraced as { stack: string }).stack.split('\n');
    expect(stack[1]).toMatch(/^Process: com\.example\.notes, PID: \d+$/);
    expect([stack[0], ...stack.slice(2, 5)]).toEqual([
      'FATAL EXCEPTION: main',
      'java.lang.IllegalStateException: Note store is not initialised',
      '\tat com.example.notes.data.NoteStore.requireOpen(NoteStore.kt:58)',
      '\tat com.example.notes.data.NoteStore.all(NoteStore.kt:31)',
    ]);
    expect(stack).toContain('\tat com.example.notes.NotesActivity.onCrashClicked(NotesActivity.kt:112)');
    expect(stack).toContain('\tat com.example.notes.NotesActivity.onCreate$lambda$3(NotesActivity.kt:64)');

    const retracedLogs = data(await call('get_crash_logs', { retrace: true }));
    expect((retracedLogs.groups as { retraced_top_frames: string[] }[])[0]!.retraced_top_frames[0]).toBe(
      'at com.example.notes.data.NoteStore.requireOpen(NoteStore.kt:58)',
    );
  }, 180_000);

  it('refuses to retrace once the mapping on disk is another build’s', async () => {
    const standIn = join(project, 'stand-in.json');
    writeFileSync(standIn, readFileSync(standIn, 'utf8').replace('"lines": [108, 115]', '"lines": [100, 115]'));
    expect(data(await call('run_gradle_task', { task: 'assembleRelease' })).status).toBe('success');
    const refused = errorText(await call('get_crash_stack_trace', { package: PACKAGE, retrace: true }));
    expect(refused).toMatch(/MAPPING_NOT_FOUND/);
    expect(refused).toMatch(/no mapping file recorded by a droidwright build .* has that pg_map_id/);
    // Without retrace the crash is still there, as logged.
    expect(data(await call('get_crash_stack_trace', { package: PACKAGE })).kind).toBe('java');
    const unknownGroup = errorText(await call('get_crash_stack_trace', { crash_group_id: 'ffffffffffffffff' }));
    expect(unknownGroup).toMatch(/NOT_FOUND/);
  }, 120_000);
  it('identifies a debug build by the APK hash the device reports and says it needs no retrace', async () => {
    const build = data(await call('run_gradle_task', { task: 'assembleDebug' }));
    const apk = data(await call('find_apk_path', { variant: 'debug' }));
    expect(data(await call('install_apk', { device_serial: phone.serial, apk_path: apk.path })).build_id).toBe(
      build.build_id,
    );
    // Only this crash is in the device's log from here on (the release crash was recorded already).
    await shell('logcat', '-c');
    data(await call('launch_app', { device_serial: phone.serial, package: PACKAGE }));
    await shell('input', 'tap', '540', '600');
    await shell('input', 'text', 'ada@example.com');
    await shell('input', 'tap', '540', '800');
    await shell('input', 'text', 'secret1');
    await shell('input', 'tap', '540', '1072');
    await sleep(1500);
    await shell('input', 'tap', '284', '2112');
    expect(await recordCrashesFromDeviceLog()).toBe(1);
    const plain = data(await call('get_crash_stack_trace', { package: PACKAGE }));
    // Not minified: the frames are the source's.
    expect(plain.stack).toContain('\tat com.example.notes.data.NoteStore.requireOpen(NoteStore.kt:58)');
    const refused = errorText(await call('get_crash_stack_trace', { package: PACKAGE, retrace: true }));
    expect(refused).toMatch(/MAPPING_NOT_FOUND/);
    expect(refused).toContain(`written by build ${build.build_id} (debug), which recorded no mapping file`);
    // The device was asked, by a quoted path.
    const hashed = (phone.android as SimulatedAndroidHandle).commandLog.filter((c) => c.argv[0] === 'sha256sum');
    expect(hashed.length).toBeGreaterThanOrEqual(1);
    expect(hashed[0]!.commandLine).toMatch(/^sha256sum '\/data\/app\/[^']+\/base\.apk'/);
  }, 120_000);
  it('the logcat worker records a crash by itself, with the stored log lines around it', async () => {
    // The worker reads the device's buffers from their start: leave only what happens from here on in them.
    await shell('logcat', '-c');
    data(await call('start_logcat', { device_serial: phone.serial }));
    try {
      const before = data(await call('get_crash_logs', {})).groups as { crashes: number }[];
      const countBefore = before.reduce((n, g) => n + g.crashes, 0);
      data(await call('launch_app', { device_serial: phone.serial, package: PACKAGE }));
      await shell('input', 'tap', '540', '600');
      await shell('input', 'text', 'ada@example.com');
      await shell('input', 'tap', '540', '800');
      await shell('input', 'text', 'secret1');
      await shell('input', 'tap', '540', '1072');
      await sleep(1500);
      await shell('input', 'tap', '284', '2112');
      let countAfter = countBefore;
      for (let i = 0; i < 40 && countAfter === countBefore; i++) {
        await sleep(500);
        const groups = data(await call('get_crash_logs', {})).groups as { crashes: number }[];
        countAfter = groups.reduce((n, g) => n + g.crashes, 0);
      }
      expect(countAfter).toBe(countBefore + 1);
      const newest = data(await call('get_crash_stack_trace', { package: PACKAGE }));
      expect(newest.title).toBe('java.lang.IllegalStateException: Note store is not initialised');
      expect((newest.log_context as string[]).some((l) => l.includes('Note store accessed before init'))).toBe(true);
    } finally {
      data(await call('stop_logcat', { device_serial: phone.serial }));
    }
  }, 120_000);
});
