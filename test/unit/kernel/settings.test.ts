import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { DEFAULT_SETTINGS, parseSettings, Settings } from '../../../src/kernel/settings.js';
import type { RuntimeOptions } from '../../../src/kernel/runtime-options.js';

describe('settings', () => {
  test('defaults and clamping', () => {
    expect(parseSettings('{}').values).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('{"buildTimeoutSec": 5}').values.buildTimeoutSec).toBe(60);
    expect(parseSettings('{"buildTimeoutSec": 99999}').values.buildTimeoutSec).toBe(3600);
    const logcat = parseSettings('{"logcatRetentionLines": 5, "logcatRetentionBytes": 1e15}').values;
    expect([logcat.logcatRetentionLines, logcat.logcatRetentionBytes]).toEqual([10_000, 16 * 2 ** 30]);
    const full = parseSettings(
      '{"allowUnrestrictedGradle": true, "buildTimeoutSec": 900, "javaHome": "/jdk", "androidSdk": "/sdk", "adbPath": "/adb"}',
    );
    expect(full.warning).toBeUndefined();
    expect(full.values).toEqual({
      allowUnrestrictedGradle: true,
      buildTimeoutSec: 900,
      logcatRetentionLines: 1_000_000,
      logcatRetentionBytes: 256 * 2 ** 20,
      javaHome: '/jdk',
      androidSdk: '/sdk',
      adbPath: '/adb',
      logcatIdleMinutes: 30,
      logcatReconnectSeconds: 30,
      debugSessionIdleMinutes: 30,
    });
  });

  test('the logcat worker bounds are clamped: an idle time of minutes (fractions allowed) and a reconnect window', () => {
    expect(parseSettings('{"logcatIdleMinutes": 0.1, "logcatReconnectSeconds": 5}').values).toMatchObject({
      logcatIdleMinutes: 0.1,
      logcatReconnectSeconds: 5,
    });
    expect(parseSettings('{"logcatIdleMinutes": 0, "logcatReconnectSeconds": 0}').values).toMatchObject({
      logcatIdleMinutes: 0.05,
      logcatReconnectSeconds: 1,
    });
    expect(parseSettings('{"logcatIdleMinutes": 1e9, "logcatReconnectSeconds": 1e9}').values).toMatchObject({
      logcatIdleMinutes: 10080,
      logcatReconnectSeconds: 3600,
    });
  });

  test('invalid or unknown content falls back to defaults with a warning naming the problem', () => {
    expect(parseSettings('not json').warning).toMatch(/not valid JSON/);
    const wrongType = parseSettings('{"allowUnrestrictedGradle": "yes"}');
    expect(wrongType.values).toEqual(DEFAULT_SETTINGS);
    expect(wrongType.warning).toMatch(/allowUnrestrictedGradle/);
    expect(parseSettings('{"surprise": 1}').warning).toMatch(/invalid/);
  });

  test('reads $DROIDWRIGHT_HOME/settings.json once; a bad file warns on stderr and uses defaults', () => {
    const home = mkdtempSync(join(tmpdir(), 'droidwright-test-settings-'));
    try {
      const options: RuntimeOptions = { home, cwd: home, readOnly: false, env: {} };
      expect(new Settings(options).get()).toEqual(DEFAULT_SETTINGS);
      writeFileSync(join(home, 'settings.json'), '{"buildTimeoutSec": 120}');
      expect(new Settings(options).get().buildTimeoutSec).toBe(120);
      writeFileSync(join(home, 'settings.json'), '{oops');
      const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        expect(new Settings(options).get()).toEqual(DEFAULT_SETTINGS);
        expect(String(write.mock.calls[0]?.[0])).toMatch(/settings\.json.*using defaults/);
      } finally {
        write.mockRestore();
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('the debug session idle time is in minutes, clamped to 1–10080', () => {
    expect(parseSettings('{"debugSessionIdleMinutes": 5}').values.debugSessionIdleMinutes).toBe(5);
    expect(parseSettings('{"debugSessionIdleMinutes": 0}').values.debugSessionIdleMinutes).toBe(1);
    expect(parseSettings('{"debugSessionIdleMinutes": 1e9}').values.debugSessionIdleMinutes).toBe(10080);
  });
});
