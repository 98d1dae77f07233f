/**
 * The transport through adbkit 3.3.9, which speaks differently from the adb CLI: legacy `shell:`
 * streams, sync v1 without QUIT, push from streams. The tiny Android keeps these independent of the simulated OS.
 */
import adbkit from '@devicefarmer/adbkit';
import type { Client } from '@devicefarmer/adbkit';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { killTrackedProcesses } from '../../support/process-tracker.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { TinyAndroid } from './tiny-android.js';

// adbkit is CommonJS: under ESM its API hangs off the default export.
const { Adb } = adbkit as unknown as {
  Adb: {
    createClient(options: { port: number }): Client;
    util: { readAll(stream: NodeJS.ReadableStream): Promise<Buffer> };
  };
};

function finished(transfer: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve, reject) => {
    transfer.on('end', resolve);
    transfer.on('error', reject);
  });
}

describe('simulated device through adbkit', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;
  let android: TinyAndroid;
  let client: Client;
  const work = mkdtempSync(join(tmpdir(), 'droidwright-sim-adbkit-'));

  beforeAll(async () => {
    adb = await startAdbServer();
    android = new TinyAndroid();
    device = await startSimOnAdb(adb, { android });
    client = Adb.createClient({ port: adb.port });
  });

  afterAll(async () => {
    await device?.stop();
    await adb?.stop();
    killTrackedProcesses();
  });

  it('lists the device', async () => {
    const devices = await client.listDevices();
    expect(devices).toContainEqual(expect.objectContaining({ id: device.serial, type: 'device' }));
  });

  it('runs shell commands over the legacy shell service', async () => {
    const output = await Adb.util.readAll(await client.getDevice(device.serial).shell('echo from adbkit'));
    expect(output.toString()).toBe('from adbkit\n');
    expect(android.received.at(-1)).toEqual({ commandLine: 'echo from adbkit', mode: 'legacy' });
  });

  it('pushes from a stream and from a path, and pulls back the same bytes (sync v1, no QUIT)', async () => {
    const deviceClient = client.getDevice(device.serial);
    const data = Buffer.alloc(300 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
    // A byte stream: adbkit cuts those into 64 KiB DATA chunks, but sends object-mode chunks whole, which a device refuses.
    await finished(
      await deviceClient.push(Readable.from([data], { objectMode: false }), '/data/local/tmp/from-stream.bin'),
    );
    expect(android.fs.readFile('/data/local/tmp/from-stream.bin')?.equals(data)).toBe(true);

    const local = join(work, 'from-path.txt');
    writeFileSync(local, 'pushed from a path');
    await finished(await deviceClient.push(local, '/sdcard/Download/from-path.txt'));
    expect(android.fs.readFile('/sdcard/Download/from-path.txt')?.toString()).toBe('pushed from a path');

    const pulled = await Adb.util.readAll(await deviceClient.pull('/data/local/tmp/from-stream.bin'));
    expect(pulled.equals(data)).toBe(true);
  });

  it('stats and lists through sync', async () => {
    const deviceClient = client.getDevice(device.serial);
    const stat = await deviceClient.stat('/sdcard/Download/from-path.txt');
    expect(stat.size).toBe(18);
    expect(stat.isFile()).toBe(true);
    const names = (await deviceClient.readdir('/sdcard/Download')).map((entry: { name: string }) => entry.name);
    expect(names).toEqual(['from-path.txt']);
  });

  it('reports a missing file on pull as an error', async () => {
    const transfer = await client.getDevice(device.serial).pull('/sdcard/none.bin');
    // adbkit reports it as an 'error' event on the transfer; readAll alone would just see the stream end.
    const failure = new Promise((_, reject) => transfer.on('error', reject));
    await expect(failure).rejects.toThrow(/No such file or directory/);
  });

  it('writes a pulled file to disk intact', async () => {
    const target = join(work, 'pulled.bin');
    const transfer = await client.getDevice(device.serial).pull('/data/local/tmp/from-stream.bin');
    await pipeline(transfer, createWriteStream(target));
    expect(readFileSync(target).length).toBe(300 * 1024);
  });

  it('refuses an oversized DATA chunk the way adbd does, and stays usable', async () => {
    const deviceClient = client.getDevice(device.serial);
    const transfer = await deviceClient.push(Readable.from([Buffer.alloc(100 * 1024)]), '/sdcard/object-mode.bin');
    await expect(finished(transfer)).rejects.toThrow(/exceeds 65536/);
    expect(android.fs.readFile('/sdcard/object-mode.bin')).toBeNull();
    const output = await Adb.util.readAll(await deviceClient.shell('echo still here'));
    expect(output.toString()).toBe('still here\n');
  });
});
