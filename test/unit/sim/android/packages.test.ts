import { readFileSync } from 'node:fs';
import { buildTestApk, type BuiltTestApk } from '../../../support/apk-builder.js';
import { parsePackageDump, parsePmPath } from '../../../../src/android/parsers/package-dump.js';
import { newDevice, run } from './shell-io.js';
import type { SimulatedAndroidHandle } from '../../../../src/sim/android/create-simulated-android.js';

describe('package manager', () => {
  let v1: BuiltTestApk;
  let v2: BuiltTestApk;
  let android: SimulatedAndroidHandle;
  beforeAll(async () => {
    [v1, v2] = await Promise.all([
      buildTestApk({
        packageName: 'com.example.built',
        versionCode: 1,
        versionName: '1.0',
        activities: ['.MainActivity', '.Second'],
        permissions: ['android.permission.CAMERA', 'android.permission.INTERNET'],
        label: 'Built',
      }),
      buildTestApk({
        packageName: 'com.example.built',
        versionCode: 2,
        versionName: '2.0',
        activities: ['.MainActivity'],
        permissions: ['android.permission.CAMERA'],
      }),
    ]);
  });
  beforeEach(() => {
    android = newDevice();
  });
  afterEach(() => android.dispose());

  const push = (apk: BuiltTestApk, path = '/data/local/tmp/app.apk') =>
    android.fs.writeFile(path, readFileSync(apk.path), 0o644, 0);

  it('lists packages with -3, -s, -f, -U and a filter', async () => {
    expect((await run(android, 'pm list packages -3')).stdout).toBe(
      'package:com.example.notes\npackage:com.example.weather\n',
    );
    const system = (await run(android, 'pm list packages -s')).stdout;
    expect(system).toContain('package:com.android.settings\n');
    expect(system).not.toContain('com.example.notes');
    expect((await run(android, 'pm list packages -f notes')).stdout).toMatch(
      /^package:\/data\/app\/~~[\w-]{22}==\/com\.example\.notes-[\w-]{22}==\/base\.apk=com\.example\.notes\n$/,
    );
    expect((await run(android, 'pm list packages -U weather')).stdout).toMatch(
      /^package:com\.example\.weather uid:10\d{3}\n$/,
    );
    const path = await run(android, 'pm path com.example.notes');
    expect(parsePmPath(path.stdout)).toHaveLength(1);
    const missing = await run(android, 'pm path com.nope');
    expect([missing.code, missing.stdout]).toEqual([1, '']);
  });

  it('installs a real APK from a device path and launches it', async () => {
    push(v1);
    const r = await run(android, 'pm install -r -t /data/local/tmp/app.apk');
    expect([r.code, r.stdout]).toEqual([0, 'Success\n']);
    expect((await run(android, 'pm list packages -3 built')).stdout).toBe('package:com.example.built\n');
    const apkPath = parsePmPath((await run(android, 'pm path com.example.built')).stdout)[0];
    expect(android.fs.readFile(apkPath)?.equals(readFileSync(v1.path))).toBe(true);
    const dump = parsePackageDump(
      (await run(android, 'dumpsys package com.example.built')).stdout,
      'com.example.built',
    );
    expect(dump).toMatchObject({
      versionCode: 1,
      versionName: '1.0',
      targetSdk: 34,
      requestedPermissions: ['android.permission.CAMERA', 'android.permission.INTERNET'],
    });
    expect(dump!.permissions).toEqual(
      expect.arrayContaining([
        { name: 'android.permission.INTERNET', granted: true, runtime: false },
        { name: 'android.permission.CAMERA', granted: false, runtime: true },
      ]),
    );
    const start = await run(android, 'am start -W -n com.example.built/.MainActivity');
    expect(start.stdout).toContain('LaunchState: COLD');
    expect((await run(android, 'uiautomator dump /dev/tty')).stdout).toContain(
      'text="Built" resource-id="" class="android.widget.TextView" package="com.example.built"',
    );
  });

  it('installs from stdin with cmd package install -S, as adb install streams it', async () => {
    const bytes = readFileSync(v1.path);
    const half = Math.floor(bytes.length / 2);
    const r = await run(android, `cmd package 'install' -S ${bytes.length}`, [
      bytes.subarray(0, half),
      bytes.subarray(half),
    ]);
    expect([r.code, r.stdout]).toEqual([0, 'Success\n']);
    expect(android.commandLog.at(-1)!.argv).toEqual(['cmd', 'package', 'install', '-S', String(bytes.length)]);
    expect(android.state.packages.get('com.example.built')?.versionName).toBe('1.0');
  });

  it('refuses garbage, downgrades and missing files with the real messages', async () => {
    const junk = Buffer.from('not an apk at all');
    const bad = await run(android, `cmd package install -S ${junk.length}`, [junk]);
    expect(bad.stdout).toMatch(/^Failure \[INSTALL_PARSE_FAILED_NOT_APK: /);
    expect(bad.code).toBe(1);
    push(v2);
    await run(android, 'pm install /data/local/tmp/app.apk');
    push(v1);
    const down = await run(android, 'pm install /data/local/tmp/app.apk');
    expect(down.stdout).toBe(
      'Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 1 is older than current 2]\n',
    );
    expect((await run(android, 'pm install -d /data/local/tmp/app.apk')).stdout).toBe('Success\n');
    const missing = await run(android, 'pm install /data/local/tmp/none.apk');
    expect(missing.stderr).toContain('Error: Unable to open file: /data/local/tmp/none.apk');
    expect(missing.code).toBe(255);
  });

  it('updating a running app kills it', async () => {
    push(v1);
    await run(android, 'pm install /data/local/tmp/app.apk');
    await run(android, 'monkey -p com.example.built -c android.intent.category.LAUNCHER 1');
    expect((await run(android, 'pidof com.example.built')).code).toBe(0);
    push(v2);
    expect((await run(android, 'pm install -r /data/local/tmp/app.apk')).stdout).toBe('Success\n');
    expect((await run(android, 'pidof com.example.built')).code).toBe(1);
    expect(android.state.packages.get('com.example.built')?.activities).toEqual(['com.example.built.MainActivity']);
  });

  it('grants only requested runtime permissions, with the framework errors otherwise', async () => {
    expect((await run(android, 'pm grant com.example.notes android.permission.CAMERA')).code).toBe(0);
    expect(android.state.packages.get('com.example.notes')?.grantedPermissions.has('android.permission.CAMERA')).toBe(
      true,
    );
    const notRequested = await run(android, 'pm grant com.example.notes android.permission.RECORD_AUDIO');
    expect(notRequested.code).toBe(255);
    expect(notRequested.stderr).toMatch(
      /^Exception occurred while executing 'grant':\njava\.lang\.SecurityException: Package com\.example\.notes has not requested permission android\.permission\.RECORD_AUDIO\n\tat /,
    );
    expect((await run(android, 'pm grant com.example.notes android.permission.INTERNET')).stderr).toContain(
      'is not a changeable permission type',
    );
    expect((await run(android, 'pm grant com.nope android.permission.CAMERA')).stderr).toContain(
      'java.lang.IllegalArgumentException: Unknown package: com.nope',
    );
    expect((await run(android, 'pm grant com.example.notes android.permission.BOGUS')).stderr).toContain(
      'Unknown permission: android.permission.BOGUS',
    );
    expect((await run(android, 'pm revoke com.example.notes android.permission.CAMERA')).code).toBe(0);
    expect(android.state.packages.get('com.example.notes')?.grantedPermissions.size).toBe(0);
    push(v1);
    await run(android, 'pm install -g /data/local/tmp/app.apk');
    expect([...android.state.packages.get('com.example.built')!.grantedPermissions]).toEqual([
      'android.permission.CAMERA',
    ]);
  });

  it('clears data and uninstalls', async () => {
    await run(android, 'monkey -p com.example.notes -c android.intent.category.LAUNCHER 1');
    expect((await run(android, 'pm clear com.example.notes')).stdout).toBe('Success\n');
    expect((await run(android, 'pidof com.example.notes')).code).toBe(1);
    expect((await run(android, 'pm clear com.nope')).stdout).toBe('Failed\n');
    expect((await run(android, 'pm uninstall com.example.weather')).stdout).toBe('Success\n');
    expect((await run(android, 'pm list packages weather')).stdout).toBe('');
    expect((await run(android, 'pm uninstall com.example.weather')).stdout).toBe(
      'Failure [DELETE_FAILED_INTERNAL_ERROR]\n',
    );
    expect((await run(android, 'pm uninstall com.android.settings')).stdout).toBe(
      'Failure [DELETE_FAILED_INTERNAL_ERROR]\n',
    );
  });

  it('lists features and resolves the launcher activity', async () => {
    expect((await run(android, 'pm list features')).stdout).toContain('feature:android.hardware.touchscreen\n');
    expect(
      (await run(android, 'cmd package resolve-activity --brief -c android.intent.category.LAUNCHER com.example.notes'))
        .stdout,
    ).toBe(
      'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\ncom.example.notes/.LoginActivity\n',
    );
  });
});
