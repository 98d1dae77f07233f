import { wireBytes } from '../../../src/kernel/bounded-output.js';
import { describeFailedTests, failedTestsDetails } from '../../../src/plugins/build/build-views.js';
import { BuildFinished, type FailedTestRecord } from '../../../src/plugins/build/build.events.js';
import { mergeTestDiagnostics } from '../../../src/plugins/build/services/build-artifacts.js';
import {
  finishedEventData,
  MAX_EVENT_FAILED_TESTS,
  MAX_FINISHED_DATA_BYTES,
} from '../../../src/plugins/build/services/build-finished-event.js';
import { parseGradleOutput } from '../../../src/plugins/build/services/gradle-output-parser.js';
import type { BuildDiagnostic } from '../../../src/plugins/build/services/gradle-output/build-diagnostic.js';

const diag = (source: BuildDiagnostic['source'], message: string): BuildDiagnostic => ({
  severity: 'error',
  source,
  file: null,
  line: null,
  column: null,
  message,
  task: ':app:testDebugUnitTest',
});

function failure(i: number, size = 1): FailedTestRecord {
  return {
    class_name: `com.example.CalculatorTest${i}`,
    method: `adds${i}`,
    kind: 'failure',
    type: 'java.lang.AssertionError',
    message: `expected:<${i}> but was:<${i + 1}>${'!'.repeat(size)}`,
    file: `app/src/test/java/com/example/CalculatorTest${i}.kt`,
    line: 10 + i,
    stack: [
      'java.lang.AssertionError: expected',
      ...Array.from({ length: 12 }, (_, k) => `\tat com.example.Frame${k}.call${'x'.repeat(size)}(Frame.kt:${k})`),
    ].join('\n'),
    task: ':app:testDebugUnitTest',
  };
}

describe('test failures from the JUnit reports', () => {
  it("take the place of the console's test failures, keeping the other diagnostics in order", () => {
    const parsed = [
      diag('kotlin', 'w'),
      diag('test', 'CalculatorTest > adds FAILED'),
      diag('test', 'CalculatorTest > subtracts FAILED'),
      diag('gradle', 'There were failing tests'),
    ];
    const reports = [
      diag('test', 'com.example.CalculatorTest > adds: x'),
      diag('test', 'com.example.CalculatorTest > subtracts: y'),
    ];
    expect(mergeTestDiagnostics(parsed, reports).map((d) => d.message)).toEqual([
      'w',
      'com.example.CalculatorTest > adds: x',
      'com.example.CalculatorTest > subtracts: y',
      'There were failing tests',
    ]);
    // Without console failures the reports go first; without reports nothing changes.
    expect(mergeTestDiagnostics([diag('gradle', 'g')], reports).map((d) => d.message)).toEqual([
      'com.example.CalculatorTest > adds: x',
      'com.example.CalculatorTest > subtracts: y',
      'g',
    ]);
    expect(mergeTestDiagnostics(parsed, [])).toEqual(parsed);
  });

  it('are listed in a result with their location and the first frames, bounded', () => {
    const lines = describeFailedTests(Array.from({ length: 300 }, (_, i) => failure(i, 5000)));
    expect(lines[0]).toMatch(
      /^- com\.example\.CalculatorTest0 > adds0 \(app\/src\/test\/java\/com\/example\/CalculatorTest0\.kt:10\): java\.lang\.AssertionError: expected:<0> but was:<1>!+…$/,
    );
    expect(lines[1]).toMatch(/^ {4}at com\.example\.Frame0\.callx+…$/);
    // Eight tests, the first two with six frames each, every line clipped.
    expect(lines.filter((l) => l.startsWith('- '))).toHaveLength(8);
    expect(lines).toHaveLength(8 + 2 * 6);
    expect(Buffer.byteLength(lines.join('\n'))).toBeLessThan(8 * 1024);
    const details = failedTestsDetails(Array.from({ length: 300 }, (_, i) => failure(i, 5000)));
    expect(details.length).toBeGreaterThan(0);
    expect(wireBytes(details)).toBeLessThan(16 * 1024);
  });

  it('are recorded in build.finished with their stacks, within its size budget', () => {
    const failedTests = Array.from({ length: 200 }, (_, i) => failure(i, 200));
    const data = finishedEventData('b1', {
      status: 'failed',
      durationMs: 1,
      exitCode: 1,
      signal: null,
      reason: null,
      cancelledBy: null,
      diagnostics: failedTests.map((t) => diag('test', `${t.class_name} > ${t.method}: ${t.message}`)),
      apks: [],
      mappings: [],
      tests: { total: 400, passed: 200, failed: 200, skipped: 0, source: 'junit-xml' },
      failedTests,
      log: { path: '/tmp/x.log', sha256: 'a'.repeat(64), bytes: 0, lines: 0, truncated_lines: 0 },
    });
    expect(data.failed_tests).toHaveLength(MAX_EVENT_FAILED_TESTS);
    expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThanOrEqual(MAX_FINISHED_DATA_BYTES);
    expect(BuildFinished.schema.safeParse(data).success).toBe(true);
  });
});

describe("the stand-in Gradle's task selection failures", () => {
  it('become diagnostics', () => {
    const lines = (cause: string) =>
      [
        'FAILURE: Build failed with an exception.',
        '',
        '* What went wrong:',
        cause,
        '',
        '* Try:',
        '> Run gradlew tasks to get a list of available tasks.',
      ].join('\n');
    expect(
      parseGradleOutput(
        lines("Task 'assembleDebg' not found in root project 'FlavorSample'. Some candidates are: 'assembleDebug'."),
      ),
    ).toEqual([
      expect.objectContaining({
        source: 'gradle',
        message: "Task 'assembleDebg' not found in root project 'FlavorSample'. Some candidates are: 'assembleDebug'",
      }),
    ]);
    expect(
      parseGradleOutput(
        lines(
          "Cannot locate tasks that match ':app:assembleDbug' as task 'assembleDbug' not found in project ':app'. Some candidates are: 'assembleDebug'.",
        ),
      ),
    ).toEqual([
      expect.objectContaining({
        source: 'gradle',
        message: expect.stringContaining(
          "task 'assembleDbug' not found in project ':app'. Some candidates are: 'assembleDebug'",
        ),
      }),
    ]);
  });
});
