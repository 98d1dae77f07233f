import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { avdHome, listAvds, parseIni } from '../../../src/android/avd-catalog.js';

describe('AVD catalog', () => {
  it('finds the AVD home the way the emulator does', () => {
    expect(avdHome({ ANDROID_AVD_HOME: '/a/avd', ANDROID_USER_HOME: '/u', HOME: '/h' })).toBe('/a/avd');
    expect(avdHome({ ANDROID_USER_HOME: '/u', HOME: '/h' })).toBe('/u/avd');
    expect(avdHome({ ANDROID_SDK_HOME: '/s', HOME: '/h' })).toBe('/s/.android/avd');
    expect(avdHome({ HOME: '/h' })).toBe('/h/.android/avd');
  });

  it('lists definitions with their config, tolerating broken ones and skipping odd names', () => {
    const home = mkdtempSync(join(tmpdir(), 'dw-avd-'));
    const avd = join(home, '.android', 'avd');
    mkdirSync(join(avd, 'Pixel.avd'), { recursive: true });
    writeFileSync(join(avd, 'Pixel.ini'), 'path.rel=avd/Pixel.avd\ntarget=android-33\n');
    writeFileSync(join(avd, 'Pixel.avd', 'config.ini'), 'abi.type = arm64-v8a\nhw.device.name=pixel\n# comment\n');
    writeFileSync(join(avd, 'Broken.ini'), 'garbage');
    writeFileSync(join(avd, 'bad name;rm.ini'), 'target=android-30\n');
    expect(listAvds({ HOME: home })).toEqual([
      {
        name: 'Broken',
        path: join(avd, 'Broken.avd'),
        target: null,
        apiLevel: null,
        abi: null,
        device: null,
        displayName: null,
      },
      {
        name: 'Pixel',
        path: join(avd, 'Pixel.avd'),
        target: 'android-33',
        apiLevel: 33,
        abi: 'arm64-v8a',
        device: 'pixel',
        displayName: null,
      },
    ]);
    expect(listAvds({ ANDROID_AVD_HOME: join(home, 'missing') })).toEqual([]);
    expect(parseIni('a=1\na=2\n b = x y \n')).toEqual({ a: '1', b: 'x y' });
  });
});
