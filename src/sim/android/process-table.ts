import type { SeededRandom } from './random.js';

export interface DeviceProcess {
  readonly pid: number;
  readonly ppid: number;
  readonly uid: number;
  readonly name: string;
  /** Set for app processes. */
  readonly packageName?: string;
  readonly startTimeMs: number;
  readonly vszKb: number;
  rssKb: number;
  readonly wchan: string;
}

export const ZYGOTE_PID = 340;
export const SYSTEM_SERVER_PID = 587;

/** The long-running processes of a booted emulator image (pids like a real boot). */
const BOOT_PROCESSES: readonly [number, number, number, string, number][] = [
  // pid, ppid, uid, name, rssKb
  [1, 0, 0, 'init', 11640],
  [2, 0, 0, '[kthreadd]', 0],
  [121, 1, 0, 'ueventd', 3240],
  [146, 1, 1036, 'logd', 6520],
  [147, 1, 1000, 'servicemanager', 4312],
  [148, 1, 1000, 'hwservicemanager', 5540],
  [203, 1, 1000, 'surfaceflinger', 28600],
  [ZYGOTE_PID, 1, 0, 'zygote64', 98620],
  [341, 1, 0, 'zygote', 80112],
  [392, 1, 2000, 'adbd', 7104],
  [405, 1, 1069, 'lmkd', 2816],
  [SYSTEM_SERVER_PID, ZYGOTE_PID, 1000, 'system_server', 265300],
  [812, ZYGOTE_PID, 10120, 'com.android.systemui', 187420],
  [1003, ZYGOTE_PID, 1001, 'com.android.phone', 97440],
  [1130, ZYGOTE_PID, 10134, 'com.google.android.apps.nexuslauncher', 154200],
  [1201, ZYGOTE_PID, 10104, 'com.google.android.gms.persistent', 142010],
];

export function userName(uid: number): string {
  if (uid === 0) return 'root';
  if (uid === 1000) return 'system';
  if (uid === 1001) return 'radio';
  if (uid === 1036) return 'logd';
  if (uid === 1069) return 'lmkd';
  if (uid === 2000) return 'shell';
  if (uid >= 10000 && uid < 20000) return `u0_a${uid - 10000}`;
  return String(uid);
}

export class ProcessTable {
  private readonly procs = new Map<number, DeviceProcess>();
  private lastPid = 2900;

  constructor(
    private readonly rng: SeededRandom,
    private readonly clock: () => number,
    bootTimeMs: number,
  ) {
    for (const [pid, ppid, uid, name, rssKb] of BOOT_PROCESSES) {
      this.procs.set(pid, {
        pid,
        ppid,
        uid,
        name,
        startTimeMs: bootTimeMs,
        rssKb,
        vszKb: rssKb ? 10_700_000 + rssKb * 3 : 0,
        wchan: 'do_epoll_wait',
      });
    }
  }

  private allocatePid(): number {
    this.lastPid += this.rng.int(1, 37);
    if (this.lastPid > 32000) this.lastPid = 3000;
    while (this.procs.has(this.lastPid)) this.lastPid++;
    return this.lastPid;
  }

  /** A pid for a transient shell (sh, a command substitution); such processes are gone by the next `ps`. */
  nextShellPid(): number {
    return this.allocatePid();
  }

  startApp(packageName: string, uid: number, processName = packageName): DeviceProcess {
    const pid = this.allocatePid();
    const proc: DeviceProcess = {
      pid,
      ppid: ZYGOTE_PID,
      uid,
      name: processName,
      packageName,
      startTimeMs: this.clock(),
      vszKb: 14_000_000 + this.rng.int(0, 900_000),
      rssKb: this.rng.int(95_000, 160_000),
      wchan: 'do_epoll_wait',
    };
    this.procs.set(pid, proc);
    return proc;
  }

  /**
   * A process a replayed log names, at the pid the log gives it. A name the log reveals replaces what the table
   * held at that pid; a pid the log does not name keeps a booted process, or becomes `pid-<n>` (no package).
   */
  adopt(pid: number, name: string | undefined, uid: number): DeviceProcess {
    const existing = this.procs.get(pid);
    if (existing && (name === undefined || existing.name === name)) return existing;
    const isPackage = name !== undefined && /^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+(:[\w.]+)?$/.test(name);
    const proc: DeviceProcess = {
      pid,
      ppid: isPackage ? ZYGOTE_PID : 1,
      uid: isPackage ? uid : 0,
      name: name ?? `pid-${pid}`,
      ...(isPackage ? { packageName: name.split(':')[0]! } : {}),
      startTimeMs: this.clock(),
      vszKb: isPackage ? 14_000_000 + this.rng.int(0, 900_000) : 0,
      rssKb: isPackage ? this.rng.int(95_000, 160_000) : 0,
      wchan: 'do_epoll_wait',
    };
    this.procs.set(pid, proc);
    return proc;
  }

  get(pid: number): DeviceProcess | undefined {
    return this.procs.get(pid);
  }

  byName(name: string): DeviceProcess[] {
    return this.list().filter((p) => p.name === name);
  }

  appProcess(packageName: string): DeviceProcess | undefined {
    return this.list().find((p) => p.packageName === packageName && p.name === packageName);
  }

  remove(pid: number): void {
    this.procs.delete(pid);
  }

  list(): DeviceProcess[] {
    return [...this.procs.values()].sort((a, b) => a.pid - b.pid);
  }
}
