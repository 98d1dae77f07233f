/**
 * `droidwright sim --logcat-replay FILE --log-rate N` as a user runs it: the built CLI announces the device to a
 * real adb server, which then reads the replayed crash, the processes it names and the flood.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { LogcatBinaryDecoder } from '../../../src/android/logcat/logcat-binary-decoder.js';
import { parseLogcatText } from '../../../src/android/logcat/logcat-text-parser.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { CLI, assertBuilt, stopPid } from '../../support/mcp-client.js';
import { killTrackedProcesses, trackPid, untrackPid } from '../../support/process-tracker.js';
import { isAlive, waitFor } from '../../support/wait.js';

const CAPTURE = resolve('test/fixtures/logcat/public/simple-clock-563_threadtime_java_obfuscated.txt');

describe('droidwright sim --logcat-replay --log-rate', () => {
  let adb: TestAdbServer;

  beforeAll(async () => {
    assertBuilt();
    adb = await startAdbServer();
  });

  afterAll(async () => {
    await adb?.stop();
    killTrackedProcesses();
  });

  it('serves the replayed crash, its processes and the flood through adb, and stops on SIGTERM', async () => {
    const sim = spawn(
      process.execPath,
      [CLI, 'sim', '--adb-port', String(adb.port), '--logcat-replay', CAPTURE, '--log-rate', '2000'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const pid = sim.pid!;
    trackPid(pid);
    let stdout = '';
    sim.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    try {
      const serial = (
        await waitFor(() => /simulated device (\S+) is up/.exec(stdout), { what: 'the sim to start' })
      )[1]!;
      await waitFor(() => /adb server on port \d+: connected to/.test(stdout), { what: 'the adb connect' });
      await adb.waitForDevice(serial);
      expect(stdout).toMatch(/replayed \d+ log entries \(threadtime format\), \d+ processes running at their pids/);
      expect(stdout).toMatch(/flooding the main buffer at 2000 lines\/s/);

      const crash = parseLogcatText((await adb.adb(['-s', serial, 'logcat', '-d', '-b', 'crash'])).stdout).entries;
      expect(crash.slice(0, 2).map((e) => [e.pid, e.tid, e.level, e.tag, e.message])).toEqual([
        [14701, 14717, 'E', 'AndroidRuntime', 'FATAL EXCEPTION: Thread-2'],
        [14701, 14717, 'E', 'AndroidRuntime', 'Process: com.simplemobiletools.clock, PID: 14701'],
      ]);
      const ps = (await adb.adb(['-s', serial, 'shell', 'ps', '-A', '-o', 'PID,NAME'])).stdout;
      expect(ps).toMatch(/^14701 com\.simplemobiletools\.clock$/m);

      const flood = new LogcatBinaryDecoder()
        .push((await adb.adb(['-s', serial, 'exec-out', 'logcat', '-B', '-d', '-b', 'main'])).stdoutBuffer)
        .filter((e) => e.tag === 'LogFlood')
        .map((e) => Number(/^seq=(\d+) /.exec(e.message)![1]));
      expect(flood.length).toBeGreaterThan(0);
      expect(flood).toEqual(flood.map((_, i) => flood[0]! + i));
    } finally {
      await stopPid(pid);
      untrackPid(pid);
    }
    expect(isAlive(pid)).toBe(false);
    expect(stdout).toMatch(/simulated device \S+ stopped/);
  });

  it('refuses a capture no logcat format reads as a usage error', async () => {
    const prose = resolve('test/fixtures/logcat/public/fclogcat-1_message_column_java_caused_by.txt');
    const sim = spawn(process.execPath, [CLI, 'sim', '--no-connect', '--logcat-replay', prose], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    trackPid(sim.pid!);
    let stderr = '';
    sim.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((done) => sim.once('exit', done));
    untrackPid(sim.pid!);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^droidwright: --logcat-replay: .*fclogcat-1_message_column_java_caused_by\.txt: no line/);
  });
});
