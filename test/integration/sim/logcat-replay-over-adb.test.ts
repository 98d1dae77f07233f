/**
 * `droidwright sim --logcat-replay`: real captures from public bug reports (test/fixtures/logcat/README.md has
 * their provenance) loaded into the device and read back through the real adb server, as the logcat toolset
 * would read a phone that logged them: the lines, the crash buffer, the crashes and pid → process.
 */
import { resolve } from 'node:path';
import { detectCrashes } from '../../../src/android/logcat/crash-detector.js';
import { LogcatBinaryDecoder } from '../../../src/android/logcat/logcat-binary-decoder.js';
import type { LogcatEntry } from '../../../src/android/logcat/logcat-entry.js';
import { parseLogcatText } from '../../../src/android/logcat/logcat-text-parser.js';
import { createSimulatedAndroid } from '../../../src/sim/android/create-simulated-android.js';
import { parseSimArguments } from '../../../src/sim/sim-command.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { killTrackedProcesses } from '../../support/process-tracker.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { fixture } from '../../unit/android/logcat/fixtures.js';

const FIXTURES = resolve('test/fixtures/logcat');

const key = (e: LogcatEntry) => `${e.pid}/${e.tid ?? e.pid} ${e.level === 'A' ? 'F' : e.level} ${e.tag}: ${e.message}`;

function counts(keys: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const k of keys) map.set(k, (map.get(k) ?? 0) + 1);
  return map;
}

describe('replayed captures through the real adb server', () => {
  let adb: TestAdbServer;

  beforeAll(async () => {
    adb = await startAdbServer();
  });

  afterAll(async () => {
    await adb?.stop();
    killTrackedProcesses();
  });

  // [capture, crash kind, crashing pid, the process name `ps` gives that pid]
  it.each([
    ['cts_logcat_native_crash_angler_android7.txt', 'native', 11071, '/system/bin/audioserver'],
    ['public/simple-clock-563_threadtime_java_obfuscated.txt', 'java', 14701, 'com.simplemobiletools.clock'],
    ['public/tinytraveltracker-38_threadtime_java_theme_line.txt', 'java', 25819, 'com.rareventure.gps2'],
    ['public/logfox-177_threadtime_java_r8.txt', 'java', 16407, 'com.f0x1d.logfox'],
    [
      'public/android-issue-1_studio1_legacy_java_fullwidth_colon.txt',
      'java',
      20024,
      'com.example.jameswald.android_issue_1',
    ],
    [
      'public/frostwire-jlibtorrent-240_studio_legacy_native.txt',
      'native',
      13915,
      'com.apkmatrix.components.ultradownloader.demo',
    ],
    ['public/huluwaservice-webapp-1_studio_legacy_native_x86.txt', 'native', 2363, 'com.hlw.movie'],
    ['public/webrtc-sdk-android-26_studio_native_sigabrt.txt', 'native', 30965, 'com.myapp.app'],
    ['public/flutter-160138_console_native_sigabrt_tombstone.txt', 'native', 20792, 'com.ventura.mvp'],
    ['public/meditrak-207_threadtime_debug_tail_and_sigabrt.txt', 'native', 11194, 'dicationtracker'],
    ['public/flutter-70028_threadtime_anr.txt', 'anr', 4960, 'com.zxs.app'],
    ['public/matisse-kotlin-23_studio_legacy_anr_continuation.txt', 'anr', 1866, 'com.unistrong.mapoffline'],
    ['public/lockpattern-5_studio_legacy_anr_wide_continuation.txt', 'anr', 29897, 'com.star.loackpattern'],
    ['public/droidcon-doppl-53_studio_legacy_anr.txt', 'anr', 27003, 'co.touchlab.droidcon.anon'],
  ])('%s: lines, crash buffer, crash and ps as the device logged them', async (file, kind, pid, processName) => {
    const path = resolve(FIXTURES, file);
    const android = createSimulatedAndroid({ backgroundLogRate: 0, logcatReplay: path });
    const device = await startSimOnAdb(adb, { android });
    try {
      const run = (args: string[]) => adb.adb(['-s', device.serial, ...args]);
      const original = parseLogcatText(fixture(`logcat/${file}`));
      // `-v year`: captures from other years keep theirs.
      const dump = await run(['logcat', '-d', '-v', 'threadtime', '-v', 'year']);
      const replayed = parseLogcatText(dump.stdout);
      expect(replayed.stats.unparsed).toBe(0);

      // Every captured line comes back (pid, tid, level, tag, message), beside the device's own boot lines.
      const boot = android.state.bootTimeMs;
      const own = replayed.entries.filter((e) => e.timeMs !== null && e.timeMs >= boot && e.timeMs <= boot + 15_000);
      const fromCapture = replayed.entries.filter((e) => !own.includes(e));
      expect(counts(fromCapture.map(key))).toEqual(counts(original.entries.map(key)));
      const times = new Set(fromCapture.map((e) => e.timeMs));
      for (const e of original.entries) if (e.timeMs !== null) expect(times.has(e.timeMs)).toBe(true);

      // The crash, read from the text and from `-B` as the logcat worker may read it.
      const fromText = detectCrashes(replayed.entries).filter((c) => c.pid === pid);
      expect(fromText.map((c) => c.kind)).toEqual([kind]);
      const decoder = new LogcatBinaryDecoder();
      const binary = decoder.push((await run(['exec-out', 'logcat', '-B', '-d'])).stdoutBuffer);
      expect(decoder.stats.skippedBytes).toBe(0);
      const fromBinary = detectCrashes(binary).filter((c) => c.pid === pid);
      expect(fromBinary.map((c) => [c.kind, c.package, c.signature])).toEqual(
        fromText.map((c) => [c.kind, c.package, c.signature]),
      );

      // Java crashes and tombstones are in the crash buffer, as a device puts them; a capture that names its
      // buffers (`--------- beginning of crash`) keeps them.
      const crashBuffer = parseLogcatText((await run(['logcat', '-d', '-b', 'crash'])).stdout).entries;
      if (kind === 'java') expect(crashBuffer.some((e) => /^FATAL EXCEPTION/.test(e.message))).toBe(true);
      if (kind === 'anr') expect(crashBuffer).toEqual([]);
      if (original.entries.some((e) => e.buffer !== undefined)) {
        expect(crashBuffer.map(key)).toEqual(original.entries.filter((e) => e.buffer === 'crash').map(key));
      } else {
        for (const e of crashBuffer) expect(['AndroidRuntime', 'DEBUG']).toContain(e.tag);
      }

      // pid → process, as the toolset resolves a package.
      const ps = (await run(['shell', 'ps', '-A', '-o', 'PID,NAME'])).stdout;
      const names = new Map(
        ps
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.trim().split(/\s+/) as [string, string]),
      );
      expect(names.get(String(pid))).toBe(processName);
      for (const e of original.entries) expect(names.has(String(e.pid))).toBe(true);
    } finally {
      await device.stop();
      android.dispose();
    }
  });

  it('refuses a file no logcat format reads, naming the file and what to give instead', () => {
    const path = resolve(FIXTURES, 'public/fclogcat-1_message_column_java_caused_by.txt');
    expect(() => createSimulatedAndroid({ backgroundLogRate: 0, logcatReplay: path })).toThrow(
      /fclogcat-1_message_column_java_caused_by\.txt: no line reads as logcat output/,
    );
    expect(() => parseSimArguments(['--logcat-replay', resolve(FIXTURES, 'missing.txt')])).toThrow(
      /--logcat-replay: no file at/,
    );
    expect(parseSimArguments(['--logcat-replay', path, '--log-rate', '100000']).device.androidOptions).toMatchObject({
      logcatReplay: path,
      logRate: 100_000,
    });
  });
});
