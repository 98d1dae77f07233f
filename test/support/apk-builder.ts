/**
 * Builds real, signed APKs for tests with the Debian Android tools (aapt + apksigner), so install paths run
 * against genuine binary manifests and v2 signatures rather than hand-made zips.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const FRAMEWORK_RES = '/usr/share/android-framework-res/framework-res.apk';

export interface BuildTestApkOptions {
  packageName: string;
  versionCode?: number;
  versionName?: string;
  /** Activity class names (".Main" or fully qualified); the first one gets the MAIN/LAUNCHER intent filter. */
  activities?: string[];
  /** uses-permission names, e.g. "android.permission.CAMERA". */
  permissions?: string[];
  label?: string;
  /** Where the signed APK is written; a fresh temp dir when omitted. */
  outDir?: string;
  minSdk?: number;
  targetSdk?: number;
}

export interface BuiltTestApk {
  path: string;
  sha256: string;
  size: number;
}

interface SigningKey {
  keyPath: string;
  certPath: string;
}

// One key per test process: generating RSA keys is the slow part and every APK may share it.
let signingKey: Promise<SigningKey> | undefined;

function testSigningKey(): Promise<SigningKey> {
  signingKey ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidwright-apk-key-'));
    const pem = join(dir, 'key.pem');
    const keyPath = join(dir, 'key.pk8');
    const certPath = join(dir, 'cert.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      pem,
      '-out',
      certPath,
      '-days',
      '3650',
      '-subj',
      '/CN=droidwright test key',
    ]);
    await run('openssl', [
      'pkcs8',
      '-topk8',
      '-inform',
      'PEM',
      '-outform',
      'DER',
      '-in',
      pem,
      '-out',
      keyPath,
      '-nocrypt',
    ]);
    return { keyPath, certPath };
  })();
  return signingKey;
}

function xmlAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function testApkManifestXml(opts: BuildTestApkOptions): string {
  const activities = opts.activities ?? ['.MainActivity'];
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<manifest xmlns:android="http://schemas.android.com/apk/res/android"',
    `    package="${xmlAttr(opts.packageName)}"`,
    `    android:versionCode="${opts.versionCode ?? 1}"`,
    `    android:versionName="${xmlAttr(opts.versionName ?? '1.0')}">`,
    `  <uses-sdk android:minSdkVersion="${opts.minSdk ?? 21}" android:targetSdkVersion="${opts.targetSdk ?? 34}"/>`,
    ...(opts.permissions ?? []).map((p) => `  <uses-permission android:name="${xmlAttr(p)}"/>`),
    `  <application android:label="${xmlAttr(opts.label ?? opts.packageName)}">`,
  ];
  activities.forEach((activity, i) => {
    if (i === 0) {
      lines.push(
        `    <activity android:name="${xmlAttr(activity)}" android:exported="true">`,
        '      <intent-filter>',
        '        <action android:name="android.intent.action.MAIN"/>',
        '        <category android:name="android.intent.category.LAUNCHER"/>',
        '      </intent-filter>',
        '    </activity>',
      );
    } else {
      lines.push(`    <activity android:name="${xmlAttr(activity)}" android:exported="false"/>`);
    }
  });
  lines.push('  </application>', '</manifest>', '');
  return lines.join('\n');
}

export async function buildTestApk(opts: BuildTestApkOptions): Promise<BuiltTestApk> {
  const work = await mkdtemp(join(tmpdir(), 'droidwright-apk-'));
  const outDir = opts.outDir ?? work;
  const manifest = join(work, 'AndroidManifest.xml');
  const unsigned = join(work, 'unsigned.apk');
  const signed = join(outDir, `${opts.packageName}-${opts.versionCode ?? 1}.apk`);
  await writeFile(manifest, testApkManifestXml(opts));
  await run('aapt', ['package', '-f', '-M', manifest, '-I', FRAMEWORK_RES, '-F', unsigned]);
  const key = await testSigningKey();
  await run('apksigner', [
    'sign',
    '--key',
    key.keyPath,
    '--cert',
    key.certPath,
    '--v4-signing-enabled',
    'false',
    '--out',
    signed,
    unsigned,
  ]);
  const bytes = await readFile(signed);
  return { path: signed, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}
