import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLogcatReplay } from '../../../../src/sim/android/logcat/logcat-replay.js';
import { parseSimArguments } from '../../../../src/sim/sim-command.js';
import { sleep } from '../../../support/wait.js';
import { fakeClock, newDevice, run } from './shell-io.js';

const options = { year: 2024, fallbackTimeMs: Date.UTC(2024, 0, 2, 3, 4, 5, 6), source: 'capture.txt' };

describe('logcat replay', () => {
  it('joins the lines of one entry, keeps native dumps line by line, and puts crash lines in the crash buffer', () => {
    const replay = readLogcatReplay(
      [
        '05-26 12:13:28.270 16407 16407 E AndroidRuntime: FATAL EXCEPTION: main',
        '05-26 12:13:28.270 16407 16407 E AndroidRuntime: Process: com.f0x1d.logfox, PID: 16407',
        '05-26 12:13:28.271  1200  1210 I ActivityManager: Process com.other (pid 3000) has died',
        '05-26 12:13:28.300  5000  5000 F DEBUG   : pid: 4000, tid: 4001, name: Render  >>> com.native <<<',
        '05-26 12:13:28.300  5000  5000 F DEBUG   : signal 11 (SIGSEGV)',
        '05-26 12:13:28.400  1200  1210 E ActivityManager: ANR in com.slow (com.slow/.Main)',
        '05-26 12:13:28.400  1200  1210 E ActivityManager: PID: 4500',
      ].join('\n'),
      options,
    );
    expect(replay.format).toBe('threadtime');
    expect(replay.entries.map((e) => [e.buffer, e.pid, e.tid, e.priority, e.tag, e.message])).toEqual([
      ['crash', 16407, 16407, 6, 'AndroidRuntime', 'FATAL EXCEPTION: main\nProcess: com.f0x1d.logfox, PID: 16407'],
      ['main', 1200, 1210, 4, 'ActivityManager', 'Process com.other (pid 3000) has died'],
      ['crash', 5000, 5000, 7, 'DEBUG', 'pid: 4000, tid: 4001, name: Render  >>> com.native <<<'],
      ['crash', 5000, 5000, 7, 'DEBUG', 'signal 11 (SIGSEGV)'],
      ['main', 1200, 1210, 6, 'ActivityManager', 'ANR in com.slow (com.slow/.Main)\nPID: 4500'],
    ]);
    expect(replay.entries[0]!.timeMs).toBe(Date.UTC(2024, 4, 26, 12, 13, 28, 270));
    expect([...replay.processes].sort((a, b) => a[0] - b[0])).toEqual([
      [1200, 'system_server'],
      [3000, 'com.other'],
      [4000, 'com.native'],
      [4500, 'com.slow'],
      [5000, undefined],
      [16407, 'com.f0x1d.logfox'],
    ]);
  });

  it('times a format without timestamps at load time and names system_server from Android Studio', () => {
    const brief = readLogcatReplay('E/AndroidRuntime( 4321): FATAL EXCEPTION: main\nI/Tag     (  77): hi\n', options);
    expect(brief.format).toBe('brief');
    expect(brief.entries.map((e) => [e.timeMs, e.pid, e.tid])).toEqual([
      [options.fallbackTimeMs, 4321, 4321],
      [options.fallbackTimeMs, 77, 77],
    ]);
    const studio = readLogcatReplay(
      '2023-09-02 14:47:09.572   951-969   ActivityManager         system_process                       I  Start proc\n',
      options,
    );
    expect(studio.format).toBe('studio');
    expect(studio.processes.get(951)).toBe('system_server');
  });

  it('runs the processes the log names, keeps booted ones it does not name, and refuses prose', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'droidwright-replay-'));
    try {
      const file = join(dir, 'capture.txt');
      writeFileSync(
        file,
        [
          '--------- beginning of main',
          '05-26 12:13:28.270   587   600 I SystemServer: hello',
          '05-26 12:13:28.270 16407 16407 E AndroidRuntime: Process: com.f0x1d.logfox, PID: 16407',
          `05-26 12:13:28.271 16407 16407 I Long: ${'x'.repeat(5000)}`,
        ].join('\n'),
      );
      const android = newDevice({ logcatReplay: file, clock: fakeClock().now });
      try {
        const ps = (await run(android, 'ps -A -o PID,NAME')).stdout;
        expect(ps).toMatch(/^\s*587 system_server$/m);
        expect(ps).toMatch(/^16407 com\.f0x1d\.logfox$/m);
        expect(android.state.processes.get(16407)).toMatchObject({ packageName: 'com.f0x1d.logfox', ppid: 340 });
        // The capture named main for every line, so the crash line stays there; liblog cut the long message.
        const main = (await run(android, 'logcat -d -b main -v brief --pid 16407')).stdout.split('\n');
        expect(main[1]).toBe('E/AndroidRuntime(16407): Process: com.f0x1d.logfox, PID: 16407');
        expect(Buffer.byteLength(main[2]!)).toBe('I/Long    (16407): '.length + 4068 - 3 - 'Long'.length);
      } finally {
        android.dispose();
      }
      writeFileSync(file, 'Here is my crash, please help:\nit crashed\n');
      expect(() => newDevice({ logcatReplay: file })).toThrow(/capture\.txt: no line reads as logcat output/);
      expect(() => newDevice({ logcatReplay: join(dir, 'absent.txt') })).toThrow(
        /cannot read the logcat capture to replay, .*absent\.txt/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('log flood', () => {
  it('logs seq-numbered lines from its own app with no gap, and stops with the device', async () => {
    const android = newDevice({ logRate: 5000 });
    await sleep(100);
    const flood = android.state.logs.read(['main']).filter((e) => e.tag === 'LogFlood');
    android.dispose();
    expect(flood.length).toBeGreaterThan(50);
    expect(flood.map((e) => Number(/^seq=(\d+) /.exec(e.message)![1]))).toEqual(flood.map((_, i) => i + 1));
    const app = android.state.processes.appProcess('com.droidwright.logflood')!;
    expect(new Set(flood.map((e) => e.pid))).toEqual(new Set([app.pid]));
    const count = android.state.logs.read(['main']).length;
    await sleep(30);
    expect(android.state.logs.read(['main']).length).toBe(count);
  });

  it('takes --log-rate from 0 to 1,000,000 lines a second', () => {
    expect(parseSimArguments(['--log-rate', '100000'], {}).device.androidOptions).toEqual({ logRate: 100_000 });
    expect(() => parseSimArguments(['--log-rate', '2000000'], {})).toThrow(/--log-rate must be a whole number/);
    expect(() => parseSimArguments(['--log-rate', 'fast'], {})).toThrow(/--log-rate must be a whole number/);
  });
});
