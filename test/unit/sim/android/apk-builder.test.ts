import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildTestApk } from '../../../support/apk-builder.js';
import { readApkManifest } from '../../../../src/android/apk-manifest.js';

describe('buildTestApk', () => {
  it('builds a signed APK whose manifest reads back', async () => {
    const apk = await buildTestApk({
      packageName: 'com.example.built',
      versionCode: 7,
      versionName: '2.1',
      activities: ['.MainActivity', 'com.example.built.DetailActivity'],
      permissions: ['android.permission.CAMERA'],
      label: 'Built <&> "app"',
    });
    const bytes = readFileSync(apk.path);
    expect(apk.size).toBe(bytes.length);
    expect(apk.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from('META-INF/'))).toBe(true);

    const manifest = await readApkManifest(apk.path);
    expect(manifest).toMatchObject({
      packageName: 'com.example.built',
      versionCode: 7,
      versionName: '2.1',
      launchableActivity: 'com.example.built.MainActivity',
      activities: ['com.example.built.MainActivity', 'com.example.built.DetailActivity'],
      permissions: ['android.permission.CAMERA'],
      label: 'Built <&> "app"',
      targetSdk: 34,
    });
  });
});
