import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { adbServerPort, type LocatedTool, locateAdb, locateEmulator } from '../../../src/android/sdk-locator.js';

function fakeTool(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}

describe('sdk locator', () => {
  const root = mkdtempSync(join(tmpdir(), 'dw-sdk-'));
  const home = join(root, 'home');
  const sdkA = join(root, 'sdk-a');
  const sdkB = join(root, 'sdk-b');
  const adbA = fakeTool(join(sdkA, 'platform-tools', 'adb'));
  const adbB = fakeTool(join(sdkB, 'platform-tools', 'adb'));
  const emuB = fakeTool(join(sdkB, 'emulator', 'emulator'));
  const onPath = fakeTool(join(root, 'bin', 'adb'));
  mkdirSync(home, { recursive: true });

  it('prefers settings, then ANDROID_HOME, then ANDROID_SDK_ROOT, then PATH', () => {
    const env = { ANDROID_HOME: sdkA, ANDROID_SDK_ROOT: sdkB, PATH: join(root, 'bin') };
    expect(locateAdb({ adbPath: adbB, env, home })).toEqual({ path: adbB, source: 'settings' });
    expect(locateAdb({ env, home })).toEqual({ path: adbA, source: 'ANDROID_HOME' });
    expect(locateAdb({ env: { ANDROID_SDK_ROOT: sdkB, PATH: join(root, 'bin') }, home })).toEqual({
      path: adbB,
      source: 'ANDROID_SDK_ROOT',
    });
    expect(locateAdb({ env: { PATH: join(root, 'bin') }, home })).toEqual({ path: onPath, source: 'PATH' });
  });

  it('never takes a tool from a relative PATH entry, a relative setting or the project', () => {
    const project = join(root, 'project');
    fakeTool(join(project, 'adb'));
    fakeTool(join(project, 'tools', 'adb'));
    const cwd = process.cwd();
    process.chdir(project);
    try {
      const nohome = join(root, 'nohome');
      // The machine may have an SDK in a known location; whatever is found is absolute and not the project's.
      const fromHost = (found: LocatedTool | null): boolean =>
        found === null || (isAbsolute(found.path) && !found.path.startsWith(`${project}/`));
      expect(fromHost(locateAdb({ env: { PATH: '.:tools' }, home: nohome }))).toBe(true);
      expect(fromHost(locateAdb({ adbPath: './adb', env: { PATH: '' }, home: nohome }))).toBe(true);
      expect(fromHost(locateAdb({ env: { ANDROID_HOME: '.', PATH: '' }, home: nohome }))).toBe(true);
      expect(fromHost(locateAdb({ env: { PATH: join(project, 'tools') }, home: nohome, projectRoot: project }))).toBe(
        true,
      );
      expect(
        locateAdb({
          env: { PATH: `${join(project, 'tools')}:${join(root, 'bin')}` },
          home: nohome,
          projectRoot: project,
        }),
      ).toEqual({ path: onPath, source: 'PATH' });
    } finally {
      process.chdir(cwd);
    }
  });

  it('finds the SDK under the home directory as a last resort', () => {
    const homeSdkAdb = fakeTool(join(home, 'Android', 'Sdk', 'platform-tools', 'adb'));
    expect(locateAdb({ env: { PATH: '' }, home })).toEqual({ path: homeSdkAdb, source: 'known-location' });
  });

  it('finds the emulator in an SDK root, never on PATH', () => {
    expect(locateEmulator({ env: { ANDROID_SDK_ROOT: sdkB }, home })?.path).toBe(emuB);
    expect(locateEmulator({ env: { ANDROID_HOME: sdkA }, home: join(root, 'nohome') })).toBeNull();
    // An adb configured inside an SDK names that SDK.
    expect(locateEmulator({ adbPath: adbB, env: {}, home: join(root, 'nohome') })?.path).toBe(emuB);
  });

  it('respects ANDROID_ADB_SERVER_PORT', () => {
    expect(adbServerPort({})).toBe(5037);
    expect(adbServerPort({ ANDROID_ADB_SERVER_PORT: '15037' })).toBe(15037);
    expect(adbServerPort({ ANDROID_ADB_SERVER_PORT: 'abc' })).toBe(5037);
    expect(adbServerPort({ ANDROID_ADB_SERVER_PORT: '70000' })).toBe(5037);
  });
});
