import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { identityOf, isProcessAlive, parseProcStat, processStartTime } from '../../../src/kernel/process-identity.js';

describe('process identity', () => {
  it('reads the start time of a live process from /proc and none for a missing one', () => {
    const start = processStartTime(process.pid);
    if (process.platform === 'linux') expect(start).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(start);
    expect(processStartTime(2 ** 22 + 12345)).toBeNull();
    expect(isProcessAlive(2 ** 22 + 12345, null)).toBe(false);
  });

  it('tells a child from a later process with its pid by the start time', async () => {
    if (process.platform !== 'linux') return;
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const identity = identityOf(child.pid!);
      expect(isProcessAlive(identity.pid, identity.startTime)).toBe(true);
      expect(isProcessAlive(child.pid!, String(Number(identity.startTime) + 1))).toBe(false);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  });
});

describe('process liveness', () => {
  it('reads state and start time from a stat line whose command name has spaces and parentheses', () => {
    const line =
      '4242 (java (gradle) x) Z 1 4242 4242 0 -1 4194560 100 0 0 0 5 1 0 0 20 0 1 0 987654 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n';
    expect(parseProcStat(line)).toEqual({ state: 'Z', startTime: '987654' });
    expect(parseProcStat('garbage')).toEqual({ state: null, startTime: null });
    expect(parseProcStat(readFileSync(`/proc/${process.pid}/stat`, 'utf8'))).toEqual({
      state: expect.stringMatching(/^[RS]$/),
      startTime: processStartTime(process.pid),
    });
  });

  it('counts a zombie (exited, never reaped by its parent) as dead', async () => {
    // The child exits after its parent has become `sleep` through exec, which never waits for it. (A
    // child that exited at once could be reaped by sh before the exec, leaving no zombie to look at.)
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(
        await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()))),
      );
      let state: string | null = null;
      for (let i = 0; i < 250 && state !== 'Z'; i++) {
        state = parseProcStat(readFileSync(`/proc/${zombie}/stat`, 'utf8')).state;
        if (state !== 'Z') await new Promise((r) => setTimeout(r, 20));
      }
      expect(state).toBe('Z');
      expect(isProcessAlive(zombie, null)).toBe(false);
      expect(isProcessAlive(parent.pid!, null)).toBe(true);
    } finally {
      const exited = new Promise((resolve) => parent.once('exit', resolve));
      parent.kill('SIGKILL');
      await exited;
    }
  });
});
