// Probes for what some tests need from the machine. A test skips, naming the reason, only when the probe
// shows the capability is truly absent here; wherever it is present the test runs and asserts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Capability = { readonly available: true } | { readonly available: false; readonly reason: string };

const asRoot = process.getuid?.() === 0;

/**
 * Makes a directory refuse new files, also for root: root ignores mode bits, so as root the directory is
 * made immutable with `chattr +i` (needs a filesystem with inode flags); otherwise mode 0500.
 */
export function makeUnwritable(dir: string, mode = '0500'): void {
  if (asRoot) execFileSync('chattr', ['+i', dir], { stdio: 'pipe' });
  else execFileSync('chmod', [mode, dir]);
}

export function makeWritable(dir: string): void {
  if (asRoot) execFileSync('chattr', ['-i', dir], { stdio: 'pipe' });
  else execFileSync('chmod', ['0700', dir]);
}

/** Whether makeUnwritable really stops a file being created here (chattr may be missing, or tmpfs may lack inode flags). */
export function probeUnwritableDirectories(): Capability {
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-probe-'));
  try {
    try {
      makeUnwritable(dir);
    } catch (error) {
      const how = asRoot ? 'chattr +i (running as root, which ignores mode bits)' : 'chmod 0500';
      return { available: false, reason: `${how} failed on ${tmpdir()}: ${(error as Error).message.split('\n')[0]}` };
    }
    try {
      writeFileSync(join(dir, 'probe'), '');
      return { available: false, reason: `a directory made unwritable on ${tmpdir()} still accepts new files` };
    } catch {
      return { available: true };
    }
  } finally {
    try {
      makeWritable(dir);
    } catch {
      // The probe failed before the directory was locked.
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether fs.watch on a directory reports a new file within `timeoutMs` (no inotify, or out of watches, here). */
export function probeFileWatch(timeoutMs = 3000): Promise<Capability> {
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-probe-'));
  return new Promise<Capability>((resolve) => {
    let watcher: ReturnType<typeof watch> | undefined;
    const done = (result: Capability) => {
      clearTimeout(timer);
      watcher?.close();
      rmSync(dir, { recursive: true, force: true });
      resolve(result);
    };
    const timer = setTimeout(
      () => done({ available: false, reason: `fs.watch reported no change within ${timeoutMs} ms on ${tmpdir()}` }),
      timeoutMs,
    );
    try {
      watcher = watch(dir, { persistent: false }, () => done({ available: true }));
      watcher.on('error', (error) => done({ available: false, reason: `fs.watch failed: ${error.message}` }));
      writeFileSync(join(dir, 'probe'), 'x');
    } catch (error) {
      done({ available: false, reason: `fs.watch failed: ${(error as Error).message}` });
    }
  });
}

/** Whether this system has /proc/<pid>/stat, which process start times and zombie states are read from. */
export function probeProcStat(): Capability {
  return existsSync(`/proc/${process.pid}/stat`)
    ? { available: true }
    : { available: false, reason: `no /proc/<pid>/stat on ${process.platform}` };
}

/** `it`, or `it.skip` with the reason in the test's name when the capability is absent. */
export function itWhen(capability: Capability): (name: string, fn: () => unknown) => void {
  if (capability.available) return (name, fn) => it(name, fn as jest.ProvidesCallback);
  return (name, fn) => it.skip(`${name} (skipped: ${capability.reason})`, fn as jest.ProvidesCallback);
}
