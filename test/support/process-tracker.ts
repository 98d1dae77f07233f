import { isAlive } from './wait.js';

/**
 * Every process a test spawns is registered here by PID so afterAll can kill whatever a failing test
 * left behind. Never kill by name: other engineers' tests run adb servers too.
 */
const tracked = new Set<number>();

export function trackPid(pid: number): void {
  tracked.add(pid);
}

export function untrackPid(pid: number): void {
  tracked.delete(pid);
}

/** SIGKILLs every tracked process still alive; returns the PIDs it had to kill. */
export function killTrackedProcesses(): number[] {
  const killed: number[] = [];
  for (const pid of tracked) {
    if (isAlive(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      } catch {
        // Already gone between the check and the kill.
      }
    }
    tracked.delete(pid);
  }
  return killed;
}

export function trackedPids(): number[] {
  return [...tracked];
}
