/**
 * The simulated Android behind the simulated transport, driven by the real adb binary: the commands
 * tools send arrive through adb's own quoting and services (shell_v2, exec, sync, streamed install).
 */
import sharp from 'sharp';
import { startAdbServer, type TestAdbServer } from '../../../support/adb-server.js';
import { buildTestApk } from '../../../support/apk-builder.js';
import { killTrackedProcesses } from '../../../support/process-tracker.js';
import { startSimOnAdb } from '../../../support/sim-device.js';
import type { RunningSimulatedDevice } from '../../../../src/sim/start-simulated-device.js';
import {
  createSimulatedAndroid,
  type SimulatedAndroidHandle,
} from '../../../../src/sim/android/create-simulated-android.js';

describe('simulated Android through adb', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;
  let android: SimulatedAndroidHandle;

  beforeAll(async () => {
    adb = await startAdbServer();
    android = createSimulatedAndroid({ backgroundLogRate: 0, seed: 3 });
    device = await startSimOnAdb(adb, { android });
  });

  afterAll(async () => {
    await device?.stop();
    android?.dispose();
    await adb?.stop();
    killTrackedProcesses();
  });

  const run = (args: string[], input?: Buffer) =>
    adb.adb(['-s', device.serial, ...args], input ? { input } : undefined);

  it('shows the banner model and answers getprop with exit codes', async () => {
    const line = (await adb.adb(['devices', '-l'])).stdout.split('\n').find((l) => l.startsWith(device.serial));
    expect(line).toContain('model:Pixel_7');
    expect(await run(['shell', 'getprop', 'ro.build.version.sdk'])).toMatchObject({ stdout: '34\n', exitCode: 0 });
    expect((await run(['shell', 'pidof', 'com.example.nothing'])).exitCode).toBe(1);
  });

  it('runs what adb sends through the device shell, quoting included', async () => {
    const before = android.commandLog.length;
    expect((await run(['shell', "echo 'a;b'"])).stdout).toBe('a;b\n');
    expect((await run(['shell', 'echo a; id -u'])).stdout).toBe('a\n2000\n');
    expect(android.commandLog.slice(before).map((c) => c.argv)).toEqual([
      ['echo', 'a;b'],
      ['echo', 'a'],
      ['id', '-u'],
    ]);
  });

  it('installs with `adb install` (streamed into cmd package) and launches the app', async () => {
    const apk = await buildTestApk({
      packageName: 'com.example.adbinstalled',
      versionCode: 5,
      activities: ['.MainActivity'],
    });
    const install = await run(['install', '-r', apk.path]);
    expect(install.stdout).toContain('Success');
    expect(
      android.commandLog.some(
        (c) => c.argv[0] === 'cmd' && c.argv[1] === 'package' && c.argv[2] === 'install' && c.argv.includes('-S'),
      ),
    ).toBe(true);
    expect((await run(['shell', 'pm', 'list', 'packages', '-3'])).stdout).toContain(
      'package:com.example.adbinstalled\n',
    );
    const start = await run(['shell', 'am', 'start', '-W', '-n', 'com.example.adbinstalled/.MainActivity']);
    expect(start.stdout).toContain('LaunchState: COLD');
    const pulled = await run([
      'exec-out',
      'cat',
      (await run(['shell', 'pm', 'path', 'com.example.adbinstalled'])).stdout.trim().slice('package:'.length),
    ]);
    expect(pulled.stdoutBuffer.length).toBe(apk.size);
  });

  it('streams screenshots, UI dumps and logcat', async () => {
    await run(['shell', 'monkey', '-p', 'com.example.notes', '-c', 'android.intent.category.LAUNCHER', '1']);
    const png = await run(['exec-out', 'screencap', '-p']);
    expect(await sharp(png.stdoutBuffer).metadata()).toMatchObject({ width: 1080, height: 2400 });
    const dump = await run(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    expect(dump.stdout).toContain('resource-id="com.example.notes:id/sign_in"');
    expect((await run(['logcat', '-d', '-s', 'ActivityTaskManager'])).stdout).toMatch(
      /Displayed com\.example\.notes\/\.LoginActivity: \+\d+ms/,
    );
  });
});
