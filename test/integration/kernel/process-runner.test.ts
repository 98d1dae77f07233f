import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../../../src/kernel/errors.js';
import { ProcessRunner } from '../../../src/kernel/process-runner.js';
import { killTrackedProcesses, trackPid } from '../../support/process-tracker.js';
import { isAlive, sleep } from '../../support/wait.js';

const runner = new ProcessRunner();

afterAll(() => {
  killTrackedProcesses();
});

async function waitDead(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(25);
  }
  return !isAlive(pid);
}

describe('ProcessRunner', () => {
  test('captures both streams; a non-zero exit is data, not an exception', async () => {
    const result = await runner.run('sh', ['-c', 'echo out; echo err >&2; exit 3']);
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
      truncated: false,
      timedOut: false,
      cancelled: false,
      command: [expect.stringMatching(/^\/.*\/sh$/), '-c', 'echo out; echo err >&2; exit 3'],
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('arguments are an argv, never re-parsed by a host shell', async () => {
    const result = await runner.run('printf', ['%s|', '$(id)', 'a b', ';ls']);
    expect(result.stdout).toBe('$(id)|a b|;ls|');
  });

  test('a missing executable rejects with NOT_FOUND', async () => {
    await expect(runner.run('droidwright-no-such-tool', [])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(runner.run('droidwright-no-such-tool', [])).rejects.toBeInstanceOf(ToolError);
  });

  test('looks bare names up only in absolute PATH entries, and hands children a PATH without the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-runner-path-'));
    const marker = join(dir, 'ran');
    mkdirSync(join(dir, 'bin'));
    for (const tool of ['dw-planted-tool', join('bin', 'dw-planted-tool')]) {
      writeFileSync(join(dir, tool), `#!/bin/sh\ntouch ${marker}\n`);
      chmodSync(join(dir, tool), 0o755);
    }
    const env = { PATH: `.::bin:${process.env.PATH}` };
    await expect(runner.run('dw-planted-tool', [], { cwd: dir, env })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(existsSync(marker)).toBe(false);
    // A host tool that looks programs up itself (sh here) finds no relative entry either.
    const viaShell = await runner.run('sh', ['-c', 'echo "$PATH"; dw-planted-tool'], { cwd: dir, env });
    expect(viaShell.stdout.split('\n')[0]).toBe(process.env.PATH);
    expect(existsSync(marker)).toBe(false);
    await expect(runner.run('./dw-planted-tool', [], { cwd: dir })).rejects.toBeInstanceOf(TypeError);
    expect(existsSync(marker)).toBe(false);
  });

  test('stdin is closed unless input is given; input is delivered', async () => {
    expect((await runner.run('cat', [])).stdout).toBe('');
    expect((await runner.run('cat', [], { input: 'hello' })).stdout).toBe('hello');
  });

  test('env overrides merge onto the environment; undefined removes a variable', async () => {
    process.env.DROIDWRIGHT_RUNNER_TEST = 'inherited';
    try {
      const result = await runner.run('sh', ['-c', 'echo "$A|${DROIDWRIGHT_RUNNER_TEST-unset}"'], {
        env: { A: 'set', DROIDWRIGHT_RUNNER_TEST: undefined },
      });
      expect(result.stdout).toBe('set|unset\n');
    } finally {
      delete process.env.DROIDWRIGHT_RUNNER_TEST;
    }
  });

  test('output is capped per stream, keeping the tail; lines are streamed', async () => {
    const lines: string[] = [];
    const result = await runner.run('seq', ['1', '20000'], {
      maxOutputBytes: 100,
      onLine: (line, stream) => stream === 'stdout' && lines.push(line),
    });
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(100);
    expect(result.stdout.endsWith('19999\n20000\n')).toBe(true);
    expect(lines).toHaveLength(20000);
    expect(lines[0]).toBe('1');
    expect(lines[19999]).toBe('20000');
  });

  test('a timeout kills the whole process group', async () => {
    let grandchild = 0;
    const result = await runner.run('sh', ['-c', 'sleep 30 & echo $!; wait'], {
      timeoutMs: 300,
      killGraceMs: 500,
      processGroup: true,
      onLine: (line) => {
        grandchild = Number(line);
        trackPid(grandchild);
      },
    });
    expect(result.timedOut).toBe(true);
    expect(result.cancelled).toBe(false);
    expect(result.exitCode === null || result.signal !== null).toBe(true);
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitDead(grandchild)).toBe(true);
  });

  test('a child that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const started = Date.now();
    const result = await runner.run('sh', ['-c', 'trap "" TERM; sleep 30 & wait; sleep 30'], {
      timeoutMs: 200,
      killGraceMs: 300,
      processGroup: true,
    });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('a process in another session holding the pipes does not hold the run past the timeout', async () => {
    let holder = 0;
    const started = Date.now();
    // `setsid` puts sleep outside the group, so killing the group leaves it holding stdout and stderr.
    const result = await runner.run('sh', ['-c', 'setsid sleep 60 & echo $!; sleep 30'], {
      timeoutMs: 300,
      killGraceMs: 300,
      processGroup: true,
      onLine: (line) => {
        holder = Number(line);
        trackPid(holder);
      },
    });
    try {
      expect(result.timedOut).toBe(true);
      expect(result.stdout).toBe(`${holder}\n`);
      expect(Date.now() - started).toBeLessThan(15_000);
      // A plain exit with the pipes still held resolves too.
      const plain = await runner.run('sh', ['-c', 'setsid sleep 60 & echo $!; exit 4'], {
        onLine: (line) => trackPid(Number(line)),
      });
      expect(plain.exitCode).toBe(4);
      expect(plain.timedOut).toBe(false);
    } finally {
      killTrackedProcesses();
    }
  });

  test('an AbortSignal cancels the run', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runner.run('sleep', ['30'], { signal: controller.signal, killGraceMs: 500 });
    expect(result.cancelled).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.signal).toBe('SIGTERM');
    const already = await runner.run('sleep', ['30'], { signal: controller.signal });
    expect(already.cancelled).toBe(true);
    expect(already.exitCode).toBeNull();
  });

  test('spawnDetached starts a long-lived child and returns its pid; a missing executable rejects', async () => {
    const pid = await runner.spawnDetached('sleep', ['30']);
    trackPid(pid);
    expect(isAlive(pid)).toBe(true);
    process.kill(-pid, 'SIGKILL');
    expect(await waitDead(pid)).toBe(true);
    await expect(runner.spawnDetached('droidwright-no-such-tool', [])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
