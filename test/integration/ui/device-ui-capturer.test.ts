import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdbService } from '../../../src/android/adb-service.js';
import { sh } from '../../../src/android/device-command.js';
import { EventStore } from '../../../src/events/event-store.js';
import { identityOf } from '../../../src/kernel/process-identity.js';
import { DeviceUiCapturer, parseResumedActivity } from '../../../src/plugins/ui/services/device-ui-capturer.js';
import { UiCaptureLock } from '../../../src/plugins/ui/services/ui-capture-lock.js';
import { uiTables } from '../../../src/plugins/ui/ui-tables.js';
import type { SimulatedAndroidHandle } from '../../../src/sim/android/create-simulated-android.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { testCatalog } from '../../support/event-store-fixtures.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { androidContainer, commandCount, commandsRun } from '../android/support.js';

/*
 * The capturer against a simulated phone behind a real adb server and a real SQLite lock table: one exec-out
 * round trip per capture, the cross-process lock, and the device's own refusals.
 */

describe('DeviceUiCapturer', () => {
  const sim = () => (phone.android as SimulatedAndroidHandle).state;
  let adb: TestAdbServer;
  let phone: RunningSimulatedDevice;
  let home: string;
  let ctx: ReturnType<typeof androidContainer>;
  let store: EventStore;
  let capturer: DeviceUiCapturer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    adb = await startAdbServer();
    phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, scenario: 'notes-app' } });
    home = mkdtempSync(join(tmpdir(), 'dw-ui-capture-'));
    ctx = androidContainer({ home, adbPort: adb.port });
    store = EventStore.open({ path: join(home, 'ui.db'), catalog: testCatalog(), tables: uiTables });
    capturer = new DeviceUiCapturer(ctx.container.get(AdbService), () => store);
  });
  afterAll(async () => {
    for (const child of children) if (child.pid) process.kill(child.pid, 'SIGKILL');
    store?.close();
    ctx?.store.close();
    await phone?.stop();
    await adb?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('captures in one exec-out round trip, with the resumed activity, and keeps previous and latest', async () => {
    await ctx.container.get(AdbService).shell(phone.serial, sh`am start -W -n com.example.notes/.LoginActivity`);
    const before = commandCount(phone);
    const first = await capturer.capture(phone.serial);
    const ran = commandsRun(phone, before).map((argv) => argv[0]);
    expect(ran).toEqual(['uiautomator', 'dumpsys', 'grep']);
    expect(first.snapshot.nodes.length).toBeGreaterThan(3);
    expect(first.screenHash).toMatch(/^[0-9a-f]{16}$/);
    expect(first.activity).toMatch(/^com\.example\.notes\//);
    expect(capturer.latest(phone.serial)).toBe(first);
    expect(capturer.previous(phone.serial)).toBeNull();
    const second = await capturer.capture(phone.serial);
    expect(second.screenHash).toBe(first.screenHash);
    expect(capturer.previous(phone.serial)).toBe(first);
    expect(capturer.latest(phone.serial)).toBe(second);
  });

  it('waits for another live process holding the device, then says who within the deadline', async () => {
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(sleeper);
    const foreign = new UiCaptureLock(store, identityOf(sleeper.pid!));
    const held = foreign.tryAcquire(phone.serial);
    expect(held.acquired).toBe(true);
    const started = Date.now();
    await expect(capturer.capture(phone.serial, { deadlineMs: 800 })).rejects.toMatchObject({
      code: 'UI_BUSY',
      message: expect.stringContaining(`busy with another droidwright process (pid ${sleeper.pid})`),
    });
    expect(Date.now() - started).toBeLessThan(3000);
    // Released while we wait: the capture goes ahead.
    const waiting = capturer.capture(phone.serial, { deadlineMs: 10_000 });
    setTimeout(() => held.acquired && foreign.release(phone.serial, held.token), 300);
    await expect(waiting).resolves.toMatchObject({ deviceSerial: phone.serial });
  });

  it('takes over the row of a holder that died', async () => {
    const gone = spawn('true', { stdio: 'ignore' });
    const pid = gone.pid!;
    await new Promise((resolve) => gone.once('exit', resolve));
    const dead = new UiCaptureLock(store, { pid, startTime: '1' });
    expect(dead.tryAcquire(phone.serial).acquired).toBe(true);
    await expect(capturer.capture(phone.serial, { deadlineMs: 2000 })).resolves.toMatchObject({
      deviceSerial: phone.serial,
    });
  });

  it('fails at once with UI_BUSY when another UI Automator client is registered', async () => {
    sim().uiAutomator.setFault('already_registered', 1);
    const started = Date.now();
    await expect(capturer.capture(phone.serial)).rejects.toMatchObject({
      code: 'UI_BUSY',
      message: expect.stringContaining('already registered'),
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('retries while the device could not get idle, and gives up at the deadline', async () => {
    const automator = sim().uiAutomator;
    automator.setFault('idle_timeout', 2);
    const dumpsBefore = automator.dumps;
    await expect(capturer.capture(phone.serial)).resolves.toMatchObject({ deviceSerial: phone.serial });
    expect(automator.dumps - dumpsBefore).toBe(3);
    automator.setFault('idle_timeout');
    await expect(capturer.capture(phone.serial, { deadlineMs: 1200 })).rejects.toMatchObject({
      code: 'UI_CAPTURE_TIMEOUT',
      message: expect.stringContaining('could not get idle state'),
    });
    automator.setFault('hang');
    const started = Date.now();
    await expect(capturer.capture(phone.serial, { deadlineMs: 1500 })).rejects.toMatchObject({
      code: 'UI_CAPTURE_TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(4000);
    automator.setFault(null);
    // The lock was released on every failure.
    await expect(capturer.capture(phone.serial, { deadlineMs: 3000 })).resolves.toBeDefined();
  });

  it('reads the resumed activity from every dumpsys format', () => {
    expect(parseResumedActivity('    mResumedActivity: ActivityRecord{5f3 u0 com.a/.Main t7}')).toBe('com.a/.Main');
    expect(parseResumedActivity('  topResumedActivity=ActivityRecord{c1 u0 com.b/com.b.ui.Home t12}')).toBe(
      'com.b/com.b.ui.Home',
    );
    expect(parseResumedActivity('')).toBeNull();
  });
});
