import {
  type CrashReport,
  CrashDetector,
  detectCrashes,
  type JavaCrashReport,
} from '../../../../src/android/logcat/crash-detector.js';
import { anrReasonKind, packageOfProcess, signatureHash } from '../../../../src/android/logcat/crash-signature.js';
import type { LogcatEntry } from '../../../../src/android/logcat/logcat-entry.js';
import { parseLogcatText } from '../../../../src/android/logcat/logcat-text-parser.js';
import { fixture } from './fixtures.js';

function crashesIn(file: string): CrashReport[] {
  return detectCrashes(parseLogcatText(fixture(file), { year: 2020 }).entries);
}

/** The fields a report is judged on; `entries` by count and tags, frames by count. */
function summary(c: CrashReport) {
  const { entries, ...rest } = c;
  return { ...rest, entries: entries.length };
}

describe('crash detection on real captures', () => {
  it('CTS angler logcat: the audioserver SIGSEGV joined with its DEBUG tombstone', () => {
    const crashes = crashesIn('logcat/cts_logcat_native_crash_angler_android7.txt');
    expect(crashes).toHaveLength(1);
    const c = crashes[0]!;
    expect(c.kind).toBe('native');
    if (c.kind !== 'native') return;
    expect(summary(c)).toMatchObject({
      pid: 11071,
      package: null,
      process: '/system/bin/audioserver',
      signal: 'SIGSEGV',
      signalNumber: 11,
      code: 'SEGV_MAPERR',
      faultAddress: '0xe9380000',
      abi: 'arm',
      tid: 11189,
      threadName: 'AudioOut_D',
      hasTombstone: true,
      time: '09-03 17:48:05.627',
      truncated: false,
      entries: 22,
      signature: 'native:SIGSEGV@libaudioutils.so:memcpy_to_float_from_i16;libaudioflinger.so;libaudioflinger.so',
    });
    expect(c.frames.map((f) => f.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(c.frames[6]).toMatchObject({
      path: '/system/lib/libutils.so',
      symbol: '_ZN7android6Thread11_threadLoopEPv',
    });
    expect(c.entries[0]).toMatchObject({ tag: 'libc', pid: 11071 });
    expect(c.entries.slice(1).every((e) => e.tag === 'DEBUG' && e.pid === 7072)).toBe(true);
    expect(c.signatureHash).toBe(signatureHash(c.signature));
  });

  it('the logcat in the xCrash Java report holds no crash block', () => {
    expect(crashesIn('logcat/xcrash_java_crash_with_logcat_android10.txt')).toEqual([]);
  });

  it.each([
    'logcat/anr_traces_sentry_sample_android13.txt',
    'logcat/tombstone_unity_il2cpp_sigsegv_android9.txt',
    'logcat/xcrash_native_sigsegv_arm64_android10.txt',
  ])('%s is no logcat: nothing is detected', (file) => {
    expect(crashesIn(file)).toEqual([]);
  });

  it('Simple Clock: an obfuscated Kotlin NPE on Thread-2, app frames from the package', () => {
    const [c, ...more] = crashesIn('logcat/public/simple-clock-563_threadtime_java_obfuscated.txt');
    expect(more).toEqual([]);
    expect(summary(c!)).toMatchObject({
      kind: 'java',
      pid: 14701,
      package: 'com.simplemobiletools.clock',
      process: 'com.simplemobiletools.clock',
      thread: 'Thread-2',
      exceptionClass: 'java.lang.NullPointerException',
      message: 'Parameter specified as non-null is null: method c4.l.e, parameter timer',
      causes: [],
      entries: 11,
      signature:
        'java:java.lang.NullPointerException@com.simplemobiletools.clock.App$g.a;com.simplemobiletools.clock.App$g.j',
    });
    expect((c as JavaCrashReport).frames).toHaveLength(8);
    expect((c as JavaCrashReport).frames[2]).toEqual({
      className: 'c3.g$b',
      methodName: 'a',
      fileName: 'Unknown Source',
      line: 14,
    });
  });

  it('TinyTravelTracker: blank lines and a Theme: line before the exception', () => {
    const [c, ...more] = crashesIn('logcat/public/tinytraveltracker-38_threadtime_java_theme_line.txt');
    expect(more).toEqual([]);
    expect(summary(c!)).toMatchObject({
      kind: 'java',
      pid: 25819,
      package: 'com.rareventure.gps2',
      thread: 'Thread-1565',
      exceptionClass: 'java.lang.InternalError',
      message: 'Thread starting during runtime shutdown',
      signature:
        'java:java.lang.InternalError@java.lang.Thread.nativeCreate;java.lang.Thread.start;com.android.okhttp.okio.AsyncTimeout.scheduleTimeout',
    });
    expect((c as JavaCrashReport).frames).toHaveLength(5);
  });

  it('LogFox: an NPE without message; R8-renamed app classes are the first non-framework frames', () => {
    const [c] = crashesIn('logcat/public/logfox-177_threadtime_java_r8.txt');
    expect(summary(c!)).toMatchObject({
      kind: 'java',
      pid: 16407,
      package: 'com.f0x1d.logfox',
      thread: 'main',
      exceptionClass: 'java.lang.NullPointerException',
      message: null,
      signature: 'java:java.lang.NullPointerException@A4.d.l;q2.d.q;q2.d.j',
    });
  });

  it('Android Studio 1.x copy: fullwidth colon and indented continuation lines', () => {
    const [c, ...more] = crashesIn('logcat/public/android-issue-1_studio1_legacy_java_fullwidth_colon.txt');
    expect(more).toEqual([]);
    expect(summary(c!)).toMatchObject({
      kind: 'java',
      pid: 20024,
      package: 'com.example.jameswald.android_issue_1',
      thread: 'main',
      exceptionClass: 'java.lang.NoSuchFieldError',
      entries: 17,
      signature: 'java:java.lang.NoSuchFieldError@com.example.jameswald.android_issue_1.lib.MainActivity.onCreate',
    });
    expect((c as JavaCrashReport).frames).toHaveLength(14);
  });

  it('frostwire-jlibtorrent: signal line and a tombstone cut before its backtrace', () => {
    const [c, ...more] = crashesIn('logcat/public/frostwire-jlibtorrent-240_studio_legacy_native.txt');
    expect(more).toEqual([]);
    expect(summary(c!)).toMatchObject({
      kind: 'native',
      pid: 13915,
      tid: 14110,
      threadName: 'downloader.demo',
      package: 'com.apkmatrix.components.ultradownloader.demo',
      signal: 'SIGSEGV',
      code: 'SEGV_MAPERR',
      faultAddress: '0x0',
      abi: 'arm64',
      cause: 'null pointer dereference',
      frames: [],
      hasTombstone: true,
      entries: 11,
      signature: 'native:SIGSEGV@',
    });
  });

  it('x86 emulator (houdini): <unknown> frames are left out of the signature', () => {
    const [c] = crashesIn('logcat/public/huluwaservice-webapp-1_studio_legacy_native_x86.txt');
    expect(summary(c!)).toMatchObject({
      kind: 'native',
      pid: 2363,
      package: 'com.hlw.movie',
      abi: 'x86',
      signal: 'SIGSEGV',
      hasTombstone: true,
      signature: 'native:SIGSEGV@libhoudini.so',
    });
    if (c!.kind === 'native')
      expect(c!.frames.map((f) => f.path)).toEqual(['<unknown>', '/system/lib/libhoudini.so', '<unknown>']);
  });

  it('current Android Studio copy: a tombstone cut above its banner still yields the app library frames', () => {
    const [c, ...more] = crashesIn('logcat/public/webrtc-sdk-android-26_studio_native_sigabrt.txt');
    expect(more).toEqual([]);
    expect(summary(c!)).toMatchObject({
      kind: 'native',
      pid: 30965,
      tid: 31373,
      threadName: 'CaptureThread',
      package: 'com.myapp.app',
      signal: null,
      hasTombstone: true,
      signature:
        'native:unknown-signal@base.apk!libjingle_peerconnection_so.so;base.apk!libjingle_peerconnection_so.so;base.apk!libjingle_peerconnection_so.so',
    });
    if (c!.kind === 'native') expect(c!.frames.map((f) => f.index)).toEqual([1, 2, 3]);
  });

  it('a Fatal signal with no tombstone after it is reported on its own (brief console line)', () => {
    const [c, ...more] = crashesIn('logcat/public/flutter-160138_console_native_sigabrt_tombstone.txt');
    expect(more).toEqual([]);
    expect(summary(c!)).toMatchObject({
      kind: 'native',
      pid: 20792,
      tid: 21401,
      threadName: 'DartWorker',
      process: 'com.ventura.mvp',
      package: 'com.ventura.mvp',
      signal: 'SIGABRT',
      signalNumber: 6,
      code: 'SI_QUEUE',
      faultAddress: null,
      hasTombstone: false,
      frames: [],
      signature: 'native:SIGABRT@',
    });
  });

  it('the tail of an earlier tombstone (no banner, no pid line) is not a crash; the new signal is', () => {
    const crashes = crashesIn('logcat/public/meditrak-207_threadtime_debug_tail_and_sigabrt.txt');
    expect(crashes.map(summary)).toEqual([
      expect.objectContaining({
        kind: 'native',
        pid: 11194,
        process: 'dicationtracker',
        package: null,
        signal: 'SIGABRT',
        hasTombstone: false,
      }),
    ]);
  });

  it.each([
    ['flutter-70028_threadtime_anr.txt', 4960, 'com.zxs.app', 'com.zxs.app/com.zxs.flutter_app.MainActivity', 10],
    [
      'matisse-kotlin-23_studio_legacy_anr_continuation.txt',
      1866,
      'com.unistrong.mapoffline',
      'com.unistrong.mapoffline/com.matisse.ui.activity.matisse.MatisseActivity',
      11,
    ],
    [
      'lockpattern-5_studio_legacy_anr_wide_continuation.txt',
      29897,
      'com.star.loackpattern',
      'com.star.loackpattern/com.star.demo.activity.CreateGestureActivity',
      7,
    ],
    [
      'droidcon-doppl-53_studio_legacy_anr.txt',
      27003,
      'co.touchlab.droidcon.anon',
      'co.touchlab.droidcon.anon/co.touchlab.droidconandroid.ScheduleActivity',
      7,
    ],
  ])('ANR in %s', (file, pid, pkg, component, entries) => {
    const [c, ...more] = crashesIn(`logcat/public/${file}`);
    expect(more).toEqual([]);
    expect(summary(c!)).toMatchObject({
      kind: 'anr',
      pid,
      package: pkg,
      process: pkg,
      component,
      entries,
      signature: `anr:${pkg}:input-dispatching-timed-out`,
    });
    if (c!.kind === 'anr') expect(c!.reason).toMatch(/^Input dispatching timed out \(Waiting to send non-key event/);
  });

  it('recurrences group: two captures of one ANR kind and package share a signature, others differ', () => {
    const a = crashesIn('logcat/public/lockpattern-5_studio_legacy_anr_wide_continuation.txt')[0]!;
    const b = crashesIn('logcat/public/matisse-kotlin-23_studio_legacy_anr_continuation.txt')[0]!;
    expect(a.signature).not.toBe(b.signature);
    const again = detectCrashes(
      parseLogcatText(
        fixture('logcat/public/lockpattern-5_studio_legacy_anr_wide_continuation.txt').replace(
          'Wait queue length: 38',
          'Wait queue length: 2',
        ),
      ).entries,
    )[0]!;
    expect(again.signature).toBe(a.signature);
  });
});

function e(pid: number, tid: number, tag: string, message: string, level: LogcatEntry['level'] = 'E'): LogcatEntry {
  return { time: '01-01 00:00:00.000', timeMs: 0, pid, tid, level, tag, message };
}

const JAVA_CRASH = [
  'FATAL EXCEPTION: main',
  'Process: com.example.app, PID: 100',
  'java.lang.IllegalStateException: boom',
  '\tat com.example.app.Main.onClick(Main.kt:12)',
  '\tat android.view.View.performClick(View.java:7125)',
  'Caused by: java.lang.NullPointerException',
  '\tat com.example.app.Repo.load(Repo.kt:40)',
  '\t... 1 more',
];

describe('CrashDetector streaming', () => {
  it('completes a Java crash when its thread logs under another tag, despite other processes interleaving', () => {
    const d = new CrashDetector();
    const out: CrashReport[] = [];
    JAVA_CRASH.forEach((line, i) => {
      out.push(...d.push(e(100, 100, 'AndroidRuntime', line), i));
      out.push(...d.push(e(200, 201, 'Noise', `line ${i}`, 'I'), i));
    });
    expect(out).toEqual([]);
    expect(d.pending).toBe(1);
    out.push(...d.push(e(100, 100, 'Process', 'Sending signal. PID: 100 SIG: 9', 'I'), 20));
    expect(out).toHaveLength(1);
    const c = out[0] as JavaCrashReport;
    expect(c).toMatchObject({
      kind: 'java',
      pid: 100,
      package: 'com.example.app',
      exceptionClass: 'java.lang.IllegalStateException',
      message: 'boom',
      signature: 'java:java.lang.IllegalStateException<java.lang.NullPointerException@com.example.app.Repo.load',
    });
    expect(c.entries).toHaveLength(JAVA_CRASH.length);
    expect(c.causes[0]!.omittedFrames).toBe(1);
  });

  it('line numbers do not change the signature; another app frame does', () => {
    const run = (lines: string[]) => detectCrashes(lines.map((l) => e(100, 100, 'AndroidRuntime', l)))[0]!.signature;
    const base = run(JAVA_CRASH);
    expect(run(JAVA_CRASH.map((l) => l.replace('Repo.kt:40', 'Repo.kt:41')))).toBe(base);
    expect(run(JAVA_CRASH.map((l) => l.replace('Repo.load', 'Repo.save')))).not.toBe(base);
  });

  it('reads a crash logged as one multi-line entry (binary logcat)', () => {
    const [c] = detectCrashes([e(100, 100, 'AndroidRuntime', JAVA_CRASH.join('\n'))]);
    expect(c).toMatchObject({ kind: 'java', exceptionClass: 'java.lang.IllegalStateException' });
    expect(c!.entries).toHaveLength(1);
  });

  it('reports at the idle bound by wall clock (tick) and by entry count', () => {
    const d = new CrashDetector({ idleMs: 1000, idleEntries: 3 });
    for (const line of JAVA_CRASH) d.push(e(100, 100, 'AndroidRuntime', line), 5000);
    expect(d.tick(5999)).toEqual([]);
    expect(d.tick(6000)).toHaveLength(1);
    const byCount = new CrashDetector({ idleMs: 1e9, idleEntries: 3 });
    for (const line of JAVA_CRASH) byCount.push(e(100, 100, 'AndroidRuntime', line), 0);
    const out = [1, 2, 3, 4].flatMap((i) => byCount.push(e(300 + i, 1, 'Noise', 'x', 'I'), 0));
    expect(out).toHaveLength(1);
  });

  it('cuts a block at maxLines, reports it at once and marks it truncated', () => {
    const d = new CrashDetector({ maxLines: 4 });
    const out = JAVA_CRASH.flatMap((line) => d.push(e(100, 100, 'AndroidRuntime', line), 0));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ truncated: true, exceptionClass: 'java.lang.IllegalStateException' });
    expect(out[0]!.entries).toHaveLength(4);
    expect(d.flush()).toEqual([]);
  });

  it('a second FATAL EXCEPTION on the same thread completes the first', () => {
    const lines = [...JAVA_CRASH, ...JAVA_CRASH.map((l) => l.replace('boom', 'again'))];
    const crashes = detectCrashes(lines.map((l) => e(100, 100, 'AndroidRuntime', l)));
    expect(crashes.map((c) => (c as JavaCrashReport).message)).toEqual(['boom', 'again']);
  });

  it('ignores AndroidRuntime lines that start no crash, and a FATAL EXCEPTION with no throwable', () => {
    expect(detectCrashes([e(1, 1, 'AndroidRuntime', 'Shutting down VM', 'D')])).toEqual([]);
    expect(detectCrashes([e(1, 1, 'AndroidRuntime', 'FATAL EXCEPTION: main'), e(1, 1, 'Other', 'x')])).toEqual([]);
  });

  it('waits for the tombstone of a signal while one is being written', () => {
    const d = new CrashDetector({ idleEntries: 2, idleMs: 1e9 });
    const out: CrashReport[] = [];
    out.push(
      ...d.push(
        e(
          50,
          51,
          'libc',
          'Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x8 in tid 51 (worker), pid 50 (com.example.app)',
          'F',
        ),
        0,
      ),
    );
    out.push(...d.push(e(60, 60, 'DEBUG', '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***', 'F'), 0));
    for (let i = 0; i < 5; i++) out.push(...d.push(e(70 + i, 1, 'Noise', 'x', 'I'), 0));
    // The tombstone went idle with no pid line: it is no report, and the signal is then reported on its own.
    expect(out.map((c) => [c.kind, c.pid, c.kind === 'native' && c.hasTombstone])).toEqual([['native', 50, false]]);
  });

  it('names the package of process names and classifies ANR reasons', () => {
    expect(packageOfProcess('com.example:remote')).toBe('com.example');
    expect(packageOfProcess('/system/bin/audioserver')).toBeNull();
    expect(packageOfProcess('surfaceflinger')).toBeNull();
    expect(anrReasonKind('executing service com.example/.SyncService')).toBe('executing-service');
    expect(anrReasonKind('Broadcast of Intent { act=android.intent.action.BOOT_COMPLETED }')).toBe('broadcast');
    expect(anrReasonKind('Something odd 1234 happened (details)')).toBe('something-odd-happened');
    expect(anrReasonKind(null)).toBe('unknown');
  });
});
