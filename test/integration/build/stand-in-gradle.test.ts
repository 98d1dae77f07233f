import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../support/free-port.js';
import { copyFixtureProject } from './fixture-project.js';

/*
 * The stand-in Gradle run as `./gradlew` is: debug and release APKs differ as AGP's do (debuggable flag,
 * debug key against the release key, or no signature), and install tasks exist only for signed variants
 * and fail as AGP's do without a device. Devices and installs through adb are covered end to end in
 * test/e2e/build/build-provenance.test.ts.
 */

let project: { root: string; cleanup(): void };

beforeAll(() => {
  project = copyFixtureProject('kts-flavors');
  const model = JSON.parse(readFileSync(join(project.root, 'stand-in.json'), 'utf8'));
  model.modules[':app'].variants.fullPlayStaging = {
    applicationId: 'com.example.flavors.staging',
    flavors: ['full', 'play'],
    buildType: 'staging',
    signed: false,
  };
  writeFileSync(join(project.root, 'stand-in.json'), JSON.stringify(model));
});
afterAll(() => project.cleanup());

function gradlew(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(join(project.root, 'gradlew'), args, {
    cwd: project.root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { code: run.status, out: run.stdout };
}

const apkDir = (...parts: string[]) => join(project.root, 'app', 'build', 'outputs', 'apk', ...parts);

function signer(apk: string): string | null {
  const run = spawnSync('apksigner', ['verify', '--print-certs', apk], { encoding: 'utf8' });
  return run.status === 0 ? (/certificate SHA-256 digest: (\w+)/.exec(run.stdout)?.[1] ?? null) : null;
}

describe('stand-in Gradle', () => {
  it('writes debug and release APKs that differ as real ones do', () => {
    const built = gradlew([
      ':app:assembleDemoPlayDebug',
      ':app:assembleFullPlayRelease',
      ':app:assembleFullPlayStaging',
    ]);
    expect(built.code).toBe(0);
    const debug = apkDir('demoPlay', 'debug', 'app-demo-play-debug.apk');
    const release = apkDir('fullPlay', 'release', 'app-full-play-release.apk');
    const unsigned = apkDir('fullPlay', 'staging', 'app-full-play-staging-unsigned.apk');
    expect(signer(debug)).toMatch(/^[0-9a-f]{64}$/);
    expect(signer(release)).toMatch(/^[0-9a-f]{64}$/);
    expect(signer(release)).not.toBe(signer(debug));
    expect(signer(unsigned)).toBeNull();
    const badging = (apk: string) => execFileSync('aapt', ['dump', 'badging', apk], { encoding: 'utf8' });
    expect(badging(debug)).toContain('application-debuggable');
    expect(badging(release)).not.toContain('application-debuggable');
  });

  it('has install tasks for signed variants only, and fails as AGP does with no device', async () => {
    const noServer = { ANDROID_ADB_SERVER_PORT: String(await freePort()) };
    const none = gradlew([':app:installDemoPlayDebug'], noServer);
    expect(none.code).toBe(1);
    expect(none.out).toContain("Execution failed for task ':app:installDemoPlayDebug'.");
    expect(none.out).toContain('> com.android.builder.testing.api.DeviceException: No connected devices!');
    const unsigned = gradlew([':app:installFullPlayStaging'], noServer);
    expect(unsigned.code).toBe(1);
    expect(unsigned.out).toContain("task 'installFullPlayStaging' not found in project ':app'");
  });
});
