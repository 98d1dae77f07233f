import { inject, injectable } from 'inversify';
import { AdbService, type ShellResult } from '../../../android/adb-service.js';
import { AppInspector } from '../../../android/app-inspector.js';
import { sh, type DeviceCommand } from '../../../android/device-command.js';
import { parseAmStart, parseDisplayedLines, type AmStartResult } from '../../../android/parsers/am-start.js';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';

export interface LaunchOutcome {
  readonly component: string | null;
  readonly method: 'component' | 'resolved_launcher' | 'monkey';
  readonly am: AmStartResult | null;
  /** What the device printed, bounded, for the agent to read when timings are missing. */
  readonly output: string;
}

export interface RestartOutcome extends LaunchOutcome {
  readonly wasRunning: boolean;
  readonly clearedData: boolean;
  readonly displayMs: number | null;
}

const ACTIVITY = /^\.?[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

/** `.Main`, `Main` or `com.x.Main`: a class name, never a flag or a component with a second package. */
export function validateActivity(activity: string, field = 'activity'): string {
  if (typeof activity !== 'string' || activity.length === 0 || activity.length > 255 || !ACTIVITY.test(activity)) {
    throw new InvalidArgumentsError(
      `${field} must be an activity class name such as .MainActivity or com.example.app.MainActivity (got ${JSON.stringify(String(activity).slice(0, 80))}).`,
      'INVALID_ARGUMENT',
      field,
    );
  }
  return activity;
}

export function componentOf(pkg: string, activity: string): string {
  return `${pkg}/${activity.startsWith('.') || activity.includes('.') ? activity : `.${activity}`}`;
}

const AM_OPTS = { timeoutMs: 45_000, maxOutputBytes: 64 * 1024 };

function bounded(text: string, max = 2000): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function deviceFailure(result: ShellResult): string | null {
  const text = result.output.trim();
  if (result.exitCode !== null && result.exitCode !== 0)
    return text.split('\n').slice(-3).join(' ') || `exit status ${result.exitCode}`;
  const line = text
    .split('\n')
    .find((l) =>
      /Exception|^Error|Unknown package|^Failure|not a changeable permission|has not requested permission|Security/i.test(
        l.trim(),
      ),
    );
  return line ? line.trim() : null;
}

/** Starts, stops, restarts apps and changes their permissions; every value reaches the device quoted. */
@injectable()
export class AppController {
  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    @inject(AppInspector) private readonly inspector: AppInspector,
  ) {}

  private async amStart(
    serial: string,
    command: DeviceCommand,
    what: string,
    signal?: AbortSignal,
  ): Promise<{ am: AmStartResult; output: string }> {
    const result = await this.adb.shell(serial, command, { ...AM_OPTS, signal });
    const am = parseAmStart(result.output, result.exitCode);
    if (!am.ok) {
      throw new ToolError(
        'LAUNCH_FAILED',
        `${what} failed on ${serial}: ${bounded(am.error ?? 'am start reported an error', 400)}. Check the name (dump_app_info lists the package; the manifest lists activities), then retry.`,
        {
          output: bounded(result.output),
        },
      );
    }
    return { am, output: bounded(result.output) };
  }

  /** The launcher activity as the package manager resolves it, or null when it cannot say. */
  async resolveLauncher(serial: string, pkg: string, signal?: AbortSignal): Promise<string | null> {
    const result = await this.adb.shell(
      serial,
      sh`cmd package resolve-activity --brief -a android.intent.action.MAIN -c android.intent.category.LAUNCHER ${pkg}`,
      { signal, timeoutMs: 15_000, maxOutputBytes: 16 * 1024 },
    );
    if (result.exitCode !== 0) return null;
    const line = result.output
      .split('\n')
      .map((l) => l.trim())
      .reverse()
      .find((l) => /^[\w.]+\/[\w.$]+$/.test(l));
    return line?.startsWith(`${pkg}/`) ? line : null;
  }

  async launch(
    serial: string,
    pkg: string,
    activity: string | undefined,
    signal?: AbortSignal,
  ): Promise<LaunchOutcome> {
    await this.inspector.requireInstalled(serial, pkg, signal);
    if (activity !== undefined) {
      const component = componentOf(pkg, validateActivity(activity));
      const { am, output } = await this.amStart(
        serial,
        sh`am start -W -n ${component}`,
        `Starting ${component}`,
        signal,
      );
      return { component, method: 'component', am, output };
    }
    const resolved = await this.resolveLauncher(serial, pkg, signal);
    if (resolved) {
      const { am, output } = await this.amStart(serial, sh`am start -W -n ${resolved}`, `Starting ${resolved}`, signal);
      return { component: resolved, method: 'resolved_launcher', am, output };
    }
    // Older package managers cannot resolve; monkey sends the launcher intent but reports no timings.
    const result = await this.adb.shell(serial, sh`monkey -p ${pkg} -c android.intent.category.LAUNCHER 1`, {
      ...AM_OPTS,
      signal,
    });
    if (result.exitCode !== 0 || /No activities found|monkey aborted|Error/i.test(result.output)) {
      throw new ToolError(
        'LAUNCH_FAILED',
        `${pkg} has no launcher activity that could be started on ${serial} (${bounded(result.output.trim(), 300)}). Pass activity explicitly.`,
      );
    }
    return { component: null, method: 'monkey', am: null, output: bounded(result.output) };
  }

  async stop(serial: string, pkg: string, signal?: AbortSignal): Promise<{ wasRunning: boolean }> {
    await this.inspector.requireInstalled(serial, pkg, signal);
    const wasRunning = (await this.inspector.pids(serial, pkg, signal)).length > 0;
    const result = await this.adb.shell(serial, sh`am force-stop ${pkg}`, {
      signal,
      timeoutMs: 30_000,
      maxOutputBytes: 16 * 1024,
    });
    const failure = deviceFailure(result);
    if (failure)
      throw new ToolError('COMMAND_FAILED', `am force-stop ${pkg} failed on ${serial}: ${bounded(failure, 300)}.`);
    return { wasRunning };
  }

  async restart(
    serial: string,
    pkg: string,
    options: { activity?: string; clearData: boolean; signal?: AbortSignal },
  ): Promise<RestartOutcome> {
    const { signal } = options;
    const { wasRunning } = await this.stop(serial, pkg, signal);
    if (options.clearData) {
      const cleared = await this.adb.shell(serial, sh`pm clear ${pkg}`, {
        signal,
        timeoutMs: 60_000,
        maxOutputBytes: 16 * 1024,
      });
      if (!/Success/.test(cleared.output) || (cleared.exitCode !== null && cleared.exitCode !== 0)) {
        throw new ToolError(
          'COMMAND_FAILED',
          `pm clear ${pkg} failed on ${serial}: ${bounded(cleared.output.trim(), 300) || `exit ${cleared.exitCode}`}. The app was stopped but not relaunched.`,
        );
      }
    }
    const before = await this.deviceEpoch(serial, signal);
    const seen = before === null ? (await this.displayedLines(serial, pkg, signal)).length : 0;
    const launched = await this.launch(serial, pkg, options.activity, signal);
    const displayMs = launched.am ? await this.awaitDisplayed(serial, pkg, before, seen, signal) : null;
    return { ...launched, wasRunning, clearedData: options.clearData, displayMs };
  }

  private async deviceEpoch(serial: string, signal?: AbortSignal): Promise<number | null> {
    const out = await this.adb.shell(serial, sh`date +%s`, { signal, timeoutMs: 10_000, maxOutputBytes: 256 });
    const value = out.output.trim();
    return /^\d{9,}$/.test(value) ? Number(value) : null;
  }

  private async displayedLines(serial: string, pkg: string, signal?: AbortSignal) {
    const out = await this.adb.shell(serial, sh`logcat -d -v epoch -t 500 -s ActivityTaskManager:I ActivityManager:I`, {
      signal,
      timeoutMs: 10_000,
      maxOutputBytes: 512 * 1024,
    });
    return parseDisplayedLines(out.output, pkg);
  }

  /** The `Displayed` time logged for this launch: newer than `sinceEpoch`, or past the `seen` count when the device has no epoch. */
  private async awaitDisplayed(
    serial: string,
    pkg: string,
    sinceEpoch: number | null,
    seen: number,
    signal?: AbortSignal,
  ): Promise<number | null> {
    const deadline = Date.now() + 3000;
    for (;;) {
      const lines = await this.displayedLines(serial, pkg, signal);
      const fresh = lines.filter((l, i) =>
        sinceEpoch !== null && l.epochSec !== null ? l.epochSec >= sinceEpoch - 1 : i >= seen,
      );
      if (fresh.length > 0) return fresh.at(-1)!.ms;
      if (Date.now() > deadline || signal?.aborted) return null;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async setPermission(
    serial: string,
    pkg: string,
    permission: string,
    grant: boolean,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.inspector.requireInstalled(serial, pkg, signal);
    const command = grant ? sh`pm grant ${pkg} ${permission}` : sh`pm revoke ${pkg} ${permission}`;
    const result = await this.adb.shell(serial, command, { signal, timeoutMs: 30_000, maxOutputBytes: 16 * 1024 });
    const failure = deviceFailure(result);
    if (failure) {
      throw new ToolError(
        'COMMAND_FAILED',
        `pm ${grant ? 'grant' : 'revoke'} ${permission} for ${pkg} failed on ${serial}: ${bounded(failure, 300)}. Only runtime (dangerous) permissions the app declares can be changed; dump_app_info lists them.`,
      );
    }
  }

  async openDeepLink(
    serial: string,
    uri: string,
    pkg: string | undefined,
    signal?: AbortSignal,
  ): Promise<LaunchOutcome> {
    const command =
      pkg !== undefined
        ? sh`am start -W -a android.intent.action.VIEW -d ${uri} -p ${pkg}`
        : sh`am start -W -a android.intent.action.VIEW -d ${uri}`;
    const { am, output } = await this.amStart(serial, command, 'Opening the link', signal);
    return { component: am.activity, method: 'component', am, output };
  }

  async openAppSettings(serial: string, pkg: string, signal?: AbortSignal): Promise<LaunchOutcome> {
    await this.inspector.requireInstalled(serial, pkg, signal);
    const { am, output } = await this.amStart(
      serial,
      sh`am start -W -a android.settings.APPLICATION_DETAILS_SETTINGS -d ${`package:${pkg}`}`,
      `Opening settings for ${pkg}`,
      signal,
    );
    return { component: am.activity, method: 'component', am, output };
  }
}
