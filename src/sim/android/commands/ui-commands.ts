import type { CommandHandler, CommandIO } from '../shell/command.js';
import { keyCodeFromString } from '../keycodes.js';
import { normalizePath } from '../sim-file-system.js';
import { renderPng, renderRaw, screenSvg } from '../ui/screen-image.js';
import type { SimulatedDevice } from '../simulated-device.js';
import { answerCapturedDump } from '../ui/captured-dump.js';
import { ALREADY_REGISTERED_TRACE, IDLE_TIMEOUT_LINE } from '../ui/ui-automator-service.js';
import { toUiAutomatorXml } from '../ui/view-node.js';

const INPUT_USAGE = `Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are:
      keyboard
      touchscreen
      touchpad
      mouse
      trackball
      gamepad
      stylus

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
`;

const SOURCES = new Set([
  'keyboard',
  'touchscreen',
  'touchpad',
  'mouse',
  'trackball',
  'gamepad',
  'stylus',
  'dpad',
  'joystick',
  'touchnavigation',
  'rotaryencoder',
]);

async function inputError(io: CommandIO, command: string, message: string): Promise<number> {
  await io.stderr(
    `Exception occurred while executing '${command}':\njava.lang.IllegalArgumentException: ${message}\n\tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:268)\n\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n`,
  );
  return 255;
}

function coordinates(args: readonly string[], count: number): number[] | null {
  const values = args.slice(0, count).map((a) => Number(a));
  if (values.length < count || values.some((v) => !Number.isFinite(v))) return null;
  return values.map((v) => Math.round(v));
}

export const inputCommand: CommandHandler = async ({ argv, io, device }) => {
  let args = argv.slice(argv[0] === 'cmd' ? 2 : 1);
  if (args[0] && SOURCES.has(args[0])) args = args.slice(1);
  if (args[0] === '-d') args = args.slice(2);
  const [command, ...rest] = args;
  switch (command) {
    case 'tap': {
      const c = coordinates(rest, 2);
      if (!c) return inputError(io, 'tap', `Error: Invalid arguments for command: tap`);
      device.tap(c[0], c[1]);
      return 0;
    }
    case 'swipe':
    case 'draganddrop': {
      const c = coordinates(rest, 4);
      if (!c) return inputError(io, command, `Error: Invalid arguments for command: ${command}`);
      device.swipe(c[0], c[1], c[2], c[3]);
      return 0;
    }
    case 'text': {
      if (rest.length === 0) return inputError(io, 'text', 'Error: Invalid arguments for command: text');
      // `input text` turns %s into a space (the only escape it knows), and joins extra args with spaces.
      device.typeText(rest.join(' ').replace(/%s/g, ' '));
      return 0;
    }
    case 'keyevent': {
      const codes: number[] = [];
      for (let i = 0; i < rest.length; i++) {
        const a = rest[i];
        if (a === '--longpress' || a === '--doubletap' || a === '--async') continue;
        if (a === '--delay') {
          i++;
          continue;
        }
        const code = keyCodeFromString(a);
        if (code === null) return inputError(io, 'keyevent', `Unknown keycode: ${a}`);
        codes.push(code);
      }
      if (codes.length === 0) return inputError(io, 'keyevent', 'Error: Invalid arguments for command: keyevent');
      for (const code of codes) device.keyevent(code);
      return 0;
    }
    case 'press':
    case 'roll':
    case 'motionevent':
      return 0;
    default:
      await io.stderr(command ? `Error: Unknown command: ${command}\n${INPUT_USAGE}` : INPUT_USAGE);
      return 1;
  }
};

export const uiautomatorCommand: CommandHandler = async ({ argv, io, device, cwd }) => {
  const [verb, ...rest] = argv.slice(1);
  if (verb !== 'dump') {
    await io.stderr(
      'Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: executes UI automation tests\n\ndump: creates an XML dump of current UI hierarchy\n    dump [--verbose][file]\n      [--compressed]: dumps compressed layout information.\n      [file]: the location where the dumped XML should be stored, default is\n      /sdcard/window_dump.xml\n\nevents: prints out accessibility events until terminated\n',
    );
    return verb === undefined || verb === 'help' ? 0 : 1;
  }
  const target = rest.filter((a) => !a.startsWith('--'))[0] ?? '/sdcard/window_dump.xml';
  const service = device.uiAutomator;
  const fault = service.begin();
  if (fault === 'already_registered') {
    await io.stderr(ALREADY_REGISTERED_TRACE);
    return 1;
  }
  try {
    if (fault === 'hang') {
      await pause(2_000_000_000, io.signal);
      return 130;
    }
    if (fault === 'idle_timeout') {
      await pause(service.idleWaitMs, io.signal);
      await io.stderr(IDLE_TIMEOUT_LINE);
      return 0;
    }
    await pause(service.dumpDelayMs, io.signal);
    return await writeDump(device, io, cwd, target);
  } finally {
    service.end();
  }
};

async function writeDump(device: SimulatedDevice, io: CommandIO, cwd: string, target: string): Promise<number> {
  const tree = device.currentTree();
  if (!tree) {
    await io.stderr('ERROR: null root node returned by UiTestAutomationBridge.\n');
    return 0;
  }
  const xml = tree.captured ? answerCapturedDump(tree.captured, tree) : toUiAutomatorXml(tree, device.rotation());
  if (target === '/dev/tty' || target === '/dev/stdout') {
    await io.stdout(`${xml}UI hierchary dumped to: ${target}\n`);
    return 0;
  }
  const path = normalizePath(target, cwd);
  const error = device.fs.checkWritable(path);
  if (error) {
    await io.stderr(
      `java.io.FileNotFoundException: ${target}: open failed: ${error === 'Read-only file system' ? 'EROFS (Read-only file system)' : 'EACCES (Permission denied)'}\n`,
    );
    return 1;
  }
  device.fs.writeFile(path, Buffer.from(xml), 0o660, Math.floor(device.clock() / 1000));
  await io.stdout(`UI hierchary dumped to: ${target}\n`);
  return 0;
}

/** Waits `ms` unless the client hangs up first (then the command is abandoned like a killed process). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export const screencapCommand: CommandHandler = async ({ argv, io, device, cwd }) => {
  const args = argv.slice(1);
  const png = args.includes('-p');
  const file = args.filter((a) => !a.startsWith('-'))[0];
  const d = new Date(device.clock());
  const svg = screenSvg(
    device.currentTree(),
    device.display(),
    `${d.getUTCHours()}:${String(d.getUTCMinutes()).padStart(2, '0')}`,
  );
  const asPng = png || (file?.endsWith('.png') ?? false);
  const image = asPng ? await renderPng(svg) : await renderRaw(svg, device.display());
  if (!file) {
    await io.stdout(image);
    return 0;
  }
  const path = normalizePath(file, cwd);
  const error = device.fs.checkWritable(path);
  if (error) {
    await io.stderr(`Error opening file: ${file} (${error}).\n`);
    return 1;
  }
  device.fs.writeFile(path, image, 0o660, Math.floor(device.clock() / 1000));
  return 0;
};
