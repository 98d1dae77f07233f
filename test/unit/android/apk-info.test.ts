import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readApkInfo } from '../../../src/android/apk-info.js';
import { buildTestApk } from '../../support/apk-builder.js';

describe('readApkInfo', () => {
  it('reads package, version, launcher, permissions, hash and size of a real APK', async () => {
    const apk = await buildTestApk({
      packageName: 'com.example.notes',
      versionCode: 7,
      versionName: '1.7',
      activities: ['.MainActivity', 'com.example.notes.Other'],
      permissions: ['android.permission.CAMERA'],
    });
    const info = await readApkInfo(apk.path);
    expect(info).toEqual({
      packageName: 'com.example.notes',
      versionCode: 7,
      versionName: '1.7',
      launchableActivity: 'com.example.notes.MainActivity',
      permissions: ['android.permission.CAMERA'],
      sha256: apk.sha256,
      size: apk.size,
    });
  });

  it('refuses files that are not APKs with a reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-apk-'));
    const bogus = join(dir, 'x.apk');
    writeFileSync(bogus, 'not a zip');
    await expect(readApkInfo(bogus)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(readApkInfo(join(dir, 'missing.apk'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readApkInfo(dir)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
