/**
 * Device life cycle through the real adb server: emulator discovery and `adb emu`, several devices
 * on one server, and a device that stops and comes back on the same port.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { freeOddEmulatorPort } from '../../support/free-port.js';
import { killTrackedProcesses } from '../../support/process-tracker.js';
import { sleep } from '../../support/wait.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { startSimulatedDevice, type RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { runSimCommand } from '../../../src/sim/sim-command.js';
import { parseCommandArguments } from '../../../src/cli/command-line.js';
import { findCommandSpec } from '../../../src/cli/command-specs.js';
import { TinyAndroid } from './tiny-android.js';

// adb reads the console token from $HOME, the simulated emulator writes it there: keep both off the real home.
const home = mkdtempSync(join(tmpdir(), 'droidwright-sim-home-'));
process.env.HOME = home;

async function waitUntilGone(adb: TestAdbServer, serial: string, timeoutMs = 10000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await adb.devices()).has(serial)) {
    if (Date.now() > until) throw new Error(`${serial} is still listed`);
    await sleep(50);
  }
}

describe('emulator mode', () => {
  let adb: TestAdbServer | undefined;
  let device: RunningSimulatedDevice | undefined;

  afterAll(async () => {
    await device?.stop();
    await adb?.stop();
    killTrackedProcesses();
  });

  it('is discovered by an adb server started after it, answers the console and dies on `adb emu kill`', async () => {
    const port = await freeOddEmulatorPort();
    const android = new TinyAndroid();
    device = await startSimulatedDevice({ emulatorPort: port, android });
    expect(device).toMatchObject({ serial: `emulator-${port - 1}`, port, consolePort: port - 1 });
    expect(existsSync(join(home, '.emulator_console_auth_token'))).toBe(true);
    expect(readFileSync(join(home, '.emulator_console_auth_token'), 'utf8').length).toBeGreaterThan(0);

    adb = await startAdbServer();
    await adb.waitForDevice(device.serial);
    const serial = device.serial;
    expect(await adb.adb(['-s', serial, 'shell', 'echo', 'from-emulator'])).toMatchObject({
      stdout: 'from-emulator\n',
      exitCode: 0,
    });

    const avd = await adb.adb(['-s', serial, 'emu', 'avd', 'name']);
    expect(avd.stdout.split(/\r?\n/)[0]).toBe('tiny_avd');

    await adb.adb(['-s', serial, 'emu', 'kill']);
    await device.stopped;
    await waitUntilGone(adb, serial);
    expect(android.disposed).toBe(false); // the caller passed it in, the caller owns it
  });
});

describe('droidwright sim', () => {
  let adb: TestAdbServer | undefined;

  afterAll(async () => {
    await adb?.stop();
    killTrackedProcesses();
  });

  it('announces an emulator to a running adb server, reports its AVD and exits on `adb emu kill`', async () => {
    adb = await startAdbServer();
    const port = await freeOddEmulatorPort();
    const serial = `emulator-${port - 1}`;
    const printed: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => printed.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      const exit = runSimCommand(
        parseCommandArguments(findCommandSpec(['sim'])!, [
          '--emulator-port',
          String(port),
          '--avd',
          'Sim_Test_AVD',
          '--adb-port',
          String(adb.port),
        ]).input,
      );
      // The adb server started before the device, so only the device's own `host:emulator` notice can make it appear.
      await adb.waitForDevice(serial);
      expect(printed.join('')).toContain(`simulated device ${serial} is up`);
      expect(printed.join('')).toContain(`announced to the adb server on port ${adb.port}`);
      expect((await adb.adb(['-s', serial, 'emu', 'avd', 'name'])).stdout.split(/\r?\n/)[0]).toBe('Sim_Test_AVD');
      expect((await adb.adb(['-s', serial, 'shell', 'getprop', 'ro.product.model'])).stdout.trim()).toBe('Pixel 7');
      await adb.adb(['-s', serial, 'emu', 'kill']);
      expect(await exit).toBe(0);
      expect(printed.join('')).toContain('killed through its console');
    } finally {
      process.stdout.write = write;
    }
    await waitUntilGone(adb, serial);
  });
});

describe('TCP devices', () => {
  let adb: TestAdbServer;
  const devices: RunningSimulatedDevice[] = [];

  beforeAll(async () => {
    adb = await startAdbServer();
  });

  afterAll(async () => {
    for (const device of devices) await device.stop();
    await adb?.stop();
    killTrackedProcesses();
  });

  it('serves two devices on one adb server, each command reaching its own device', async () => {
    const first = new TinyAndroid('First Phone');
    const second = new TinyAndroid('Second Phone');
    devices.push(await startSimOnAdb(adb, { android: first }), await startSimOnAdb(adb, { android: second }));
    const [a, b] = devices;
    await Promise.all([
      adb.adb(['-s', a.serial, 'shell', 'echo', 'to-first']),
      adb.adb(['-s', b.serial, 'shell', 'echo', 'to-second']),
    ]);
    expect(first.received.map((r) => r.commandLine)).toEqual(['echo to-first']);
    expect(second.received.map((r) => r.commandLine)).toEqual(['echo to-second']);
    const { stdout } = await adb.adb(['devices', '-l']);
    expect(stdout).toContain('model:First_Phone');
    expect(stdout).toContain('model:Second_Phone');
  });

  it('comes back after a restart on the same port', async () => {
    const android = new TinyAndroid();
    const before = await startSimOnAdb(adb, { android });
    await before.stop();
    await before.stopped;
    // adb notices the dropped connection; the device must not stay listed as online.
    const until = Date.now() + 10000;
    while ((await adb.devices()).get(before.serial) === 'device' && Date.now() < until) await sleep(50);
    expect((await adb.devices()).get(before.serial)).not.toBe('device');

    const after = await startSimulatedDevice({ port: before.port, android });
    devices.push(after);
    expect(after.serial).toBe(before.serial);
    await adb.connect(after.serial);
    expect(await adb.adb(['-s', after.serial, 'shell', 'echo', 'again'])).toMatchObject({
      stdout: 'again\n',
      exitCode: 0,
    });
  });

  it('refuses to start on a port already in use, with the OS reason', async () => {
    await expect(startSimulatedDevice({ port: devices[0].port, android: new TinyAndroid() })).rejects.toThrow(
      /EADDRINUSE/,
    );
  });
});
