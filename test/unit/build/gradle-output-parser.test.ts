import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  MAX_DIAGNOSTICS,
  countBySeverity,
  normalizePath,
} from '../../../src/plugins/build/services/gradle-output/build-diagnostic.js';
import { stripWrapperPrefixes } from '../../../src/plugins/build/services/gradle-output/wrapper-prefixes.js';
import { GradleOutputParser, parseGradleOutput } from '../../../src/plugins/build/services/gradle-output-parser.js';
import { EXPECTED, P, d } from './gradle-output-expected.js';

/* Real Gradle output (test/fixtures/gradle-output/README.md says where each capture comes from). */
const DIR = resolve('test/fixtures/gradle-output');

function fixture(name: string): string {
  return readFileSync(join(DIR, name), 'utf8');
}

describe('GradleOutputParser on the real captures', () => {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort();

  it('has an expectation for every capture in the corpus', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    expect(files.length).toBeGreaterThanOrEqual(68);
  });

  it.each(files)('%s', (file) => {
    expect(parseGradleOutput(fixture(file))).toEqual(EXPECTED[file]);
  });

  it('gives the same result with CRLF line endings', () => {
    for (const file of ['javac_errors.txt', 'manifest_located_errors_windows.txt', 'instrumented_tests_failed.txt'])
      expect(parseGradleOutput(fixture(file).replace(/\n/g, '\r\n'))).toEqual(EXPECTED[file]);
  });

  it('gives the same result when a CI runner stamps every line', () => {
    for (const file of [
      'kapt_dagger_missing_provider.txt',
      'aar_metadata_issues.txt',
      'r8_missing_class_warning.txt',
    ]) {
      const stamped = fixture(file)
        .split('\n')
        .map((l, i) => `2024-03-0${(i % 9) + 1}T12:34:56.${String(i).padStart(7, '0')}Z ${l}`)
        .join('\n');
      expect(parseGradleOutput(stamped)).toEqual(EXPECTED[file]);
      const wrapped = fixture(file)
        .split('\n')
        .map((l) => `[stderr] \u001b[31m${l}\u001b[0m`)
        .join('\n');
      expect(parseGradleOutput(wrapped)).toEqual(EXPECTED[file]);
    }
  });
});

describe('GradleOutputParser rules', () => {
  it("joins a merger message's line broken after a space, but not after a sentence's end or before the manual link", () => {
    const out = parseGradleOutput(
      [
        'Attribute application@label value=(A) from AndroidManifest.xml:5:9-30 ',
        'is also present at [x:y:1] AndroidManifest.xml:3:9-41 value=(B). Suggestion: add the replace to <application> ',
        'element at AndroidManifest.xml:4:5-9:19 to override. ',
        'See http://g.co/androidstudio/manifest-merger for more information about the manifest merger.',
        'Something else entirely.',
      ].join('\n'),
    );
    expect(out.map((x) => x.message)).toEqual([
      'Attribute application@label value=(A) from AndroidManifest.xml:5:9-30 is also present at [x:y:1] AndroidManifest.xml:3:9-41 value=(B). Suggestion: add the replace to <application> element at AndroidManifest.xml:4:5-9:19 to override.',
    ]);
  });

  it("reads the merger's records pasted without header or failure line, AGP 7+'s overlay wording too", () => {
    const out = parseGradleOutput(
      [
        'Overlay manifest:package attribute declared at AndroidManifest.xml:2:5-48 value=(com.a)',
        "\tdoes not match the module's namespace (com.b).",
        '\tSuggestion: remove the package="com.a" declaration at AndroidManifest.xml.',
        '',
        "Missing 'package' declaration in manifest at AndroidManifest.xml:1:1-5:12",
      ].join('\n'),
    );
    expect(out.map((x) => [x.source, x.file, x.line, x.message.slice(0, 40)])).toEqual([
      ['manifest', 'AndroidManifest.xml', 2, 'Overlay manifest:package attribute decla'],
      ['manifest', 'AndroidManifest.xml', 1, "Missing 'package' declaration in manifes"],
    ]);
    expect(out[0]!.message).toContain("does not match the module's namespace (com.b). Suggestion: remove");
  });

  it("reads the legacy merger's bracketed places, and a record's header a console cut inside its position", () => {
    expect(
      parseGradleOutput(
        [
          'Warning: [/p/AndroidManifest-main.xml:13, /p/lib/AndroidManifest.xml:3] Main manifest has <uses-sdk> too',
          'C:\\Users\\someone\\projects\\app\\platforms\\android\\app\\src\\main\\AndroidManifest.xml:19:5-6',
          '5 Error:',
          '\tElement uses-permission#a at AndroidManifest.xml:19:5-65 duplicated with element declared at AndroidManifest.xml:16:5-90',
        ].join('\n'),
      ).map((x) => [x.severity, x.file, x.line]),
    ).toEqual([
      ['warning', '/p/AndroidManifest-main.xml', 13],
      ['error', 'C:\\Users\\someone\\projects\\app\\platforms\\android\\app\\src\\main\\AndroidManifest.xml', 19],
    ]);
  });

  it("gives the legacy merger's records that lost their level the level that merger logged them at", () => {
    expect(
      parseGradleOutput(
        [
          "[/p/AndroidManifest.xml:48, /p/lib/AndroidManifest.xml:3] Main manifest has <application android:name='a.A'> but library uses name='a.B'.",
          '[/p/AndroidManifest.xml, /p/lib/AndroidManifest.xml:2]',
          " Main manifest has <uses-sdk android:minSdkVersion='8'> but library uses minSdkVersion='10'",
        ].join('\n'),
      ).map((x) => [x.severity, x.file, x.line]),
    ).toEqual([
      ['warning', '/p/AndroidManifest.xml', 48],
      ['error', '/p/AndroidManifest.xml', null],
    ]);
  });

  it("puts AAPT 1's word-wrapped 9-patch report back together, and lets any other line ending in ERROR: through", () => {
    expect(
      parseGradleOutput(
        [
          '   [crunch] Processing image to cache: /p/res/drawable/iERROR:',
          '9-patch image /p/res/drawable/a.9.png',
          'malformed.',
          'a tool said ERROR:',
          'e: /p/A.kt: (1, 2): Unresolved reference: x',
        ].join('\n'),
      ).map((x) => [x.source, x.file, x.message]),
    ).toEqual([
      ['aapt2', '/p/res/drawable/a.9.png', '9-patch image /p/res/drawable/a.9.png malformed.'],
      ['kotlin', '/p/A.kt', 'Unresolved reference: x'],
    ]);
  });

  it('reads a log pasted as a markdown list, or double-spaced twice, as its own lines', () => {
    const log = [
      'Android resource linking failed',
      '/p/res/layout/a.xml:3: error: resource string/x (aka p:string/x) not found.',
      'error: failed linking file resources.',
    ];
    const want = parseGradleOutput(log.join('\n'));
    expect(want).toHaveLength(2);
    expect(parseGradleOutput(log.map((l) => `- ${l}`).join('\n'))).toEqual(want);
    expect(parseGradleOutput(log.map((l) => `${l}\n\n\n`).join('\n'))).toEqual(want);
  });

  it('reads the Kotlin K1 location form and unlocated compiler errors', () => {
    const out = parseGradleOutput(
      [
        '> Task :lib:compileKotlin FAILED',
        'e: /src/A.kt: (12, 5): Unresolved reference: foo',
        'e: java.lang.OutOfMemoryError: Java heap space',
        'i: note',
      ].join('\n'),
    );
    expect(out).toEqual([
      d('error', 'kotlin', '/src/A.kt', 12, 5, 'Unresolved reference: foo', ':lib:compileKotlin'),
      d('error', 'kotlin', null, null, null, 'java.lang.OutOfMemoryError: Java heap space', ':lib:compileKotlin'),
    ]);
  });

  it('keeps two Kotlin errors on the same line at different columns', () => {
    const out = parseGradleOutput(
      [
        "e: file:///p/app/src/main/java/A.kt:7:13 Unresolved reference 'x'.",
        "e: file:///p/app/src/main/java/A.kt:7:29 Unresolved reference 'x'.",
        "e: file:///p/app/src/main/java/A.kt:7:13 Unresolved reference 'x'.",
      ].join('\n'),
    );
    expect(out.map((x) => [x.line, x.column])).toEqual([
      [7, 13],
      [7, 29],
    ]);
  });

  it('decodes percent-encoded file URLs and Windows drive URLs', () => {
    expect(parseGradleOutput('e: file:///home/me/My%20App/A.kt:3:1 Boom')[0]).toMatchObject({
      file: '/home/me/My App/A.kt',
      line: 3,
      column: 1,
    });
    expect(normalizePath('file:///C:/work/app/B.kt')).toBe('C:/work/app/B.kt');
  });

  it('makes paths inside the project relative to it, whatever the separator or drive-letter case', () => {
    const unix = parseGradleOutput(
      `e: file://${P}/app/src/main/java/A.kt:3:1 Boom\ne: file:///elsewhere/B.kt:1:1 Bang`,
      {
        projectRoot: `${P}/`,
      },
    );
    expect(unix.map((x) => x.file)).toEqual(['app/src/main/java/A.kt', '/elsewhere/B.kt']);
    const windows = parseGradleOutput(
      [
        'C:\\Users\\me\\My App\\app\\src\\main\\java\\a\\B.java:4: error: cannot find symbol',
        'e: file:///c:/Users/me/My%20App/app/src/main/java/a/C.kt:2:5 Boom',
        'D:\\lib\\D.java:1: error: elsewhere',
      ].join('\n'),
      { projectRoot: 'C:\\Users\\me\\My App' },
    );
    expect(windows.map((x) => x.file)).toEqual([
      'app/src/main/java/a/B.java',
      'app/src/main/java/a/C.kt',
      'D:\\lib\\D.java',
    ]);
  });

  it('reads javac in other JDK locales, and the caret as the column', () => {
    const out = parseGradleOutput(
      [
        '/p/A.java:12: エラー: シンボルを見つけられません',
        '        Foo foo;',
        '        ^',
        '  シンボル:   クラス Foo',
        '  場所: クラス A',
        '/p/B.java:3: Fehler: Symbol nicht gefunden',
        '    Bar.baz();',
        '    ^',
        '  Symbol: Variable Bar',
        '  Ort: Klasse B',
        '/p/C.java:9: 警告: [deprecation] D中的e()已过时',
        '1 个错误',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'javac',
        '/p/A.java',
        12,
        9,
        'シンボルを見つけられません (シンボル: クラス Foo; 場所: クラス A)',
        null,
      ),
      d('error', 'javac', '/p/B.java', 3, 5, 'Symbol nicht gefunden (Symbol: Variable Bar; Ort: Klasse B)', null),
      d('warning', 'javac', '/p/C.java', 9, null, '[deprecation] D中的e()已过时', null),
    ]);
  });

  it("reads javac's unlocated warnings in the German locale", () => {
    const out = parseGradleOutput('Warnung: [options] Quellwert 8 ist veraltet\n1 Warnung');
    expect(out).toEqual([d('warning', 'javac', null, null, null, '[options] Quellwert 8 ist veraltet', null)]);
  });

  it("reads the data binding compiler's reports printed on one line, in kapt's task, counting from line 0", () => {
    const report = (msg: string, loc: string) =>
      `****/ data binding error ****msg:${msg} file:/p/res/layout/a.xml loc:${loc} ****\\ data binding error ****`;
    const out = parseGradleOutput(
      [
        '> Task :app:kaptDebugKotlin',
        `e: ${report('Could not find accessor x', '4:8 - 4:20')} ${report('y', '0:0 - 0:1')}`,
      ].join('\n'),
    );
    expect(out).toEqual([
      d('error', 'kapt', '/p/res/layout/a.xml', 5, 9, 'Could not find accessor x', ':app:kaptDebugKotlin'),
      d('error', 'kapt', '/p/res/layout/a.xml', 1, 1, 'y', ':app:kaptDebugKotlin'),
    ]);
  });

  it("keeps Gradle's older deprecation summary out of a failure report it was merged into", () => {
    const out = parseGradleOutput(
      [
        '* What went wrong:',
        "Execution failed for task ':app:compileDebugJavaWithJavac'.",
        'Deprecated Gradle features were used in this build, making it incompatible with Gradle 5.0.',
        "Use '--warning-mode all' to show the individual deprecation warnings.",
        'See https://docs.gradle.org/4.10.1/userguide/command_line_interface.html#sec:command_line_warnings',
        '> Compilation failed; see the compiler error output for details.',
      ].join('\n'),
    );
    expect(out.map((x) => x.message)).toEqual([
      "Execution failed for task ':app:compileDebugJavaWithJavac': Compilation failed; see the compiler error output for details.",
    ]);
  });

  it('prints a javac error once when javac repeats it, and keeps distinct errors on one line', () => {
    const error = ['/p/A.java:5: error: cannot find symbol', '    x();', '    ^', '  symbol:   method x()'];
    const other = ['/p/A.java:5: error: cannot find symbol', '    x(y);', '      ^', '  symbol:   variable y'];
    const out = parseGradleOutput([...error, ...other, ...error].join('\n'));
    expect(out.map((x) => [x.line, x.column, x.message])).toEqual([
      [5, 5, 'cannot find symbol (symbol: method x())'],
      [5, 7, 'cannot find symbol (symbol: variable y)'],
    ]);
  });

  it('reads JUnit 5 failures: a message over several lines, app// frames, method names with spaces', () => {
    const out = parseGradleOutput(
      [
        '> Task :app:test FAILED',
        '',
        'AuthorNameNormalizerTest > returns single word name() FAILED',
        '    org.opentest4j.AssertionFailedError: ',
        '    expected: "Plato"',
        '     but was: ""',
        '        at app//org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)',
        '        at app//AuthorNameNormalizerTest.returns single word name(AuthorNameNormalizerTest.kt:17)',
        '',
        'BoxTest > columnsTileTheBoxExactly() FAILED',
        '    org.opentest4j.AssertionFailedError at BoxTest.java:76',
        '',
        '10 tests completed, 2 failed',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'test',
        'AuthorNameNormalizerTest.kt',
        17,
        null,
        'AuthorNameNormalizerTest > returns single word name(): org.opentest4j.AssertionFailedError: expected: "Plato" but was: ""',
        ':app:test',
      ),
      d(
        'error',
        'test',
        'BoxTest.java',
        76,
        null,
        'BoxTest > columnsTileTheBoxExactly(): org.opentest4j.AssertionFailedError',
        ':app:test',
      ),
    ]);
  });

  it("reports am instrument's short failure message when no long message follows it, also as the last line", () => {
    const crashed = ['INSTRUMENTATION_RESULT: shortMsg=Process crashed.', 'INSTRUMENTATION_CODE: 0'].join('\n');
    const expected = [d('error', 'test', null, null, null, 'Process crashed.', null)];
    expect(parseGradleOutput(crashed)).toEqual(expected);
    expect(parseGradleOutput('INSTRUMENTATION_RESULT: shortMsg=Process crashed.')).toEqual(expected);
  });

  it("reads a test's failure from am instrument's raw status bundles, its stack's value over several lines", () => {
    const status = (pairs: string[], code: number) => [
      ...pairs.map((p) => `INSTRUMENTATION_STATUS: ${p}`),
      `INSTRUMENTATION_STATUS_CODE: ${code}`,
    ];
    const out = parseGradleOutput(
      [
        ...status(['class=com.example.FooTest', 'numtests=2', 'test=bar'], 1),
        ...status(
          [
            'class=com.example.FooTest',
            'stack=java.lang.AssertionError: expected:<1> but was:<2>\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat com.example.FooTest.bar(FooTest.java:12)\n',
            'stream=\nError in bar(com.example.FooTest):',
            'test=bar',
          ],
          -2,
        ),
        ...status(['class=com.example.FooTest', 'test=baz'], 1),
        ...status(['class=com.example.FooTest', 'test=baz'], 0),
        'INSTRUMENTATION_CODE: -1',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'test',
        'FooTest.java',
        12,
        null,
        'com.example.FooTest > bar: java.lang.AssertionError: expected:<1> but was:<2>',
        null,
      ),
    ]);
  });

  it('reads a test failure in a JUnit XML report pasted as text, a CDATA section and a message-only element too', () => {
    const out = parseGradleOutput(
      [
        '<testsuite name="com.x.FooTest" tests="2" failures="2">',
        '  <testcase name="bar" classname="com.x.FooTest" time="0.1">',
        '    <failure message="expected:&lt;1&gt;" type="java.lang.AssertionError"><![CDATA[java.lang.AssertionError: expected:<1>',
        '\tat org.junit.Assert.fail(Assert.java:89)',
        '\tat com.x.FooTest.bar(FooTest.java:12)',
        ']]></failure>',
        '  </testcase>',
        '  <testcase name="baz" classname="com.x.FooTest" time="0.1">',
        '    <error message="boom &amp; more" type="java.lang.IllegalStateException"/>',
        '  </testcase>',
        '</testsuite>',
      ].join('\n'),
    );
    expect(out).toEqual([
      d('error', 'test', 'FooTest.java', 12, null, 'com.x.FooTest > bar: java.lang.AssertionError: expected:<1>', null),
      d('error', 'test', null, null, null, 'com.x.FooTest > baz: boom & more', null),
    ]);
  });

  it('reads a failure under a display granularity of 0, and a dotted path, as the test it names', () => {
    const out = parseGradleOutput(
      [
        'Gradle Test Run :core:test > Gradle Test Executor 7 > FooTest > bar() FAILED',
        '    java.lang.AssertionError at FooTest.java:9',
        '',
        'com.x.NgTest.checksIt FAILED',
        '    java.lang.AssertionError at NgTest.java:30',
      ].join('\n'),
    );
    expect(out).toEqual([
      d('error', 'test', 'FooTest.java', 9, null, 'FooTest > bar(): java.lang.AssertionError', ':core:test'),
      d('error', 'test', 'NgTest.java', 30, null, 'com.x.NgTest.checksIt: java.lang.AssertionError', null),
    ]);
  });

  it('reads a negative line in the short format as no place, even in the test class file', () => {
    const out = parseGradleOutput(
      ['NativeTest > loadsLibrary FAILED', '    java.lang.UnsatisfiedLinkError at NativeTest.java:-2'].join('\n'),
    );
    expect(out).toEqual([
      d('error', 'test', null, null, null, 'NativeTest > loadsLibrary: java.lang.UnsatisfiedLinkError', null),
    ]);
  });

  it('gives R8 continuation lines the severity of their block', () => {
    const out = parseGradleOutput(
      [
        '> Task :app:minifyReleaseWithR8',
        'WARNING: R8: Missing class a.B (referenced from: c.D)',
        'Missing class e.F (referenced from: g.H)',
        '> Task :lib:minifyReleaseWithR8',
        'ERROR:R8: Missing class i.J (referenced from: k.L)',
        'Missing class m.N (referenced from: o.P)',
      ].join('\n'),
    );
    expect(out.map((x) => [x.severity, x.source, x.message.slice(0, 15)])).toEqual([
      ['warning', 'r8', 'Missing class a'],
      ['warning', 'r8', 'Missing class e'],
      ['error', 'r8', 'Missing class i'],
      ['error', 'r8', 'Missing class m'],
    ]);
  });

  it("reads R8's own `Warning in <origin>:` form, the position on the header line in later R8 versions", () => {
    const out = parseGradleOutput(
      [
        'Warning in /w/libs/app.jar:a/B.class:',
        '  Type `c.D` was not found, it is required for default or static interface methods desugaring of `a.B`',
        'Error in /w/proguard-rules.pro at line 4, column 17:',
        "Expected char '-' at /w/proguard-rules.pro:4:17",
        'Error in C:\\w\\lib.jar:',
        'Compilation failed',
      ].join('\n'),
    );
    expect(out.map((x) => [x.severity, x.source, x.file, x.line, x.column, x.message.slice(0, 15)])).toEqual([
      ['warning', 'r8', '/w/libs/app.jar', null, null, 'Type `c.D` was '],
      ['error', 'r8', '/w/proguard-rules.pro', 4, 17, "Expected char '"],
      ['error', 'r8', 'C:\\w\\lib.jar', null, null, 'Compilation fai'],
    ]);
  });

  it('strips what CI runners put in front of a line', () => {
    expect(stripWrapperPrefixes('2023-11-02T10:11:12.1234567Z ##[error]e: file:///a/B.kt:1:2 X')).toBe(
      'e: file:///a/B.kt:1:2 X',
    );
    expect(stripWrapperPrefixes('::error file=app/A.kt,line=3::e: boom')).toBe('e: boom');
    expect(stripWrapperPrefixes('[  +12 ms] > Task :app:lint')).toBe('> Task :app:lint');
    expect(stripWrapperPrefixes('\u001b[1m> Task :app:lint\u001b[m')).toBe('> Task :app:lint');
  });

  it('unwraps a line quoted whole in parentheses, not one that only starts and ends with them', () => {
    expect(stripWrapperPrefixes('( AAPT: error: resource attr/x not found.)')).toBe(
      'AAPT: error: resource attr/x not found.',
    );
    expect(stripWrapperPrefixes('(1 of 2) done (cached)')).toBe('(1 of 2) done (cached)');
  });

  it("keeps Studio's file for its messages when the copy kept their indentation under it", () => {
    const file = 'C:\\p\\res\\values\\values.xml';
    expect(parseGradleOutput(`${file}\n    Error:(326, 5) error: <item> inner element must be empty.`)).toEqual([
      d('error', 'aapt2', file, 326, 5, '<item> inner element must be empty.', null),
    ]);
  });

  it("reads AGP 2's located AAPT line, which has no level", () => {
    expect(
      parseGradleOutput('C:\\a\\AndroidManifest.xml:104: AAPT: Error parsing XML: not well-formed (invalid token)'),
    ).toEqual([
      d(
        'error',
        'aapt2',
        'C:\\a\\AndroidManifest.xml',
        104,
        null,
        'Error parsing XML: not well-formed (invalid token)',
        null,
      ),
    ]);
  });

  it('reads an AAPT message behind a label as unlocated, the label being no path', () => {
    expect(
      parseGradleOutput("Build Failed : AAPT: error: duplicate value for resource 'attr/x' with config ''."),
    ).toEqual([d('error', 'aapt2', null, null, null, "duplicate value for resource 'attr/x' with config ''.", null)]);
  });

  it("reads every line AGP logs at error level for its AAPT2 daemon's stray output", () => {
    const lines = [
      'AAPT2 aapt2-8.6.1-11315950-linux Daemon #0: Unexpected standard output: Segmentation fault',
      'AAPT2 aapt2-8.6.1-11315950-linux Daemon #1: Idle daemon unexpectedly exit. This should not happen.',
    ];
    expect(parseGradleOutput(lines.join('\n'))).toEqual(
      lines.map((l) => d('error', 'aapt2', null, null, null, l, null)),
    );
  });

  it('turns an unknown task into a diagnostic', () => {
    const out = parseGradleOutput(
      [
        'FAILURE: Build failed with an exception.',
        '',
        '* What went wrong:',
        "Task 'assembleDebg' not found in root project 'demo'. Did you mean 'assembleDebug'?",
        '',
        '* Try:',
        '> Run gradlew tasks to get a list of available tasks.',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'gradle',
        null,
        null,
        null,
        "Task 'assembleDebg' not found in root project 'demo'. Did you mean 'assembleDebug'?",
        null,
      ),
    ]);
  });

  it('names a failure by an exception that carries it only when the log has no report of it', () => {
    const stack = [
      "org.gradle.execution.TaskSelectionException: Task 'assembleDebg' not found in root project 'demo'.",
      '\tat org.gradle.execution.TaskSelector.getSelection(TaskSelector.java:1)',
    ];
    // The stack alone: its exception is the failure.
    expect(parseGradleOutput(stack.join('\n'))).toEqual([
      d('error', 'gradle', null, null, null, "Task 'assembleDebg' not found in root project 'demo'", null),
    ]);
    // An exception that only wraps a failure names no problem: a stack of those alone reports nothing.
    expect(
      parseGradleOutput(
        [
          "org.gradle.api.tasks.TaskExecutionException: Execution failed for task ':app:lint'.",
          '\tat org.gradle.api.internal.tasks.execution.ExecuteActionsTaskExecuter.execute(ExecuteActionsTaskExecuter.java:1)',
        ].join('\n'),
      ),
    ).toEqual([]);
    // With the report after the stack, the report says it.
    const report = [
      '',
      'FAILURE: Build failed with an exception.',
      '',
      '* What went wrong:',
      "Task 'assembleDebg' not found in root project 'demo'. Some candidates are: 'assembleDebug'.",
    ];
    expect(parseGradleOutput([...stack, ...report].join('\n'))).toEqual([
      d(
        'error',
        'gradle',
        null,
        null,
        null,
        "Task 'assembleDebg' not found in root project 'demo'. Some candidates are: 'assembleDebug'",
        null,
      ),
    ]);
  });

  it('reads a missing dependency from a stack once, the report naming it again', () => {
    const stack = [
      'Cause 2: org.gradle.internal.resolve.ModuleVersionNotFoundException: Could not find com.example:lib:1.0.',
      'Required by:',
      '    project :app',
    ];
    expect(parseGradleOutput(stack.join('\n'))).toEqual([
      d('error', 'gradle', null, null, null, 'Could not find com.example:lib:1.0. Required by: project :app', null),
    ]);
    const report = [
      '',
      '* What went wrong:',
      "Could not resolve all files for configuration ':app:debugRuntimeClasspath'.",
      '> Could not find com.example:lib:1.0.',
      '  Required by:',
      '      project :app',
    ];
    expect(parseGradleOutput([...stack, ...report].join('\n'))).toEqual([
      d(
        'error',
        'gradle',
        null,
        null,
        null,
        "Could not resolve all files for configuration ':app:debugRuntimeClasspath': Could not find com.example:lib:1.0. Required by: project :app",
        null,
      ),
    ]);
  });

  it('reads a line set in markdown emphasis, and skips the rich console status under its progress bar', () => {
    const out = parseGradleOutput(
      [
        '<=========----> 75% EXECUTING [12s]',
        '> :app:minifyReleaseWithR8',
        '> IDLE',
        '**Missing classes detected while running R8. Please add the missing classes or apply additional keep rules.**',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'r8',
        null,
        null,
        null,
        'Missing classes detected while running R8. Please add the missing classes or apply additional keep rules.',
        null,
      ),
    ]);
  });

  it('reports every missing dependency of a resolution failure, with who required it', () => {
    const out = parseGradleOutput(
      [
        '* What went wrong:',
        "Could not determine the dependencies of task ':app:compileDebugJavaWithJavac'.",
        "> Could not resolve all task dependencies for configuration ':app:debugCompileClasspath'.",
        '   > Could not find com.example:one:1.0.',
        '     Searched in the following locations:',
        '       - https://dl.google.com/dl/android/maven2/com/example/one/1.0/one-1.0.pom',
        '     Required by:',
        '         project :app',
        '   > Could not find com.example:two:2.0.',
        '     Required by:',
        '         project :app > com.example:one:1.0',
        '',
        '* Try:',
      ].join('\n'),
    );
    expect(out.map((x) => x.message)).toEqual([
      "Could not determine the dependencies of task ':app:compileDebugJavaWithJavac': Could not find com.example:one:1.0. Required by: project :app",
      "Could not determine the dependencies of task ':app:compileDebugJavaWithJavac': Could not find com.example:two:2.0. Required by: project :app > com.example:one:1.0",
    ]);
  });

  it('ignores JVM warnings and stack frames', () => {
    const out = parseGradleOutput(
      [
        'WARNING: A terminally deprecated method in sun.misc.Unsafe has been called',
        "WARNING: The option setting 'android.foo=true' is experimental.",
        '\tat com.example.Foo.bar(Foo.java:1)',
      ].join('\n'),
    );
    expect(out).toEqual([
      d('warning', 'agp', null, null, null, "The option setting 'android.foo=true' is experimental.", null),
    ]);
  });

  it("reads the Kotlin plugin's compile failure from a stack only when the log reports no error otherwise", () => {
    const stack = [
      '\tat org.gradle.internal.concurrent.AbstractManagedExecutor$1.run(AbstractManagedExecutor.java:47)',
      'Caused by: org.jetbrains.kotlin.gradle.tasks.FailedCompilationException: Compilation error. See log for more details',
      '\tat org.jetbrains.kotlin.gradle.tasks.TasksUtilsKt.throwExceptionIfCompilationFailed(tasksUtils.kt:22)',
    ];
    expect(parseGradleOutput(stack.join('\n'))).toEqual([
      d('error', 'gradle', null, null, null, 'Compilation error. See log for more details', null),
    ]);
    const withError = ['e: file:///p/A.kt:3:8 Unresolved reference: io', ...stack];
    expect(parseGradleOutput(withError.join('\n'))).toEqual([
      d('error', 'kotlin', '/p/A.kt', 3, 8, 'Unresolved reference: io', null),
    ]);
  });

  it("reads a missing dependency from a stack's exception, unless the log's failure report says more", () => {
    const stack = [
      "org.gradle.api.tasks.TaskExecutionException: Execution failed for task ':app:compileDebugKotlin'.",
      '\tat org.gradle.api.internal.tasks.execution.ExecuteActionsTaskExecuter.execute(ExecuteActionsTaskExecuter.java:1)',
      'Caused by: org.gradle.internal.resolve.ModuleVersionNotFoundException: Could not find com.example:lib:1.0.',
    ];
    expect(parseGradleOutput(stack.join('\n'))).toEqual([
      d('error', 'gradle', null, null, null, 'Could not find com.example:lib:1.0.', null),
    ]);
    const withReport = [
      ...stack,
      '',
      'FAILURE: Build failed with an exception.',
      '',
      '* What went wrong:',
      "Execution failed for task ':app:compileDebugKotlin'.",
      '> Compilation error. See log for more details',
    ];
    expect(parseGradleOutput(withReport.join('\n'))).toEqual([
      d(
        'error',
        'gradle',
        null,
        null,
        null,
        "Execution failed for task ':app:compileDebugKotlin': Compilation error. See log for more details",
        ':app:compileDebugKotlin',
      ),
    ]);
  });

  it("reads Kotlin/Native's klib resolver lines without the compiler's prefix: a skipped klib is a warning", () => {
    const skipped =
      "KLIB resolver: Skipping '/p/lib.klib'. The target doesn't match. Expected 'ios_arm64', found [linux_x64].";
    const missing = 'KLIB resolver: Could not find "org.example:lib" in [/p, /p/.konan/klib]';
    expect(parseGradleOutput([skipped, missing].join('\n'))).toEqual([
      d('warning', 'kotlin', null, null, null, skipped, null),
      d('error', 'kotlin', null, null, null, missing, null),
    ]);
  });

  it("reads KSP's [ksp] lines without their severity letter as errors, except KSP's own provider list", () => {
    const out = parseGradleOutput(
      [
        '[ksp] loaded provider(s): [dagger.hilt.processor.internal.root.KspRootProcessor$Provider]',
        '[ksp] java.lang.IllegalStateException: Required value was null.',
      ].join('\n'),
    );
    expect(out).toEqual([
      d('error', 'ksp', null, null, null, 'java.lang.IllegalStateException: Required value was null.', null),
    ]);
  });

  it("places a Kotlin internal error in the file kotlinc names under it, K2's and K1's form", () => {
    const out = parseGradleOutput(
      [
        '> Task :app:compileDebugKotlin FAILED',
        'e: org.jetbrains.kotlin.backend.common.BackendException: Backend Internal error: Exception during IR lowering',
        'File being compiled: /p/app/src/main/java/com/x/Screen.kt',
        'The root cause java.lang.RuntimeException was thrown at: org.jetbrains.kotlin.backend.jvm.codegen.X.y(X.kt:50)',
        'e: java.lang.IllegalStateException: Backend Internal error: Exception during code generation',
        'File being compiled: (12,5) in /p/app/src/main/java/com/x/Other.kt',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'kotlin',
        '/p/app/src/main/java/com/x/Screen.kt',
        null,
        null,
        'org.jetbrains.kotlin.backend.common.BackendException: Backend Internal error: Exception during IR lowering',
        ':app:compileDebugKotlin',
      ),
      d(
        'error',
        'kotlin',
        '/p/app/src/main/java/com/x/Other.kt',
        12,
        5,
        'java.lang.IllegalStateException: Backend Internal error: Exception during code generation',
        ':app:compileDebugKotlin',
      ),
    ]);
  });

  it("reads K2's FileAnalysisException position from its message, once when the stack repeats it", () => {
    const crash =
      'org.jetbrains.kotlin.util.FileAnalysisException: While analysing /p/app/src/main/java/A.kt:3:4: java.lang.IllegalStateException: y';
    const expected = [d('error', 'kotlin', '/p/app/src/main/java/A.kt', 3, 4, crash, ':app:compileDebugKotlin')];
    // Only the stack pasted: its `Caused by:` names the crash.
    expect(
      parseGradleOutput(
        ['> Task :app:compileDebugKotlin FAILED', `Caused by: ${crash}`, '\tat a.b.C.d(C.kt:1)'].join('\n'),
      ),
    ).toEqual(expected);
    // The compiler's `e: ` line, then the same words in the failure's stack.
    expect(
      parseGradleOutput(
        ['> Task :app:compileDebugKotlin FAILED', `e: ${crash}`, '\tat a.b.C.d(C.kt:1)', `Caused by: ${crash}`].join(
          '\n',
        ),
      ),
    ).toEqual(expected);
  });

  it("reads Kotlin/Native's crash report once, and its klib resolver's lines, as Kotlin's without a task line", () => {
    const out = parseGradleOutput(
      [
        'error: Compilation failed: null',
        '',
        ' * Source files: ',
        ' * Compiler version: 2.1.0',
        ' * Output kind: FRAMEWORK',
        '',
        'error: java.lang.NullPointerException',
        '\tat org.jetbrains.kotlin.backend.konan.CacheBuilderKt.x(CacheBuilder.kt:31)',
      ].join('\n'),
    );
    expect(out).toEqual([d('error', 'kotlin', null, null, null, 'Compilation failed: null', null)]);
    // Its klib resolver's messages with the `error: ` / `warning: ` it prints them with, no task line either.
    const missing = 'KLIB resolver: Could not find "io.ktor:ktor-http-cio" in [/projects, /.konan/klib]';
    const duplicate = "KLIB resolver: The same 'unique_name=x' found in more than one library";
    expect(parseGradleOutput(`error: ${missing}\nwarning: ${duplicate}`)).toEqual([
      d('error', 'kotlin', null, null, null, missing, null),
      d('warning', 'kotlin', null, null, null, duplicate, null),
    ]);
  });

  it("leaves Xcode's own lines around a Kotlin framework build out", () => {
    const out = parseGradleOutput(
      [
        '> Task :shared:compileKotlinIosSimulatorArm64 FAILED',
        "e: file:///p/shared/src/iosMain/kotlin/Platform.kt:3:8 Unresolved reference 'UIKit'.",
        'Command PhaseScriptExecution failed with a nonzero exit code',
        '** BUILD FAILED **',
        'error: Command PhaseScriptExecution failed with a nonzero exit code',
        "warning: Run script build phase 'Compile Kotlin Framework' will be run during every build because it does not specify any outputs.",
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'kotlin',
        '/p/shared/src/iosMain/kotlin/Platform.kt',
        3,
        8,
        "Unresolved reference 'UIKit'.",
        ':shared:compileKotlinIosSimulatorArm64',
      ),
    ]);
  });

  it("takes an unprefixed exception for KSP's only when KSP's processing frames are under it", () => {
    const frames = (top: string) => [
      'java.lang.IllegalStateException: bad',
      `\tat ${top}(X.kt:10)`,
      '\tat a.B.c(B.kt:1)',
    ];
    expect(parseGradleOutput(frames('com.google.devtools.ksp.gradle.KspSubplugin.apply').join('\n'))).toEqual([]);
    expect(parseGradleOutput(frames('com.google.devtools.ksp.impl.KotlinSymbolProcessing.execute').join('\n'))).toEqual(
      [d('error', 'ksp', null, null, null, 'java.lang.IllegalStateException: bad', null)],
    );
  });

  it('uses the * Where: section for a failure without a location of its own', () => {
    const out = parseGradleOutput(
      [
        'FAILURE: Build failed with an exception.',
        '',
        '* Where:',
        "Build file '/p/app/build.gradle' line: 7",
        '',
        '* What went wrong:',
        "A problem occurred evaluating project ':app'.",
        '> Could not find method foo()',
        '',
        '* Try:',
        '> Run with --stacktrace',
        'BUILD FAILED in 1s',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'gradle',
        '/p/app/build.gradle',
        7,
        null,
        "A problem occurred evaluating project ':app': Could not find method foo()",
        null,
      ),
    ]);
  });

  it("reads AGP's package= attribute problems once, printed alone or again in the failure block", () => {
    const source = '/w/plugin/android/src/main/AndroidManifest.xml';
    const error = [
      `Incorrect package="org.sample.plugin" found in source AndroidManifest.xml: ${source}.`,
      'Setting the namespace via the package attribute in the source AndroidManifest.xml is no longer supported.',
      `Recommendation: remove package="org.sample.plugin" from the source AndroidManifest.xml: ${source}.`,
    ];
    const out = parseGradleOutput(
      [
        '> Task :app:processDebugMainManifest',
        `package="org.sample.app" found in source AndroidManifest.xml: /w/app/src/main/AndroidManifest.xml.`,
        "Setting the namespace via a source AndroidManifest.xml's package attribute is deprecated.",
        "Please instead set the namespace (or testNamespace) in the module's build.gradle file.",
        'This migration can be done automatically using the AGP Upgrade Assistant.',
        '> Task :plugin:processDebugManifest FAILED',
        ...error,
        '',
        'FAILURE: Build failed with an exception.',
        '',
        '* What went wrong:',
        "Execution failed for task ':plugin:processDebugManifest'.",
        '> A failure occurred while executing com.android.build.gradle.tasks.ProcessLibraryManifest$ProcessLibWorkAction',
        `   > ${error[0]}`,
        ...error.slice(1).map((l) => `     ${l}`),
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'warning',
        'manifest',
        '/w/app/src/main/AndroidManifest.xml',
        null,
        null,
        'package="org.sample.app" found in source AndroidManifest.xml: /w/app/src/main/AndroidManifest.xml. Setting the namespace via a source AndroidManifest.xml\'s package attribute is deprecated. Please instead set the namespace (or testNamespace) in the module\'s build.gradle file. This migration can be done automatically using the AGP Upgrade Assistant.',
        ':app:processDebugMainManifest',
      ),
      d('error', 'manifest', source, null, null, error.join(' '), ':plugin:processDebugManifest'),
    ]);
  });

  it("drops the merger's `multiple errors, see logs` once its errors were read, even without their file", () => {
    const exported =
      'android:exported needs to be explicitly specified for <receiver>. Apps targeting Android 12 and higher are required to specify an explicit value for `android:exported` when the corresponding component has an intent filter defined.';
    const block = [
      'FAILURE: Build failed with an exception.',
      '',
      '* What went wrong:',
      "Execution failed for task ':app:processReleaseMainManifest'.",
      '> Manifest merger failed with multiple errors, see logs',
    ];
    expect(parseGradleOutput(['Error:', `\t${exported}`, '', ...block].join('\n'))).toEqual([
      d('error', 'manifest', null, null, null, exported, null),
    ]);
    expect(parseGradleOutput(block.join('\n'))).toEqual([
      d(
        'error',
        'manifest',
        null,
        null,
        null,
        'Manifest merger failed with multiple errors, see logs',
        ':app:processReleaseMainManifest',
      ),
    ]);
    // Android Studio's Messages view names the exception AGP threw.
    expect(
      parseGradleOutput('Error:java.lang.RuntimeException: Manifest merger failed with multiple errors, see logs'),
    ).toEqual([
      d('error', 'manifest', null, null, null, 'Manifest merger failed with multiple errors, see logs', null),
    ]);
  });

  it('reads a failure block quoted line by line in markdown: nested causes and their detail lines', () => {
    const out = parseGradleOutput(
      [
        "Error:A problem occurred configuring project ':app'.",
        "> Could not resolve all dependencies for configuration ':app:_debugCompile'.",
        '>    > Could not find com.example:lib:1.0.',
        '>      Searched in the following locations:',
        '>          https://repo.example.com/com/example/lib/1.0/lib-1.0.pom',
        '>      Required by:',
        '>          project :app',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'gradle',
        null,
        null,
        null,
        "A problem occurred configuring project ':app': Could not find com.example:lib:1.0. Required by: project :app",
        null,
      ),
    ]);
  });

  it("reads every `> ` line after the merger's failure as its message, however the paste wrapped it", () => {
    const out = parseGradleOutput(
      [
        "Execution failed for task ':app:processDebugManifest'.",
        '',
        '> Manifest merger failed : Attribute application@label value=(@string/app_na',
        '> me) from AndroidManifest.xml:12:9-41',
        '>     is also present at [com.example:lib:1.0] AndroidManifest.xml:9:9-4',
        '> 1 value=(Lib).',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'manifest',
        'AndroidManifest.xml',
        12,
        9,
        'Manifest merger failed : Attribute application@label value=(@string/app_na me) from AndroidManifest.xml:12:9-41 is also present at [com.example:lib:1.0] AndroidManifest.xml:9:9-4 1 value=(Lib).',
        ':app:processDebugManifest',
      ),
    ]);
  });

  it("takes no rich-console worker line (`> :app:task > 2 of 5`) for a failure's cause", () => {
    expect(parseGradleOutput(['> :app:mergeDebugResources > 2 of 5', '> :app:compileDebugKotlin'].join('\n'))).toEqual(
      [],
    );
  });

  it('reads a build Ant ran through <exec> behind its task margin (`     [exec] `), in any width of that margin', () => {
    const out = parseGradleOutput(
      [
        '     [exec] :app:packageDebugResources',
        '     [exec] C:\\a b\\app\\src\\main\\res\\values\\values.xml:4:7: Error: The content of elements must consist of well-formed character data or markup.',
        '     [exec] ',
      ].join('\n'),
    );
    expect(out).toEqual([
      d(
        'error',
        'agp',
        'C:\\a b\\app\\src\\main\\res\\values\\values.xml',
        4,
        7,
        'The content of elements must consist of well-formed character data or markup.',
        ':app:packageDebugResources',
      ),
    ]);
  });

  it("drops a web log viewer's time lines between the log's lines, and takes no `* Try:` advice for a cause", () => {
    const out = parseGradleOutput(
      [
        '[stderr] * What went wrong:',
        'Tue, 2 Feb 2021 10:00:00 GMT',
        "[stderr] Execution failed for task ':app:x'.",
        'Tue, 2 Feb 2021 10:00:00 GMT',
        '[stderr] > boom',
        '[stderr] * Try:',
        '[stderr] ',
        '[stderr] > Run with --stacktrace option to get the stack trace.',
        '[stderr] ',
        '[stderr] > Run gradlew tasks to get a list of available tasks.',
        '[stderr] ',
        '[stderr] > Get more help at https://help.gradle.org.',
      ].join('\n'),
    );
    expect(out).toEqual([d('error', 'gradle', null, null, null, "Execution failed for task ':app:x': boom", ':app:x')]);
  });

  it('keeps one unlocated warning per configured project, as per task', () => {
    const warning = "WARNING:Using flatDir should be avoided because it doesn't support any meta-data formats.";
    const message = warning.slice('WARNING:'.length);
    expect(
      parseGradleOutput(['> Configure project :a', warning, '> Configure project :b', warning, warning].join('\n')),
    ).toEqual([
      d('warning', 'agp', null, null, null, message, null),
      d('warning', 'agp', null, null, null, message, null),
    ]);
  });

  it("reads the resource compiler's own `<file>:<line>:<col>: <sentence>` line, not the merger's or lint's", () => {
    const out = parseGradleOutput(
      [
        '> Task :app:mergeDebugResources FAILED',
        'C:\\Users\\A B\\app\\src\\main\\res\\values-night\\colors.xml:3:5: Invalid <color> for given resource value.',
        '/p/app/build/intermediates/incremental/debug/mergeDebugResources/merged.dir/values/values.xml:9:2: Invalid resource reference.',
        '/p/app/src/main/res/values/strings.xml:6:3: Note: not a sentence of the compiler',
      ].join('\n'),
    );
    expect(out.map((x) => [x.source, x.line, x.column, x.message])).toEqual([
      ['aapt2', 3, 5, 'Invalid <color> for given resource value.'],
      ['aapt2', 9, 2, 'Invalid resource reference.'],
    ]);
  });

  it("gives AGP's external native build error the build script it names, whichever wrapper printed it", () => {
    const out = parseGradleOutput(
      [
        'Error:executing external native build for cmake C:\\p\\app\\CMakeLists.txt',
        'ERROR: executing external native build for ndkBuild /p/app/src/main/jni/Android.mk. Affected Modules: app',
      ].join('\n'),
    );
    expect(out.map((x) => [x.source, x.file])).toEqual([
      ['agp', 'C:\\p\\app\\CMakeLists.txt'],
      ['agp', '/p/app/src/main/jni/Android.mk'],
    ]);
  });

  it("keeps a cause's `- ` reasons, and finds the causes a markdown quote set apart from the headline", () => {
    const reasons = parseGradleOutput(
      [
        "Could not determine the dependencies of task ':app:x'.",
        "> Could not resolve all artifacts for configuration ':app:y'.",
        '   > Could not resolve project :lib.',
        '          - None of the consumable configurations have attributes.',
      ].join('\n'),
    );
    expect(reasons.map((x) => x.message)).toEqual([
      "Could not determine the dependencies of task ':app:x': Could not resolve project :lib. - None of the consumable configurations have attributes.",
    ]);
    const apart = parseGradleOutput(
      [
        '* What went wrong:',
        "A problem occurred configuring project ':app'.",
        '',
        "Could not resolve all files for configuration ':app:classpath'.",
        '    Could not find g:a:1.0.',
        '',
        '* Try:',
      ].join('\n'),
    );
    expect(apart.map((x) => x.message)).toEqual([
      "A problem occurred configuring project ':app': Could not find g:a:1.0.",
    ]);
  });

  it("reads AAPT 1's malformed 9-patch report as one error on the image, behind any relay prefix", () => {
    const out = parseGradleOutput(
      [
        'AAPT: ERROR: 9-patch image /p/res/drawable-hdpi/a.9.png malformed.',
        'AAPT:        No marked region found along edge.',
        'AAPT:        Found along top edge.',
        'AAPT err(Facade for 7) : No Delegate set : lost message:ERROR: 9-patch image /p/res/drawable/b.9.png malformed.',
        'AAPT err(Facade for 7) : No Delegate set : lost message:       Found at pixel #4 along left edge.',
      ].join('\n'),
    );
    expect(out.map((x) => [x.file, x.message])).toEqual([
      [
        '/p/res/drawable-hdpi/a.9.png',
        '9-patch image /p/res/drawable-hdpi/a.9.png malformed. No marked region found along edge. Found along top edge.',
      ],
      [
        '/p/res/drawable/b.9.png',
        '9-patch image /p/res/drawable/b.9.png malformed. Found at pixel #4 along left edge.',
      ],
    ]);
  });

  it("reads KSP's level after its tag, as a build tool relaying KSP2's own lines prints it", () => {
    const out = parseGradleOutput(['[ksp] e: Cannot do it', '[ksp] w: Careful', '[ksp] i: loaded'].join('\n'));
    expect(out.map((x) => [x.source, x.severity, x.message])).toEqual([
      ['ksp', 'error', 'Cannot do it'],
      ['ksp', 'warning', 'Careful'],
    ]);
  });

  it('unescapes a log pasted as an HTML code block, its tags removed', () => {
    const out = parseGradleOutput(
      [
        '<pre><code>&gt; Task :lib:kspDebugKotlin FAILED',
        'e: [ksp] Type &#39;&lt;ERROR&gt;&#39; is not resolvable.</code></pre>',
      ].join('\n'),
    );
    expect(out).toEqual([
      d('error', 'ksp', null, null, null, "Type '<ERROR>' is not resolvable.", ':lib:kspDebugKotlin'),
    ]);
  });

  it("starts a failure block at a wrapper's summary that quotes Gradle's headline", () => {
    const out = parseGradleOutput(
      ["Run gradlew failed with: Execution failed for task ':app:x'.", '> Something broke'].join('\n'),
    );
    expect(out).toEqual([
      d('error', 'gradle', null, null, null, "Execution failed for task ':app:x': Something broke", ':app:x'),
    ]);
  });

  it('bounds the number of diagnostics and message sizes', () => {
    const parser = new GradleOutputParser();
    for (let i = 0; i < MAX_DIAGNOSTICS + 50; i++) parser.push(`w: file:///p/A.kt:${i + 1}:1 ${'x'.repeat(3000)}`);
    const out = parser.finish();
    expect(out).toHaveLength(MAX_DIAGNOSTICS);
    expect(parser.dropped).toBe(50);
    expect(out[0]!.message.length).toBeLessThanOrEqual(2001);
  });

  it('keeps pathological lines cheap: each is cut before any pattern runs', () => {
    const hostile = [
      `${'a:1:'.repeat(250_000)} AAPT: error`,
      `e: ${'/x'.repeat(300_000)}.kt: (`,
      `${'com.A > '.repeat(100_000)}m`,
      `${'/p/A.java:1'.repeat(100_000)}: error`,
      ` ${'> '.repeat(200_000)}`,
      `AGPBI: {"kind":"error","text":"${'x'.repeat(500_000)}"`,
      `com.A > ${'b > '.repeat(2_000)}c xFAILED`,
      `    at ${'/'.repeat(8_000)}x`,
      `${'a/'.repeat(4_000)}AndroidManifest.xml:1 Error:`,
      `ERROR: Manifest merger failed : ${'a/b '.repeat(2_000)}`,
      ...Array.from({ length: 60 }, () => `\t${'x/AndroidManifest.xml '.repeat(300)}`),
      `${'\t'.repeat(8_000)}x`,
      `A.java:1: error: x`,
      `${' '.repeat(8_000)}^ y`,
      `${'[a] b '.repeat(1_300)}Duplicate resources`,
      `${'.../a.kt:1:'.repeat(700)}`,
      `${'a.cpp:1'.repeat(1_100)}`,
      `${'a.java:['.repeat(1_000)}`,
      `Message{kind=ERROR, text=${', sources=['.repeat(700)}`,
      `Error:(1) ${'Error:('.repeat(1_100)}`,
      `[ERROR] [${'a.'.repeat(4_000)} x`,
      `\`${' '.repeat(8_000)}\``,
      `${'> '.repeat(4_000)}FAILURE: `,
      `${'a.BException: '.repeat(600)}Task 'x' not found in project 'y'${' x'.repeat(1_000)}!`,
      `_${'a '.repeat(4_000)}`,
      `${'****/ data binding error ****msg:'.repeat(250)}`,
      `${'file:loc:1:'.repeat(700)}`,
      `An exception has occurred in the compiler (${'('.repeat(8_000)}`,
      `${'a.'.repeat(4_000)}Error`,
      `${'x[ +1 ms] '.repeat(2_000)}`,
      `${'/res/values/'.repeat(600)}a.xml:1:1: A ${'b '.repeat(800)}:`,
      `${' '.repeat(10)}[${'a'.repeat(8_000)}`,
      `${'AAPT: '.repeat(1_300)}ERROR: 9-patch image ${' malformed.'.repeat(300)}`,
      `<pre><code>${'&lt;'.repeat(2_000)}`,
      `[ksp] e: ${'a:1:'.repeat(2_000)}`,
    ];
    const parser = new GradleOutputParser();
    const started = process.hrtime.bigint();
    for (let round = 0; round < 5; round++) for (const line of hostile) parser.push(line);
    parser.finish();
    // Not a speed target (those live in benchmarks): a guard against a catastrophic pattern, which takes minutes.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(10);
  });

  it('counts by severity', () => {
    expect(countBySeverity(EXPECTED['ksp_room_errors.txt']!)).toEqual({ error: 4, warning: 1, info: 0 });
  });

  it("reads a configuration-cache problem list under a numbered failure's header as errors, alone as warnings", () => {
    const problem = "- Task `:app:a` of type `T`: invocation of 'Task.project' at execution time is unsupported.";
    const numbered = parseGradleOutput(
      [
        '1: Task failed with an exception.',
        '-----------',
        '2 problems were found storing the configuration cache.',
        problem,
      ].join('\n'),
    );
    expect(numbered.map((x) => [x.source, x.severity])).toEqual([['config-cache', 'error']]);
    const alone = parseGradleOutput(['2 problems were found storing the configuration cache.', problem].join('\n'));
    expect(alone.map((x) => [x.source, x.severity])).toEqual([['config-cache', 'warning']]);
  });

  it("keeps Gradle's own build-script failures Gradle's behind Studio 3's ERROR:, and AGP's AGP's", () => {
    const out = parseGradleOutput(
      [
        "ERROR: Gradle DSL method not found: 'negative()'",
        "ERROR: Plugin with id 'kotlin-android' not found.",
        'ERROR: Could not find method compile() for arguments [x] on object of type y.',
        'ERROR: The specified Android SDK Build Tools version (26.0.0) is ignored.',
      ].join('\n'),
    );
    expect(out.map((x) => x.source)).toEqual(['gradle', 'gradle', 'gradle', 'agp']);
  });

  it("reads the daemon's disappearance alone and as the only exception of a pasted stack, once each", () => {
    const message = 'Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)';
    expect(parseGradleOutput(`${message}\n\n* Try:\nRun with --stacktrace option to get the stack trace.`)).toEqual([
      d('error', 'gradle', null, null, null, message, null),
    ]);
    const stack = `org.gradle.launcher.daemon.client.DaemonDisappearedException: ${message}\n\tat a.B.c(B.java:1)`;
    expect(parseGradleOutput(stack).map((x) => x.message)).toEqual([message]);
  });

  it("reads a module's artifact Gradle could not find, also inside markdown bold italics over several lines", () => {
    const out = parseGradleOutput(
      [
        '_**Could not find aapt2-proto.jar (com.android.tools.build:aapt2-proto:0.3.1).',
        'Searched in the following locations:',
        '    https://jcenter.bintray.com/com/android/tools/build/aapt2-proto/0.3.1/aapt2-proto-0.3.1.jar**_',
      ].join('\n'),
    );
    expect(out.map((x) => x.message)).toEqual([
      'Could not find aapt2-proto.jar (com.android.tools.build:aapt2-proto:0.3.1).',
    ]);
  });

  it('takes a headline Gradle printed without a period before its first cause', () => {
    const out = parseGradleOutput(
      [
        'Could not isolate parameters P@1 of artifact transform T',
        '> Could not isolate value P@1 of type T.Parameters',
        '   > boom',
      ].join('\n'),
    );
    expect(out.map((x) => x.message)).toEqual(['Could not isolate parameters P@1 of artifact transform T: boom']);
  });

  it("reports a script error kotlinc printed before Gradle's report once, when a paste's tabs moved the report's caret", () => {
    const out = parseGradleOutput(
      [
        'e: /p/build.gradle.kts:83:41: Unresolved reference: grgit',
        '* Where:',
        "Build file '/p/build.gradle.kts' line: 83",
        '* What went wrong:',
        'Script compilation error:',
        '  Line 83: \tmanifest.attributes["Git-Commit"] = grgit.head().id',
        '\t\t\t\t\t\t^ Unresolved reference: grgit',
      ].join('\n'),
    );
    expect(out.map((x) => [x.line, x.column])).toEqual([[83, 41]]);
  });

  it("takes kotlinc's candidate list under a script error's caret into its message, and stops at the next error", () => {
    const out = parseGradleOutput(
      [
        '* What went wrong:',
        'Script compilation errors:',
        '',
        '  Line 11:     version = "0.6.0"',
        '               ^ Unresolved reference. None of the following candidates is applicable: ',
        '                   public infix fun Spec.version(version: String?): Spec',
        '  Line 12:     x()',
        '               ^ Unresolved reference: x',
      ].join('\n'),
    );
    expect(out.map((x) => [x.line, x.message])).toEqual([
      [
        11,
        'Unresolved reference. None of the following candidates is applicable: public infix fun Spec.version(version: String?): Spec',
      ],
      [12, 'Unresolved reference: x'],
    ]);
  });
});

describe('GradleOutputParser rules from the opened hold-out set', () => {
  it('finishes an AAPT message cut mid-word on a colon-free row that starts with any character', () => {
    const path = `D:\\p\\build\\intermediates\\res\\merged\\release\\${'values-v26\\'.repeat(4)}values-v26.xml`;
    const out = parseGradleOutput(
      [
        `  ${path}:11: error: resource android:attr/color`,
        'Error not found.',
        `  ${path}:12: error: resource android:attr`,
        '/fontVariationSettings not found.',
      ].join('\n'),
    );
    expect(out.map((x) => x.message)).toEqual([
      'resource android:attr/colorError not found.',
      'resource android:attr/fontVariationSettings not found.',
    ]);
  });

  it("keeps javac's symbol: line that a relay put after a blank line under the caret", () => {
    const out = parseGradleOutput(
      [
        'C:\\p\\A.java:27: error: cannot find symbol',
        '            new B()',
        '                ^',
        '',
        '  symbol: class B',
        '1 error',
      ].join('\n'),
    );
    expect(out.map((x) => [x.line, x.column, x.message])).toEqual([[27, 17, 'cannot find symbol (symbol: class B)']]);
  });

  it("takes a short frame in a file named like a test source (Test*) as the test's place", () => {
    const out = parseGradleOutput(
      [
        'com.example.AboutTests > works FAILED',
        '    org.mockito.exceptions.base.MockitoException at TestApp.kt:81',
      ].join('\n'),
    );
    expect(out.map((x) => [x.file, x.line])).toEqual([['TestApp.kt', 81]]);
  });

  it("reads AAPT2's first line behind AGP 3.2's `Output:  `", () => {
    const out = parseGradleOutput(
      ['Android resource linking failed', 'Output:  error: resource style/A (aka x:style/A) not found.'].join('\n'),
    );
    expect(out.map((x) => [x.source, x.message])).toEqual([['aapt2', 'resource style/A (aka x:style/A) not found.']]);
  });

  it("reads Studio's Build window copied as a tree: a file's node, then its messages, javac's notes left out", () => {
    const out = parseGradleOutput(
      [
        'Build failed\t3 m 1 s 200 ms',
        'Run tasks\t2 m 57 s 505 ms',
        'null\t',
        '/home/u/Project\t',
        'app/src/main/java\t',
        'org/x/A.java\t',
        'uses unchecked or unsafe operations.\t',
        'org/x/B.kt\t',
        'Type mismatch: inferred type is A? but A was expected\t',
        "Variable 'y' is never used\t",
      ].join('\n'),
    );
    expect(out.map((x) => [x.severity, x.source, x.file, x.message])).toEqual([
      ['error', 'kotlin', 'org/x/B.kt', 'Type mismatch: inferred type is A? but A was expected'],
      ['warning', 'kotlin', 'org/x/B.kt', "Variable 'y' is never used"],
    ]);
  });

  it('keeps the space after a bare `>` quote as the line’s own, so a caret keeps its column', () => {
    const lines = [
      'C:\\p\\A.java:26: error: cannot find symbol',
      '  @Sub(modules = {X.class})',
      '                   ^',
    ];
    expect(parseGradleOutput(lines.map((l) => `>${l}`).join('\n'))[0]!.column).toBe(20);
    expect(parseGradleOutput(lines.map((l) => `> ${l}`).join('\n'))[0]!.column).toBe(20);
  });
});

describe('GradleOutputParser after am instrument status bundles', () => {
  it('reads the rest of the log once the bundles stop, even without their closing INSTRUMENTATION_CODE', () => {
    const out = parseGradleOutput(
      [
        'INSTRUMENTATION_STATUS: class=com.example.ATest',
        'INSTRUMENTATION_STATUS: test=works',
        'INSTRUMENTATION_STATUS_CODE: 1',
        '> Task :app:compileDebugKotlin FAILED',
        'e: file:///p/A.kt:3:5 Unresolved reference: x',
      ].join('\n'),
    );
    expect(out.map((x) => [x.source, x.line])).toEqual([['kotlin', 3]]);
  });
});

describe('GradleOutputParser rules from the mixed round 8 logs', () => {
  it("keeps javac's location: line that a relay spaced from its symbol: line, with or without a caret", () => {
    const located = parseGradleOutput(
      [
        '/p/A.java:1: error: cannot find symbol',
        '  foo();',
        '  ^',
        '',
        '  symbol:   method foo()',
        '',
        '  location: class A',
      ].join('\n'),
    );
    expect(located.map((x) => x.message)).toEqual(['cannot find symbol (symbol: method foo(); location: class A)']);
    const bare = parseGradleOutput(
      [
        '> Task :app:compileDebugJavaWithJavac',
        'error: cannot find symbol',
        '',
        'import p.B;',
        '',
        '  symbol:   class B',
        '',
        '  location: package p',
      ].join('\n'),
    );
    expect(bare.map((x) => x.message)).toEqual(['cannot find symbol (symbol: class B; location: package p)']);
  });

  it("reads a K1 location without the spaces after its colons, and one wrapped after the path's colon", () => {
    const out = parseGradleOutput(
      ['e: /p/A.kt:', '(3, 12): Unresolved reference: x', 'e: /p/A.kt:(4, 5): Unresolved reference: y'].join('\n'),
    );
    expect(out.map((x) => [x.file, x.line, x.column, x.message])).toEqual([
      ['/p/A.kt', 3, 12, 'Unresolved reference: x'],
      ['/p/A.kt', 4, 5, 'Unresolved reference: y'],
    ]);
  });

  it("joins an absolute path's head cut at a row width that is not a console's standard one", () => {
    const head = `C:\\sdk\\.pub-cache\\hosted\\pub.dartlang.org\\plugin-1.0.8\\android\\src\\main\\java\\io\\flutter\\Li`;
    const out = parseGradleOutput(
      [head, 'fecycleAdapter.java:8: error: package x does not exist', 'import x.Y;', '        ^'].join('\n'),
    );
    expect(out.map((x) => x.file)).toEqual([`${head}fecycleAdapter.java`]);
  });

  it("reads a task name an editor set in typographic quotes as Gradle's", () => {
    const out = parseGradleOutput('Execution failed for task ‘:lib:bundleReleaseLocalLintAar’');
    expect(out.map((x) => [x.message, x.task])).toEqual([
      ["Execution failed for task ':lib:bundleReleaseLocalLintAar'", ':lib:bundleReleaseLocalLintAar'],
    ]);
  });

  it("reports the daemon's disappearance outside a report, once when the report follows", () => {
    const notice = 'The message received from the daemon indicates that the daemon has disappeared.';
    expect(parseGradleOutput(notice).map((x) => x.message)).toEqual([notice]);
    const withReport = parseGradleOutput(
      [
        notice,
        'Daemon pid: 34',
        '',
        'FAILURE: Build failed with an exception.',
        '',
        '* What went wrong:',
        'Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)',
        '',
        '* Try:',
      ].join('\n'),
    );
    expect(withReport.map((x) => x.message)).toEqual([
      'Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)',
    ]);
  });

  it("takes the exception under Gradle's afterEvaluate notice as the failure, and a quoted wrapper download as nothing", () => {
    const out = parseGradleOutput(
      [
        'Failed to notify ProjectEvaluationListener.afterEvaluate(), but primary configuration failure takes precedence.',
        "java.lang.RuntimeException: The SDK directory 'C:\\sdk' does not exist.",
      ].join('\n'),
    );
    expect(out.map((x) => x.message)).toEqual(["The SDK directory 'C:\\sdk' does not exist."]);
    const download = parseGradleOutput(
      [
        '> Downloading https://services.gradle.org/distributions/gradle-4.1-all.zip',
        '> ........',
        'Unzipping a.zip to b',
      ].join('\n'),
    );
    expect(download).toEqual([]);
  });
});

describe('GradleOutputParser rules from the mixed round 9 logs', () => {
  it("reports the throwable under dx's crash banner, printed plainly or with Studio's Error: prefix", () => {
    const plain = parseGradleOutput(
      [
        ':app:dexDebug',
        'UNEXPECTED TOP-LEVEL EXCEPTION:',
        'java.lang.IllegalArgumentException: method ID not in [0, 0xffff]: 65536',
        '\tat com.android.dx.merge.DexMerger.mergeMethodIds(DexMerger.java:491)',
      ].join('\n'),
    );
    expect(plain.map((x) => [x.source, x.message, x.task])).toEqual([
      ['r8', 'java.lang.IllegalArgumentException: method ID not in [0, 0xffff]: 65536', ':app:dexDebug'],
    ]);
    const studio = parseGradleOutput(
      ['Error:UNEXPECTED TOP-LEVEL ERROR:', 'Error:java.lang.OutOfMemoryError: GC overhead limit exceeded'].join('\n'),
    );
    expect(studio.map((x) => [x.source, x.message])).toEqual([
      ['r8', 'java.lang.OutOfMemoryError: GC overhead limit exceeded'],
    ]);
    expect(parseGradleOutput('UNEXPECTED TOP-LEVEL ERROR:\n\nBUILD SUCCESSFUL')).toEqual([]);
  });

  it("reads AGP's SIMPLE records as the relayed tool's own lines, not as messages", () => {
    const record = (text: string) => `AGPBI: ${JSON.stringify({ kind: 'SIMPLE', text, position: {}, original: text })}`;
    const out = parseGradleOutput(
      [
        ':app:dexDebug',
        record('UNEXPECTED TOP-LEVEL ERROR:'),
        record('java.lang.OutOfMemoryError: Java heap space'),
        record('\tat java.util.BitSet.initWords(BitSet.java:164)'),
        record('some other output of the tool'),
      ].join('\n'),
    );
    expect(out.map((x) => [x.severity, x.source, x.message, x.task])).toEqual([
      ['error', 'r8', 'java.lang.OutOfMemoryError: Java heap space', ':app:dexDebug'],
    ]);
  });

  it('reads a failure headline with a stray closing bracket or quote glued before it', () => {
    for (const debris of [']', '"', '`', ')'])
      expect(
        parseGradleOutput(`${debris}Execution failed for task ':app:kaptDebugKotlin'.`).map((x) => x.message),
      ).toEqual(["Execution failed for task ':app:kaptDebugKotlin'"]);
  });

  it("reports the package manager's refusal to install, plain, after Ant's [exec] or behind adb's words", () => {
    for (const line of [
      'Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE]',
      'install:\n     [exec] Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE]',
      'adb: failed to install /p/app-debug.apk: Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package a.b signatures do not match newer version; ignoring!]',
    ])
      expect(parseGradleOutput(line).map((x) => [x.source, x.message.slice(0, 43)])).toEqual([
        ['agp', 'Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE'],
      ]);
  });

  it("reads AGP's duplicate Java resource message pasted alone, old and new wording, and a Could not GET without its URL", () => {
    const out = parseGradleOutput(
      [
        "More than one file was found with OS independent path 'META-INF/DEPENDENCIES'",
        '',
        "2 files found with path 'META-INF/NOTICE.md' from inputs:",
        '',
        'Could not GET Received status code 502 from server: Bad Gateway',
      ].join('\n'),
    );
    expect(out.map((x) => x.message)).toEqual([
      "More than one file was found with OS independent path 'META-INF/DEPENDENCIES'",
      "2 files found with path 'META-INF/NOTICE.md' from inputs:",
      'Could not GET Received status code 502 from server: Bad Gateway',
    ]);
  });
});
