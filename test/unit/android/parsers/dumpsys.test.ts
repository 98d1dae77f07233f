import { parseActivityStack } from '../../../../src/android/parsers/activities.js';
import { parseAmStart, parseDisplayedDuration, parseDisplayedLines } from '../../../../src/android/parsers/am-start.js';
import {
  parseBattery,
  parseSettingValue,
  parseWmDensity,
  parseWmSize,
} from '../../../../src/android/parsers/device-state.js';
import { parseGetprop } from '../../../../src/android/parsers/getprop.js';
import { parseMeminfo } from '../../../../src/android/parsers/meminfo.js';
import { parsePackageDump, parsePmPath } from '../../../../src/android/parsers/package-dump.js';
import { parseWindowFocus } from '../../../../src/android/parsers/window.js';
import { corpus } from './corpus.js';

describe('am start -W', () => {
  it('reads the corpus cold start', () => {
    expect(parseAmStart(corpus('am/am_start_W_cold_encapp.txt'), 0)).toEqual({
      ok: true,
      error: null,
      status: 'ok',
      launchState: 'COLD',
      activity: 'com.facebook.alohaapps.launcher/com.facebook.aloha.app.home.touch.HomeActivity',
      totalTimeMs: 1479,
      waitTimeMs: 1482,
      thisTimeMs: null,
      warnings: [],
    });
  });

  it('fails on error text even when am exits 0', () => {
    const out =
      'Starting: Intent { cmp=com.x/.Nope }\nError type 3\nError: Activity class {com.x/com.x.Nope} does not exist.\n';
    const r = parseAmStart(out, 0);
    expect(r.ok).toBe(false);
    expect(r.error).toBe('Error: Activity class {com.x/com.x.Nope} does not exist.');
    expect(
      parseAmStart(
        'Starting: Intent { act=android.intent.action.VIEW dat=foo: }\nError: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW dat=foo: flg=0x10000000 }\n',
        0,
      ).ok,
    ).toBe(false);
    expect(parseAmStart('Status: error\nComplete\n', 0)).toMatchObject({ ok: false, error: 'Status: error' });
    expect(parseAmStart('', 255)).toMatchObject({ ok: false });
  });

  it('keeps missing timings null and warnings visible', () => {
    const r = parseAmStart(
      'Starting: Intent { cmp=com.x/.Main }\nWarning: Activity not started, its current task has been brought to the front\nStatus: ok\nActivity: com.x/.Main\nWaitTime: 35\nComplete\n',
      0,
    );
    expect(r).toMatchObject({ ok: true, totalTimeMs: null, waitTimeMs: 35, launchState: null });
    expect(r.warnings).toHaveLength(1);
  });

  it('reads Displayed lines for exactly one package', () => {
    const log = [
      '1700000000.100  123  140 I ActivityTaskManager: Displayed com.x.debug/.Main: +900ms',
      '1700000001.200  123  140 I ActivityTaskManager: Displayed com.x/.Main: +1s234ms',
      '11-14 10:00:00.000   99   99 I ActivityManager: Displayed com.x/com.x.Other: +2s5ms (total +3s)',
    ].join('\n');
    expect(parseDisplayedLines(log, 'com.x')).toEqual([
      { component: 'com.x/.Main', ms: 1234, epochSec: 1700000001.2 },
      { component: 'com.x/com.x.Other', ms: 2005, epochSec: null },
    ]);
    expect(parseDisplayedDuration('+1m2s3ms')).toBe(62003);
    expect(parseDisplayedDuration('+')).toBeNull();
  });
});

describe('dumpsys window', () => {
  it('reads focus from the corpus (old emulator and the two-line sample)', () => {
    expect(parseWindowFocus(corpus('dumpsys/dumpsys_window_windows_emulator_sampleui.txt'))).toEqual({
      currentFocus: {
        package: 'com.dtmilano.android.sampleui',
        activity: 'com.dtmilano.android.sampleui.MainActivity',
        flat: 'com.dtmilano.android.sampleui/com.dtmilano.android.sampleui.MainActivity',
      },
      currentFocusTitle: null,
      focusedApp: {
        package: 'com.dtmilano.android.sampleui',
        activity: 'com.dtmilano.android.sampleui.MainActivity',
        flat: 'com.dtmilano.android.sampleui/.MainActivity',
      },
    });
    const two = parseWindowFocus(corpus('dumpsys/dumpsys_window_windows_focus_lines.txt'));
    expect(two.currentFocus?.package).toBe('com.incall.apps.launcher');
    expect(two.focusedApp).toMatchObject({ package: 'com.example', activity: 'com.example.UI.play.PlayActivity' });
  });

  it('reads a non-activity focus and the modern mFocusedApp form', () => {
    const f = parseWindowFocus(
      '  mCurrentFocus=Window{5d1 u0 NotificationShade}\n  mFocusedApp=ActivityRecord{9e2 u0 com.x/.Main t31}\n',
    );
    expect(f.currentFocus).toBeNull();
    expect(f.currentFocusTitle).toBe('NotificationShade');
    expect(f.focusedApp?.activity).toBe('com.x.Main');
    expect(parseWindowFocus('  mCurrentFocus=null\n')).toEqual({
      currentFocus: null,
      currentFocusTitle: null,
      focusedApp: null,
    });
  });
});

describe('dumpsys meminfo', () => {
  it('reads the corpus table, heaps and objects', () => {
    const parsed = parseMeminfo(corpus('dumpsys/dumpsys_meminfo_maps_nexus5_aosp_docs.txt'));
    if (!parsed.found) throw new Error(parsed.reason);
    const m = parsed.info;
    expect(m.pid).toBe(18227);
    expect(m.process).toBe('com.google.android.apps.maps');
    expect(m.totalPssKb).toBe(216524);
    expect(m.privateDirtyKb).toBe(208232);
    expect(m.totalRssKb).toBeNull();
    expect(m.nativeHeap).toEqual({ sizeKb: 20480, allocatedKb: 14462, freeKb: 6017 });
    expect(m.javaHeap).toEqual({ sizeKb: 62436, allocatedKb: 53883, freeKb: 8553 });
    expect(m.totals['Swapped Dirty']).toBe(0);
    expect(m.objects).toMatchObject({ Views: 90, ViewRootImpl: 1, Activities: 1, 'Death Recipients': 2 });
  });

  it('reports a process that is not running', () => {
    expect(parseMeminfo('No process found for: com.x\n')).toEqual({
      found: false,
      reason: 'No process found for: com.x',
    });
  });
});

describe('dumpsys activity activities', () => {
  it('lists the stack top-down and the resumed activity (Android 10+ form)', () => {
    const out = [
      'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
      'Display #0 (activities from top to bottom):',
      '  * Task{1a #12 type=standard A=10152:com.x U=0 visible=true mode=fullscreen translucent=false sz=2}',
      '    * Hist #1: ActivityRecord{e5f u0 com.x/.Editor t12}',
      '    * Hist #0: ActivityRecord{abc u0 com.x/.Main t12}',
      '  * Task{2b #1 type=home}',
      '    * Hist #0: ActivityRecord{def u0 com.android.launcher3/.Launcher t1}',
      '  ResumedActivity: ActivityRecord{e5f u0 com.x/.Editor t12}',
    ].join('\n');
    const s = parseActivityStack(out);
    expect(s.activities.map((a) => [a.activity, a.taskId])).toEqual([
      ['com.x.Editor', 12],
      ['com.x.Main', 12],
      ['com.android.launcher3.Launcher', 1],
    ]);
    expect(s.resumed?.flat).toBe('com.x/.Editor');
  });

  it('reads the older Run #N form', () => {
    const s = parseActivityStack(
      '    Run #0: ActivityRecord{422 u0 com.y/.A t5}\n  mResumedActivity: ActivityRecord{422 u0 com.y/.A t5}\n',
    );
    expect(s.activities).toHaveLength(1);
    expect(s.resumed?.package).toBe('com.y');
  });
});

describe('device state', () => {
  it('reads battery, screen and settings values', () => {
    const battery = parseBattery(
      'Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  status: 2\n  health: 2\n  present: true\n  level: 87\n  scale: 100\n  voltage: 4100\n  temperature: 253\n  technology: Li-ion\n',
    );
    expect(battery).toEqual({
      level: 87,
      scale: 100,
      percent: 87,
      status: 'charging',
      health: 'good',
      plugged: 'usb',
      temperatureC: 25.3,
      voltageMv: 4100,
      present: true,
    });
    expect(parseBattery('')).toBeNull();
    expect(parseWmSize('Physical size: 1080x2400\nOverride size: 720x1600\n')).toEqual({
      physical: { width: 1080, height: 2400 },
      override: { width: 720, height: 1600 },
    });
    expect(parseWmDensity('Physical density: 420\n')).toEqual({ physical: 420, override: null });
    expect(parseSettingValue('null\n')).toBeNull();
    expect(parseSettingValue('1\n')).toBe('1');
    expect(parseGetprop('[ro.build.version.sdk]: [34]\n[ro.product.model]: [Pixel 7]\n[multi]: [a\nb]\n')).toEqual({
      'ro.build.version.sdk': '34',
      'ro.product.model': 'Pixel 7',
      multi: 'a\nb',
    });
  });
});

describe('dumpsys package', () => {
  const out = [
    'Packages:',
    '  Package [com.x] (a1b2c3):',
    '    userId=10152',
    '    pkg=Package{d4 com.x}',
    '    codePath=/data/app/~~abc==/com.x-def==',
    '    versionCode=7 minSdk=21 targetSdk=34',
    '    versionName=1.7',
    '    dataDir=/data/user/0/com.x',
    '    flags=[ DEBUGGABLE HAS_CODE ALLOW_CLEAR_USER_DATA ]',
    '    timeStamp=2024-01-09 08:00:00',
    '    firstInstallTime=2024-01-09 08:00:01',
    '    lastUpdateTime=2024-01-10 09:30:00',
    '    installerPackageName=null',
    '    requested permissions:',
    '      android.permission.INTERNET',
    '      android.permission.CAMERA',
    '      android.permission.READ_EXTERNAL_STORAGE: restricted=true',
    '    install permissions:',
    '      android.permission.INTERNET: granted=true',
    '    User 0: ceDataInode=1 installed=true hidden=false suspended=false',
    '      gids=[3003]',
    '      runtime permissions:',
    '        android.permission.CAMERA: granted=false, flags=[ USER_SENSITIVE_WHEN_GRANTED ]',
    '  Package [com.x.other] (ff):',
    '    versionCode=1 minSdk=21 targetSdk=34',
  ].join('\n');

  it('reads the block of exactly that package', () => {
    const p = parsePackageDump(out, 'com.x');
    expect(p).toMatchObject({
      versionCode: 7,
      versionName: '1.7',
      minSdk: 21,
      targetSdk: 34,
      codePath: '/data/app/~~abc==/com.x-def==',
      dataDir: '/data/user/0/com.x',
      firstInstallTime: '2024-01-09 08:00:01',
      lastUpdateTime: '2024-01-10 09:30:00',
      installerPackageName: 'null',
      flags: ['DEBUGGABLE', 'HAS_CODE', 'ALLOW_CLEAR_USER_DATA'],
      requestedPermissions: [
        'android.permission.INTERNET',
        'android.permission.CAMERA',
        'android.permission.READ_EXTERNAL_STORAGE',
      ],
    });
    expect(p!.permissions).toEqual([
      { name: 'android.permission.INTERNET', granted: true, runtime: false },
      { name: 'android.permission.CAMERA', granted: false, runtime: true },
    ]);
    expect(parsePackageDump(out, 'com.y')).toBeNull();
    expect(parsePackageDump(out, 'com.x.other')?.versionCode).toBe(1);
    expect(parsePmPath('package:/data/app/a/base.apk\npackage:/data/app/a/split_config.en.apk\n')).toEqual([
      '/data/app/a/base.apk',
      '/data/app/a/split_config.en.apk',
    ]);
  });
});
