import type { CommandHandler } from '../shell/command.js';
import { shortComponent } from '../activity-manager.js';
import { identityHash } from '../random.js';
import type { SimulatedDevice } from '../simulated-device.js';
import { LAUNCHER_PACKAGE } from '../ui/screen-renderer.js';
import { inputMethodDump } from './ime-commands.js';
import { pmCommand } from './pm-command.js';

const LAUNCHER_ACTIVITY = 'com.google.android.apps.nexuslauncher.NexusLauncherActivity';

interface ResumedActivity {
  pkg: string;
  activity: string;
  taskId: number;
  pid: number;
}

function resumed(device: SimulatedDevice): ResumedActivity {
  const fg = device.am.foreground();
  if (!fg) return { pkg: LAUNCHER_PACKAGE, activity: LAUNCHER_ACTIVITY, taskId: 1, pid: 1130 };
  return {
    pkg: fg.runtime.pkg.name,
    activity: fg.screen.activity,
    taskId: device.am.taskOf(fg.runtime.pkg.name)?.id ?? 1,
    pid: fg.runtime.pid,
  };
}

function record(pkg: string, activity: string, taskId: number): string {
  return `ActivityRecord{${identityHash(`${pkg}/${activity}`)} u0 ${shortComponent(pkg, activity)} t${taskId}}`;
}

function windowDump(device: SimulatedDevice, section: string | undefined): string {
  const r = resumed(device);
  const display = device.display();
  const appWindow = `Window{${identityHash(`w${r.activity}`)} u0 ${r.pkg}/${r.activity}}`;
  const focus = device.locked
    ? `Window{${identityHash('NotificationShade')} u0 NotificationShade}`
    : device.screenOn
      ? appWindow
      : 'null';
  const focusedApp = record(r.pkg, r.activity, r.taskId);
  if (section === 'displays') {
    return [
      'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
      `  Display: mDisplayId=0 rootTasks=${device.am.tasks.length + 1}`,
      `    init=${device.physical.width}x${device.physical.height} ${device.physical.density}dpi base=${(device.overrideSize ?? device.physical).width}x${(device.overrideSize ?? device.physical).height} ${device.density()}dpi cur=${display.width}x${display.height} app=${display.width}x${display.height} rng=${Math.min(display.width, display.height)}x${Math.min(display.width, display.height) - 63}-${Math.max(display.width, display.height)}x${Math.max(display.width, display.height) - 63}`,
      `    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,${display.width},${display.height}))`,
      `  mFocusedApp=${focusedApp}`,
      `  mCurrentFocus=${focus}`,
      `  mRotation=${device.rotation()}`,
      '',
    ].join('\n');
  }
  const windows = [
    `  Window #0 Window{${identityHash('NotificationShade')} u0 NotificationShade}:`,
    `    mDisplayId=0 rootTaskId=1 mSession=Session{${identityHash('systemui')} 812:u0a10120} mClient=android.os.BinderProxy@${identityHash('shadeclient')}`,
    `    isOnScreen=${device.locked && device.screenOn} isVisible=${device.locked && device.screenOn}`,
    `  Window #1 Window{${identityHash('StatusBar')} u0 StatusBar}:`,
    `    mDisplayId=0 rootTaskId=1 mSession=Session{${identityHash('systemui')} 812:u0a10120} mClient=android.os.BinderProxy@${identityHash('sbclient')}`,
    `    isOnScreen=${device.screenOn} isVisible=${device.screenOn}`,
    `  Window #2 ${appWindow}:`,
    `    mDisplayId=0 rootTaskId=${r.taskId} mSession=Session{${identityHash(`s${r.pkg}`)} ${r.pid}:u0a${(device.packages.get(r.pkg)?.uid ?? 10134) - 10000}} mClient=android.os.BinderProxy@${identityHash(`c${r.activity}`)}`,
    `    mAttrs={(0,0)(fillxfill) sim={adjust=pan} ty=BASE_APPLICATION fmt=TRANSLUCENT wanim=0x10302fe}`,
    `    mFrame=[0,0][${display.width},${display.height}] last=[0,0][${display.width},${display.height}]`,
    `    isOnScreen=${device.screenOn && !device.locked} isVisible=${device.screenOn && !device.locked}`,
  ];
  const lines = [
    'WINDOW MANAGER WINDOWS (dumpsys window windows)',
    ...windows,
    '',
    `  mGlobalConfiguration={1.0 310mcc260mnc [en_US] ldltr sw411dp w411dp h843dp ${device.density()}dpi nrml long port finger qwerty/v/v dpad/v winConfig={ mBounds=Rect(0, 0 - ${display.width}, ${display.height})} s.6}`,
    `  mHasPermanentDpad=false`,
    `  mTopFocusedDisplayId=0`,
  ];
  lines.push(`  mCurrentFocus=${focus}`, `  mFocusedApp=${focusedApp}`);
  if (section !== 'windows') {
    lines.push(
      '',
      'WINDOW MANAGER POLICY STATE (dumpsys window policy)',
      `    mDefaultDisplayPolicy=DisplayPolicy{ mDockMode=EXTRA_DOCK_STATE_UNDOCKED }`,
      `    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true`,
      `    mAwake=${device.screenOn}`,
      `    mScreenOnEarly=${device.screenOn} mScreenOnFully=${device.screenOn}`,
      `    mDreamingLockscreen=${device.locked} isKeyguardShowingAndNotOccluded=${device.locked}`,
      '    KeyguardServiceDelegate',
      `      showing=${device.locked}`,
      `      showingAndNotOccluded=${device.locked}`,
      `      inputRestricted=${device.locked}`,
      `      occluded=false`,
      `      secure=false`,
      `      dreaming=false`,
      `      systemIsReady=true`,
      `      deviceHasKeyguard=true`,
      `      enabled=true`,
      `      offReason=${device.screenOn ? 'UNKNOWN' : 'OFF_BECAUSE_OF_USER'}`,
      `      currentUser=0`,
      `      bootCompleted=true`,
      `      screenState=${device.screenOn ? 'SCREEN_STATE_ON' : 'SCREEN_STATE_OFF'}`,
      `      interactiveState=${device.screenOn ? 'INTERACTIVE_STATE_AWAKE' : 'INTERACTIVE_STATE_SLEEP'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function activitiesDump(device: SimulatedDevice): string {
  const r = resumed(device);
  const lines = [
    'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
    'Display #0 (activities from top to bottom):',
  ];
  const stacks = [...device.am.tasks].reverse();
  const home = { id: 1, packageName: LAUNCHER_PACKAGE };
  const order = device.am.homeOnTop ? [home, ...stacks] : [...stacks, home];
  for (const task of order) {
    const isHome = task.packageName === LAUNCHER_PACKAGE && task.id === 1;
    const runtime = isHome ? null : device.am.runtimes.get(task.packageName);
    const acts = isHome ? [LAUNCHER_ACTIVITY] : [...new Set((runtime?.stack ?? []).map((s) => s.activity))].reverse();
    if (acts.length === 0) continue;
    lines.push(
      `  * Task{${identityHash(`task${task.id}`)} #${task.id} type=${isHome ? 'home' : 'standard'} A=${isHome ? 10134 : runtime?.pkg.uid}:${task.packageName} U=0 visible=${r.taskId === task.id} visibleRequested=${r.taskId === task.id} mode=fullscreen translucent=false sz=${acts.length}}`,
      `    mResumedActivity: ${r.taskId === task.id ? record(r.pkg, r.activity, r.taskId) : 'null'}`,
    );
    acts.forEach((a, i) => {
      lines.push(`    * Hist #${acts.length - 1 - i}: ${record(task.packageName, a, task.id)}`);
      lines.push(`      packageName=${task.packageName} processName=${task.packageName}`);
      lines.push(
        `      app=ProcessRecord{${identityHash(`p${task.packageName}`)} ${isHome ? 1130 : runtime?.pid}:${task.packageName}/u0a${((isHome ? 10134 : runtime?.pkg.uid) ?? 10000) - 10000}}`,
      );
      lines.push(
        `      state=${i === 0 && r.taskId === task.id ? 'RESUMED' : 'STOPPED'} stopped=${!(i === 0 && r.taskId === task.id)} delayedResume=false finishing=false`,
      );
    });
  }
  lines.push(
    '',
    `  ResumedActivity: ${record(r.pkg, r.activity, r.taskId)}`,
    `  topResumedActivity=${record(r.pkg, r.activity, r.taskId)}`,
  );
  return `${lines.join('\n')}\n`;
}

function topDump(device: SimulatedDevice): string {
  const r = resumed(device);
  return [
    `TASK ${r.pkg} id=${r.taskId} userId=0`,
    `  ACTIVITY ${shortComponent(r.pkg, r.activity)} ${identityHash(r.activity)} pid=${r.pid}`,
    `    Local Activity ${identityHash(`local${r.activity}`)} State:`,
    `      mResumed=true mStopped=false mFinished=false`,
    `      mIsInMultiWindowMode=false mIsInPictureInPictureMode=false`,
    '',
  ].join('\n');
}

function meminfoDump(device: SimulatedDevice, target: string | undefined): string {
  const uptime = device.clock() - device.bootTimeMs;
  const header = `Applications Memory Usage (in Kilobytes):\nUptime: ${uptime} Realtime: ${uptime}\n`;
  const proc = target
    ? /^\d+$/.test(target)
      ? device.processes.get(Number(target))
      : (device.processes.appProcess(target) ?? device.processes.byName(target)[0])
    : undefined;
  if (!target) {
    const lines = [header, 'Total PSS by process:'];
    for (const p of device.processes
      .list()
      .filter((p) => p.rssKb > 0)
      .sort((a, b) => b.rssKb - a.rssKb)) {
      lines.push(`    ${Math.round(p.rssKb * 0.45).toLocaleString('en-US')}K: ${p.name} (pid ${p.pid})`);
    }
    return `${lines.join('\n')}\n`;
  }
  if (!proc) return `${header}No process found for: ${target}\n`;
  const total = Math.round(proc.rssKb * 0.45);
  const native = Math.round(total * 0.22),
    dalvik = Math.round(total * 0.12),
    code = Math.round(total * 0.18),
    graphics = Math.round(total * 0.16),
    stack = 1480;
  const other = total - native - dalvik - code - graphics - stack;
  const row = (
    name: string,
    pss: number,
    priv: number,
    clean: number,
    swap: number,
    rss: number,
    heap?: [number, number, number],
  ) =>
    `${name.padStart(13)} ${String(pss).padStart(8)} ${String(priv).padStart(8)} ${String(clean).padStart(8)} ${String(swap).padStart(8)} ${String(rss).padStart(8)}` +
    (heap ? ` ${String(heap[0]).padStart(8)} ${String(heap[1]).padStart(8)} ${String(heap[2]).padStart(8)}` : '');
  return [
    header,
    `** MEMINFO in pid ${proc.pid} [${proc.name}] **`,
    '                   Pss  Private  Private  SwapPss      Rss     Heap     Heap     Heap',
    '                 Total    Dirty    Clean    Dirty    Total     Size    Alloc     Free',
    '                ------   ------   ------   ------   ------   ------   ------   ------',
    row('Native Heap', native, native - 40, 0, 0, native + 1200, [native + 6000, native + 2100, 3900]),
    row('Dalvik Heap', dalvik, dalvik - 300, 0, 0, dalvik + 5400, [dalvik + 9000, dalvik, 9000]),
    row('Dalvik Other', 2100, 1800, 0, 0, 3400),
    row('Stack', stack, stack, 0, 0, stack + 4),
    row('Ashmem', 12, 0, 0, 0, 880),
    row('Other dev', 48, 0, 44, 0, 380),
    row('.so mmap', Math.round(code * 0.5), 1200, 600, 0, Math.round(code * 1.3)),
    row('.apk mmap', Math.round(code * 0.2), 0, Math.round(code * 0.1), 0, Math.round(code * 0.6)),
    row('.dex mmap', Math.round(code * 0.3), 4, Math.round(code * 0.25), 0, Math.round(code * 0.4)),
    row('GL mtrack', graphics, graphics, 0, 0, graphics),
    row('Unknown', Math.max(other - 2160, 0), Math.max(other - 2200, 0), 0, 0, Math.max(other - 1000, 0)),
    row('TOTAL', total, Math.round(total * 0.7), Math.round(total * 0.12), 0, proc.rssKb, [
      native + dalvik + 15000,
      native + dalvik + 2100,
      12900,
    ]),
    '',
    ' App Summary',
    '                       Pss(KB)                        Rss(KB)',
    '                        ------                         ------',
    `           Java Heap:    ${String(dalvik).padStart(6)}                         ${String(dalvik + 5400).padStart(6)}`,
    `         Native Heap:    ${String(native).padStart(6)}                         ${String(native + 1200).padStart(6)}`,
    `                Code:    ${String(code).padStart(6)}                         ${String(Math.round(code * 2.3)).padStart(6)}`,
    `               Stack:    ${String(stack).padStart(6)}                         ${String(stack + 4).padStart(6)}`,
    `            Graphics:    ${String(graphics).padStart(6)}                         ${String(graphics).padStart(6)}`,
    `       Private Other:    ${String(Math.max(other, 0)).padStart(6)}`,
    `              System:    ${String(Math.round(total * 0.05)).padStart(6)}`,
    `             Unknown:                                   ${String(Math.max(other - 1000, 0)).padStart(6)}`,
    '',
    `           TOTAL PSS:    ${String(total).padStart(6)}            TOTAL RSS:   ${String(proc.rssKb).padStart(6)}       TOTAL SWAP PSS:        0`,
    '',
    ' Objects',
    '               Views:       42         ViewRootImpl:        1',
    '         AppContexts:        5           Activities:        1',
    '              Assets:       22        AssetManagers:        0',
    '       Local Binders:       18        Proxy Binders:       41',
    '',
  ].join('\n');
}

function powerDump(device: SimulatedDevice): string {
  const on = device.screenOn;
  return [
    'POWER MANAGER (dumpsys power)',
    '',
    'Power Manager State:',
    '  Settings power_manager_constants:',
    '    no_cached_wake_locks=true',
    `  mDirty=0x0`,
    `  mWakefulness=${on ? 'Awake' : 'Asleep'}`,
    `  mWakefulnessChanging=false`,
    `  mIsPowered=true`,
    `  mPlugType=1`,
    `  mBatteryLevel=${device.batteryLevel}`,
    `  mDockState=0`,
    `  mStayOn=false`,
    `  mProximityPositive=false`,
    `  mBootCompleted=true`,
    `  mSystemReady=true`,
    `  mHalAutoSuspendModeEnabled=false`,
    `  mHalInteractiveModeEnabled=true`,
    `  mWakeLockSummary=0x${on ? '0' : '0'}`,
    `  mUserActivitySummary=0x${on ? '1' : '0'}`,
    `  mRequestWaitForNegativeProximity=false`,
    `  mSandmanScheduled=false`,
    `  mInteractive=${on}`,
    `  mScreenBrightnessBoostInProgress=false`,
    `  mHoldingWakeLockSuspendBlocker=false`,
    `  mHoldingDisplaySuspendBlocker=${on}`,
    '',
    `Display Power: state=${on ? 'ON' : 'OFF'}`,
    '',
  ].join('\n');
}

function batteryDump(device: SimulatedDevice): string {
  return [
    'Current Battery Service state:',
    '  AC powered: true',
    '  USB powered: false',
    '  Wireless powered: false',
    '  Dock powered: false',
    '  Max charging current: 0',
    '  Max charging voltage: 0',
    '  Charge counter: 10000',
    '  status: 2',
    '  health: 2',
    '  present: true',
    `  level: ${device.batteryLevel}`,
    '  scale: 100',
    '  voltage: 5000',
    '  temperature: 250',
    '  technology: Li-ion',
    '',
  ].join('\n');
}

export const dumpsysCommand: CommandHandler = async (ctx) => {
  const { argv, io, device } = ctx;
  const [service, ...args] = argv.slice(1);
  switch (service) {
    case 'package': {
      if (!args[0]) {
        await io.stdout(
          `${device.packages
            .list()
            .map((p) => `  Package [${p.name}] (${identityHash(p.name)}):`)
            .join('\n')}\n`,
        );
        return 0;
      }
      return pmCommand({ ...ctx, argv: ['pm', 'dump', ...args] });
    }
    case 'input_method':
      await io.stdout(inputMethodDump(device));
      return 0;
    case 'meminfo':
      await io.stdout(meminfoDump(device, args.filter((a) => !a.startsWith('-'))[0]));
      return 0;
    case 'activity': {
      const what = args[0];
      if (what === 'activities' || what === 'a') await io.stdout(activitiesDump(device));
      else if (what === 'top') await io.stdout(topDump(device));
      else if (what === 'exit-info') {
        if (device.api < 30)
          await io.stdout('Bad activity command, or no activities match: exit-info\nUse -h for help.\n');
        else await io.stdout(device.exits.dump(args.filter((a, i) => i > 0 && !a.startsWith('-'))[0]));
      } else if (what === 'processes' || what === 'p') {
        const lines = ['ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)'];
        for (const p of device.processes.list().filter((p) => p.packageName))
          lines.push(
            `  *APP* UID ${p.uid} ProcessRecord{${identityHash(`p${p.name}`)} ${p.pid}:${p.name}/u0a${p.uid - 10000}}`,
          );
        await io.stdout(`${lines.join('\n')}\n`);
      } else if (what === undefined) {
        await io.stdout(activitiesDump(device));
      } else {
        await io.stdout(`Bad activity command, or no activities match: ${what}\nUse -h for help.\n`);
      }
      return 0;
    }
    case 'window':
      await io.stdout(windowDump(device, args[0]));
      return 0;
    case 'power':
      await io.stdout(powerDump(device));
      return 0;
    case 'battery':
      await io.stdout(batteryDump(device));
      return 0;
    case 'display': {
      const d = device.display();
      await io.stdout(
        `DISPLAY MANAGER (dumpsys display)\n  mOnlyCore=false\n  mDefaultDisplayDefaultColorMode=0\n  mGlobalDisplayState=${device.screenOn ? 'ON' : 'OFF'}\n  mDisplayDeviceInfo: DisplayDeviceInfo{"Built-in Screen": ${d.width} x ${d.height}, density ${device.density()}, state ${device.screenOn ? 'ON' : 'OFF'}}\n`,
      );
      return 0;
    }
    case undefined:
    case '-l':
      await io.stdout(
        'Currently running services:\n  activity\n  battery\n  display\n  input_method\n  meminfo\n  package\n  power\n  window\n',
      );
      return 0;
    default:
      await io.stderr(`Can't find service: ${service}\n`);
      return 0;
  }
};
