import { parseAmStart, parseDisplayedLines } from '../../../../src/android/parsers/am-start.js';
import { parseActivityStack } from '../../../../src/android/parsers/activities.js';
import { parseWindowFocus } from '../../../../src/android/parsers/window.js';
import { parseExitInfo } from '../../../../src/android/parsers/exit-info.js';
import { parseMeminfo } from '../../../../src/android/parsers/meminfo.js';
import { parseBattery } from '../../../../src/android/parsers/device-state.js';
import { newDevice, run } from './shell-io.js';
import type { SimulatedAndroidHandle } from '../../../../src/sim/android/create-simulated-android.js';

describe('activity manager', () => {
  let android: SimulatedAndroidHandle;
  beforeEach(() => {
    android = newDevice();
  });
  afterEach(() => android.dispose());

  it('am start -W reports COLD, then HOT after HOME, then WARM after the task was finished', async () => {
    const cold = await run(android, 'am start -W -n com.example.notes/.LoginActivity');
    expect(cold.stdout).toMatch(
      /^Starting: Intent \{ cmp=com\.example\.notes\/\.LoginActivity \}\nStatus: ok\nLaunchState: COLD\nActivity: com\.example\.notes\/\.LoginActivity\nTotalTime: \d+\nWaitTime: \d+\nComplete\n$/,
    );
    const parsed = parseAmStart(cold.stdout, cold.code);
    expect(parsed).toMatchObject({ launchState: 'COLD', activity: 'com.example.notes/.LoginActivity' });

    await run(android, 'input keyevent KEYCODE_HOME');
    const hot = await run(
      android,
      'am start -W -a android.intent.action.MAIN -c android.intent.category.LAUNCHER -n com.example.notes/.LoginActivity',
    );
    expect(hot.stdout).toContain(
      'Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.example.notes/.LoginActivity }\n',
    );
    expect(hot.stdout).toContain('LaunchState: HOT\n');

    await run(android, 'input keyevent 4');
    expect(android.state.am.foregroundPackage()).toBeNull();
    expect((await run(android, 'pidof com.example.notes')).code).toBe(0);
    const warm = await run(android, 'am start -W -n com.example.notes/.LoginActivity');
    expect(warm.stdout).toContain('LaunchState: WARM\n');

    const top = await run(android, 'am start -W -n com.example.notes/.LoginActivity');
    expect(top.stderr).toBe(
      'Warning: Activity not started, intent has been delivered to currently running top-most instance.\n',
    );

    const logcat = (await run(android, 'logcat -d -b system')).stdout;
    const displayed = parseDisplayedLines(logcat, 'com.example.notes');
    expect(displayed.length).toBeGreaterThanOrEqual(3);
    expect(logcat).toMatch(/I ActivityTaskManager: Displayed com\.example\.notes\/\.LoginActivity: \+\d+ms\n/);
    expect(logcat).toMatch(
      /I ActivityManager: Start proc \d+:com\.example\.notes\/u0a\d+ for next-top-activity \{com\.example\.notes\/com\.example\.notes\.LoginActivity\}/,
    );
  });

  it('prints the real error for an activity that does not exist, with exit code 0', async () => {
    const r = await run(android, 'am start -n com.example.notes/.Nope');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Starting: Intent { cmp=com.example.notes/.Nope }\nError type 3\n');
    expect(r.stderr).toBe('Error: Activity class {com.example.notes/com.example.notes.Nope} does not exist.\n');
    expect(parseAmStart(r.stdout + r.stderr, r.code).ok).toBe(false);
    const unresolved = await run(android, 'am start -a android.intent.action.VIEW -d https://example.com/path');
    expect(unresolved.stderr).toBe(
      'Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW dat=https://example.com/... flg=0x10000000 }\n',
    );
  });

  it('monkey launches the launcher activity with its real output', async () => {
    const r = await run(android, 'monkey -p com.example.weather -c android.intent.category.LAUNCHER 1');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^ {2}bash arg: -p\n {2}bash arg: com\.example\.weather\n[\s\S]*Events injected: 1\n## Network stats: elapsed time=\d+ms \(0ms mobile, 0ms wifi, \d+ms not connected\)\n$/,
    );
    expect(android.state.am.foregroundPackage()).toBe('com.example.weather');
    const none = await run(android, 'monkey -p com.nope -c android.intent.category.LAUNCHER 1');
    expect(none.stderr).toBe('** No activities found to run, monkey aborted.\n');
  });

  it('dumpsys window/activity report the focused app in the formats tools parse', async () => {
    await run(android, 'am start -n com.example.weather/.MainActivity');
    const focus = parseWindowFocus((await run(android, 'dumpsys window windows')).stdout);
    expect(focus).toMatchObject({
      currentFocus: { package: 'com.example.weather' },
      focusedApp: { package: 'com.example.weather' },
    });
    const stack = parseActivityStack((await run(android, 'dumpsys activity activities')).stdout);
    expect(stack.resumed).toMatchObject({ package: 'com.example.weather', flat: 'com.example.weather/.MainActivity' });
    expect(stack.activities[0]).toMatchObject({ package: 'com.example.weather' });
    expect(stack.activities.map((a) => a.package)).toContain('com.google.android.apps.nexuslauncher');
    expect((await run(android, 'dumpsys activity top')).stdout).toMatch(
      /^TASK com\.example\.weather id=\d+ userId=0\n {2}ACTIVITY com\.example\.weather\/\.MainActivity \w+ pid=\d+\n/,
    );
    await run(android, 'input keyevent HOME');
    const home = parseWindowFocus((await run(android, 'dumpsys window')).stdout);
    expect(home.currentFocus?.package).toBe('com.google.android.apps.nexuslauncher');
  });

  it('force-stop kills the process and leaves a USER REQUESTED exit record', async () => {
    await run(android, 'am start -n com.example.notes/.LoginActivity');
    const pid = Number((await run(android, 'pidof com.example.notes')).stdout.trim());
    await run(android, 'am force-stop com.example.notes');
    expect((await run(android, 'pidof com.example.notes')).code).toBe(1);
    const info = parseExitInfo((await run(android, 'dumpsys activity exit-info com.example.notes')).stdout);
    expect(info.supported).toBe(true);
    if (!info.supported) throw new Error('unsupported');
    expect(info.records[0]).toMatchObject({
      pid,
      reasonCode: 10,
      process: 'com.example.notes',
      package: 'com.example.notes',
    });
  });

  it('meminfo, power and battery', async () => {
    expect((await run(android, 'dumpsys meminfo com.example.notes')).stdout).toContain(
      'No process found for: com.example.notes',
    );
    await run(android, 'am start -n com.example.notes/.LoginActivity');
    const mem = parseMeminfo((await run(android, 'dumpsys meminfo com.example.notes')).stdout);
    if (!mem.found) throw new Error(mem.reason);
    expect(mem.info).toMatchObject({ process: 'com.example.notes' });
    expect(mem.info.totalPssKb).toBeGreaterThan(10_000);
    expect(mem.info.nativeHeap?.sizeKb).toBeGreaterThan(0);
    const power = (await run(android, 'dumpsys power')).stdout;
    expect(power).toContain('mWakefulness=Awake\n');
    expect(power).toContain('mHoldingDisplaySuspendBlocker=true\n');
    await run(android, 'input keyevent KEYCODE_POWER');
    expect((await run(android, 'dumpsys power | grep mWakefulness=')).stdout).toBe('  mWakefulness=Asleep\n');
    expect(parseBattery((await run(android, 'dumpsys battery')).stdout)).toMatchObject({
      level: 100,
      percent: 100,
      status: 'charging',
      plugged: 'ac',
    });
  });

  it('broadcasts, reports displays, and unlocks with MENU', async () => {
    expect((await run(android, 'am broadcast -a com.example.SYNC --es reason test')).stdout).toBe(
      'Broadcasting: Intent { act=com.example.SYNC flg=0x400000 (has extras) }\nBroadcast completed: result=0\n',
    );
    const displays = (await run(android, 'dumpsys window displays')).stdout;
    expect(displays).toContain('cur=1080x2400 app=1080x2400');
    expect(displays).toMatch(/mCurrentFocus=Window\{\w+ u0 com\.google\.android\.apps\.nexuslauncher\//);
    const locked = newDevice({ locked: true });
    expect((await run(locked, 'uiautomator dump /dev/tty')).stdout).toContain('package="com.android.systemui"');
    await run(locked, 'input keyevent 82');
    expect((await run(locked, 'uiautomator dump /dev/tty')).stdout).toContain(
      'package="com.google.android.apps.nexuslauncher"',
    );
    locked.dispose();
  });
});
