import { inject, injectable } from 'inversify';
import { ToolError } from '../kernel/errors.js';
import { AdbService } from './adb-service.js';
import { sh } from './device-command.js';
import { parseActivityStack, type StackActivity } from './parsers/activities.js';
import { parseExitInfo, type ExitRecord } from './parsers/exit-info.js';
import { intProp } from './parsers/getprop.js';
import { parseMeminfo, type MemInfo } from './parsers/meminfo.js';
import { parsePackageDump, parsePmPath, type PackageDump } from './parsers/package-dump.js';
import { parseWindowFocus, type Component } from './parsers/window.js';

export interface AppInfo extends PackageDump {
  readonly apkPaths: readonly string[];
}

export interface RuntimeState {
  readonly installed: boolean;
  readonly running: boolean;
  readonly pids: readonly number[];
  /** True when the focused window or resumed activity belongs to the package. */
  readonly foreground: boolean;
  readonly foregroundActivity: string | null;
  /** Whatever has focus now (any package), for context. */
  readonly focusedComponent: Component | null;
  /** The package's activities, top of the stack first. */
  readonly activityStack: readonly StackActivity[];
}

export type ExitReasons =
  | { readonly supported: false; readonly apiLevel: number | null; readonly reason: string }
  | {
      readonly supported: true;
      readonly apiLevel: number | null;
      readonly total: number;
      readonly records: readonly ExitRecord[];
    };

export const MAX_EXIT_RECORDS = 100;
const DUMPSYS_LIMIT = 2 * 1024 * 1024;

/** Reads one app on one device: package facts, memory, whether and where it runs, why it last died. */
@injectable()
export class AppInspector {
  constructor(@inject(AdbService) private readonly adb: AdbService) {}

  async apkPaths(serial: string, pkg: string, signal?: AbortSignal): Promise<string[]> {
    const result = await this.adb.shell(serial, sh`pm path ${pkg}`, {
      signal,
      timeoutMs: 15_000,
      maxOutputBytes: 64 * 1024,
    });
    return parsePmPath(result.output);
  }

  async requireInstalled(serial: string, pkg: string, signal?: AbortSignal): Promise<string[]> {
    const paths = await this.apkPaths(serial, pkg, signal);
    if (paths.length === 0) {
      throw new ToolError(
        'APP_NOT_INSTALLED',
        `${pkg} is not installed on ${serial}. Install it with install_apk (after a build), or check the package name with dump_app_info.`,
      );
    }
    return paths;
  }

  async appInfo(serial: string, pkg: string, signal?: AbortSignal): Promise<AppInfo> {
    const apkPaths = await this.requireInstalled(serial, pkg, signal);
    const dump = await this.adb.shell(serial, sh`dumpsys package ${pkg}`, { signal, maxOutputBytes: DUMPSYS_LIMIT });
    const parsed = parsePackageDump(dump.output, pkg);
    if (!parsed) {
      throw new ToolError(
        'COMMAND_FAILED',
        `dumpsys package printed no entry for ${pkg} on ${serial} although pm path lists it. Retry; the package manager may be busy.`,
      );
    }
    return { ...parsed, apkPaths };
  }

  async memory(serial: string, pkg: string, signal?: AbortSignal): Promise<MemInfo | null> {
    const out = await this.adb.shell(serial, sh`dumpsys meminfo ${pkg}`, { signal, maxOutputBytes: DUMPSYS_LIMIT });
    const parsed = parseMeminfo(out.output);
    return parsed.found ? parsed.info : null;
  }

  async pids(serial: string, pkg: string, signal?: AbortSignal): Promise<number[]> {
    const out = await this.adb.shell(serial, sh`pidof ${pkg}`, { signal, timeoutMs: 10_000, maxOutputBytes: 4096 });
    if (out.exitCode !== 0) return [];
    return out.output
      .split(/\s+/)
      .filter((t) => /^\d+$/.test(t))
      .map(Number);
  }

  async runtimeState(serial: string, pkg: string, signal?: AbortSignal): Promise<RuntimeState> {
    const opts = { signal, maxOutputBytes: DUMPSYS_LIMIT };
    const [paths, pids, window, activities] = await Promise.all([
      this.apkPaths(serial, pkg, signal),
      this.pids(serial, pkg, signal),
      this.adb.shell(serial, sh`dumpsys window`, opts),
      this.adb.shell(serial, sh`dumpsys activity activities`, opts),
    ]);
    const focus = parseWindowFocus(window.output);
    const stack = parseActivityStack(activities.output);
    const focused = focus.currentFocus ?? focus.focusedApp ?? stack.resumed;
    const ownFocus = [focus.currentFocus, focus.focusedApp, stack.resumed].find((c) => c?.package === pkg) ?? null;
    const foreground = focused?.package === pkg;
    return {
      installed: paths.length > 0,
      running: pids.length > 0,
      pids,
      foreground,
      foregroundActivity: foreground ? (ownFocus?.activity ?? null) : null,
      focusedComponent: focused,
      activityStack: stack.activities.filter((a) => a.package === pkg).slice(0, 50),
    };
  }

  async apiLevel(serial: string, signal?: AbortSignal): Promise<number | null> {
    const out = await this.adb.shell(serial, sh`getprop ro.build.version.sdk`, {
      signal,
      timeoutMs: 10_000,
      maxOutputBytes: 1024,
    });
    return intProp({ sdk: out.output.trim() }, 'sdk');
  }

  /** Exit history (Android 11+): newest first, only this package's processes (`pkg` and `pkg:suffix`). */
  async exitReasons(
    serial: string,
    pkg: string,
    limit: number,
    signal?: AbortSignal,
    offset = 0,
  ): Promise<ExitReasons> {
    const apiLevel = await this.apiLevel(serial, signal);
    if (apiLevel !== null && apiLevel < 30) {
      return {
        supported: false,
        apiLevel,
        reason: `Android keeps process exit history from API 30 (Android 11); this device is API ${apiLevel}.`,
      };
    }
    const out = await this.adb.shell(serial, sh`dumpsys activity exit-info ${pkg}`, {
      signal,
      maxOutputBytes: DUMPSYS_LIMIT,
    });
    const parsed = parseExitInfo(out.output);
    if (!parsed.supported)
      return {
        supported: false,
        apiLevel,
        reason: `The device does not know \`dumpsys activity exit-info\` (${parsed.reason}).`,
      };
    const mine = parsed.records.filter(
      (r) => r.package === pkg || r.process === pkg || (r.process?.startsWith(`${pkg}:`) ?? false),
    );
    return {
      supported: true,
      apiLevel,
      total: mine.length,
      records: mine.slice(offset, offset + Math.min(limit, MAX_EXIT_RECORDS)),
    };
  }
}
