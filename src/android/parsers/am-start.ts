/** What `am start -W` printed, read defensively: any field a device leaves out is null, never 0. */
export interface AmStartResult {
  /** False when the output reports a failure, whatever the exit code was. */
  readonly ok: boolean;
  /** The first line that explains the failure, when not ok. */
  readonly error: string | null;
  /** `Status:` value (`ok`, `timeout`, `error`…), or null. */
  readonly status: string | null;
  /** `LaunchState:` (COLD, WARM, HOT, RELAUNCH, UNKNOWN (0)), or null. */
  readonly launchState: string | null;
  /** The activity that ended up on top, as `pkg/.Act` (`Activity:` line). */
  readonly activity: string | null;
  readonly totalTimeMs: number | null;
  readonly waitTimeMs: number | null;
  readonly thisTimeMs: number | null;
  /** `Warning:` lines (e.g. the task was only brought to the front). */
  readonly warnings: readonly string[];
}

const FAILURE_LINE = [
  /^Error(?: type \d+)?:/,
  /^Error type \d+/,
  /^Exception occurred/,
  /^java\.lang\.\w+(Exception|Error)\b/,
  /^Security exception:/,
  /^Permission Denial:/,
  /^Activity not started/,
  /^Error: /,
  /^\/system\/bin\/sh: /,
  /: (not found|inaccessible or not found)$/,
];

function intField(lines: readonly string[], key: string): number | null {
  const line = lines.find((l) => l.startsWith(`${key}:`));
  if (!line) return null;
  const value = line.slice(key.length + 1).trim();
  return /^\d+$/.test(value) ? Number(value) : null;
}

function textField(lines: readonly string[], key: string): string | null {
  const line = lines.find((l) => l.startsWith(`${key}:`));
  if (!line) return null;
  const value = line.slice(key.length + 1).trim();
  return value.length > 0 ? value : null;
}

/**
 * Parses `am start [-W]` output. `am` often exits 0 after printing `Error: Activity not started…`, so the
 * verdict comes from the text: an error line, a `Status:` other than ok/timeout, or a non-zero exit.
 */
export function parseAmStart(output: string, exitCode: number | null): AmStartResult {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const status = textField(lines, 'Status');
  const failure = lines.find((l) => FAILURE_LINE.some((re) => re.test(l)));
  const badStatus = status !== null && !/^(ok|timeout)$/i.test(status);
  const exitFailed = exitCode !== null && exitCode !== 0;
  const ok = !failure && !badStatus && !exitFailed;
  let error: string | null = null;
  if (!ok) {
    error = failure ?? (badStatus ? `Status: ${status}` : null) ?? lines.at(-1) ?? `am exited with status ${exitCode}`;
    // "Error type 3" is followed by the human line; prefer that.
    if (/^Error type \d+$/.test(error)) {
      const next = lines[lines.indexOf(error) + 1];
      if (next) error = next;
    }
  }
  return {
    ok,
    error,
    status,
    launchState: textField(lines, 'LaunchState'),
    activity: textField(lines, 'Activity'),
    totalTimeMs: intField(lines, 'TotalTime'),
    waitTimeMs: intField(lines, 'WaitTime'),
    thisTimeMs: intField(lines, 'ThisTime'),
    warnings: lines.filter((l) => l.startsWith('Warning:')),
  };
}

/** `+1s234ms`, `+812ms`, `+1m2s3ms` → milliseconds. */
export function parseDisplayedDuration(text: string): number | null {
  const m = /^\+(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(text.trim());
  if (!m || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return null;
  return Number(m[1] ?? 0) * 60_000 + Number(m[2] ?? 0) * 1000 + Number(m[3] ?? 0);
}

export interface DisplayedLine {
  readonly component: string;
  readonly ms: number;
  /** `-v epoch` seconds when the line carries them, else null. */
  readonly epochSec: number | null;
}

/**
 * `ActivityTaskManager: Displayed com.x/.Main: +1s234ms` (also ActivityManager on older releases, and a
 * trailing `(total +2s)`), for exactly `packageName`: `com.x.debug/...` does not count for `com.x`.
 */
export function parseDisplayedLines(logcat: string, packageName: string): DisplayedLine[] {
  const out: DisplayedLine[] = [];
  for (const line of logcat.split(/\r?\n/)) {
    const m = /(?:ActivityTaskManager|ActivityManager)\s*:\s+Displayed\s+([^\s:]+\/[^\s:]+):\s+(\+[0-9a-z]+)/.exec(
      line,
    );
    if (!m) continue;
    const component = m[1]!;
    if (component.slice(0, component.indexOf('/')) !== packageName) continue;
    const ms = parseDisplayedDuration(m[2]!);
    if (ms === null) continue;
    const epoch = /^\s*(\d{9,}\.\d+)\s/.exec(line);
    out.push({ component, ms, epochSec: epoch ? Number(epoch[1]) : null });
  }
  return out;
}
