import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseJavaStackTrace } from '../../../../src/android/logcat/java-stack-trace.js';
import { parseProguardMapping } from '../../../../src/android/retrace/proguard-mapping.js';
import {
  findR8MapIds,
  inferSourceFile,
  Retracer,
  retraceJavaTrace,
  retraceStackTrace,
} from '../../../../src/android/retrace/retracer.js';
import { FIXTURES, fixture } from '../logcat/fixtures.js';

describe('retraceStackTrace', () => {
  it('reproduces the Sentry inline expectation exactly from the real R8 mapping', () => {
    const mapping = parseProguardMapping(fixture('retrace/sentry_mapping-inlines.txt'));
    expect(retraceStackTrace(mapping, fixture('retrace/sentry_inlines_obfuscated_stacktrace.txt'))).toBe(
      fixture('retrace/sentry_inlines_retraced_expected.txt'),
    );
  });

  const cases = readdirSync(join(FIXTURES, 'retrace/r8'))
    .filter((f) => f.endsWith('.mapping.txt'))
    .map((f) => f.replace('.mapping.txt', ''));

  it('has the R8 test cases on disk', () => {
    expect(cases.length).toBeGreaterThanOrEqual(14);
  });

  it.each(cases)("matches R8's expected output for %s", (name) => {
    const mapping = parseProguardMapping(fixture(`retrace/r8/${name}.mapping.txt`));
    expect(mapping.problems).toEqual([]);
    expect(retraceStackTrace(mapping, fixture(`retrace/r8/${name}.obfuscated.txt`))).toBe(
      fixture(`retrace/r8/${name}.expected.txt`),
    );
  });

  it('retraces frames and throwables inside logcat lines, and class names in the message', () => {
    const mapping = parseProguardMapping(
      ['com.example.Repo -> a.b:', '    1:1:void load():40:40 -> a', 'com.example.BadState -> a.c:'].join('\n'),
    );
    const trace = [
      '05-26 12:13:28.270 16407 16407 E AndroidRuntime: a.c: cannot cast a.b to a.c',
      '05-26 12:13:28.270 16407 16407 E AndroidRuntime: \tat a.b.a(SourceFile:1)',
      '05-26 12:13:28.270 16407 16407 E AndroidRuntime: Process: com.example, PID: 16407',
    ].join('\n');
    expect(retraceStackTrace(mapping, trace)).toBe(
      [
        '05-26 12:13:28.270 16407 16407 E AndroidRuntime: com.example.BadState: cannot cast com.example.Repo to com.example.BadState',
        '05-26 12:13:28.270 16407 16407 E AndroidRuntime: \tat com.example.Repo.load(Repo.java:40)',
        '05-26 12:13:28.270 16407 16407 E AndroidRuntime: Process: com.example, PID: 16407',
      ].join('\n'),
    );
  });

  it('reads r8-map-id source markers as file names and lists the map ids a trace names', () => {
    const mapping = parseProguardMapping('com.example.FooKt -> a:\n    3:3:void run():9:9 -> b\n');
    const trace =
      'java.lang.Error\n\tat a.b(r8-map-id-5b46fdc:3)\n\tat a.b(r8-map-id-5b46fdc:3)\n\tat x.y(r8-map-id-99aa:1)';
    expect(retraceStackTrace(mapping, trace).split('\n')[1]).toBe('\tat com.example.FooKt.run(Foo.kt:9)');
    expect(findR8MapIds(trace)).toEqual(['5b46fdc', '99aa']);
    expect(findR8MapIds('no markers')).toEqual([]);
  });

  it('copies lines it does not understand unchanged, hostile or long ones included', () => {
    const mapping = parseProguardMapping(fixture('retrace/sentry_mapping-inlines.txt'));
    const hostile = [
      '',
      '\u0000\u0001',
      'at (',
      `${'a.'.repeat(5000)}a: x`,
      `\tat ${'a'.repeat(10_000)}(`,
      '... 3 more',
    ].join('\n');
    expect(retraceStackTrace(mapping, hostile)).toBe(hostile);
  });
});

describe('retraceJavaTrace', () => {
  it('gives structured frames for a parsed crash: inline chain, unknown member, untouched platform frames', () => {
    const mapping = parseProguardMapping(fixture('retrace/sentry_mapping-inlines.txt'));
    const trace = parseJavaStackTrace(fixture('retrace/sentry_inlines_obfuscated_stacktrace.txt').split('\n'))!;
    const r = retraceJavaTrace(mapping, trace);
    expect(r.exceptionClass).toBe('java.lang.RuntimeException');
    expect(r.ambiguous).toBe(false);
    expect(r.frames).toHaveLength(13);
    expect(r.frames[0]!.alternatives).toEqual([
      [
        expect.objectContaining({
          className: 'io.sentry.sample.MainActivity',
          methodName: 'bar',
          fileName: 'MainActivity.java',
          line: 54,
        }),
        expect.objectContaining({ methodName: 'foo', line: 44 }),
        expect.objectContaining({
          methodName: 'onClickHandler',
          line: 40,
          signature: 'void onClickHandler(android.view.View)',
        }),
      ],
    ]);
    expect(r.frames[1]!.alternatives[0]![0]).toMatchObject({
      className: 'io.sentry.sample.-$$Lambda$r3Avcbztes2hicEObh02jjhQqd4',
      methodName: 'onClick',
      signature: null,
    });
    expect(r.frames[2]!.alternatives[0]![0]).toMatchObject({
      className: 'android.view.View',
      retraced: false,
      line: 7125,
    });
  });

  it('flags ambiguity and retraces causes, applying rewriteFrame to the top frame only', () => {
    const mapping = parseProguardMapping(
      [
        'some.Class -> a:',
        '  4:4:void other.Class():23:23 -> a',
        '  4:4:void caller(other.Class):7 -> a',
        "  # { id: 'com.android.tools.r8.rewriteFrame', conditions: ['throws(Ljava/lang/NullPointerException;)'], actions: ['removeInnerFrames(1)'] }",
        'com.example.R8 -> b:',
        '  void foo(int) -> a',
        '  void bar(int, int) -> a',
      ].join('\n'),
    );
    const trace = parseJavaStackTrace([
      'java.lang.IllegalStateException: wrapped',
      '\tat a.a(:4)',
      'Caused by: java.lang.NullPointerException',
      '\tat a.a(:4)',
      '\tat b.a(Unknown Source)',
    ])!;
    const r = retraceJavaTrace(mapping, trace);
    expect(r.frames[0]!.alternatives[0]!.map((f) => f.methodName)).toEqual(['Class', 'caller']);
    expect(r.causes[0]!.frames[0]!.alternatives[0]!.map((f) => f.methodName)).toEqual(['caller']);
    expect(r.causes[0]!.frames[1]!.alternatives.map((a) => a[0]!.methodName)).toEqual(['bar', 'foo']);
    expect(r.ambiguous).toBe(true);
  });
});

describe('Retracer', () => {
  const mapping = parseProguardMapping(
    [
      'com.example.R8 -> a.a:',
      '  void foo(int) -> a',
      '  void bar(int, int) -> a',
      'com.example.Main -> b:',
      '  1:3:void main(java.lang.String[]):10:12 -> a',
    ].join('\n'),
  );
  const retracer = new Retracer(mapping);

  it('reports every alternative of an ambiguous frame, sorted, with signatures, instead of guessing', () => {
    const result = retracer.retraceFrame({ className: 'a.a', methodName: 'a', fileName: 'SourceFile', line: 5 });
    expect(result.alternatives).toEqual([
      [
        {
          className: 'com.example.R8',
          methodName: 'bar',
          fileName: 'R8.java',
          line: 5,
          signature: 'void bar(int,int)',
          retraced: true,
        },
      ],
      [
        {
          className: 'com.example.R8',
          methodName: 'foo',
          fileName: 'R8.java',
          line: 5,
          signature: 'void foo(int)',
          retraced: true,
        },
      ],
    ]);
  });

  it('maps a line through its range, and leaves unknown classes as they came', () => {
    expect(
      retracer.retraceFrame({ className: 'b', methodName: 'a', fileName: 'SourceFile', line: 2 }).alternatives,
    ).toEqual([
      [
        {
          className: 'com.example.Main',
          methodName: 'main',
          fileName: 'Main.java',
          line: 11,
          signature: 'void main(java.lang.String[])',
          retraced: true,
        },
      ],
    ]);
    expect(
      retracer.retraceFrame({ className: 'java.lang.Thread', methodName: 'run', fileName: 'Thread.java', line: 1 })
        .alternatives,
    ).toEqual([
      [
        {
          className: 'java.lang.Thread',
          methodName: 'run',
          fileName: 'Thread.java',
          line: 1,
          signature: null,
          retraced: false,
        },
      ],
    ]);
    expect(retracer.retraceClassName('b')).toBe('com.example.Main');
    expect(retracer.retraceClassName('zz')).toBeNull();
  });

  it('infers file names the way R8 does (Kotlin facades, inner classes, extensions)', () => {
    expect(inferSourceFile('com.example.UtilsKt', 'SourceFile')).toBe('Utils.kt');
    expect(inferSourceFile('com.example.Outer$Inner', 'Unknown Source')).toBe('Outer.java');
    expect(inferSourceFile('com.example.Foo', 'Foo.kt')).toBe('Foo.kt');
    expect(inferSourceFile('com.example.Foo', 'Native Method')).toBe('Native Method');
    expect(inferSourceFile('Foo', '')).toBe('Foo.java');
  });
});
