import { parseJavaFrame, parseJavaStackTrace } from '../../../../src/android/logcat/java-stack-trace.js';
import { fixture } from './fixtures.js';

describe('parseJavaStackTrace', () => {
  it('reads the xCrash Java report: message, frames, two Caused by and their "... N more"', () => {
    const text = fixture('logcat/xcrash_java_crash_with_logcat_android10.txt');
    const section = text.slice(text.indexOf('java stacktrace:\n') + 17, text.indexOf('\nlogcat:'));
    const trace = parseJavaStackTrace(section.split('\n'))!;
    expect(trace.exceptionClass).toBe('java.lang.IllegalStateException');
    expect(trace.message).toBe('Could not execute method for android:onClick');
    expect(trace.frames).toHaveLength(12);
    expect(trace.frames[0]).toEqual({
      className: 'androidx.appcompat.app.AppCompatViewInflater$DeclaredOnClickListener',
      methodName: 'onClick',
      fileName: 'AppCompatViewInflater.java',
      line: 402,
    });
    expect(trace.frames[9]).toEqual({
      className: 'java.lang.reflect.Method',
      methodName: 'invoke',
      fileName: 'Native Method',
      line: null,
    });
    expect(trace.causes.map((c) => [c.exceptionClass, c.message, c.frames.length, c.omittedFrames])).toEqual([
      ['java.lang.reflect.InvocationTargetException', null, 2, 11],
      ['java.lang.RuntimeException', 'test java exception', 2, 13],
    ]);
    expect(trace.causes[1]!.frames[1]).toMatchObject({
      className: 'xcrash.sample.MainActivity',
      methodName: 'testJavaCrashInMainThread_onClick',
      line: 67,
    });
  });

  it("reads a crash copied from Studio's message column (leading space, tab-indented frames)", () => {
    const lines = fixture('logcat/public/fclogcat-1_message_column_java_caused_by.txt').split('\n');
    const trace = parseJavaStackTrace(lines.slice(2))!;
    expect(trace.exceptionClass).toBe('java.lang.RuntimeException');
    expect(trace.message).toBe(
      'Unable to start activity ComponentInfo{com.alcatraz.fclogcat/com.alcatraz.fclogcat.LogViewer}: java.lang.NullPointerException',
    );
    expect(trace.frames).toHaveLength(10);
    expect(trace.frames[2]).toMatchObject({ methodName: '-wrap12', fileName: 'ActivityThread.java', line: null });
    expect(trace.causes).toHaveLength(1);
    expect(trace.causes[0]).toMatchObject({
      exceptionClass: 'java.lang.NullPointerException',
      message: null,
      omittedFrames: 9,
    });
    expect(trace.causes[0]!.frames[0]).toMatchObject({ className: 'java.io.File', methodName: '<init>', line: 262 });
  });

  it('keeps multi-line messages, Suppressed blocks, module prefixes and stops at text after the frames', () => {
    const trace = parseJavaStackTrace([
      'prefix noise',
      'java.lang.IllegalStateException: first line',
      'second line',
      '\tat java.base/java.lang.Thread.run(Thread.java:829)',
      '\tat app//com.example.Foo.bar(Foo.kt)',
      '\tSuppressed: java.io.IOException: close failed',
      '\t\tat com.example.Foo.close(Foo.kt:9)',
      'I/Other: unrelated',
    ])!;
    expect(trace.message).toBe('first line\nsecond line');
    expect(trace.frames).toEqual([
      { className: 'java.lang.Thread', methodName: 'run', fileName: 'Thread.java', line: 829 },
      { className: 'com.example.Foo', methodName: 'bar', fileName: 'Foo.kt', line: null },
    ]);
    expect(trace.suppressed).toHaveLength(1);
    expect(trace.suppressed[0]!.frames[0]).toMatchObject({ methodName: 'close', line: 9 });
    expect(trace.causes).toEqual([]);
  });

  it('returns null without a throwable line, and reads obfuscated and r8-map-id frames', () => {
    expect(parseJavaStackTrace(['no exception here', '\tat a.b(c)'])).toBeNull();
    expect(parseJavaFrame('\tat a.b.c(Unknown Source:12)')).toEqual({
      className: 'a.b',
      methodName: 'c',
      fileName: 'Unknown Source',
      line: 12,
    });
    expect(parseJavaFrame('    at a.a(:4)')).toEqual({ className: 'a', methodName: 'a', fileName: null, line: 4 });
    expect(parseJavaFrame('at x.y(r8-map-id-5b46fdc:7)')).toMatchObject({ fileName: 'r8-map-id-5b46fdc', line: 7 });
    expect(parseJavaFrame('at e.a.c.a.onClick')).toEqual({
      className: 'e.a.c.a',
      methodName: 'onClick',
      fileName: null,
      line: null,
    });
    expect(parseJavaFrame('at onClick')).toBeNull();
  });
});
