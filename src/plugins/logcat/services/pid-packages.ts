import { sh } from '../../../android/device-command.js';

/** How often at most the device's process table is read again for pids it did not list. */
export const PS_REFRESH_MIN_MS = 500;
/** Processes kept; a device runs a few hundred, this only bounds a hostile or broken `ps`. */
const MAX_PROCESSES = 20_000;
/** An Android application id (a process name may add `:suffix` for a secondary process). */
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+$/;

/** Reads `ps -A -o PID,NAME` output into pid → package (app processes only; daemons and kernel threads are null). */
export function parseProcessTable(output: string): Map<number, string | null> {
  const table = new Map<number, string | null>();
  for (const line of output.split('\n')) {
    const match = /^\s*(\d+)\s+(\S+)/.exec(line);
    if (!match) continue;
    const name = match[2]!.split(':')[0]!;
    table.set(Number(match[1]), PACKAGE_NAME.test(name) ? name : null);
    if (table.size >= MAX_PROCESSES) break;
  }
  return table;
}

export type ShellRunner = (command: ReturnType<typeof sh>) => Promise<string>;

/**
 * pid → package for the lines of one device, from its process table. A pid seen for the first time makes `refreshFor`
 * read `ps` again (at most once per {@link PS_REFRESH_MIN_MS}; the batch waits for it), so an app started after the
 * stream began resolves from its first lines on; a pid `ps` does not list stays null (a process that already exited).
 */
export class PidPackages {
  private table = new Map<number, string | null>();
  private lastRefreshAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly run: ShellRunner,
    private readonly clock: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** The package of `pid` as last read; null for unknown pids and non-app processes. */
  readonly packageOf = (pid: number): string | null => this.table.get(pid) ?? null;

  private unknown(pids: Iterable<number>): boolean {
    for (const pid of pids) if (!this.table.has(pid)) return true;
    return false;
  }

  /** Reads the process table again; failures keep the old table (lines then carry no package). */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      this.lastRefreshAt = this.clock();
      try {
        const fresh = parseProcessTable(await this.run(sh`ps -A -o PID,NAME`));
        if (fresh.size > 0) this.table = fresh;
      } catch {
        // The device may be going away; the stream's own end reports that.
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /**
   * Reads `ps` again when any of `pids` is unknown, waiting out the rate limit first (so a new app's first lines get
   * its package); pids still unlisted afterwards are remembered as null until the next refresh.
   */
  async refreshFor(pids: ReadonlySet<number>): Promise<void> {
    if (!this.unknown(pids)) return;
    const wait = this.lastRefreshAt + PS_REFRESH_MIN_MS - this.clock();
    if (wait > 0) await this.sleep(wait);
    if (!this.unknown(pids)) return;
    await this.refresh();
    for (const pid of pids) if (!this.table.has(pid)) this.table.set(pid, null);
  }
}
