/** ApplicationExitInfo history as ActivityManager keeps it (newest first, bounded per package). */

export const EXIT_REASONS = {
  EXIT_SELF: [1, 'EXIT_SELF'],
  SIGNALED: [2, 'SIGNALED'],
  LOW_MEMORY: [3, 'LOW_MEMORY'],
  CRASH: [4, 'APP CRASH(EXCEPTION)'],
  CRASH_NATIVE: [5, 'APP CRASH(NATIVE)'],
  ANR: [6, 'ANR'],
  USER_REQUESTED: [10, 'USER REQUESTED'],
  OTHER: [13, 'OTHER KILLS BY SYSTEM'],
  PACKAGE_UPDATED: [16, 'PACKAGE UPDATED'],
} as const;
export type ExitReason = keyof typeof EXIT_REASONS;

export const EXIT_SUBREASONS = {
  UNKNOWN: [0, 'UNKNOWN'],
  STOP_APP: [23, 'STOP APP'],
  KILL_BACKGROUND: [24, 'KILL BACKGROUND'],
  PACKAGE_UPDATE: [25, 'PACKAGE UPDATE'],
} as const;
export type ExitSubreason = keyof typeof EXIT_SUBREASONS;

export interface ExitRecord {
  readonly packageName: string;
  readonly uid: number;
  readonly pid: number;
  readonly processName: string;
  readonly reason: ExitReason;
  readonly subreason: ExitSubreason;
  readonly status: number;
  readonly importance: number;
  readonly pssKb: number;
  readonly rssKb: number;
  readonly description: string | null;
  readonly timeMs: number;
  readonly trace: string | null;
}

const MAX_PER_PACKAGE = 16;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export function formatDeviceTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/** DebugUtils.sizeValueToString as the dump prints pss/rss. */
function sizeValue(kb: number): string {
  if (kb === 0) return '0';
  if (kb < 10 * 1024) return `${kb}KB`;
  const mb = Math.round(kb / 1024);
  if (mb < 10 * 1024) return `${mb}MB`;
  return `${Math.round(mb / 1024)}GB`;
}

export class ExitInfoStore {
  private readonly records = new Map<string, ExitRecord[]>();
  persistedAtMs: number;

  constructor(bootTimeMs: number) {
    this.persistedAtMs = bootTimeMs;
  }

  add(record: ExitRecord): void {
    const list = this.records.get(record.packageName) ?? [];
    list.unshift(record);
    if (list.length > MAX_PER_PACKAGE) list.length = MAX_PER_PACKAGE;
    this.records.set(record.packageName, list);
  }

  forPackage(packageName: string): readonly ExitRecord[] {
    return this.records.get(packageName) ?? [];
  }

  removePackage(packageName: string): void {
    this.records.delete(packageName);
  }

  /** `dumpsys activity exit-info [pkg]` on Android 11+. */
  dump(packageName?: string): string {
    const lines = [
      'ACTIVITY MANAGER PROCESS EXIT INFO (dumpsys activity exit-info)',
      `Last Timestamp of Persistence Into Persistent Storage: ${formatDeviceTime(this.persistedAtMs)}`,
    ];
    const packages = packageName ? [packageName] : [...this.records.keys()].sort();
    for (const pkg of packages) {
      const list = this.records.get(pkg);
      if (!list || list.length === 0) continue;
      lines.push(`  package: ${pkg}`);
      const byUid = new Map<number, ExitRecord[]>();
      for (const r of list) byUid.set(r.uid, [...(byUid.get(r.uid) ?? []), r]);
      for (const [uid, records] of byUid) {
        lines.push(`    Historical Process Exit for uid=${uid}`);
        records.forEach((r, i) => {
          const [reasonCode, reasonName] = EXIT_REASONS[r.reason];
          const [subCode, subName] = EXIT_SUBREASONS[r.subreason];
          lines.push(
            `        ApplicationExitInfo #${i}:`,
            `          timestamp=${formatDeviceTime(r.timeMs)} pid=${r.pid} realUid=${r.uid} packageUid=${r.uid} definingUid=${r.uid} user=0`,
            `          process=${r.processName} reason=${reasonCode} (${reasonName}) subreason=${subCode} (${subName}) status=${r.status}`,
            `          importance=${r.importance} pss=${sizeValue(r.pssKb)} rss=${sizeValue(r.rssKb)} description=${r.description ?? 'null'} state=empty trace=${r.trace ?? 'null'}`,
          );
        });
      }
    }
    return `${lines.join('\n')}\n`;
  }
}
