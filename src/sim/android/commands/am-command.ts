import type { CommandHandler, CommandIO } from '../shell/command.js';
import { shortComponent, type LaunchResult } from '../activity-manager.js';
import { FRAMEWORK_PACKAGE, RESOLVER_ACTIVITY } from '../system-apps.js';
import { qualifyClassName } from '../../../android/apk-manifest.js';
import { ADB_KEYBOARD_IME, ADB_KEYBOARD_PACKAGE, CLIPPER_PACKAGE, readInputBroadcast } from '../input-methods.js';
import type { SimulatedDevice } from '../simulated-device.js';

/** ADBKeyboard receives only while it is the current input method; Clipper whenever it is installed. */
function deliverInputBroadcast(device: SimulatedDevice, intent: ParsedIntent): void {
  const request = readInputBroadcast(intent.action, intent.stringExtras);
  if (!request) return;
  if (request.kind === 'clipboard') {
    if (device.packages.get(CLIPPER_PACKAGE)) device.clipboard = request.text;
    return;
  }
  if (!device.packages.get(ADB_KEYBOARD_PACKAGE) || device.currentInputMethod() !== ADB_KEYBOARD_IME) return;
  if (request.kind === 'type') device.typeText(request.text);
  else device.clearFocusedText();
}

interface ParsedIntent {
  action?: string;
  data?: string;
  type?: string;
  categories: string[];
  component?: { pkg: string; cls: string };
  packageName?: string;
  flags: number;
  hasExtras: boolean;
  /** String extras (`-e`/`--es`), which input helpers read. */
  stringExtras: Map<string, string>;
  wait: boolean;
  stopFirst: boolean;
  user?: string;
}

const VALUE_OPTIONS = new Set([
  '-a',
  '-d',
  '-t',
  '-c',
  '-n',
  '-f',
  '-p',
  '--user',
  '--display',
  '--windowingMode',
  '--activityType',
  '-R',
  '-P',
  '--start-profiler',
  '--sampling',
  '--attach-agent',
  '--task',
  '--receiver-permission',
  '-i',
  '--identifier',
]);
const EXTRA_ONE = new Set(['--esn']);
const EXTRA_TWO = new Set([
  '-e',
  '--es',
  '--ez',
  '--ei',
  '--el',
  '--ef',
  '--ed',
  '--eu',
  '--ecn',
  '--eia',
  '--eial',
  '--ela',
  '--elal',
  '--efa',
  '--efal',
  '--esa',
  '--esal',
  '--eda',
  '--edal',
]);

function parseIntent(args: readonly string[]): ParsedIntent | string {
  const intent: ParsedIntent = {
    categories: [],
    flags: 0,
    hasExtras: false,
    stringExtras: new Map(),
    wait: false,
    stopFirst: false,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (EXTRA_ONE.has(a)) {
      intent.hasExtras = true;
      i += 1;
      continue;
    }
    if (EXTRA_TWO.has(a)) {
      if (args[i + 2] === undefined) return `Error: No value specified for ${a}`;
      intent.hasExtras = true;
      if (a === '-e' || a === '--es') intent.stringExtras.set(args[i + 1], args[i + 2]);
      i += 2;
      continue;
    }
    if (VALUE_OPTIONS.has(a)) {
      const v = args[++i];
      if (v === undefined) return `Error: No value specified for ${a}`;
      if (a === '-a') intent.action = v;
      else if (a === '-d') intent.data = v;
      else if (a === '-t') intent.type = v;
      else if (a === '-c') intent.categories.push(v);
      else if (a === '-p') intent.packageName = v;
      else if (a === '-f') intent.flags |= Number(v);
      else if (a === '--user') intent.user = v;
      else if (a === '-n') {
        const slash = v.indexOf('/');
        if (slash <= 0) return `Error: Bad component name: ${v}`;
        const pkg = v.slice(0, slash);
        intent.component = { pkg, cls: qualifyClassName(pkg, v.slice(slash + 1)) };
      }
      continue;
    }
    if (a === '-W') intent.wait = true;
    else if (a === '-S') intent.stopFirst = true;
    else if (
      a.startsWith('--activity-') ||
      a.startsWith('--receiver-') ||
      [
        '-D',
        '-N',
        '--streaming',
        '--track-allocation',
        '--suspend',
        '--grant-read-uri-permission',
        '--grant-write-uri-permission',
        '--include-stopped-packages',
        '--exclude-stopped-packages',
        '--debug-log-resolution',
      ].includes(a)
    )
      continue;
    else if (a.startsWith('-')) return `Error: Unknown option: ${a}`;
    else if (a.includes(':')) intent.data = a;
    else if (a.includes('/')) {
      const slash = a.indexOf('/');
      const pkg = a.slice(0, slash);
      intent.component = { pkg, cls: qualifyClassName(pkg, a.slice(slash + 1)) };
    } else intent.packageName = a;
  }
  return intent;
}

function safeUri(uri: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(\/\/([^/?#]*))?(.*)$/.exec(uri);
  if (!m) return uri;
  if (m[2] !== undefined) return `${m[1]}://${m[3]}${m[4] ? '/...' : ''}`;
  return `${m[1]}:...`;
}

/** The inside of Intent.toShortString's braces; `component` stands in for the one resolution found. */
function intentFields(intent: ParsedIntent, extraFlags = 0, component = intent.component): string {
  const parts: string[] = [];
  if (intent.action) parts.push(`act=${intent.action}`);
  if (intent.categories.length) parts.push(`cat=[${intent.categories.join(',')}]`);
  if (intent.data) parts.push(`dat=${safeUri(intent.data)}`);
  if (intent.type) parts.push(`typ=${intent.type}`);
  const flags = intent.flags | extraFlags;
  if (flags) parts.push(`flg=0x${flags.toString(16)}`);
  if (intent.packageName) parts.push(`pkg=${intent.packageName}`);
  if (component) parts.push(`cmp=${shortComponent(component.pkg, component.cls)}`);
  if (intent.hasExtras) parts.push('(has extras)');
  return parts.join(' ');
}

export function describeIntent(intent: ParsedIntent, extraFlags = 0): string {
  return `Intent { ${intentFields(intent, extraFlags)} }`;
}

async function usageError(io: CommandIO, message: string): Promise<number> {
  await io.stderr(`${message}\n`);
  return 255;
}

const NEW_TASK = 0x10000000;

/**
 * What `am start` targets: the explicit component; a bare `-p` (the package's launcher, as before intents had
 * filters here); else every activity whose intent filter matches action, categories, data and type, within `-p`.
 */
function resolveTarget(
  device: Parameters<CommandHandler>[0]['device'],
  intent: ParsedIntent,
): { pkg: string; cls: string | null }[] {
  if (intent.component) return [{ pkg: intent.component.pkg, cls: intent.component.cls }];
  const bare = !intent.action && !intent.data && !intent.type && intent.categories.length === 0;
  if (intent.packageName && bare) {
    const pkg = device.packages.get(intent.packageName);
    return pkg?.launcherActivity ? [{ pkg: pkg.name, cls: null }] : [];
  }
  if (bare) return [];
  return device.packages
    .resolveActivities({
      action: intent.action,
      categories: intent.categories,
      data: intent.data,
      type: intent.type,
      packageName: intent.packageName,
    })
    .map((m) => ({ pkg: m.pkg.name, cls: m.activity }));
}

const amStart: CommandHandler = async ({ argv, io, device }) => {
  const verbIndex = argv[0] === 'cmd' ? 2 : 1;
  const parsed = parseIntent(argv.slice(verbIndex + 1));
  if (typeof parsed === 'string') return usageError(io, parsed);
  const intent = parsed;
  const targets = resolveTarget(device, intent);
  await io.stdout(`Starting: ${describeIntent(intent)}\n`);
  if (targets.length === 0) {
    await io.stderr(`Error: Activity not started, unable to resolve ${describeIntent(intent, NEW_TASK)}\n`);
    return 0;
  }
  let result: LaunchResult;
  let targetPkg: string;
  if (targets.length > 1) {
    const matches = targets.map((t) => ({ pkg: device.packages.get(t.pkg)!, activity: t.cls! }));
    targetPkg = FRAMEWORK_PACKAGE;
    result = device.am.showChooser(
      matches,
      intentFields(intent, NEW_TASK, { pkg: FRAMEWORK_PACKAGE, cls: RESOLVER_ACTIVITY }),
    );
  } else {
    const target = targets[0];
    const pkg = device.packages.get(target.pkg);
    const cls = target.cls ?? pkg?.launcherActivity ?? null;
    targetPkg = target.pkg;
    const logged = cls ? intentFields(intent, NEW_TASK, { pkg: target.pkg, cls }) : undefined;
    result = device.am.launch(target.pkg, target.cls, {
      forceStop: intent.stopFirst,
      intent: logged,
      data: intent.data,
    });
  }
  if (result.kind === 'not-found') {
    const cls = targets[0].cls ?? '';
    await io.stdout('Error type 3\n');
    await io.stderr(`Error: Activity class {${targets[0].pkg}/${cls}} does not exist.\n`);
    return 0;
  }
  if (result.kind === 'finished-before-drawn') {
    // The launch was cancelled before a window was drawn: am -W has no activity and no TotalTime to report.
    if (intent.wait) await io.stdout(`Status: ok\nLaunchState: UNKNOWN (0)\nWaitTime: ${result.waitTime}\nComplete\n`);
    return 0;
  }
  const cmp = shortComponent(targetPkg, result.activity);
  if (result.kind === 'brought-to-front-top') {
    await io.stderr(
      result.taskOnly
        ? 'Warning: Activity not started, its current task has been brought to the front\n'
        : 'Warning: Activity not started, intent has been delivered to currently running top-most instance.\n',
    );
    if (intent.wait)
      await io.stdout(
        `Status: ok\nLaunchState: UNKNOWN (0)\nActivity: ${cmp}\nWaitTime: ${result.waitTime}\nComplete\n`,
      );
    return 0;
  }
  if (intent.wait) {
    await io.stdout(
      `Status: ok\nLaunchState: ${result.state}\nActivity: ${cmp}\nTotalTime: ${result.totalTime}\nWaitTime: ${result.waitTime}\nComplete\n`,
    );
  }
  return 0;
};

export const amCommand: CommandHandler = async (ctx) => {
  const { argv, io, device } = ctx;
  const verbIndex = argv[0] === 'cmd' ? 2 : 1;
  const verb = argv[verbIndex];
  const args = argv.slice(verbIndex + 1);
  const pkgArg = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user')[0];
  switch (verb) {
    case 'start':
    case 'start-activity':
      return amStart(ctx);
    case 'force-stop':
    case 'stop-app':
      if (pkgArg && device.packages.get(pkgArg)) device.am.forceStop(pkgArg, 'force-stop');
      return 0;
    case 'kill':
      if (pkgArg) device.am.killBackground(pkgArg);
      return 0;
    case 'kill-all':
      for (const pkg of [...device.am.runtimes.keys()]) device.am.killBackground(pkg);
      return 0;
    case 'crash': {
      const byPid = pkgArg && /^\d+$/.test(pkgArg) ? device.processes.get(Number(pkgArg))?.packageName : pkgArg;
      const runtime = byPid ? device.am.runtimes.get(byPid) : undefined;
      if (runtime) {
        device.am.crash(runtime, {
          kind: 'java',
          exception: 'android.app.RemoteServiceException$CrashedByAdbException',
          message: 'shell-induced crash',
          frames: [
            'android.app.ActivityThread.throwRemoteServiceException(ActivityThread.java:2096)',
            'android.app.ActivityThread.-$$Nest$mthrowRemoteServiceException(Unknown Source:0)',
            'android.app.ActivityThread$H.handleMessage(ActivityThread.java:2383)',
          ],
        });
      }
      return 0;
    }
    case 'broadcast': {
      const parsed = parseIntent(args);
      if (typeof parsed === 'string') return usageError(io, parsed);
      deliverInputBroadcast(device, parsed);
      await io.stdout(`Broadcasting: ${describeIntent(parsed, 0x400000)}\nBroadcast completed: result=0\n`);
      return 0;
    }
    case 'get-current-user':
      await io.stdout('0\n');
      return 0;
    case 'instrument': {
      const component = args.filter((a) => !a.startsWith('-'))[args.filter((a) => !a.startsWith('-')).length - 1] ?? '';
      await io.stderr(
        `java.lang.SecurityException: Unable to find instrumentation info for: ComponentInfo{${component}}\n`,
      );
      await io.stdout(
        `INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{${component}}\nINSTRUMENTATION_STATUS_CODE: -1\n`,
      );
      return 1;
    }
    case undefined:
    case 'help':
      await io.stdout(
        'Activity manager (activity) commands:\n  help\n  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>] [-S] [--user <USER_ID> | current] <INTENT>\n  force-stop [--user <USER_ID> | all | current] <PACKAGE>\n  kill [--user <USER_ID> | all | current] <PACKAGE>\n  broadcast [--user <USER_ID> | all | current] <INTENT>\n  crash [--user <USER_ID>] <PACKAGE|PID>\n',
      );
      return 0;
    default:
      await io.stderr(`Unknown command: ${verb}\n`);
      return 255;
  }
};

/** `monkey -p PKG -c android.intent.category.LAUNCHER 1`: the common "launch this app" idiom. */
export const monkeyCommand: CommandHandler = async ({ argv, io, device }) => {
  const args = argv.slice(1);
  const lines = args.map((a) => `  bash arg: ${a}`);
  lines.push(`args: [${args.join(', ')}]`, ...args.map((a) => ` arg: "${a}"`));
  const packages: string[] = [];
  let events = 0;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-p' && args[i + 1]) {
      packages.push(args[++i]);
      lines.push(`data="${args[i]}"`);
    } else if (args[i] === '-c' && args[i + 1]) lines.push(`data="${args[++i]}"`);
    else if (/^\d+$/.test(args[i])) events = Number(args[i]);
    else if (['--throttle', '-s', '--pct-touch', '--pct-motion', '--pct-syskeys', '--pct-appswitch'].includes(args[i]))
      i++;
  }
  const launchable = packages.map((p) => device.packages.get(p)).filter((p) => p?.launcherActivity && p.enabled);
  if (launchable.length === 0 || events === 0) {
    await io.stdout(`${lines.join('\n')}\n`);
    await io.stderr('** No activities found to run, monkey aborted.\n');
    return 252;
  }
  device.am.launch(launchable[0]!.name, null);
  const elapsed = device.rng.int(20, 90);
  lines.push(
    `Events injected: ${events}`,
    `## Network stats: elapsed time=${elapsed}ms (0ms mobile, 0ms wifi, ${elapsed}ms not connected)`,
  );
  await io.stdout(`${lines.join('\n')}\n`);
  return 0;
};
