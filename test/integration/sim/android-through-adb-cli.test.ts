/**
 * The whole simulated device (transport + simulated Android) through the real adb CLI: what a
 * developer or a droidwright tool does with a phone, done with the simulator.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulatedAndroid } from '../../../src/sim/android/create-simulated-android.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { buildTestApk } from '../../support/apk-builder.js';
import { killTrackedProcesses } from '../../support/process-tracker.js';
import { sleep } from '../../support/wait.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { countingAndroid } from './counting-android.js';
import { openDeviceService } from './smart-socket.js';

describe('simulated Android through the adb CLI', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;
  let android: ReturnType<typeof countingAndroid<ReturnType<typeof createSimulatedAndroid>>>;
  const work = mkdtempSync(join(tmpdir(), 'droidwright-sim-android-'));
  const run = (args: string[], opts?: { input?: string | Buffer }) => adb.adb(['-s', device.serial, ...args], opts);

  beforeAll(async () => {
    adb = await startAdbServer();
    android = countingAndroid(createSimulatedAndroid({ seed: 3, backgroundLogRate: 20 }));
    device = await startSimOnAdb(adb, { android });
  });

  afterAll(async () => {
    await device?.stop();
    android?.dispose();
    await adb?.stop();
    killTrackedProcesses();
  });

  it('shows up in `adb devices -l` with its model and answers getprop', async () => {
    const { stdout } = await adb.adb(['devices', '-l']);
    expect(stdout).toMatch(new RegExp(`${device.serial.replace(/\./g, '\\.')}\\s+device .*model:Pixel_7`));
    expect((await run(['shell', 'getprop', 'sys.boot_completed'])).stdout.trim()).toBe('1');
    expect((await run(['shell', 'getprop', 'ro.product.model'])).stdout.trim()).toBe('Pixel 7');
  });

  it('reports exit codes the way a device shell does', async () => {
    expect((await run(['shell', 'false'])).exitCode).toBe(1);
    expect(await run(['shell', 'false; echo $?'])).toMatchObject({ stdout: '1\n', exitCode: 0 });
    expect((await run(['shell', 'exit 3'])).exitCode).toBe(3);
  });

  it('installs a real signed APK with `adb install` and uninstalls it', async () => {
    const apk = await buildTestApk({
      packageName: 'com.droidwright.simcli',
      activities: ['.MainActivity'],
      outDir: work,
    });
    const install = await run(['install', apk.path]);
    expect(install.stdout).toContain('Success');
    expect(install.exitCode).toBe(0);
    expect((await run(['shell', 'pm', 'list', 'packages', 'com.droidwright.simcli'])).stdout).toContain(
      'package:com.droidwright.simcli',
    );
    const uninstall = await run(['uninstall', 'com.droidwright.simcli']);
    expect(uninstall.stdout).toContain('Success');
    expect((await run(['shell', 'pm', 'list', 'packages', 'com.droidwright.simcli'])).stdout).not.toContain(
      'com.droidwright.simcli',
    );
  });

  it('pushes and pulls 10 MB byte-identical through the simulated file system', async () => {
    const data = Buffer.alloc(10 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4) data.writeUInt32LE((i * 2246822519) >>> 0, i);
    const local = join(work, 'ten.bin');
    writeFileSync(local, data);
    expect((await run(['push', local, '/sdcard/Download/ten.bin'])).exitCode).toBe(0);
    const back = join(work, 'ten-back.bin');
    expect((await run(['pull', '/sdcard/Download/ten.bin', back])).exitCode).toBe(0);
    const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(digest(readFileSync(back))).toBe(digest(data));
    expect((await run(['shell', 'ls', '-l', '/sdcard/Download/ten.bin'])).stdout).toContain(String(data.length));
  });

  it('takes a screenshot with exec-out that is a PNG of the display size', async () => {
    const png = (await run(['exec-out', 'screencap', '-p'])).stdoutBuffer;
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 2400]);
  });

  it('dumps logcat, and a followed logcat stops producing once the reader closes', async () => {
    const dump = await run(['logcat', '-d', '-t', '20']);
    expect(dump.exitCode).toBe(0);
    // `-t 20`: the last 20 entries, each in threadtime format (buffer headers aside).
    const entries = dump.stdout
      .split('\n')
      .filter((line) => /^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ [VDIWEF] /.test(line));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(20);

    // What `adb logcat` sends: a legacy shell stream that runs logcat until the host closes it.
    const stream = await openDeviceService(adb.port, device.serial, `shell:export ANDROID_LOG_TAGS="''"; exec logcat`);
    const first = await stream.readAtLeast(200);
    expect(first.toString()).toMatch(/^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ [VDIWEF] /m);
    expect(android.running).toBe(1);
    stream.close();
    const until = Date.now() + 5000;
    while (android.running > 0 && Date.now() < until) await sleep(20);
    expect(android.running).toBe(0);
  });
});
