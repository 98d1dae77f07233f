import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  GradleOutputParser,
  MAX_DIAGNOSTICS,
  countBySeverity,
  parseGradleOutput,
  type BuildDiagnostic,
  type DiagnosticSeverity,
  type DiagnosticSource,
} from '../../../src/plugins/build/services/gradle-output-parser.js';

/* Real Gradle 9.4 / AGP 9.2 output (see test/fixtures/gradle-output/PROVENANCE.md); every diagnostic spelled out. */
const DIR = resolve('test/fixtures/gradle-output');
const P = '/Users/dev/project';

function d(
  severity: DiagnosticSeverity,
  source: DiagnosticSource,
  file: string | null,
  line: number | null,
  column: number | null,
  message: string,
  task: string | null,
): BuildDiagnostic {
  return { severity, source, file, line, column, message, task };
}

const EXPECTED: Record<string, BuildDiagnostic[]> = {
  'aapt2_compile_invalid_value.txt': [
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      `Execution failed for task ':app:mergeDebugResources': Resource compilation failed (Failed to compile values resource file ${P}/app/build/intermediates/incremental/debug/mergeDebugResources/merged.dir/values/values.xml. Cause: java.lang.Exception: Unable to parse hex color '#GG0000'.). Check logs for more details.`,
      ':app:mergeDebugResources',
    ),
    d(
      'error',
      'aapt2',
      `${P}/app/build/intermediates/incremental/debug/mergeDebugResources/merged.dir/values/values.xml`,
      null,
      null,
      "Unable to parse hex color '#GG0000'.",
      ':app:mergeDebugResources',
    ),
  ],
  'aapt2_link_errors.txt': [
    d(
      'error',
      'aapt2',
      'layout/activity_main.xml',
      11,
      null,
      'resource color/does_not_exist (aka com.example.r18:color/does_not_exist) not found.',
      ':app:processDebugResources',
    ),
    d(
      'error',
      'aapt2',
      'layout/activity_main.xml',
      11,
      null,
      'resource string/missing_label (aka com.example.r18:string/missing_label) not found.',
      ':app:processDebugResources',
    ),
    d(
      'error',
      'aapt2',
      'layout/activity_main.xml',
      17,
      null,
      'resource drawable/nope (aka com.example.r18:drawable/nope) not found.',
      ':app:processDebugResources',
    ),
    d(
      'error',
      'aapt2',
      'layout/activity_main.xml',
      17,
      null,
      'attribute android:bogusAttribute not found.',
      ':app:processDebugResources',
    ),
    d('error', 'aapt2', null, null, null, 'failed linking file resources.', ':app:processDebugResources'),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:processDebugResources': Android resource linking failed",
      ':app:processDebugResources',
    ),
  ],
  'configuration_cache_problems.txt': [
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:printStamp': Invocation of 'Task.project' by task ':app:printStamp' at execution time is unsupported with the configuration cache.",
      ':app:printStamp',
    ),
    d(
      'error',
      'config-cache',
      'app/build.gradle.kts',
      null,
      null,
      "registration of listener on 'Gradle.buildFinished' is unsupported",
      null,
    ),
    d(
      'error',
      'config-cache',
      null,
      null,
      null,
      ':app:printStamp: cannot serialize Gradle script object references as these are not supported with the configuration cache.',
      ':app:printStamp',
    ),
    d(
      'error',
      'config-cache',
      null,
      null,
      null,
      ":app:printStamp: invocation of 'Task.project' at execution time is unsupported with the configuration cache.",
      ':app:printStamp',
    ),
  ],
  'configuration_cache_problems_warn.txt': [
    d(
      'warning',
      'config-cache',
      'app/build.gradle.kts',
      null,
      null,
      "registration of listener on 'Gradle.buildFinished' is unsupported",
      null,
    ),
  ],
  'gradle_script_compile_error.txt': [
    d('error', 'script', `${P}/app/build.gradle.kts`, 23, 23, "Unresolved reference 'io'.", null),
  ],
  'javac_errors.txt': [
    d(
      'error',
      'javac',
      `${P}/app/src/main/java/com/example/r18/JavaHelper.java`,
      8,
      null,
      'incompatible types: int cannot be converted to String',
      ':app:compileDebugJavaWithJavac',
    ),
    d(
      'error',
      'javac',
      `${P}/app/src/main/java/com/example/r18/JavaHelper.java`,
      9,
      null,
      'cannot find symbol (symbol: method missingCall(int); location: class JavaHelper)',
      ':app:compileDebugJavaWithJavac',
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:compileDebugJavaWithJavac': Compilation failed; see the compiler output below.",
      ':app:compileDebugJavaWithJavac',
    ),
  ],
  'kotlin_k2_errors.txt': [
    d(
      'error',
      'kotlin',
      `${P}/app/src/main/java/com/example/r18/Greeter.kt`,
      4,
      54,
      "Unresolved reference 'missingExtension'.",
      ':app:compileDebugKotlin',
    ),
    d(
      'error',
      'kotlin',
      `${P}/app/src/main/java/com/example/r18/MainActivity.kt`,
      10,
      26,
      "Initializer type mismatch: expected 'Int', actual 'String'.",
      ':app:compileDebugKotlin',
    ),
    d(
      'error',
      'kotlin',
      `${P}/app/src/main/java/com/example/r18/MainActivity.kt`,
      11,
      9,
      "Unresolved reference 'undefinedFunction'.",
      ':app:compileDebugKotlin',
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:compileDebugKotlin': Compilation error. See log for more details",
      ':app:compileDebugKotlin',
    ),
  ],
  'kotlin_k2_warnings.txt': [
    d(
      'warning',
      'kotlin',
      `${P}/app/src/main/java/com/example/r18/MainActivity.kt`,
      10,
      32,
      "'fun oldGreet(): String' is deprecated. Use greet(name) instead.",
      ':app:compileDebugKotlin',
    ),
    d(
      'warning',
      'kotlin',
      `${P}/app/src/main/java/com/example/r18/MainActivity.kt`,
      11,
      27,
      'No cast needed.',
      ':app:compileDebugKotlin',
    ),
  ],
  'ksp_room_errors.txt': [
    d(
      'error',
      'ksp',
      `${P}/app/src/main/java/com/example/r18/data/Db.kt`,
      10,
      null,
      'An entity must have at least 1 property annotated with @PrimaryKey',
      ':app:kspDebugKotlin',
    ),
    d(
      'error',
      'ksp',
      `${P}/app/src/main/java/com/example/r18/data/Db.kt`,
      18,
      null,
      'There is a problem with the query: [SQLITE_ERROR] SQL error or missing database (no such table: missing_table)',
      ':app:kspDebugKotlin',
    ),
    d(
      'error',
      'ksp',
      `${P}/app/src/main/java/com/example/r18/data/Db.kt`,
      18,
      null,
      "Not sure how to convert the query result to this function's return type (kotlin.collections.List<com.example.r18.`data`.Note>).",
      ':app:kspDebugKotlin',
    ),
    d(
      'warning',
      'ksp',
      `${P}/app/src/main/java/com/example/r18/data/Db.kt`,
      22,
      null,
      "Schema export directory was not provided to the annotation processor so Room cannot export the schema. You can either provide `room.schemaLocation` annotation processor argument by applying the Room Gradle plugin (id 'androidx.room') OR set exportSchema to false.",
      ':app:kspDebugKotlin',
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:kspDebugKotlin': KSP failed with exit code: PROCESSING_ERROR",
      ':app:kspDebugKotlin',
    ),
  ],
  'lint_abort_on_error.txt': [
    d(
      'error',
      'lint',
      `${P}/app/src/main/java/com/example/r18/MainActivity.kt`,
      11,
      null,
      'Call requires API level 33 (current min is 29): android.app.Activity#getOnBackInvokedDispatcher [NewApi]',
      ':app:lintReportDebug',
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:lintDebug': Lint found errors in the project; aborting build.",
      ':app:lintDebug',
    ),
  ],
  'lint_text_report.txt': [
    d(
      'error',
      'lint',
      `${P}/app/src/main/java/com/example/r18/MainActivity.kt`,
      11,
      null,
      'Call requires API level 33 (current min is 29): android.app.Activity#getOnBackInvokedDispatcher [NewApi]',
      null,
    ),
    d(
      'error',
      'lint',
      `${P}/app/src/main/java/com/example/r18/MainActivity.kt`,
      11,
      null,
      'Call requires API level 33 (current min is 29): android.window.OnBackInvokedDispatcher#registerOnBackInvokedCallback [NewApi]',
      null,
    ),
    d(
      'warning',
      'lint',
      `${P}/app/build.gradle.kts`,
      13,
      null,
      'Not targeting the latest versions of Android; compatibility modes apply. Consider testing and updating this version. Consult the android.os.Build.VERSION_CODES javadoc for details. [OldTargetApi]',
      null,
    ),
    d(
      'warning',
      'lint',
      `${P}/app/build.gradle.kts`,
      8,
      null,
      'A newer version of compileSdk than 36 is available: 37 [GradleDependency]',
      null,
    ),
    d(
      'warning',
      'lint',
      `${P}/app/build.gradle.kts`,
      29,
      null,
      'A newer version of androidx.room:room-runtime than 2.8.4 is available: 2.8.5 [GradleDependency]',
      null,
    ),
    d(
      'warning',
      'lint',
      `${P}/app/build.gradle.kts`,
      30,
      null,
      'A newer version of androidx.room:room-compiler than 2.8.4 is available: 2.8.5 [GradleDependency]',
      null,
    ),
    d(
      'warning',
      'lint',
      `${P}/app/src/main/AndroidManifest.xml`,
      3,
      null,
      'Should explicitly set android:icon, there is no default [MissingApplicationIcon]',
      null,
    ),
    d(
      'warning',
      'lint',
      `${P}/app/src/main/res/layout/activity_main.xml`,
      9,
      null,
      'Hardcoded string "Hello lint", should use @string resource [HardcodedText]',
      null,
    ),
  ],
  'r8_keep_rule_syntax.txt': [
    d(
      'error',
      'r8',
      `${P}/app/proguard-rules.pro`,
      3,
      19,
      'Expected [!]interface|@interface|class|enum',
      ':app:minifyReleaseWithR8',
    ),
    d(
      'error',
      'gradle',
      `${P}/app/proguard-rules.pro`,
      3,
      19,
      `Execution failed for task ':app:minifyReleaseWithR8': Compilation failed to complete, position: offset: 96, line: 3, column: 19, origin: ${P}/app/proguard-rules.pro`,
      ':app:minifyReleaseWithR8',
    ),
  ],
  'r8_missing_classes.txt': [
    d(
      'error',
      'r8',
      null,
      null,
      null,
      `Missing classes detected while running R8. Please add the missing classes or apply additional keep rules that are generated in ${P}/app/build/outputs/mapping/release/missing_rules.txt.`,
      ':app:minifyReleaseWithR8',
    ),
    d(
      'error',
      'r8',
      null,
      null,
      null,
      'Missing class com.example.stub.Analytics (referenced from: void com.example.lib.LibTracker.send(java.lang.String))',
      ':app:minifyReleaseWithR8',
    ),
    d(
      'error',
      'r8',
      null,
      null,
      null,
      'Missing class com.example.stub.BaseTracker (referenced from: void com.example.lib.LibTracker.<init>() and 1 other context)',
      ':app:minifyReleaseWithR8',
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:minifyReleaseWithR8': Compilation failed to complete",
      ':app:minifyReleaseWithR8',
    ),
  ],
  'resource_merger_malformed_xml.txt': [
    d(
      'error',
      'agp',
      `${P}/app/src/main/res/values/colors.xml`,
      6,
      3,
      'The element type "string" must be terminated by the matching end-tag "</string>".',
      ':app:packageDebugResources',
    ),
  ],
  'successful_build.txt': [],
};

describe('GradleOutputParser on the real captures', () => {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort();

  it('has an expectation for every capture in the corpus', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    expect(files).toHaveLength(15);
  });

  it.each(files)('%s', (file) => {
    expect(parseGradleOutput(readFileSync(join(DIR, file), 'utf8'))).toEqual(EXPECTED[file]);
  });

  it('gives the same result with CRLF line endings', () => {
    const text = readFileSync(join(DIR, 'javac_errors.txt'), 'utf8');
    expect(parseGradleOutput(text.replace(/\n/g, '\r\n'))).toEqual(EXPECTED['javac_errors.txt']);
  });
});

describe('GradleOutputParser rules', () => {
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

  it('decodes percent-encoded file URLs', () => {
    expect(parseGradleOutput('e: file:///home/me/My%20App/A.kt:3:1 Boom')[0]).toMatchObject({
      file: '/home/me/My App/A.kt',
      line: 3,
      column: 1,
    });
  });

  it('ignores JVM warnings, indented javac echoes and stack frames', () => {
    const out = parseGradleOutput(
      [
        'WARNING: A terminally deprecated method in sun.misc.Unsafe has been called',
        "WARNING: The option setting 'android.foo=true' is experimental.",
        '  /p/A.java:3: error: echoed inside a block',
        '\tat com.example.Foo.bar(Foo.java:1)',
      ].join('\n'),
    );
    expect(out).toEqual([
      d('warning', 'agp', null, null, null, "The option setting 'android.foo=true' is experimental.", null),
    ]);
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

  it('bounds the number of diagnostics and message sizes', () => {
    const parser = new GradleOutputParser();
    for (let i = 0; i < MAX_DIAGNOSTICS + 50; i++) parser.push(`w: file:///p/A.kt:${i + 1}:1 ${'x'.repeat(3000)}`);
    const out = parser.finish();
    expect(out).toHaveLength(MAX_DIAGNOSTICS);
    expect(parser.dropped).toBe(50);
    expect(out[0]!.message.length).toBeLessThanOrEqual(2001);
  });

  it('counts by severity', () => {
    expect(countBySeverity(EXPECTED['ksp_room_errors.txt']!)).toEqual({ error: 4, warning: 1, info: 0 });
  });
});
