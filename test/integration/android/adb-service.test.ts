import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdbService } from '../../../src/android/adb-service.js';
import { AppInspector } from '../../../src/android/app-inspector.js';
import { sh } from '../../../src/android/device-command.js';
import { DeviceInspector } from '../../../src/android/device-inspector.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { androidContainer, commandCount, commandsRun } from './support.js';

describe('shared Android access against a simulated device behind a real adb server', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;
  let ctx: ReturnType<typeof androidContainer>;

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startSimOnAdb(adb);
    ctx = androidContainer({ home: mkdtempSync(join(tmpdir(), 'droidwright-test-android-')), adbPort: adb.port });
  });
  /**
   * Every adb server scans the emulator ports (5555–5585) of the whole machine, so an emulator-mode simulated device
   * another test file runs at the same time shows up here too (as `emulator-55xx`, often offline).
   */
  function withoutForeignEmulators<T extends { serial: string }>(list: T[]): T[] {
    return list.filter((d) => d.serial === device.serial || !d.serial.startsWith('emulator-'));
  }
  afterAll(async () => {
    ctx?.store.close();
    await device?.stop();
    await adb?.stop();
  });

  it('runs shell commands with their exit status and bounded output', async () => {
    const service = ctx.container.get(AdbService);
    expect(withoutForeignEmulators(await service.listDevices())).toEqual([{ serial: device.serial, state: 'device' }]);
    const ok = await service.shell(device.serial, sh`echo ${'hello world'}`);
    expect(ok).toMatchObject({ output: 'hello world\n', exitCode: 0, truncated: false });
    const failing = await service.shell(device.serial, sh`pidof ${'com.nothing.here'}`);
    expect(failing.exitCode).toBe(1);
    const big = await service.shell(device.serial, sh`getprop`, { maxOutputBytes: 100 });
    expect(big.truncated).toBe(true);
    expect(big.output.length).toBeLessThanOrEqual(100);
    expect(big.exitCode).toBe(0);
  });

  it('passes hostile values to the device as one literal argument', async () => {
    const service = ctx.container.get(AdbService);
    const evil = `a'; id; echo "$(id)" \`id\` && rm -rf / #\nnext`;
    const before = commandCount(device);
    const out = await service.shell(device.serial, sh`echo ${evil}`);
    expect(out.output).toBe(`${evil}\n`);
    expect(commandsRun(device, before)).toEqual([['echo', evil]]);
  });

  it('maps a vanished serial to DEVICE_NOT_FOUND', async () => {
    const service = ctx.container.get(AdbService);
    await expect(service.shell('emulator-5998', sh`true`)).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
  });

  it('lists and describes the device and records its arrival once', async () => {
    const inspector = ctx.container.get(DeviceInspector);
    const observer = {
      append: ctx.append,
      actor: { kind: 'agent' as const, session: 'sess-observer', client: 'jest', pid: process.pid },
    };
    const list = withoutForeignEmulators(await inspector.listDevices(observer));
    expect(list).toEqual([
      expect.objectContaining({
        serial: device.serial,
        state: 'device',
        kind: 'wireless',
        model: 'Pixel 7',
        apiLevel: 34,
        abi: 'arm64-v8a',
        avdName: null,
      }),
    ]);
    await inspector.listDevices(observer);
    const recorded = ctx.store.query({ types: ['device.*'] }).filter((e) => e.device === device.serial);
    expect(recorded.map((e) => e.type)).toEqual(['device.connected']);
    // The device arrived on its own: the system is the actor, the agent that looked is only the observer.
    expect(recorded[0]!.actor.kind).toBe('system');
    expect(recorded[0]!.data).toMatchObject({ observed_by: expect.stringContaining('jest#sess-obs') });
    const info = await inspector.deviceInfo(device.serial);
    expect(info.screen.physical).toEqual({ width: 1080, height: 2400 });
    expect(info.screen.density.physical).toBe(420);
    expect(info.battery?.percent).toEqual(expect.any(Number));
    expect(info.network).toEqual({ wifi: expect.any(Boolean), mobileData: expect.any(Boolean), airplaneMode: false });
  });

  it('reads an app: info, runtime state, memory and exit history', async () => {
    const apps = ctx.container.get(AppInspector);
    const info = await apps.appInfo(device.serial, 'com.example.notes');
    expect(info).toMatchObject({ versionCode: 14, versionName: '1.4.0', targetSdk: 34 });
    expect(info.apkPaths.length).toBeGreaterThan(0);
    expect(info.requestedPermissions).toContain('android.permission.CAMERA');
    await expect(apps.appInfo(device.serial, 'com.not.installed')).rejects.toMatchObject({ code: 'APP_NOT_INSTALLED' });
    const state = await apps.runtimeState(device.serial, 'com.example.notes');
    expect(state.installed).toBe(true);
    const exits = await apps.exitReasons(device.serial, 'com.example.notes', 20);
    expect(exits.supported).toBe(true);
  });
});
