import { isProcessAlive } from '../../src/kernel/process-identity.js';
// The waits tests share: a sleep, a bounded poll, and whether a process still exists.

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` until it returns a truthy value (which it resolves to), or throws after `timeoutMs`
 * naming `what` it waited for. Never unbounded: a test that waits forever hides the failure it waits on.
 */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: number | { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const {
    timeoutMs = 15_000,
    intervalMs = 50,
    what = 'condition',
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/** True while a process with this pid runs (a zombie has nothing left to stop). */
export function isAlive(pid: number): boolean {
  return isProcessAlive(pid, null);
}
