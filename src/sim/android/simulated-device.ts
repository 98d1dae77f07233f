import { ActivityManager, GENERIC_SCREEN, type AppRuntime } from './activity-manager.js';
import { ExitInfoStore } from './exit-info.js';
import { KEY, keyChar } from './keycodes.js';
import {
  BUFFER_CAPACITY_BYTES,
  LogBuffers,
  PRIORITY,
  type LogBufferName,
  type PriorityLetter,
} from './logcat/log-buffers.js';
import { FLOOD_PACKAGE, startLogFlood } from './logcat/log-flood.js';
import type { LogcatReplay } from './logcat/logcat-replay.js';
import { PackageManager } from './package-manager.js';
import { ProcessTable, SYSTEM_SERVER_PID, ZYGOTE_PID } from './process-table.js';
import { SeededRandom } from './random.js';
import type { Scenario } from './scenario/scenario-schema.js';
import { DeviceFileSystem } from './sim-file-system.js';
import {
  renderGenericScreen,
  renderKeyguard,
  renderLauncher,
  renderScenarioScreen,
  type Display,
} from './ui/screen-renderer.js';
import { UiAutomatorService } from './ui/ui-automator-service.js';
import { findList, hitTest, walk, type ViewNode } from './ui/view-node.js';

export interface DeviceConfig {
  readonly avd?: string;
  readonly model: string;
  readonly api: number;
  readonly abi: string;
  readonly serial: string;
  readonly scenario: Scenario;
  readonly locked: boolean;
  readonly screenOff: boolean;
  readonly seed: number;
  readonly backgroundLogRate: number;
  /** `--log-rate`: flood lines per second (0: none). */
  readonly floodLogRate: number;
  /** `--logcat-replay`: a captured log loaded into the buffers at boot. */
  readonly logcatReplay?: LogcatReplay;
  readonly width: number;
  readonly height: number;
  readonly density: number;
  readonly clock: () => number;
}

const RELEASES: Record<number, string> = {
  23: '6.0',
  24: '7.0',
  25: '7.1.1',
  26: '8.0.0',
  27: '8.1.0',
  28: '9',
  29: '10',
  30: '11',
  31: '12',
  32: '12',
  33: '13',
  34: '14',
  35: '15',
  36: '16',
};
const BUILD_IDS: Record<number, string> = {
  29: 'QSR1.210820.001',
  30: 'RSR1.240422.006',
  31: 'SE1A.220826.008',
  32: 'SE2A.220505.003',
  33: 'TE1A.220922.034',
  34: 'UE1A.230829.036',
  35: 'AE3A.240806.036',
};

/** Quiet-device chatter for background traffic: [buffer, level, tag, message, pid]. */
const BACKGROUND_LINES: readonly [LogBufferName, PriorityLetter, string, string, number][] = [
  [
    'system',
    'I',
    'ActivityManager',
    'Background started FGS: Disallowed [callingPackage: com.google.android.gms; callingUid: 10104]',
    SYSTEM_SERVER_PID,
  ],
  ['system', 'D', 'ConnectivityService', 'NetworkAgentInfo [WIFI () - 100] validation passed', SYSTEM_SERVER_PID],
  ['system', 'I', 'PowerHalWrapper', 'PowerHalWrapper.sendPowerHint: hint=2, data=0', SYSTEM_SERVER_PID],
  ['main', 'D', 'WifiNl80211Manager', 'Scan result ready event', SYSTEM_SERVER_PID],
  ['main', 'I', 'GservicesProvider', 'Gservices pushing to system: true; secure: true', 1201],
  ['main', 'W', 'ActivityThread', 'handleWindowVisibility: no activity for token android.os.BinderProxy@6f2a1c3', 812],
  [
    'main',
    'D',
    'BatteryService',
    'Processing new values: info={.chargerAcOnline = true, .batteryLevel = 100, .batteryTemperatureTenthsCelsius = 250}',
    SYSTEM_SERVER_PID,
  ],
  ['main', 'I', 'chatty', 'uid=10104(com.google.android.gms) identical 3 lines', 1201],
  ['main', 'D', 'EGL_emulation', 'app_time_stats: avg=16.67ms min=15.21ms max=18.02ms count=60', 812],
  [
    'main',
    'V',
    'NotificationService',
    'enqueueNotificationInternal: pkg=com.google.android.gms id=1 notification=Notification(channel=miscellaneous)',
    SYSTEM_SERVER_PID,
  ],
  ['main', 'E', 'netmgr', "Failed to open QEMU pipe 'qemud:network': Invalid argument", 405],
  ['main', 'I', 'keystore2', 'keystore2::watchdog: Watchdog thread idle -> terminating. Have a great day.', 147],
  ['events', 'I', 'battery_level', '[100,5000,250]', SYSTEM_SERVER_PID],
  [
    'system',
    'W',
    'JobScheduler',
    "Job didn't exist in JobStore: 4a21b7e #u0a104/1002 com.google.android.gms/.chimera.GmsIntentOperationService",
    SYSTEM_SERVER_PID,
  ],
];

/** All state of the simulated phone and the behaviour that changes it; commands are thin views over this. */
export class SimulatedDevice {
  readonly clock: () => number;
  readonly rng: SeededRandom;
  readonly api: number;
  readonly avdName?: string;
  readonly scenario: Scenario;
  readonly props = new Map<string, string>();
  readonly settings = {
    global: new Map<string, string>(),
    system: new Map<string, string>(),
    secure: new Map<string, string>(),
  };
  readonly fs: DeviceFileSystem;
  readonly processes: ProcessTable;
  readonly packages: PackageManager;
  readonly logs: LogBuffers;
  readonly exits: ExitInfoStore;
  readonly am: ActivityManager;
  readonly uiAutomator = new UiAutomatorService();
  readonly bootTimeMs: number;
  readonly systemPid = SYSTEM_SERVER_PID;
  readonly zygotePid = ZYGOTE_PID;
  readonly physical: { width: number; height: number; density: number };
  overrideSize: { width: number; height: number } | null = null;
  overrideDensity: number | null = null;
  screenOn: boolean;
  locked: boolean;
  batteryLevel = 100;
  /** The screen the soft keyboard was opened on by focusing a field; it is up while that screen is in front. */
  private keyboardScreen: object | null = null;
  /** The primary clip (Clipper sets it; KEYCODE_PASTE types it). */
  clipboard: string | null = null;
  private timeOverride: number | null = null;
  private dueTimer: NodeJS.Timeout | null = null;
  private backgroundTimer: NodeJS.Timeout | null = null;
  private flood: { stop(): void } | null = null;
  /** What `--logcat-replay` loaded, for the sim's start-up report. */
  replayed: { format: string; entries: number; processes: number; unparsed: number } | null = null;
  private disposed = false;
  private readonly bgRng: SeededRandom;

  constructor(config: DeviceConfig) {
    this.clock = () => this.timeOverride ?? config.clock();
    this.rng = new SeededRandom(config.seed);
    this.bgRng = new SeededRandom(config.seed ^ 0x5bd1e995);
    this.api = config.api;
    this.avdName = config.avd;
    this.scenario = config.scenario;
    this.physical = { width: config.width, height: config.height, density: config.density };
    this.screenOn = !config.screenOff;
    this.locked = config.locked || config.screenOff;
    const now = config.clock();
    this.bootTimeMs = now - 15 * 60_000;
    this.fs = new DeviceFileSystem(() => Math.floor(this.clock() / 1000));
    this.processes = new ProcessTable(this.rng, this.clock, this.bootTimeMs);
    this.packages = new PackageManager(this.rng, this.clock, this.bootTimeMs);
    this.logs = new LogBuffers(this.clock);
    this.exits = new ExitInfoStore(this.bootTimeMs);
    this.am = new ActivityManager(this);
    this.initProps(config);
    this.initSettings();
    this.initFileSystem();
    for (const app of config.scenario.apps) {
      const pkg = this.packages.installScenarioApp(app, this.bootTimeMs - 3_600_000);
      this.fs.mkdirs(pkg.codePath, 'system', 0o755);
    }
    this.bootLogs();
    if (config.logcatReplay) this.replayLogcat(config.logcatReplay);
    if (config.backgroundLogRate > 0) this.startBackgroundLogs(config.backgroundLogRate);
    if (config.floodLogRate > 0) {
      const proc = this.processes.startApp(FLOOD_PACKAGE, 10_999);
      this.flood = startLogFlood(this.logs, {
        rate: config.floodLogRate,
        pid: proc.pid,
        uid: proc.uid,
        clock: this.clock,
      });
    }
  }

  private initProps(c: DeviceConfig): void {
    const emulator = c.avd !== undefined;
    const release = RELEASES[c.api] ?? String(Math.max(1, c.api - 20));
    const buildId = BUILD_IDS[c.api] ?? 'UE1A.230829.036';
    const product = emulator
      ? c.abi.startsWith('arm')
        ? 'sdk_gphone64_arm64'
        : 'sdk_gphone64_x86_64'
      : c.model.toLowerCase().replace(/[^a-z0-9]+/g, '_');
    const device = emulator ? (c.abi.startsWith('arm') ? 'emu64a' : 'emu64x') : product;
    const type = emulator ? 'userdebug' : 'user';
    const tags = emulator ? 'dev-keys' : 'release-keys';
    const abilist = c.abi === 'x86_64' ? 'x86_64,arm64-v8a' : c.abi === 'arm64-v8a' ? 'arm64-v8a' : c.abi;
    const set = (k: string, v: string) => this.props.set(k, v);
    set('ro.product.model', c.model);
    set('ro.product.brand', 'google');
    set('ro.product.manufacturer', 'Google');
    set('ro.product.name', product);
    set('ro.product.device', device);
    set('ro.product.board', emulator ? 'goldfish_x86_64' : device);
    set('ro.product.cpu.abi', c.abi);
    set('ro.product.cpu.abilist', abilist);
    set('ro.product.cpu.abilist64', abilist);
    set('ro.product.locale', 'en-US');
    set('ro.build.version.sdk', String(c.api));
    set('ro.build.version.release', release);
    set('ro.build.version.release_or_codename', release);
    set('ro.build.version.codename', 'REL');
    set('ro.build.version.security_patch', '2023-09-05');
    set('ro.build.id', buildId);
    set('ro.build.display.id', `${product}-${type} ${release} ${buildId} 10754064 ${tags}`);
    set('ro.build.type', type);
    set('ro.build.tags', tags);
    set('ro.build.fingerprint', `google/${product}/${device}:${release}/${buildId}/10754064:${type}/${tags}`);
    set('ro.build.characteristics', emulator ? 'emulator' : 'nosdcard');
    set('ro.hardware', emulator ? 'ranchu' : device);
    set('ro.serialno', c.serial);
    set('ro.boot.serialno', c.serial);
    set('ro.debuggable', emulator ? '1' : '0');
    set('ro.secure', '1');
    set('ro.adb.secure', '1');
    set('ro.sf.lcd_density', String(c.density));
    set('ro.opengles.version', '196610');
    set('ro.zygote', 'zygote64_32');
    set('persist.sys.timezone', 'GMT');
    set('persist.sys.locale', 'en-US');
    set('persist.sys.usb.config', 'adb');
    set('sys.usb.state', 'adb');
    set('sys.boot_completed', '1');
    set('dev.bootcomplete', '1');
    set('init.svc.bootanim', 'stopped');
    set('init.svc.adbd', 'running');
    set('service.adb.root', '0');
    set('gsm.operator.alpha', emulator ? 'T-Mobile' : 'Google Fi');
    set('gsm.sim.state', 'LOADED');
    set('net.bt.name', 'Android');
    set('dalvik.vm.heapsize', '512m');
    set('ro.crypto.state', 'encrypted');
    set('ro.treble.enabled', 'true');
    if (emulator) {
      set('ro.kernel.qemu', '1');
      set('ro.boot.qemu', '1');
      set('ro.boot.qemu.avd_name', c.avd!);
      set('ro.boot.hardware', 'ranchu');
      set('qemu.sf.lcd_density', String(c.density));
    }
  }

  private initSettings(): void {
    const g = this.settings.global;
    for (const [k, v] of Object.entries({
      adb_enabled: '1',
      airplane_mode_on: '0',
      animator_duration_scale: '1.0',
      auto_time: '1',
      bluetooth_on: '0',
      boot_count: '1',
      development_settings_enabled: '1',
      device_name: this.props.get('ro.product.model')!,
      mobile_data: '1',
      stay_on_while_plugged_in: '0',
      transition_animation_scale: '1.0',
      wifi_on: '1',
      window_animation_scale: '1.0',
    }))
      g.set(k, v);
    for (const [k, v] of Object.entries({
      accelerometer_rotation: '0',
      font_scale: '1.0',
      screen_brightness: '102',
      screen_brightness_mode: '0',
      screen_off_timeout: '60000',
      sound_effects_enabled: '1',
      user_rotation: '0',
    }))
      this.settings.system.set(k, v);
    for (const [k, v] of Object.entries({
      android_id: this.rng.hex(16),
      default_input_method: 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
      enabled_accessibility_services: '',
      location_mode: '3',
      'lockscreen.disabled': '0',
      show_ime_with_hard_keyboard: '0',
    } as Record<string, string>))
      this.settings.secure.set(k, v);
  }

  private initFileSystem(): void {
    const fs = this.fs;
    for (const d of [
      '/system/bin',
      '/system/app',
      '/system/priv-app',
      '/system/framework',
      '/vendor/bin',
      '/product/app',
      '/apex',
      '/proc',
      '/dev',
      '/data/app',
      '/data/anr',
      '/data/tombstones',
      '/data/system',
      '/data/data',
      '/storage',
    ])
      fs.mkdirs(d);
    fs.mkdirs('/data/local/tmp', 'shell', 0o771);
    fs.mkdirs('/sdcard', 'root', 0o770);
    for (const d of [
      'Alarms',
      'DCIM',
      'Documents',
      'Download',
      'Movies',
      'Music',
      'Notifications',
      'Pictures',
      'Podcasts',
      'Ringtones',
    ])
      fs.mkdirs(`/sdcard/${d}`, 'root', 0o770);
    const buildProp = [...this.props].filter(([k]) => k.startsWith('ro.')).map(([k, v]) => `${k}=${v}`);
    fs.putSystemFile(
      '/system/build.prop',
      Buffer.from(['# begin build properties', ...buildProp, '# end build properties', ''].join('\n')),
      0o600,
      'root',
    );
  }

  /** Registers the executable for each command so `ls /system/bin` and `which` see them. */
  registerCommands(names: Iterable<string>): void {
    for (const name of names)
      this.fs.putSystemFile(`/system/bin/${name}`, Buffer.from(`#!/system/bin/sh\n# ${name}\n`), 0o755, 'root');
  }

  private bootLogs(): void {
    const t = this.bootTimeMs;
    const at = (offset: number, fn: () => void) => this.atTime(t + offset, fn);
    at(0, () => this.log('main', 'I', 'init', 'init first stage started!', 1));
    at(3200, () => this.log('system', 'I', 'SystemServer', 'Entered the Android system server!', SYSTEM_SERVER_PID));
    at(9100, () => this.log('system', 'I', 'ActivityManager', 'System now ready', SYSTEM_SERVER_PID));
    at(11800, () => this.log('events', 'I', 'boot_progress_enable_screen', '11800', SYSTEM_SERVER_PID));
    at(12050, () =>
      this.log(
        'system',
        'I',
        'ActivityManager',
        `Start proc 1130:com.google.android.apps.nexuslauncher/u0a134 for top-activity {com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity}`,
        SYSTEM_SERVER_PID,
      ),
    );
    at(14500, () =>
      this.log(
        'system',
        'I',
        'ActivityTaskManager',
        'Displayed com.google.android.apps.nexuslauncher/.NexusLauncherActivity: +2s411ms',
        SYSTEM_SERVER_PID,
      ),
    );
    at(15000, () => this.log('main', 'I', 'adbd', 'adbd started', 392, 2000));
  }

  /** Loads a captured log as if this device had logged it: its processes first, so `ps` resolves every pid. */
  private replayLogcat(replay: LogcatReplay): void {
    const packageUids = new Map<string, number>();
    for (const [pid, name] of replay.processes) {
      const pkg = name?.split(':')[0];
      let uid = pkg ? packageUids.get(pkg) : undefined;
      if (pkg && uid === undefined) {
        uid = this.packages.get(pkg)?.uid ?? 10_500 + packageUids.size;
        packageUids.set(pkg, uid);
      }
      this.processes.adopt(pid, name, uid ?? 0);
    }
    // logd is sized to hold the whole capture, as `logcat -G` would be before reproducing a field log.
    const bytes = new Map<LogBufferName, number>();
    for (const e of replay.entries) {
      bytes.set(e.buffer, (bytes.get(e.buffer) ?? 0) + 32 + Buffer.byteLength(e.tag) + Buffer.byteLength(e.message));
    }
    const needed = Math.max(0, ...bytes.values());
    if (needed > BUFFER_CAPACITY_BYTES) this.logs.setCapacity(Math.ceil((needed * 1.25) / 1024) * 1024);
    for (const e of replay.entries) this.logs.append({ ...e, uid: this.processes.get(e.pid)?.uid ?? 0 });
    this.replayed = {
      format: replay.format,
      entries: replay.entries.length,
      processes: replay.processes.size,
      unparsed: replay.unparsed,
    };
  }

  private startBackgroundLogs(rate: number): void {
    const interval = Math.max(5, Math.round(1000 / rate));
    this.backgroundTimer = setInterval(() => {
      const [buffer, level, tag, message, pid] = this.bgRng.pick(BACKGROUND_LINES);
      this.log(buffer, level, tag, message, pid, pid === SYSTEM_SERVER_PID ? 1000 : 0, this.bgRng.int(0, 40));
    }, interval);
    this.backgroundTimer.unref();
  }

  /** Appends to logd. `tidOffset` makes background threads differ from the main thread like real traffic. */
  log(
    buffer: LogBufferName,
    level: PriorityLetter,
    tag: string,
    message: string,
    pid: number,
    uid?: number,
    tidOffset = 0,
  ): void {
    this.logs.append({
      buffer,
      priority: PRIORITY[level],
      tag,
      message,
      pid,
      tid: pid + tidOffset,
      uid: uid ?? (pid === SYSTEM_SERVER_PID ? 1000 : 0),
    });
  }

  /** Runs `fn` as if at time `ms` (log timestamps of delayed transitions are their due time). */
  atTime(ms: number, fn: () => void): void {
    const previous = this.timeOverride;
    this.timeOverride = ms;
    try {
      fn();
    } finally {
      this.timeOverride = previous;
    }
  }

  /** Brings time-driven state up to date; every command runs this first. */
  settle(): void {
    this.am.settle();
  }

  /** Arms one unref'd timer for the next delayed transition so log followers see it on time. */
  scheduleTimers(): void {
    if (this.disposed) return;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueTimer = null;
    const due = this.am.nextDueMs();
    if (due === null) return;
    this.dueTimer = setTimeout(
      () => {
        this.dueTimer = null;
        this.settle();
        this.scheduleTimers();
      },
      Math.max(0, due - this.clock()),
    );
    this.dueTimer.unref();
  }

  dispose(): void {
    this.disposed = true;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    if (this.backgroundTimer) clearInterval(this.backgroundTimer);
    this.flood?.stop();
    this.flood = null;
    this.dueTimer = null;
    this.backgroundTimer = null;
  }

  // --- display -------------------------------------------------------------------------------------------------

  rotation(): number {
    if (this.settings.system.get('accelerometer_rotation') === '1') return 0;
    const r = Number(this.settings.system.get('user_rotation') ?? '0');
    return Number.isInteger(r) && r >= 0 && r <= 3 ? r : 0;
  }

  /** The logical display as apps see it: override size, then rotation. */
  display(): Display {
    const base = this.overrideSize ?? this.physical;
    return this.rotation() % 2 === 1
      ? { width: base.height, height: base.width }
      : { width: base.width, height: base.height };
  }

  density(): number {
    return this.overrideDensity ?? this.physical.density;
  }

  /** What UI Automator sees: null with the screen off (no window to dump). */
  currentTree(): ViewNode | null {
    if (!this.screenOn) return null;
    if (this.locked) return renderKeyguard(this.display(), this.clock());
    const fg = this.am.foreground();
    if (!fg) return this.launcherTree();
    const { runtime, screen } = fg;
    if (screen.name === GENERIC_SCREEN) return renderGenericScreen(runtime.pkg, screen.activity, this.display());
    return renderScenarioScreen(
      this.scenario,
      runtime.pkg,
      {
        screenName: screen.name,
        focusedKey: screen.focusedKey,
        scroll: screen.scroll,
        values: runtime.values,
        checked: runtime.checked,
        texts: runtime.texts,
      },
      this.display(),
    );
  }

  private launcherTree(): ViewNode {
    const apps = this.packages
      .list()
      .filter((p) => p.launcherActivity && p.enabled)
      .sort((a, b) => Number(a.system) - Number(b.system) || a.label.localeCompare(b.label));
    return renderLauncher(apps, this.display());
  }

  // --- input ---------------------------------------------------------------------------------------------------

  tap(x: number, y: number): void {
    if (!this.screenOn || this.locked) return;
    const tree = this.currentTree();
    if (!tree) return;
    const node = hitTest(tree, x, y);
    if (!node?.enabled) return;
    if (node.launches) {
      this.am.launch(node.launches, null);
      return;
    }
    const fg = this.am.foreground();
    if (!fg) return;
    if (node.editable) {
      fg.screen.focusedKey = node.key;
      this.keyboardScreen = fg.screen;
    }
    if (node.checkable && !node.onTap) fg.runtime.checked.set(node.key, !node.checked);
    if (node.onTap) this.am.applyAction(fg.runtime, node.onTap, node);
  }

  swipe(x1: number, y1: number, _x2: number, y2: number): void {
    if (!this.screenOn) return;
    if (this.locked) {
      // An insecure keyguard opens on an upward swipe of a quarter screen or more.
      if (y1 - y2 >= this.display().height / 4) this.unlock();
      return;
    }
    const fg = this.am.foreground();
    const tree = this.currentTree();
    if (!fg || !tree) return;
    const list = findList(tree, x1, y1);
    if (!list?.list) return;
    const current = fg.screen.scroll.get(list.list.key) ?? 0;
    const next = Math.max(0, Math.min(list.list.maxScroll, current + (y1 - y2)));
    fg.screen.scroll.set(list.list.key, next);
  }

  /** `mInputShown`: a field of the screen in front was focused by a tap, and neither BACK nor a new screen closed it. */
  inputShown(): boolean {
    if (!this.screenOn || this.locked || this.keyboardScreen === null) return false;
    const fg = this.am.foreground();
    return fg !== null && fg.screen === this.keyboardScreen && fg.screen.focusedKey !== null;
  }

  /** The input method apps type through: the secure setting `ime set` writes. */
  currentInputMethod(): string {
    return this.settings.secure.get('default_input_method') ?? '';
  }

  /** ADB_CLEAR_TEXT: empties the focused field. */
  clearFocusedText(): void {
    if (!this.screenOn || this.locked) return;
    const fg = this.am.foreground();
    if (!fg?.screen.focusedKey) return;
    fg.runtime.values.set(fg.screen.focusedKey, '');
    this.afterText(fg.runtime, fg.screen.focusedKey);
  }

  /** `input text`: types into the focused editable field of the foreground app. */
  typeText(text: string): void {
    if (!this.screenOn || this.locked) return;
    const fg = this.am.foreground();
    if (!fg?.screen.focusedKey) return;
    const key = fg.screen.focusedKey;
    fg.runtime.values.set(key, (fg.runtime.values.get(key) ?? this.initialText(key)) + text);
    this.afterText(fg.runtime, key);
  }

  private initialText(key: string): string {
    let text = '';
    const tree = this.currentTree();
    if (tree)
      walk(tree, (n) => {
        if (n.key === key) text = n.rawText ?? n.text;
      });
    return text;
  }

  private afterText(runtime: AppRuntime, key: string): void {
    const tree = this.currentTree();
    let node: ViewNode | null = null;
    if (tree)
      walk(tree, (n) => {
        if (n.key === key) node = n;
      });
    const found = node as ViewNode | null;
    if (found?.onText) this.am.applyAction(runtime, found.onText, found);
  }

  keyevent(code: number): void {
    if (code === KEY.POWER) {
      if (this.screenOn) this.sleep('power_button');
      else this.wake('WAKE_REASON_POWER_BUTTON');
      return;
    }
    if (code === KEY.WAKEUP) {
      if (!this.screenOn) this.wake('WAKE_REASON_WAKE_KEY');
      return;
    }
    if (code === KEY.SLEEP) {
      if (this.screenOn) this.sleep('sleep_button');
      return;
    }
    if (!this.screenOn) return;
    if (this.locked) {
      if (code === KEY.MENU) this.unlock();
      return;
    }
    if (code === KEY.HOME) {
      this.am.home();
      return;
    }
    if (code === KEY.BACK) {
      // BACK first closes the soft keyboard, and does nothing else then.
      if (this.inputShown()) {
        this.keyboardScreen = null;
        return;
      }
      this.am.back();
      return;
    }
    const fg = this.am.foreground();
    if (!fg?.screen.focusedKey) return;
    const key = fg.screen.focusedKey;
    const current = fg.runtime.values.get(key) ?? this.initialText(key);
    if (code === KEY.DEL || code === KEY.FORWARD_DEL) {
      fg.runtime.values.set(key, [...current].slice(0, -1).join(''));
      return;
    }
    if (code === KEY.PASTE) {
      if (this.clipboard !== null) this.typeText(this.clipboard);
      return;
    }
    if (code === KEY.TAB || code === KEY.ENTER) {
      const tree = this.currentTree();
      const editables: string[] = [];
      if (tree) walk(tree, (n) => n.editable && n.enabled && editables.push(n.key));
      const i = editables.indexOf(key);
      if (i >= 0 && i + 1 < editables.length) fg.screen.focusedKey = editables[i + 1];
      return;
    }
    const ch = keyChar(code);
    if (ch !== null) {
      fg.runtime.values.set(key, current + ch);
      this.afterText(fg.runtime, key);
    }
  }

  sleep(reason: string): void {
    this.screenOn = false;
    this.locked = this.settings.secure.get('lockscreen.disabled') !== '1';
    this.log('system', 'I', 'PowerManagerService', `Going to sleep due to ${reason} (uid 1000)...`, SYSTEM_SERVER_PID);
    this.log('events', 'I', 'screen_toggled', '0', SYSTEM_SERVER_PID);
  }

  wake(reason: string): void {
    this.screenOn = true;
    this.log(
      'system',
      'I',
      'PowerManagerService',
      `Waking up from Asleep (uid=1000, reason=${reason}, details=android.policy:POWER)...`,
      SYSTEM_SERVER_PID,
    );
    this.log('events', 'I', 'screen_toggled', '1', SYSTEM_SERVER_PID);
  }

  unlock(): void {
    this.locked = false;
    this.log('system', 'D', 'KeyguardViewMediator', 'handleHide', 812, 10120);
  }
}
