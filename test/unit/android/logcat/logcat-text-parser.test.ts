import {
  detectLogcatFormat,
  formatThreadtime,
  LogcatTextParser,
  parseBufferMarker,
  parseLogcatLine,
  parseLogcatText,
  timestampToMs,
} from '../../../../src/android/logcat/logcat-text-parser.js';
import { fixture } from './fixtures.js';

describe('parseLogcatLine', () => {
  it('reads -v threadtime, with an empty tag and with a tag holding a colon', () => {
    expect(
      parseLogcatLine('09-03 17:48:05.627 11071 11189 F libc    : Fatal signal 11 (SIGSEGV)', 'threadtime'),
    ).toEqual({
      time: '09-03 17:48:05.627',
      timeMs: expect.any(Number),
      pid: 11071,
      tid: 11189,
      level: 'F',
      tag: 'libc',
      message: 'Fatal signal 11 (SIGSEGV)',
    });
    expect(
      parseLogcatLine('09-03 17:47:13.603  6882  6882 D         : Lynn Create bad track OK!', 'threadtime'),
    ).toMatchObject({ tag: '', message: 'Lynn Create bad track OK!' });
    expect(parseLogcatLine('01-01 00:00:00.000   1   2 I vendor:hal: up: and running', 'threadtime')).toMatchObject({
      tag: 'vendor:hal',
      message: 'up: and running',
    });
  });

  it('reads an empty message printed without the trailing space', () => {
    expect(parseLogcatLine('09-03 17:48:05.805  7072  7072 F DEBUG   :', 'threadtime')).toMatchObject({
      tag: 'DEBUG',
      message: '',
    });
  });

  it('reads the year, uid, epoch, monotonic, usec/nsec and zone modifiers of threadtime', () => {
    expect(parseLogcatLine('2024-01-01 12:00:00.123  1234  1250 E Tag: m', 'threadtime')).toMatchObject({
      time: '2024-01-01 12:00:00.123',
      timeMs: Date.UTC(2024, 0, 1, 12, 0, 0, 123),
      pid: 1234,
      tid: 1250,
    });
    expect(parseLogcatLine('01-01 12:00:00.123 10123  1234  1250 W Tag: m', 'threadtime')).toMatchObject({
      uid: '10123',
      pid: 1234,
      tid: 1250,
      level: 'W',
    });
    expect(parseLogcatLine('01-01 12:00:00.123 u0_a57  1234  1250 W Tag: m', 'threadtime')).toMatchObject({
      uid: 'u0_a57',
    });
    expect(parseLogcatLine('1700000000.123  1234  1250 I Tag: m', 'threadtime')).toMatchObject({
      time: '1700000000.123',
      timeMs: 1_700_000_000_123,
    });
    expect(parseLogcatLine('    12.345678  1234  1250 I Tag: m', 'threadtime')).toMatchObject({
      time: '12.345678',
      timeMs: null,
    });
    expect(
      parseLogcatLine('01-01 12:00:00.123456 +0100  1234  1250 I Tag: m', 'threadtime', { year: 2020 }),
    ).toMatchObject({ time: '01-01 12:00:00.123456', timeMs: Date.UTC(2020, 0, 1, 12, 0, 0, 123) });
  });

  it('reads brief and time, with and without a uid', () => {
    expect(parseLogcatLine('F/libc    (20792): Fatal signal 6 (SIGABRT)', 'brief')).toEqual({
      time: '',
      timeMs: null,
      pid: 20792,
      tid: null,
      level: 'F',
      tag: 'libc',
      message: 'Fatal signal 6 (SIGABRT)',
    });
    expect(parseLogcatLine('E/Tag(10123: 1234): boom', 'brief')).toMatchObject({ uid: '10123', pid: 1234 });
    expect(parseLogcatLine('01-02 03:04:05.678 E/AndroidRuntime( 1234): FATAL EXCEPTION: main', 'time')).toMatchObject({
      time: '01-02 03:04:05.678',
      pid: 1234,
      tid: null,
      tag: 'AndroidRuntime',
      message: 'FATAL EXCEPTION: main',
    });
  });

  it("reads Android Studio's current and legacy copy formats", () => {
    expect(
      parseLogcatLine(
        '2024-01-01 12:00:00.123  1234-1250  AndroidRuntime          com.example.app                      E  FATAL EXCEPTION: main',
        'studio',
      ),
    ).toMatchObject({
      pid: 1234,
      tid: 1250,
      tag: 'AndroidRuntime',
      package: 'com.example.app',
      level: 'E',
      message: 'FATAL EXCEPTION: main',
    });
    expect(
      parseLogcatLine('2024-01-01 12:00:00.123  1234-1250  My Tag  com.pkg  E  message  E  x', 'studio'),
    ).toMatchObject({
      tag: 'My Tag',
      package: 'com.pkg',
      message: 'message  E  x',
    });
    expect(
      parseLogcatLine('2019-10-12 03:23:19.356 21356-21356/xcrash.sample E/Tag: m: n', 'studio-legacy'),
    ).toMatchObject({
      pid: 21356,
      tid: 21356,
      package: 'xcrash.sample',
      tag: 'Tag',
      message: 'm: n',
    });
    const unknown = parseLogcatLine('11-06 14:57:50.904 1372-1372/? I/DEBUG: backtrace:', 'studio-legacy');
    expect(unknown).toMatchObject({ tag: 'DEBUG', message: 'backtrace:' });
    expect(unknown?.package).toBeUndefined();
    expect(
      parseLogcatLine(
        '02-18 12:43:42.692  20024-20024/a.b E/AndroidRuntime\uFE55 FATAL EXCEPTION: main',
        'studio-legacy',
      ),
    ).toMatchObject({ tag: 'AndroidRuntime', message: 'FATAL EXCEPTION: main' });
  });

  it('reads the common threadtime shape the same with and without its regex-free fast path', () => {
    const lines = fixture('logcat/cts_logcat_native_crash_angler_android7.txt')
      .split('\n')
      .filter((l) => /^\d\d-\d\d /.test(l));
    expect(lines.length).toBeGreaterThan(90);
    for (const line of lines) {
      // A zone after the time sends the line through the general regex; the entry must be the same.
      const viaRegex = parseLogcatLine(`${line.slice(0, 18)} +0000${line.slice(18)}`, 'threadtime', { year: 2017 });
      expect(parseLogcatLine(line, 'threadtime', { year: 2017 })).toEqual(viaRegex);
    }
    expect(parseLogcatLine('01-01 00:00:00.000 12a 1 E T: m', 'threadtime')).toBeNull();
    expect(parseLogcatLine('01-01 00:00:00.000 1 2 X T: m', 'threadtime')).toBeNull();
  });

  it('reads or refuses long hostile lines without backtracking blow-ups', () => {
    const hostile = [
      `01-01 00:00:00.000${' 1'.repeat(20_000)} X`,
      `01-01 00:00:00.000 ${' '.repeat(50_000)}1`,
      `2024-01-01 00:00:00.000 1-2 ${'a E '.repeat(10_000)}`,
      `E/${'( 1)'.repeat(20_000)}`,
      `01-01 00:00:00.000 E/${'( 1'.repeat(20_000)}`,
    ];
    for (const line of hostile) {
      for (const format of ['threadtime', 'brief', 'time', 'studio', 'studio-legacy'] as const)
        parseLogcatLine(line, format);
      detectLogcatFormat(line);
    }
    expect(parseLogcatLine(hostile[0]!, 'threadtime')).toBeNull();
    expect(parseLogcatLine(hostile[3]!, 'brief')).toBeNull();
  });

  it('refuses lines of another format or garbage', () => {
    expect(parseLogcatLine('E/Tag( 1234): m', 'threadtime')).toBeNull();
    expect(parseLogcatLine('not a log line', 'brief')).toBeNull();
    expect(parseLogcatLine('', 'studio')).toBeNull();
  });
});

describe('markers and timestamps', () => {
  it('names the buffer of beginning-of, switch-to and tail-end markers', () => {
    expect(parseBufferMarker('--------- beginning of crash')).toBe('crash');
    expect(parseBufferMarker('--------- switch to main')).toBe('main');
    expect(parseBufferMarker('--------- tail end of log main (/system/bin/logcat -b main -d)')).toBe('main');
    expect(parseBufferMarker('-------- beginning of crash')).toBeNull();
  });

  it('reads wall-clock times with the given year, and epoch seconds, as milliseconds', () => {
    expect(timestampToMs('12-31 23:59:59.999', 2023)).toBe(Date.UTC(2023, 11, 31, 23, 59, 59, 999));
    expect(timestampToMs('1700000000.5', 2023)).toBe(1_700_000_000_500);
    expect(timestampToMs('99.5', 2023)).toBeNull();
    expect(timestampToMs('garbage', 2023)).toBeNull();
  });
});

describe('LogcatTextParser', () => {
  it('tags entries with the buffer of the last marker (real CTS capture)', () => {
    const { format, entries, stats } = parseLogcatText(fixture('logcat/cts_logcat_native_crash_angler_android7.txt'), {
      year: 2017,
    });
    expect(format).toBe('threadtime');
    expect(stats).toEqual({ lines: 99, entries: 96, unparsed: 0, markers: 3 });
    expect(entries[0]).toMatchObject({ buffer: 'system', tag: 'ActivityManager', pid: 11272, tid: 11516 });
    expect(entries[2]).toMatchObject({ buffer: 'main', tag: 'AudioTrack' });
    const fatal = entries.find((e) => e.message.startsWith('Fatal signal'));
    expect(fatal).toMatchObject({
      buffer: 'crash',
      level: 'F',
      tag: 'libc',
      timeMs: Date.UTC(2017, 8, 3, 17, 48, 5, 627),
    });
  });

  it('gives the same entries however the text is chunked, CRLF included', () => {
    const text = fixture('logcat/cts_logcat_native_crash_angler_android7.txt').replaceAll('\n', '\r\n');
    const whole = parseLogcatText(text, { year: 2017 }).entries;
    const parser = new LogcatTextParser({ year: 2017 });
    const chunked = [];
    for (let i = 0; i < text.length; i += 7) chunked.push(...parser.push(text.slice(i, i + 7)));
    chunked.push(...parser.end());
    expect(chunked).toEqual(whole);
    expect(parser.detectedFormat).toBe('threadtime');
  });

  it('counts lines it cannot read instead of inventing entries (xCrash report around real logcat)', () => {
    const { format, entries, stats } = parseLogcatText(fixture('logcat/xcrash_java_crash_with_logcat_android10.txt'));
    expect(format).toBe('threadtime');
    expect(entries).toHaveLength(37);
    expect(stats.unparsed).toBe(39);
    expect(entries.every((e) => e.buffer === 'main' || e.buffer === 'system' || e.buffer === 'events')).toBe(true);
  });

  it('joins -v long records, including multi-line messages', () => {
    const text = [
      '--------- beginning of main',
      '[ 01-02 03:04:05.678  1234: 1250 E/AndroidRuntime ]',
      'FATAL EXCEPTION: main',
      'Process: com.example, PID: 1234',
      '',
      '[ 01-02 03:04:05.679 10123: 1234: 1250 I/Tag      ]',
      'second',
      '',
    ].join('\n');
    const { format, entries } = parseLogcatText(text, { year: 2020 });
    expect(format).toBe('long');
    expect(entries).toEqual([
      expect.objectContaining({
        pid: 1234,
        tid: 1250,
        level: 'E',
        tag: 'AndroidRuntime',
        message: 'FATAL EXCEPTION: main\nProcess: com.example, PID: 1234',
        buffer: 'main',
      }),
      expect.objectContaining({ uid: '10123', tag: 'Tag', message: 'second' }),
    ]);
  });

  it("repeats the header for Android Studio's indented continuation lines", () => {
    const { format, entries } = parseLogcatText(
      fixture('logcat/public/lockpattern-5_studio_legacy_anr_wide_continuation.txt'),
    );
    expect(format).toBe('studio-legacy');
    expect(entries).toHaveLength(7);
    expect(entries.every((e) => e.pid === 1450 && e.tid === 1492 && e.tag === 'ActivityManager')).toBe(true);
    expect(entries[1]!.message).toBe('PID: 29897');
  });
});

describe('detectLogcatFormat', () => {
  it.each([
    ['logcat/cts_logcat_native_crash_angler_android7.txt', 'threadtime'],
    ['logcat/public/simple-clock-563_threadtime_java_obfuscated.txt', 'threadtime'],
    ['logcat/public/webrtc-sdk-android-26_studio_native_sigabrt.txt', 'studio'],
    ['logcat/public/frostwire-jlibtorrent-240_studio_legacy_native.txt', 'studio-legacy'],
    ['logcat/public/android-issue-1_studio1_legacy_java_fullwidth_colon.txt', 'studio-legacy'],
    ['logcat/public/flutter-160138_console_native_sigabrt_tombstone.txt', 'brief'],
    ['logcat/anr_traces_sentry_sample_android13.txt', null],
    ['logcat/tombstone_unity_il2cpp_sigsegv_android9.txt', null],
  ])('%s is %s', (file, expected) => {
    expect(detectLogcatFormat(fixture(file))).toBe(expected);
  });

  it('picks time over brief and threadtime for -v time', () => {
    expect(detectLogcatFormat('01-02 03:04:05.678 E/AndroidRuntime( 1234): FATAL EXCEPTION: main\n')).toBe('time');
    expect(detectLogcatFormat('')).toBeNull();
  });
});

describe('formatThreadtime', () => {
  it('prints entries back as threadtime that parses to the same entries (real CTS capture)', () => {
    const text = fixture('logcat/cts_logcat_native_crash_angler_android7.txt');
    const { entries } = parseLogcatText(text, { year: 2017 });
    const printed = entries.map(formatThreadtime).join('\n');
    const again = parseLogcatText(printed, { year: 2017 }).entries;
    expect(again.map(({ buffer, ...rest }) => rest)).toEqual(entries.map(({ buffer, ...rest }) => rest));
    const original = text.split('\n').filter((l) => /^\d/.test(l));
    expect(printed.split('\n')).toEqual(original);
  });

  it('prints one line per message line', () => {
    const e = {
      time: '',
      timeMs: Date.UTC(2020, 0, 2, 3, 4, 5, 6),
      pid: 1,
      tid: 2,
      level: 'E' as const,
      tag: 'T',
      message: 'a\nb',
    };
    expect(formatThreadtime(e)).toBe(
      '01-02 03:04:05.006     1     2 E T       : a\n01-02 03:04:05.006     1     2 E T       : b',
    );
  });
});
