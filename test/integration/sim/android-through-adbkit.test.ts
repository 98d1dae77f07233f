/**
 * The whole simulated device through adbkit 3.3.9, the client library droidwright's device tools use.
 * Known adbkit quirks the simulator does not paper over: getSerialNo() answers "unknown",
 * listDevicesWithPaths() misreads TCP serials, push() wants a path or a byte stream (not a Buffer).
 */
import adbkit from '@devicefarmer/adbkit';
import type { Client } from '@devicefarmer/adbkit';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { buildTestApk } from '../../support/apk-builder.js';
import { killTrackedProcesses } from '../../support/process-tracker.js';
import { startSimOnAdb } from '../../support/sim-device.js';

interface LogcatEntry {
  date: Date;
  pid: number;
  tid: number;
  priority: number;
  tag: string;
  message: string;
}

interface LogcatReader {
  on(event: 'entry', listener: (entry: LogcatEntry) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  end(): void;
}

// adbkit is CommonJS: under ESM its API hangs off the default export.
const { Adb } = adbkit as unknown as {
  Adb: {
    createClient(options: { port: number }): Client;
    util: { readAll(stream: NodeJS.ReadableStream): Promise<Buffer> };
  };
};

describe('simulated Android through adbkit', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;
  let client: Client;
  const work = mkdtempSync(join(tmpdir(), 'droidwright-sim-adbkit-android-'));
  const deviceClient = () => client.getDevice(device.serial);

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startSimOnAdb(adb, { androidOptions: { seed: 5, backgroundLogRate: 50 } });
    client = Adb.createClient({ port: adb.port });
  });

  afterAll(async () => {
    await device?.stop();
    await adb?.stop();
    killTrackedProcesses();
  });

  it('lists the device and reads its properties', async () => {
    expect(await client.listDevices()).toContainEqual(expect.objectContaining({ id: device.serial, type: 'device' }));
    const properties = await deviceClient().getProperties();
    expect(properties['ro.product.model']).toBe('Pixel 7');
    expect(properties['sys.boot_completed']).toBe('1');
  });

  it('runs a shell command', async () => {
    const output = await Adb.util.readAll(await deviceClient().shell('echo hello from adbkit'));
    expect(output.toString()).toBe('hello from adbkit\n');
  });

  it('installs a real APK (sync push + pm install), then sees it in packages', async () => {
    const apk = await buildTestApk({
      packageName: 'com.droidwright.simkit',
      activities: ['.MainActivity'],
      outDir: work,
    });
    expect(await deviceClient().isInstalled('com.droidwright.simkit')).toBe(false);
    expect(await deviceClient().install(apk.path)).toBe(true);
    expect(await deviceClient().isInstalled('com.droidwright.simkit')).toBe(true);
    expect(await deviceClient().getPackages()).toContain('com.droidwright.simkit');
    // adbkit removes its staging copy afterwards.
    const staged = await Adb.util.readAll(await deviceClient().shell('ls /data/local/tmp'));
    expect(staged.toString()).not.toContain('.apk');
  });

  it('takes a screenshot that decodes as a PNG of the display size', async () => {
    const png = await Adb.util.readAll(await deviceClient().screencap());
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 2400]);
  });

  it('streams binary logcat entries that parse', async () => {
    const reader = (await deviceClient().openLogcat()) as unknown as LogcatReader;
    const entries: LogcatEntry[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${entries.length} logcat entries in 10 s`)), 10000);
        reader.on('error', reject);
        reader.on('entry', (entry) => {
          entries.push(entry);
          if (entries.length >= 5) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    } finally {
      reader.end();
    }
    for (const entry of entries) {
      expect(entry.date).toBeInstanceOf(Date);
      expect(Number.isNaN(entry.date.getTime())).toBe(false);
      expect(entry.pid).toBeGreaterThan(0);
      expect(entry.priority).toBeGreaterThanOrEqual(4); // openLogcat asks for *:I
      expect(entry.tag.length).toBeGreaterThan(0);
      expect(typeof entry.message).toBe('string');
    }
  });
});
