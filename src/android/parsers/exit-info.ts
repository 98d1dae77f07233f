/** One `ApplicationExitInfo` record from `dumpsys activity exit-info`. Unknown or malformed values are null. */
export interface ExitRecord {
  readonly package: string | null;
  readonly uid: number | null;
  /** As the device printed it (device local time, no zone). */
  readonly timestamp: string | null;
  /** Epoch-like sort key from the naive timestamp; null when the format is unknown. */
  readonly timestampSortKey: number | null;
  readonly pid: number | null;
  readonly user: number | null;
  readonly process: string | null;
  readonly reasonCode: number | null;
  /** The framework's label (`APP CRASH(EXCEPTION)`, `ANR`, …), or `code N` when it printed none. */
  readonly reason: string | null;
  readonly subreasonCode: number | null;
  readonly subreason: string | null;
  readonly status: number | null;
  readonly importance: number | null;
  readonly pssKb: number | null;
  readonly rssKb: number | null;
  readonly description: string | null;
  readonly trace: string | null;
}

export type ExitInfoParse =
  | { readonly supported: false; readonly reason: string }
  | { readonly supported: true; readonly records: readonly ExitRecord[] };

const REASON_NAMES: Record<number, string> = {
  0: 'UNKNOWN',
  1: 'EXIT_SELF',
  2: 'SIGNALED',
  3: 'LOW_MEMORY',
  4: 'APP CRASH(EXCEPTION)',
  5: 'APP CRASH(NATIVE)',
  6: 'ANR',
  7: 'INITIALIZATION FAILURE',
  8: 'PERMISSION CHANGE',
  9: 'EXCESSIVE RESOURCE USAGE',
  10: 'USER REQUESTED',
  11: 'USER STOPPED',
  12: 'DEPENDENCY DIED',
  13: 'OTHER KILLS BY SYSTEM',
  14: 'FREEZER',
  15: 'PACKAGE STATE CHANGE',
  16: 'PACKAGE UPDATED',
};

export const CRASH_REASONS = new Set([4, 5]);
export const ANR_REASON = 6;

/** `55MB`, `9216KB`, `1GB`, `0`, `1234` (kB) → kB; anything else null. */
export function sizeToKb(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /^(\d+(?:\.\d+)?)(B|KB|MB|GB|TB)?$/i.exec(value.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'KB').toUpperCase();
  const factor = { B: 1 / 1024, KB: 1, MB: 1024, GB: 1024 * 1024, TB: 1024 * 1024 * 1024 }[
    unit as 'B' | 'KB' | 'MB' | 'GB' | 'TB'
  ];
  return Math.round(n * factor);
}

function int(value: string | undefined): number | null {
  return value !== undefined && /^-?\d+$/.test(value) ? Number(value) : null;
}

/** `2021-03-12 09:31:11.536` read as UTC purely for ordering (the device's zone is unknown). */
function sortKey(timestamp: string | null): number | null {
  if (!timestamp) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(timestamp);
  if (!m) return null;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, Number((m[7] ?? '0').padEnd(3, '0')));
}

/** key=value tokens where the value has no spaces. */
function simpleFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  const re = /(?:^|\s)([A-Za-z]+)=(\S*)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) if (!fields.has(m[1]!)) fields.set(m[1]!, m[2]!);
  return fields;
}

/** `reason=4 (APP CRASH(EXCEPTION))` → code and label; the label may hold parentheses. */
function codeAndLabel(text: string, key: string): { code: number | null; label: string | null } | null {
  const m = new RegExp(`(?:^|\\s)${key}=(\\S+)(?: \\((.*?)\\)(?=\\s+[A-Za-z]+=|\\s*$))?`).exec(text);
  if (!m) return null;
  return { code: int(m[1]), label: m[2] ?? null };
}

function parseRecord(lines: readonly string[], pkg: string | null, uid: number | null): ExitRecord {
  const text = lines.join('\n');
  const descAt = text.search(/(?:^|\s)description=/);
  let before = text;
  let description: string | null = null;
  let after = '';
  if (descAt >= 0) {
    before = text.slice(0, descAt);
    const rest = text.slice(descAt).replace(/^\s*description=/, '');
    // The description is free text (it may hold `key=value`, even line breaks); `state=` always follows it.
    const stateAt = rest.lastIndexOf(' state=');
    description = (stateAt >= 0 ? rest.slice(0, stateAt) : rest).trim();
    after = stateAt >= 0 ? rest.slice(stateAt) : '';
    if (description === 'null' || description === '') description = null;
  }
  const flat = before.replace(/\n/g, ' ');
  const fields = simpleFields(flat);
  const tail = simpleFields(after.replace(/\n/g, ' '));
  const timestampMatch = /(?:^|\s)timestamp=(.+?)(?=\s+[A-Za-z]+=|$)/.exec(flat);
  const timestamp = timestampMatch ? timestampMatch[1]!.trim() : null;
  const reason = codeAndLabel(flat, 'reason');
  const subreason = codeAndLabel(flat, 'subreason');
  const reasonCode = reason?.code ?? null;
  const trace = tail.get('trace');
  return {
    package: pkg,
    uid: int(fields.get('packageUid')) ?? uid,
    timestamp,
    timestampSortKey: sortKey(timestamp),
    pid: int(fields.get('pid')),
    user: int(fields.get('user')),
    process: fields.get('process') ?? null,
    reasonCode,
    reason: reason?.label ?? (reasonCode !== null ? (REASON_NAMES[reasonCode] ?? `code ${reasonCode}`) : null),
    subreasonCode: subreason?.code ?? null,
    subreason: subreason?.label ?? null,
    status: int(fields.get('status')),
    importance: int(fields.get('importance')),
    pssKb: sizeToKb(fields.get('pss')),
    rssKb: sizeToKb(fields.get('rss')),
    description,
    trace: trace && trace !== 'null' ? trace : null,
  };
}

/**
 * Parses `dumpsys activity exit-info [pkg]`. Records come back newest first across every uid section
 * (a second user's section is printed after the first, out of time order); records whose time cannot
 * be read keep their place after the dated ones. Below Android 11 `dumpsys activity` does not know the
 * command, which is `supported: false`, not an error.
 */
export function parseExitInfo(output: string): ExitInfoParse {
  if (!/PROCESS EXIT INFO/.test(output)) {
    const firstLine =
      output
        .split(/\r?\n/)
        .find((l) => l.trim().length > 0)
        ?.trim() ?? '(no output)';
    return { supported: false, reason: firstLine.slice(0, 200) };
  }
  const records: ExitRecord[] = [];
  let pkg: string | null = null;
  let uid: number | null = null;
  let current: string[] | null = null;
  const flush = (): void => {
    if (current) records.push(parseRecord(current, pkg, uid));
    current = null;
  };
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^package: (\S+)$/.exec(line))) {
      flush();
      pkg = m[1]!;
    } else if ((m = /^Historical Process Exit for uid=(\d+)/.exec(line))) {
      flush();
      uid = Number(m[1]);
    } else if (/^ApplicationExitInfo #\d+:?$/.test(line)) {
      flush();
      current = [];
    } else if (current && line.length > 0) {
      (current as string[]).push(line);
    }
  }
  flush();
  const indexed = records.map((r, i) => ({ r, i }));
  indexed.sort((a, b) => {
    const ka = a.r.timestampSortKey;
    const kb = b.r.timestampSortKey;
    if (ka !== null && kb !== null && ka !== kb) return kb - ka;
    if (ka === null && kb !== null) return 1;
    if (ka !== null && kb === null) return -1;
    return a.i - b.i;
  });
  return { supported: true, records: indexed.map((x) => x.r) };
}
