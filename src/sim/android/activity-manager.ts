import { identityHash } from './random.js';
import { qualifyClassName } from '../../android/apk-manifest.js';
import type { InstalledPackage, ResolvedActivity } from './package-manager.js';
import {
  APP_DETAILS_ACTIVITY,
  APP_INFO_TITLE_ID,
  APP_INFO_VERSION_ID,
  FRAMEWORK_PACKAGE,
  RESOLVER_ACTIVITY,
  SETTINGS_PACKAGE,
  resolverAppSpec,
} from './system-apps.js';
import { minifiedFrame } from './r8-frames.js';
import type { Action, CrashSpec, ScreenSpec } from './scenario/scenario-schema.js';
import type { ExitReason, ExitSubreason } from './exit-info.js';
import { formatDeviceTime } from './exit-info.js';
import type { SimulatedDevice } from './simulated-device.js';
import type { ViewNode } from './ui/view-node.js';

export const GENERIC_SCREEN = '__generic__';

export interface ScreenInstance {
  readonly name: string;
  /** Fully qualified activity class. */
  readonly activity: string;
  enteredAtMs: number;
  dueAtMs: number | null;
  focusedKey: string | null;
  readonly scroll: Map<string, number>;
  /** The data URI of the intent that started this activity, if any. */
  readonly data: string | null;
}

/** A running app process and the UI state that lives as long as it does. */
export interface AppRuntime {
  readonly pkg: InstalledPackage;
  readonly pid: number;
  readonly stack: ScreenInstance[];
  readonly values: Map<string, string>;
  readonly checked: Map<string, boolean>;
  readonly texts: Map<string, string>;
}

export interface Task {
  readonly id: number;
  readonly packageName: string;
}

export type LaunchState = 'COLD' | 'WARM' | 'HOT';

export type LaunchResult =
  | { kind: 'launched'; state: LaunchState; activity: string; totalTime: number; waitTime: number }
  /** Nothing started: the activity (or, for taskOnly, its task) was already in front. */
  | { kind: 'brought-to-front-top'; activity: string; waitTime: number; taskOnly: boolean }
  /** The activity started and finished itself before drawing (App info for a package that is not installed). */
  | { kind: 'finished-before-drawn'; activity: string; waitTime: number }
  | { kind: 'not-found'; component: string };

/** `com.example/.Main` when the class is in the package, else `com.example/org.other.Main`. */
export function shortComponent(pkg: string, cls: string): string {
  return cls.startsWith(`${pkg}.`) ? `${pkg}/${cls.slice(pkg.length)}` : `${pkg}/${cls}`;
}

const FRAMEWORK_FRAMES = [
  'android.view.View.performClick(View.java:7659)',
  'android.view.View.performClickInternal(View.java:7636)',
  'android.view.View.-$$Nest$mperformClickInternal(Unknown Source:0)',
  'android.view.View$PerformClick.run(View.java:30156)',
  'android.os.Handler.handleCallback(Handler.java:958)',
  'android.os.Handler.dispatchMessage(Handler.java:99)',
  'android.os.Looper.loopOnce(Looper.java:205)',
  'android.os.Looper.loop(Looper.java:294)',
  'android.app.ActivityThread.main(ActivityThread.java:8177)',
  'java.lang.reflect.Method.invoke(Native Method)',
  'com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:552)',
  'com.android.internal.os.ZygoteInit.main(ZygoteInit.java:971)',
];

const SIGNALS: Record<string, [number, string, string]> = {
  SIGSEGV: [11, 'SEGV_MAPERR', '0x0000000000000000'],
  SIGABRT: [6, 'SI_TKILL', '--------'],
  SIGBUS: [7, 'BUS_ADRALN', '0x0000007fe1a2b3c1'],
  SIGILL: [4, 'ILL_ILLOPC', '0x0000007a1c2d4e10'],
  SIGFPE: [8, 'FPE_INTDIV', '0x0000007a1c2d4e10'],
};

/** Tasks, app processes, activity launches, screen transitions, crashes: what ActivityManager and the apps do. */
export class ActivityManager {
  readonly runtimes = new Map<string, AppRuntime>();
  /** Bottom to top; the launcher's home task is implicit beneath them. */
  readonly tasks: Task[] = [];
  homeOnTop = true;
  private nextTaskId = 12;
  private tombstoneIndex = 0;

  constructor(private readonly device: SimulatedDevice) {
    device.packages.attachSystemApps(device.scenario.design);
  }

  /** The package whose activity is resumed, or null when the launcher is in front. */
  foregroundPackage(): string | null {
    if (this.homeOnTop) return null;
    const top = this.tasks[this.tasks.length - 1];
    return top && this.runtimes.get(top.packageName)?.stack.length ? top.packageName : null;
  }

  foreground(): { runtime: AppRuntime; screen: ScreenInstance } | null {
    const pkg = this.foregroundPackage();
    if (!pkg) return null;
    const runtime = this.runtimes.get(pkg)!;
    return { runtime, screen: runtime.stack[runtime.stack.length - 1] };
  }

  taskOf(pkg: string): Task | undefined {
    return this.tasks.find((t) => t.packageName === pkg);
  }

  private ensureTask(pkg: string): Task {
    let task = this.taskOf(pkg);
    if (task) this.tasks.splice(this.tasks.indexOf(task), 1);
    else task = { id: this.nextTaskId++, packageName: pkg };
    this.tasks.push(task);
    return task;
  }

  private removeTask(pkg: string): void {
    const i = this.tasks.findIndex((t) => t.packageName === pkg);
    if (i >= 0) this.tasks.splice(i, 1);
    if (this.tasks.length === 0) this.homeOnTop = true;
  }

  /** The screen an activity opens on: the scenario's, or the generic one for APKs without scenario behaviour. */
  private entryScreen(pkg: InstalledPackage, activity: string): string {
    const spec = pkg.spec;
    if (!spec) return GENERIC_SCREEN;
    const declared = spec.activities.find((a) => qualifyClassName(pkg.name, a.name) === activity);
    if (declared) return declared.screen;
    const byScreen = Object.entries(spec.screens).find(([, s]) => qualifyClassName(pkg.name, s.activity) === activity);
    return byScreen ? byScreen[0] : GENERIC_SCREEN;
  }

  screenSpec(runtime: AppRuntime, screen: ScreenInstance): ScreenSpec | null {
    return screen.name === GENERIC_SCREEN ? null : (runtime.pkg.spec?.screens[screen.name] ?? null);
  }

  private startProcess(pkg: InstalledPackage, activity: string): AppRuntime {
    const d = this.device;
    if (pkg.name === FRAMEWORK_PACKAGE) {
      // Framework activities (the chooser) run inside system_server: no process to fork.
      const runtime: AppRuntime = {
        pkg,
        pid: d.systemPid,
        stack: [],
        values: new Map(),
        checked: new Map(),
        texts: new Map(),
      };
      this.runtimes.set(pkg.name, runtime);
      return runtime;
    }
    const proc = d.processes.startApp(pkg.name, pkg.uid);
    const runtime: AppRuntime = {
      pkg,
      pid: proc.pid,
      stack: [],
      values: new Map(),
      checked: new Map(),
      texts: new Map(),
    };
    this.runtimes.set(pkg.name, runtime);
    const user = pkg.uid >= 10000 ? `u0a${pkg.uid - 10000}` : String(pkg.uid);
    d.log(
      'events',
      'I',
      'am_proc_start',
      `[0,${proc.pid},${pkg.uid},${pkg.name},next-top-activity,{${pkg.name}/${activity}}]`,
      d.systemPid,
    );
    d.log(
      'system',
      'I',
      'ActivityManager',
      `Start proc ${proc.pid}:${pkg.name}/${user} for next-top-activity {${pkg.name}/${activity}}`,
      d.systemPid,
    );
    d.log('main', 'I', 'Zygote', `Process ${proc.pid} created for ${pkg.name}`, d.zygotePid);
    if (pkg.debuggable)
      d.log(
        'main',
        'W',
        'ziparchive',
        `Unable to open '${pkg.codePath}/base.dm': No such file or directory`,
        proc.pid,
        pkg.uid,
      );
    if (pkg.spec?.onLaunch) this.applyAction(runtime, pkg.spec.onLaunch, null);
    return runtime;
  }

  /**
   * `am start` / launcher tap / monkey: resolves, starts or resumes, and reports like ActivityTaskManager.
   * `intent` is what the START log line shows inside its braces (default: a launcher intent's flags and component);
   * `data` is the intent's data URI, which the activity reads (App info reads `package:<name>`).
   */
  launch(
    pkgName: string,
    activityClass: string | null,
    opts: { forceStop?: boolean; intent?: string; data?: string } = {},
  ): LaunchResult {
    const d = this.device;
    const pkg = d.packages.get(pkgName);
    const activity = activityClass ? qualifyClassName(pkgName, activityClass) : (pkg?.launcherActivity ?? null);
    if (!pkg || !activity || !pkg.enabled || !pkg.activities.includes(activity)) {
      return { kind: 'not-found', component: `${pkgName}/${activity ?? activityClass ?? ''}` };
    }
    if (opts.forceStop) this.forceStop(pkgName, 'force-stop');
    const cmp = shortComponent(pkgName, activity);
    d.log(
      'system',
      'I',
      'ActivityTaskManager',
      `START u0 {${opts.intent ?? `flg=0x10000000 cmp=${cmp}`}} from uid 2000`,
      d.systemPid,
    );

    let runtime = this.runtimes.get(pkgName);
    const fg = this.foreground();
    const wasHome = this.homeOnTop;
    // A launcher intent for a package whose task exists brings that task forward as it is.
    const resumesTask = activity === pkg.launcherActivity && !!runtime?.stack.length;
    // An intent with other data than the running instance got starts a new instance on top (standard launch mode).
    const newInstance =
      opts.data !== undefined &&
      !!runtime?.stack.length &&
      !(fg?.screen.activity === activity && fg.screen.data === opts.data);
    if (!newInstance && fg && fg.runtime.pkg.name === pkgName && (fg.screen.activity === activity || resumesTask)) {
      const top = fg.screen.activity;
      return { kind: 'brought-to-front-top', activity: top, waitTime: d.rng.int(2, 9), taskOnly: top !== activity };
    }
    let state: LaunchState;
    if (newInstance) {
      state = 'WARM';
    } else if (resumesTask) {
      state = 'HOT';
    } else if (!runtime) {
      // The framework's own activities live in system_server, which is always running.
      state = pkg.name === FRAMEWORK_PACKAGE ? 'WARM' : 'COLD';
      runtime = this.startProcess(pkg, activity);
    } else if (runtime.stack.some((s) => s.activity === activity)) {
      state = 'HOT';
    } else {
      state = 'WARM';
    }
    this.ensureTask(pkgName);
    this.homeOnTop = false;
    if (state === 'HOT') {
      // Launcher intents bring the task back as it was; an explicit component pops back to that activity.
      const top = runtime!.stack[runtime!.stack.length - 1];
      if (!resumesTask && top.activity !== activity) {
        while (runtime!.stack.length && runtime!.stack[runtime!.stack.length - 1].activity !== activity)
          runtime!.stack.pop();
      }
    } else {
      this.enterScreen(runtime!, this.entryScreen(pkg, activity), {
        activity,
        data: opts.data ?? null,
        newInstance,
        logged: true,
      });
    }
    if (!this.deliverData(runtime!, activity, opts.data)) {
      // Only the instance just started finishes; one showing another package's App info stays.
      runtime!.stack.pop();
      if (!runtime!.stack.length) this.removeTask(pkgName);
      // What was in front before comes back, the home screen included.
      if (wasHome && !runtime!.stack.length) this.homeOnTop = true;
      d.scheduleTimers();
      return { kind: 'finished-before-drawn', activity, waitTime: d.rng.int(20, 60) };
    }
    const shown = runtime!.stack[runtime!.stack.length - 1].activity;
    const totalTime =
      state === 'COLD' ? d.rng.int(380, 920) : state === 'WARM' ? d.rng.int(160, 360) : d.rng.int(45, 130);
    const shownCmp = shortComponent(pkgName, shown);
    d.log('system', 'I', 'ActivityTaskManager', `Displayed ${shownCmp}: +${totalTime}ms`, d.systemPid);
    d.log(
      'events',
      'I',
      'wm_activity_launch_time',
      `[0,${parseInt(identityHash(shownCmp), 16)},${shownCmp},${totalTime}]`,
      d.systemPid,
    );
    d.scheduleTimers();
    return { kind: 'launched', state, activity: shown, totalTime, waitTime: totalTime + d.rng.int(2, 12) };
  }

  /**
   * What a started activity does with its intent's data. App info shows the package named by `package:<name>`;
   * for a package that is not installed it logs and finishes at once, as Settings does. False when it finished.
   */
  private deliverData(runtime: AppRuntime, activity: string, data: string | undefined): boolean {
    if (runtime.pkg.name !== SETTINGS_PACKAGE || activity !== APP_DETAILS_ACTIVITY) return true;
    const name = data?.startsWith('package:') ? data.slice('package:'.length) : '';
    const target = name ? this.device.packages.get(name) : undefined;
    if (!target) {
      this.device.log(
        'main',
        'W',
        'AppInfoDashboard',
        'Package info not available. Is this package already uninstalled?',
        runtime.pid,
        runtime.pkg.uid,
      );
      return false;
    }
    runtime.texts.set(APP_INFO_TITLE_ID, target.label);
    runtime.texts.set(APP_INFO_VERSION_ID, `version ${target.versionName}`);
    return true;
  }

  /** Several activities match an implicit intent: the framework's chooser comes up listing them. */
  showChooser(matches: readonly ResolvedActivity[], intent: string): LaunchResult {
    const framework = this.device.packages.get(FRAMEWORK_PACKAGE);
    if (!framework) return { kind: 'not-found', component: `${FRAMEWORK_PACKAGE}/${RESOLVER_ACTIVITY}` };
    framework.spec = resolverAppSpec(
      this.device.scenario.design,
      matches.map((m) => m.pkg.label),
    );
    // A chooser already in front is replaced by the new one rather than reported as "delivered".
    const fg = this.foreground();
    if (fg?.runtime.pkg.name === FRAMEWORK_PACKAGE) this.finishActivity(fg.runtime);
    return this.launch(FRAMEWORK_PACKAGE, RESOLVER_ACTIVITY, { intent });
  }

  /**
   * Shows a screen: a screen of the top activity replaces it, another activity is pushed. `logged`: the caller
   * (launch) writes the START/Displayed lines itself; `newInstance`: push even over the same activity.
   */
  private enterScreen(
    runtime: AppRuntime,
    name: string,
    opts: { activity?: string; data?: string | null; newInstance?: boolean; logged?: boolean } = {},
  ): void {
    const spec = name === GENERIC_SCREEN ? null : runtime.pkg.spec!.screens[name];
    const act = opts.activity ?? qualifyClassName(runtime.pkg.name, spec!.activity);
    const now = this.device.clock();
    const instance: ScreenInstance = {
      name,
      activity: act,
      enteredAtMs: now,
      dueAtMs: spec?.after ? now + spec.after.ms : null,
      focusedKey: null,
      scroll: new Map(),
      data: opts.data ?? (runtime.stack.at(-1)?.activity === act ? runtime.stack.at(-1)!.data : null),
    };
    const top = runtime.stack[runtime.stack.length - 1];
    if (top && top.activity === act && !opts.newInstance) runtime.stack[runtime.stack.length - 1] = instance;
    else {
      runtime.stack.push(instance);
      if (top && !opts.logged) {
        const cmp = shortComponent(runtime.pkg.name, act);
        this.device.log(
          'system',
          'I',
          'ActivityTaskManager',
          `START u0 {cmp=${cmp}} from uid ${runtime.pkg.uid}`,
          this.device.systemPid,
        );
        this.device.log(
          'system',
          'I',
          'ActivityTaskManager',
          `Displayed ${cmp}: +${this.device.rng.int(110, 320)}ms`,
          this.device.systemPid,
        );
      }
    }
    if (spec?.onEnter) this.applyAction(runtime, spec.onEnter, null);
    this.device.scheduleTimers();
  }

  /** Runs a scenario action on behalf of the app; `node` is the view it came from (for toggles). */
  applyAction(runtime: AppRuntime, action: Action, node: ViewNode | null): void {
    if (this.runtimes.get(runtime.pkg.name) !== runtime) return; // the process died meanwhile
    if (action.require) {
      const ok = Object.entries(action.require).every(([id, pattern]) =>
        new RegExp(pattern).test(runtime.values.get(`id:${id}`) ?? ''),
      );
      if (!ok) {
        if (action.otherwise) this.applyAction(runtime, action.otherwise, node);
        return;
      }
    }
    for (const line of action.log ?? []) {
      const message = line.message.replace(
        /\{field:([A-Za-z0-9_.:/-]+)\}/g,
        (_, id: string) => runtime.values.get(`id:${id}`) ?? '',
      );
      this.device.log(line.buffer ?? 'main', line.level, line.tag, message, runtime.pid, runtime.pkg.uid);
    }
    for (const [id, text] of Object.entries(action.setText ?? {})) runtime.texts.set(`id:${id}`, text);
    if (action.toggle && node?.checkable) {
      runtime.checked.set(node.key, !node.checked);
    }
    if (action.crash) {
      this.crash(runtime, action.crash);
      return;
    }
    if (action.finish && !action.goto) {
      this.finishActivity(runtime);
      return;
    }
    if (action.goto) {
      if (action.finish) this.finishActivity(runtime, false);
      this.enterScreen(runtime, action.goto);
    }
    if (action.back) this.back();
  }

  private finishActivity(runtime: AppRuntime, settleFocus = true): void {
    const top = runtime.stack[runtime.stack.length - 1];
    if (!top) return;
    while (runtime.stack.length && runtime.stack[runtime.stack.length - 1].activity === top.activity)
      runtime.stack.pop();
    if (settleFocus && runtime.stack.length === 0) this.removeTask(runtime.pkg.name);
  }

  /** KEYCODE_BACK: the screen's onBack, else pop the screen; an emptied task leaves the process cached. */
  back(): void {
    const fg = this.foreground();
    if (!fg) return;
    const spec = this.screenSpec(fg.runtime, fg.screen);
    if (spec?.onBack) {
      const { back: _ignored, ...rest } = spec.onBack;
      this.applyAction(fg.runtime, rest, null);
      return;
    }
    fg.runtime.stack.pop();
    if (fg.runtime.stack.length === 0) this.removeTask(fg.runtime.pkg.name);
    this.device.scheduleTimers();
  }

  home(): void {
    this.homeOnTop = true;
  }

  /** Moves delayed screens (loading → loaded) whose time has come; log lines carry the due time. */
  settle(): void {
    const now = this.device.clock();
    for (let guard = 0; guard < 100; guard++) {
      let next: { runtime: AppRuntime; screen: ScreenInstance } | null = null;
      for (const runtime of this.runtimes.values()) {
        const top = runtime.stack[runtime.stack.length - 1];
        if (
          top?.dueAtMs !== null &&
          top?.dueAtMs !== undefined &&
          top.dueAtMs <= now &&
          (!next || top.dueAtMs < next.screen.dueAtMs!)
        ) {
          next = { runtime, screen: top };
        }
      }
      if (!next) return;
      const due = next.screen.dueAtMs!;
      next.screen.dueAtMs = null;
      const spec = this.screenSpec(next.runtime, next.screen);
      if (spec?.after) this.device.atTime(due, () => this.applyAction(next!.runtime, spec.after!.then, null));
    }
  }

  /** The earliest pending delayed transition, for the device's wake-up timer. */
  nextDueMs(): number | null {
    let min: number | null = null;
    for (const runtime of this.runtimes.values()) {
      const due = runtime.stack[runtime.stack.length - 1]?.dueAtMs ?? null;
      if (due !== null && (min === null || due < min)) min = due;
    }
    return min;
  }

  private importance(pkg: string): number {
    return this.foregroundPackage() === pkg ? 100 : 400;
  }

  /** Ends an app process and records why, as ActivityManager does. */
  killProcess(
    pkg: string,
    reason: ExitReason,
    subreason: ExitSubreason,
    description: string | null,
    status = 0,
    trace: string | null = null,
  ): boolean {
    const d = this.device;
    const runtime = this.runtimes.get(pkg);
    if (!runtime) return false;
    if (runtime.pid === d.systemPid) {
      // Framework activities die with their task, never with system_server.
      this.runtimes.delete(pkg);
      this.removeTask(pkg);
      return true;
    }
    const proc = d.processes.get(runtime.pid);
    d.exits.add({
      packageName: pkg,
      uid: runtime.pkg.uid,
      pid: runtime.pid,
      processName: pkg,
      reason,
      subreason,
      status,
      importance: this.importance(pkg),
      pssKb: Math.round((proc?.rssKb ?? 100_000) * 0.45),
      rssKb: proc?.rssKb ?? 100_000,
      description,
      timeMs: d.clock(),
      trace,
    });
    const fg = this.foregroundPackage() === pkg;
    d.log(
      'system',
      'I',
      'ActivityManager',
      `Process ${pkg} (pid ${runtime.pid}) has died: ${fg ? 'fg  TOP ' : 'cch  CEM '}`,
      d.systemPid,
    );
    d.log('events', 'I', 'am_proc_died', `[0,${runtime.pid},${pkg},${fg ? 0 : 900},${fg ? 2 : 19}]`, d.systemPid);
    d.processes.remove(runtime.pid);
    this.runtimes.delete(pkg);
    this.removeTask(pkg);
    d.scheduleTimers();
    return true;
  }

  forceStop(pkg: string, cause: 'force-stop' | 'clear' | 'update' | 'uninstall'): void {
    const d = this.device;
    const api = d.api;
    if (cause === 'force-stop') {
      d.log(
        'system',
        'I',
        'ActivityManager',
        `Force stopping ${pkg} appid=${(d.packages.get(pkg)?.uid ?? 0) % 100000} user=0: from pid ${d.processes.nextShellPid()}`,
        d.systemPid,
      );
      this.killProcess(
        pkg,
        'USER_REQUESTED',
        api >= 33 ? 'STOP_APP' : 'UNKNOWN',
        api >= 33 ? `stop ${pkg} due to from pid ${d.systemPid}` : 'force stop',
      );
    } else if (cause === 'clear') {
      this.killProcess(pkg, 'USER_REQUESTED', 'UNKNOWN', 'clear data');
    } else if (cause === 'update') {
      if (api >= 35) this.killProcess(pkg, 'PACKAGE_UPDATED', 'PACKAGE_UPDATE', 'pkg updated');
      else this.killProcess(pkg, 'USER_REQUESTED', 'UNKNOWN', 'replace pkg');
    } else {
      this.killProcess(pkg, 'USER_REQUESTED', 'UNKNOWN', 'pkg removed');
    }
    this.removeTask(pkg);
  }

  /** `am kill`: only processes not in the foreground die. */
  killBackground(pkg: string): void {
    if (this.foregroundPackage() === pkg) return;
    this.killProcess(pkg, 'USER_REQUESTED', this.device.api >= 33 ? 'KILL_BACKGROUND' : 'UNKNOWN', 'kill background');
  }

  crash(runtime: AppRuntime, spec: CrashSpec): void {
    if (spec.kind === 'java') this.javaCrash(runtime, spec);
    else if (spec.kind === 'native') this.nativeCrash(runtime, spec);
    else this.anr(runtime, spec.reason);
  }

  private javaCrash(runtime: AppRuntime, spec: Extract<CrashSpec, { kind: 'java' }>): void {
    const d = this.device;
    const pkg = runtime.pkg.name;
    const screen = runtime.stack[runtime.stack.length - 1];
    const activity = screen?.activity ?? runtime.pkg.launcherActivity ?? `${pkg}.MainActivity`;
    const simpleName = activity.slice(activity.lastIndexOf('.') + 1);
    const exception = spec.exception ?? 'java.lang.IllegalStateException';
    const sourceFrames = spec.frames ?? [
      `${activity}.onCrashClicked(${simpleName}.kt:42)`,
      `${activity}.onCreate$lambda$0(${simpleName}.kt:27)`,
    ];
    // A minified build's code was renamed by R8: it throws from the renamed methods, at their minified lines.
    const table = runtime.pkg.r8Frames;
    const frames = table ? sourceFrames.map((f) => minifiedFrame(f, table)) : sourceFrames;
    const lines = [
      'FATAL EXCEPTION: main',
      `Process: ${pkg}, PID: ${runtime.pid}`,
      spec.message !== undefined ? `${exception}: ${spec.message}` : exception,
      ...[...frames, ...FRAMEWORK_FRAMES].map((f) => `\tat ${f}`),
    ];
    if (spec.causedBy) {
      const c = spec.causedBy;
      lines.push(c.message !== undefined ? `Caused by: ${c.exception}: ${c.message}` : `Caused by: ${c.exception}`);
      lines.push(...(c.frames ?? [`${activity}.loadState(${simpleName}.kt:88)`]).map((f) => `\tat ${f}`));
      lines.push(`\t... ${FRAMEWORK_FRAMES.length} more`);
    }
    d.log('main', 'D', 'AndroidRuntime', 'Shutting down VM', runtime.pid, runtime.pkg.uid);
    d.log('crash', 'E', 'AndroidRuntime', lines.join('\n'), runtime.pid, runtime.pkg.uid);
    d.log(
      'events',
      'I',
      'am_crash',
      `[${d.systemPid},0,${pkg},${0x38d83e44},${exception},${spec.message ?? 'NULL'},${simpleName}.kt,42]`,
      d.systemPid,
    );
    d.log('main', 'I', 'Process', `Sending signal. PID: ${runtime.pid} SIG: 9`, runtime.pid, runtime.pkg.uid);
    d.log(
      'system',
      'W',
      'ActivityTaskManager',
      `  Force finishing activity ${shortComponent(pkg, activity)}`,
      d.systemPid,
    );
    this.killProcess(pkg, 'CRASH', 'UNKNOWN', 'crash');
  }

  private nativeCrash(runtime: AppRuntime, spec: Extract<CrashSpec, { kind: 'native' }>): void {
    const d = this.device;
    const pkg = runtime.pkg.name;
    const signalName = spec.signal ?? 'SIGSEGV';
    const [signo, code, addr] = SIGNALS[signalName];
    const thread = spec.thread ?? pkg.slice(-15);
    const tid = runtime.pid;
    const library = spec.library ?? `lib${pkg.split('.').pop()}.so`;
    const symbol = spec.symbol ?? `Java_${pkg.replace(/\./g, '_')}_NativeBridge_crash+36`;
    const abi = d.props.get('ro.product.cpu.abi') ?? 'x86_64';
    const abiName = abi === 'arm64-v8a' ? 'arm64' : abi;
    const libDir = abi === 'arm64-v8a' ? 'arm64' : abi;
    const faultPart = signalName === 'SIGABRT' ? '' : `, fault addr 0x${BigInt(addr).toString(16)}`;
    d.log(
      'main',
      'F',
      'libc',
      `Fatal signal ${signo} (${signalName}), code ${signalName === 'SIGABRT' ? -1 : 1} (${code})${faultPart} in tid ${tid} (${thread}), pid ${runtime.pid} (${pkg})`,
      runtime.pid,
      runtime.pkg.uid,
    );
    const dumper = d.processes.nextShellPid();
    const tombstone = `/data/tombstones/tombstone_${String(this.tombstoneIndex++ % 32).padStart(2, '0')}`;
    const body = [
      '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***',
      `Build fingerprint: '${d.props.get('ro.build.fingerprint')}'`,
      "Revision: '0'",
      `ABI: '${abiName}'`,
      `Timestamp: ${formatDeviceTime(d.clock())}000+0000`,
      `Process uptime: ${Math.max(1, Math.round((d.clock() - (d.processes.get(runtime.pid)?.startTimeMs ?? d.clock())) / 1000))}s`,
      `Cmdline: ${pkg}`,
      `pid: ${runtime.pid}, tid: ${tid}, name: ${thread}  >>> ${pkg} <<<`,
      `uid: ${runtime.pkg.uid}`,
      `signal ${signo} (${signalName}), code ${signalName === 'SIGABRT' ? -1 : 1} (${code}), fault addr ${addr}`,
      '    rax 0000000000000000  rbx 00007a1c2d4e1000  rcx 0000000000000000  rdx 0000000000000001',
      '    r8  00007ffd5b2c1e20  r9  0000000000000000  r10 00007a1c2d4e1040  r11 0000000000000246',
      '    rip 00007a1c2d4e4d10  rbp 00007ffd5b2c1f60  rsp 00007ffd5b2c1f38  eflags 0000000000010246',
      '',
      '3 total frames',
      'backtrace:',
      `      #00 pc 0000000000012d10  ${runtime.pkg.codePath}/lib/${libDir}/${library} (${symbol}) (BuildId: ${identityHash(library)}${identityHash(pkg)})`,
      `      #01 pc 00000000003a8b4c  /apex/com.android.art/lib64/libart.so (art_quick_generic_jni_trampoline+220) (BuildId: 1b3e7c1f0a2d4c8e9f6a5b4c3d2e1f00)`,
      `      #02 pc 000000000037d3a4  /apex/com.android.art/lib64/libart.so (nterp_helper+3924) (BuildId: 1b3e7c1f0a2d4c8e9f6a5b4c3d2e1f00)`,
    ];
    for (const line of body) d.log('crash', 'F', 'DEBUG', line, dumper, 0);
    d.fs.putSystemFile(tombstone, Buffer.from(`${body.join('\n')}\n`), 0o600, 'tombstoned');
    d.log('main', 'I', 'tombstoned', `received crash request for pid ${tid}`, 0, 1058);
    d.log('system', 'I', 'BootReceiver', `Copying ${tombstone} to DropBox (SYSTEM_TOMBSTONE)`, d.systemPid);
    this.killProcess(pkg, 'CRASH_NATIVE', 'UNKNOWN', 'crash', signo);
  }

  private anr(runtime: AppRuntime, reason?: string): void {
    const d = this.device;
    const pkg = runtime.pkg.name;
    const screen = runtime.stack[runtime.stack.length - 1];
    const activity = screen?.activity ?? runtime.pkg.launcherActivity ?? `${pkg}.MainActivity`;
    const cmp = shortComponent(pkg, activity);
    const why =
      reason ??
      `Input dispatching timed out (${identityHash(cmp)} ${pkg}/${activity} (server) is not responding. Waited 5001ms for MotionEvent)`;
    const now = d.clock();
    const traceFile = `/data/anr/anr_${formatDeviceTime(now).replace(' ', '-').replace(/[:.]/g, '-')}`;
    d.log('events', 'I', 'am_anr', `[0,${runtime.pid},${pkg},${0x38d8be44},${why}]`, d.systemPid);
    d.log(
      'system',
      'E',
      'ActivityManager',
      [
        `ANR in ${pkg} (${cmp})`,
        `PID: ${runtime.pid}`,
        `Reason: ${why}`,
        `Parent: ${cmp}`,
        `ErrorId: ${d.rng.hex(8)}-${d.rng.hex(4)}-${d.rng.hex(4)}-${d.rng.hex(4)}-${d.rng.hex(12)}`,
        'Frozen: false',
        'Load: 1.42 / 1.06 / 0.87',
        '----- Output from /proc/pressure/memory -----',
        'some avg10=0.00 avg60=0.00 avg300=0.00 total=41211',
        'full avg10=0.00 avg60=0.00 avg300=0.00 total=30722',
        '----- End output from /proc/pressure/memory -----',
        '',
        `CPU usage from 0ms to 5412ms later (${formatDeviceTime(now)} to ${formatDeviceTime(now + 5412)}):`,
        `  97% ${runtime.pid}/${pkg}: 95% user + 2.1% kernel / faults: 1820 minor`,
        `  12% ${d.systemPid}/system_server: 7.9% user + 4.5% kernel / faults: 2101 minor`,
      ].join('\n'),
      d.systemPid,
    );
    const trace = [
      '',
      `----- pid ${runtime.pid} at ${formatDeviceTime(now)}000000+0000 -----`,
      `Cmd line: ${pkg}`,
      `Build fingerprint: '${d.props.get('ro.build.fingerprint')}'`,
      `ABI: '${d.props.get('ro.product.cpu.abi')}'`,
      'Build type: optimized',
      '',
      `"main" prio=5 tid=1 Runnable`,
      `  | group="main" sCount=0 ucsCount=0 flags=0 obj=0x71f2d7b8 self=0x7a1c2d4e1000`,
      `  | sysTid=${runtime.pid} nice=-10 cgrp=top-app sched=0/0 handle=0x7c2b8e34c0`,
      `  at ${activity}.onSlowClicked(${activity.slice(activity.lastIndexOf('.') + 1)}.kt:61)`,
      ...FRAMEWORK_FRAMES.map((f) => `  at ${f}`),
      '',
      `----- end ${runtime.pid} -----`,
      '',
    ].join('\n');
    d.fs.putSystemFile(traceFile, Buffer.from(trace), 0o600, 'system');
    d.log('main', 'I', 'Process', `Sending signal. PID: ${runtime.pid} SIG: 9`, d.systemPid);
    this.killProcess(pkg, 'ANR', 'UNKNOWN', why, 0, traceFile);
  }
}
