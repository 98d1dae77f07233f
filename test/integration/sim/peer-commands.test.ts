import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { startSimOnAdb } from '../../support/sim-device.js';

/*
 * The commands other Android tools run that the simulator lacked, through the real adb CLI: the app
 * listing (cmd package query-activities), orientation through the settings provider (content), mv, and
 * /proc/meminfo, in the shapes a phone prints them.
 */

describe('commands peers run', () => {
  let adb: TestAdbServer;
  let phone: RunningSimulatedDevice;
  const shell = async (...args: string[]) => (await adb.adb(['-s', phone.serial, 'shell', ...args])).stdout;

  beforeAll(async () => {
    adb = await startAdbServer();
    phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, scenario: 'notes-app' } });
  });
  afterAll(async () => {
    await phone?.stop();
    await adb?.stop();
  });

  it('lists launcher activities with cmd package query-activities', async () => {
    const out = await shell(
      'cmd',
      'package',
      'query-activities',
      '-a',
      'android.intent.action.MAIN',
      '-c',
      'android.intent.category.LAUNCHER',
    );
    expect(out).toMatch(/^\d+ activities found:\n {2}Activity #0:/);
    const packages = out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('packageName='));
    expect(packages).toContain('packageName=com.example.notes');
    const brief = await shell(
      'cmd',
      'package',
      'query-activities',
      '--brief',
      '-c',
      'android.intent.category.LAUNCHER',
    );
    expect(brief).toContain('com.example.notes/com.example.notes.LoginActivity');
    expect(await shell('cmd', 'package', 'query-activities', '-a', 'android.intent.action.SEND')).toBe(
      'No activities found\n',
    );
  });

  it('sets and reads orientation through content on the settings provider', async () => {
    await shell('content insert --uri content://settings/system --bind name:s:user_rotation --bind value:i:1');
    await shell('settings put system accelerometer_rotation 0');
    expect((await shell('settings get system user_rotation')).trim()).toBe('1');
    expect(
      await shell(
        `content query --uri content://settings/system --projection name:value --where "name='user_rotation'"`,
      ),
    ).toBe('Row: 0 name=user_rotation, value=1\n');
    expect((await shell('wm', 'size')).length).toBeGreaterThan(0);
    const refused = await adb.adb(['-s', phone.serial, 'shell', 'content query --uri content://contacts/people']);
    expect(refused.stdout + refused.stderr).toMatch(/Unknown URI/);
  });

  it('moves files with mv and refuses what toybox refuses', async () => {
    await shell('echo clip > /data/local/tmp/a.txt');
    await shell('mv /data/local/tmp/a.txt /data/local/tmp/b.txt');
    expect(await shell('cat /data/local/tmp/b.txt')).toBe('clip\n');
    expect(await shell('ls /data/local/tmp/a.txt 2>&1')).toMatch(/No such file/);
    expect(await shell('mv /data/local/tmp/missing /data/local/tmp/x 2>&1')).toMatch(/No such file or directory/);
  });

  it('reads /proc/meminfo', async () => {
    const meminfo = await shell('cat /proc/meminfo');
    expect(meminfo).toMatch(/^MemTotal: +\d+ kB\nMemFree: +\d+ kB\nMemAvailable: +\d+ kB\n/);
  });
});
