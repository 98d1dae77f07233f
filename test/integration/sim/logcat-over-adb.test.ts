/**
 * The simulated device's logcat and ps, read through the real adb server the way the logcat toolset reads a
 * phone: `adb logcat` text, `adb exec-out logcat -B` binary, follow mode, the flood and replayed captures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { LogcatBinaryDecoder } from '../../../src/android/logcat/logcat-binary-decoder.js';
import type { LogcatEntry } from '../../../src/android/logcat/logcat-entry.js';
import { parseLogcatText } from '../../../src/android/logcat/logcat-text-parser.js';
import {
  createSimulatedAndroid,
  type SimulatedAndroidHandle,
} from '../../../src/sim/android/create-simulated-android.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { killTrackedProcesses, trackPid, untrackPid } from '../../support/process-tracker.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { isAlive, sleep, waitFor } from '../../support/wait.js';

/** A long-running `adb …` (logcat in follow mode) whose output the test reads while it runs; stopped by PID. */
interface Streaming {
  readonly child: ChildProcess;
  bytes(): Buffer;
  stop(): Promise<void>;
}

function streamAdb(adb: TestAdbServer, args: string[]): Streaming {
  const child = spawn('adb', ['-P', String(adb.port), ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = child.pid!;
  trackPid(pid);
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (c: Buffer) => chunks.push(c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    bytes: () => Buffer.concat(chunks),
    async stop() {
      if (isAlive(pid)) process.kill(pid, 'SIGTERM');
      await Promise.race([exited, sleep(3000)]);
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      untrackPid(pid);
    },
  };
}

/** `cutTail`: the reader was killed mid-stream, so its last entry may be cut short. */
function decodeBinary(bytes: Buffer, cutTail = false): LogcatEntry[] {
  const decoder = new LogcatBinaryDecoder();
  const entries = decoder.push(bytes);
  if (!cutTail) expect(decoder.end().truncatedBytes).toBe(0);
  expect(decoder.stats.skippedBytes).toBe(0);
  return entries;
}

const key = (e: LogcatEntry) => `${e.pid}/${e.tid ?? e.pid} ${e.level === 'A' ? 'F' : e.level} ${e.tag}: ${e.message}`;

describe('logcat and ps through the real adb server', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;
  let android: SimulatedAndroidHandle;
  const run = (args: string[]) => adb.adb(['-s', device.serial, ...args]);

  beforeAll(async () => {
    adb = await startAdbServer();
    android = createSimulatedAndroid({ backgroundLogRate: 0, seed: 3, scenario: 'notes-app' });
    device = await startSimOnAdb(adb, { android });
  });

  afterAll(async () => {
    await device?.stop();
    android?.dispose();
    await adb?.stop();
    killTrackedProcesses();
  });

  beforeEach(async () => {
    expect((await run(['logcat', '-b', 'all', '-c'])).exitCode).toBe(0);
    const s = android.state;
    // 10 ms apart, so time-based tails have something to tell apart.
    let at = Date.now() - 5000;
    const log = (...args: Parameters<typeof s.log>) => s.atTime((at += 10), () => s.log(...args));
    log('main', 'I', 'Alpha', 'first line', 4321, 10200, 2);
    log('system', 'W', 'BetaService', 'second\nwith two lines', 587);
    log('crash', 'E', 'AndroidRuntime', 'FATAL EXCEPTION: main\nProcess: com.example.notes, PID: 4321', 4321, 10200);
    log('events', 'I', 'screen_toggled', '1', 587);
    log('main', 'E', 'Alpha', 'third', 4321, 10200);
  });

  it('prints -v threadtime (and brief, time) that the shared parser reads back entry for entry', async () => {
    // -D prints `switch to` dividers, so the reader knows each line's buffer (without it only the first is marked).
    const dump = await run(['logcat', '-d', '-D', '-v', 'threadtime']);
    expect(dump.exitCode).toBe(0);
    const parsed = parseLogcatText(dump.stdout);
    expect(parsed.format).toBe('threadtime');
    expect(parsed.stats.unparsed).toBe(0);
    expect(parsed.entries.map((e) => [e.buffer, key(e)])).toEqual([
      ['main', '4321/4323 I Alpha: first line'],
      ['system', '587/587 W BetaService: second'],
      ['system', '587/587 W BetaService: with two lines'],
      ['crash', '4321/4321 E AndroidRuntime: FATAL EXCEPTION: main'],
      ['crash', '4321/4321 E AndroidRuntime: Process: com.example.notes, PID: 4321'],
      ['main', '4321/4321 E Alpha: third'],
    ]);
    const stored = android.state.logs.read(['main']).map((e) => e.timeMs);
    expect(parsed.entries.filter((e) => e.buffer === 'main').map((e) => e.timeMs)).toEqual(stored);
    for (const format of ['brief', 'time'] as const) {
      const text = (await run(['logcat', '-d', '-v', format, '-b', 'main'])).stdout;
      const again = parseLogcatText(text);
      expect(again.format).toBe(format);
      expect(again.entries.map((e) => `${e.pid} ${e.level} ${e.tag}: ${e.message}`)).toEqual([
        '4321 I Alpha: first line',
        '4321 E Alpha: third',
      ]);
    }
  });

  it('writes `exec-out logcat -B` as logd v4 entries: log ids, uids, whole multi-line messages', async () => {
    const out = (await run(['exec-out', 'logcat', '-B', '-d', '-b', 'all'])).stdoutBuffer;
    expect(out.readUInt16LE(2)).toBe(28);
    const entries = decodeBinary(out);
    // An event entry is a typed payload under its event-log-tags number (70000 is screen_toggled).
    expect(entries.map((e) => [e.buffer, e.uid, key(e)])).toEqual([
      ['main', '10200', '4321/4323 I Alpha: first line'],
      ['system', '1000', '587/587 W BetaService: second\nwith two lines'],
      ['crash', '10200', '4321/4321 E AndroidRuntime: FATAL EXCEPTION: main\nProcess: com.example.notes, PID: 4321'],
      ['events', '1000', '587/587 I 70000: 1'],
      ['main', '10200', '4321/4321 E Alpha: third'],
    ]);
    expect(entries.map((e) => e.timeMs)).toEqual(
      android.state.logs.read(['main', 'system', 'crash', 'events']).map((e) => e.timeMs),
    );
  });

  it('selects buffers, tails, filter specs and --pid like a phone, and -c clears', async () => {
    const lines = async (...args: string[]) =>
      parseLogcatText((await run(['logcat', ...args])).stdout).entries.map((e) => `${e.tag}: ${e.message}`);
    expect(await lines('-d', '-b', 'crash')).toEqual([
      'AndroidRuntime: FATAL EXCEPTION: main',
      'AndroidRuntime: Process: com.example.notes, PID: 4321',
    ]);
    expect(await lines('-d', '-b', 'events')).toEqual(['screen_toggled: 1']);
    expect(await lines('-d', '-b', 'main,system')).toHaveLength(4);
    expect(await lines('-d', '-b', 'all')).toHaveLength(7);
    expect(await lines('-t', '1')).toEqual(['Alpha: third']);
    expect(await lines('-d', '-T', '2')).toEqual([
      'AndroidRuntime: FATAL EXCEPTION: main',
      'AndroidRuntime: Process: com.example.notes, PID: 4321',
      'Alpha: third',
    ]);
    const third = android.state.logs.read(['main']).at(-1)!;
    const since = `${Math.floor(third.timeMs / 1000)}.${String(third.timeMs % 1000).padStart(3, '0')}`;
    expect(await lines('-d', '-T', since)).toEqual(['Alpha: third']);
    expect(await lines('-d', 'Alpha:W', '*:S')).toEqual(['Alpha: third']);
    expect(await lines('-d', '-s', 'BetaService')).toEqual(['BetaService: second', 'BetaService: with two lines']);
    expect(await lines('-d', '--pid=4321', '-b', 'main')).toEqual(['Alpha: first line', 'Alpha: third']);
    // logd takes the tail, then the client filters the tags: the last 2 lines hold one Alpha line.
    expect(await lines('-t', '2', 'Alpha:V', '*:S')).toEqual(['Alpha: third']);
    expect((await run(['logcat', '-c'])).exitCode).toBe(0);
    expect(await lines('-d')).toEqual([]);
    expect(await lines('-d', '-b', 'events')).toEqual(['screen_toggled: 1']);
  });

  it('follows new lines, text and binary, until the reader closes the stream', async () => {
    expect(android.state.logs.readers).toBe(0);
    const text = streamAdb(adb, ['-s', device.serial, 'logcat', '-v', 'threadtime', '-T', '1', 'Live:I', '*:S']);
    const binary = streamAdb(adb, ['-s', device.serial, 'exec-out', 'logcat', '-B', '-T', '1']);
    try {
      await waitFor(() => android.state.logs.readers === 2, { what: 'two logcat readers' });
      android.state.log('main', 'I', 'Live', 'marker one', 4321);
      android.state.log('main', 'D', 'Live', 'below the filter', 4321);
      android.state.log('crash', 'I', 'Live', 'marker two', 4321);
      await waitFor(() => text.bytes().toString().includes('marker two'), { what: 'the followed text lines' });
      await waitFor(() => decodeBinary(binary.bytes(), true).some((e) => e.message === 'marker two'), {
        what: 'the followed binary entries',
      });
      expect(parseLogcatText(text.bytes().toString()).entries.map((e) => e.message)).toEqual([
        'marker one',
        'marker two',
      ]);
      expect(decodeBinary(binary.bytes()).map((e) => e.message)).toEqual([
        'third',
        'marker one',
        'below the filter',
        'marker two',
      ]);
    } finally {
      await text.stop();
      await binary.stop();
    }
    await waitFor(() => android.state.logs.readers === 0, { what: 'the device to end both logcat commands' });
  });

  it('lists every process with its pid for `ps -A -o PID,NAME` and plain `ps -A`', async () => {
    const start = await run(['shell', 'am', 'start', '-W', '-n', 'com.example.notes/.LoginActivity']);
    expect(start.stdout).toContain('Status: ok');
    const app = android.state.processes.appProcess('com.example.notes')!;
    const table = (await run(['shell', 'ps', '-A', '-o', 'PID,NAME'])).stdout.trim().split('\n');
    expect(table[0]!.trim().split(/\s+/)).toEqual(['PID', 'NAME']);
    const byPid = new Map(table.slice(1).map((l) => l.trim().split(/\s+/) as [string, string]));
    expect(byPid.get(String(app.pid))).toBe('com.example.notes');
    for (const p of android.state.processes.list()) expect(byPid.get(String(p.pid))).toBe(p.name);
    const plain = (await run(['shell', 'ps', '-A'])).stdout.split('\n');
    expect(plain[0]).toMatch(/^USER\s+PID\s+PPID\s+VSZ\s+RSS\s+WCHAN\s+ADDR\s+S\s+NAME/);
    expect(plain.find((l) => l.trim().split(/\s+/)[1] === String(app.pid))).toMatch(/ com\.example\.notes$/);
    expect((await run(['shell', 'pidof', 'com.example.notes'])).stdout.trim()).toBe(String(app.pid));
  });
});

describe('the flood (`droidwright sim --log-rate`) through the real adb server', () => {
  let adb: TestAdbServer;
  let device: RunningSimulatedDevice;

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, logRate: 20_000 } });
  });

  afterAll(async () => {
    await device?.stop();
    await adb?.stop();
    killTrackedProcesses();
  });

  it('streams seq-numbered lines with no gap through `adb exec-out logcat -B`', async () => {
    const reader = streamAdb(adb, ['-s', device.serial, 'exec-out', 'logcat', '-B']);
    await sleep(3000);
    await reader.stop();
    const flood = decodeBinary(reader.bytes(), true).filter((e) => e.tag === 'LogFlood');
    const seqs = flood.map((e) => Number(/^seq=(\d+) /.exec(e.message)![1]));
    // 3 s at 20,000 lines/s; a loaded machine delivers fewer, but never with a gap.
    expect(seqs.length).toBeGreaterThan(10_000);
    const gaps = seqs.filter((s, i) => i > 0 && s !== seqs[i - 1]! + 1);
    expect(gaps).toEqual([]);
    const table = (await adb.adb(['-s', device.serial, 'shell', 'ps', '-A', '-o', 'PID,NAME'])).stdout;
    expect(table).toMatch(new RegExp(`^\\s*${flood[0]!.pid} com\\.droidwright\\.logflood$`, 'm'));
  });
});
