import { readFileSync } from 'node:fs';
import { inject, injectable } from 'inversify';
import { z } from 'zod';
import { settingsPath } from './paths.js';
import { RuntimeOptions } from './runtime-options.js';

export interface SettingsValues {
  /** Allow any Gradle task, not only the build/test/lint families. */
  readonly allowUnrestrictedGradle: boolean;
  /** Build timeout in seconds, clamped to 60–3600. */
  readonly buildTimeoutSec: number;
  /** Logcat lines kept per device, clamped to 10,000–50,000,000; the oldest are evicted first. */
  readonly logcatRetentionLines: number;
  /** Logcat message bytes kept per device, clamped to 16 MiB–16 GiB; whichever bound is reached first evicts. */
  readonly logcatRetentionBytes: number;
  readonly javaHome?: string;
  readonly androidSdk?: string;
  readonly adbPath?: string;
  /** Minutes a logcat worker streams with no reader before it stops (fractions allowed), clamped to 0.05–10080. */
  readonly logcatIdleMinutes: number;
  /** Seconds a logcat worker waits for its device to come back before it stops, clamped to 1–3600. */
  readonly logcatReconnectSeconds: number;
  /** Minutes without an event after which an open debug session reads as idle (fractions allowed), clamped to 1–10080. */
  readonly debugSessionIdleMinutes: number;
}

export const DEFAULT_SETTINGS: SettingsValues = {
  allowUnrestrictedGradle: false,
  buildTimeoutSec: 600,
  logcatIdleMinutes: 30,
  logcatReconnectSeconds: 30,
  debugSessionIdleMinutes: 30,
  logcatRetentionLines: 1_000_000,
  logcatRetentionBytes: 256 * 2 ** 20,
};

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(value)));
}

const SettingsFile = z
  .object({
    allowUnrestrictedGradle: z.boolean().optional(),
    buildTimeoutSec: z.number().finite().optional(),
    logcatRetentionLines: z.number().finite().optional(),
    logcatRetentionBytes: z.number().finite().optional(),
    javaHome: z.string().min(1).optional(),
    androidSdk: z.string().min(1).optional(),
    adbPath: z.string().min(1).optional(),
    logcatIdleMinutes: z.number().finite().optional(),
    logcatReconnectSeconds: z.number().finite().optional(),
    debugSessionIdleMinutes: z.number().finite().optional(),
  })
  .strict();

export function parseSettings(text: string): { values: SettingsValues; warning?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      values: DEFAULT_SETTINGS,
      warning: `settings.json is not valid JSON (${(error as Error).message}); using defaults.`,
    };
  }
  const parsed = SettingsFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'settings';
    return {
      values: DEFAULT_SETTINGS,
      warning: `settings.json is invalid at ${where}: ${issue.message}; using defaults.`,
    };
  }
  const file = parsed.data;
  const timeout = file.buildTimeoutSec ?? DEFAULT_SETTINGS.buildTimeoutSec;
  return {
    values: {
      allowUnrestrictedGradle: file.allowUnrestrictedGradle ?? DEFAULT_SETTINGS.allowUnrestrictedGradle,
      buildTimeoutSec: Math.min(3600, Math.max(60, Math.round(timeout))),
      logcatIdleMinutes: Math.min(10080, Math.max(0.05, file.logcatIdleMinutes ?? DEFAULT_SETTINGS.logcatIdleMinutes)),
      logcatReconnectSeconds: Math.min(
        3600,
        Math.max(1, file.logcatReconnectSeconds ?? DEFAULT_SETTINGS.logcatReconnectSeconds),
      ),
      debugSessionIdleMinutes: Math.min(
        10080,
        Math.max(1, file.debugSessionIdleMinutes ?? DEFAULT_SETTINGS.debugSessionIdleMinutes),
      ),
      logcatRetentionLines: clamp(
        file.logcatRetentionLines ?? DEFAULT_SETTINGS.logcatRetentionLines,
        10_000,
        50_000_000,
      ),
      logcatRetentionBytes: clamp(
        file.logcatRetentionBytes ?? DEFAULT_SETTINGS.logcatRetentionBytes,
        16 * 2 ** 20,
        16 * 2 ** 30,
      ),
      ...(file.javaHome ? { javaHome: file.javaHome } : {}),
      ...(file.androidSdk ? { androidSdk: file.androidSdk } : {}),
      ...(file.adbPath ? { adbPath: file.adbPath } : {}),
    },
  };
}

/** The user's `$DROIDWRIGHT_HOME/settings.json`, read once. A bad file never stops droidwright. */
@injectable()
export class Settings {
  private values: SettingsValues | undefined;

  constructor(@inject(RuntimeOptions) private readonly options: RuntimeOptions) {}

  get(): SettingsValues {
    if (!this.values) this.values = this.load();
    return this.values;
  }

  private load(): SettingsValues {
    const path = settingsPath(this.options.home);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        process.stderr.write(
          `droidwright: cannot read ${path} (${(error as NodeJS.ErrnoException).code}); using default settings.\n`,
        );
      }
      return DEFAULT_SETTINGS;
    }
    const { values, warning } = parseSettings(text);
    if (warning) process.stderr.write(`droidwright: ${path}: ${warning}\n`);
    return values;
  }
}
