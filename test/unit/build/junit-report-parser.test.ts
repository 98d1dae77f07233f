import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  MAX_STACK_LINES,
  junitFailureToDiagnostic,
  moduleSourceRoots,
  parseJUnitXml,
  readJUnitResults,
} from '../../../src/plugins/build/services/junit-report-parser.js';

/* Real reports Gradle wrote (test/fixtures/gradle-output/README.md says where each comes from). */
const DIR = resolve('test/fixtures/junit-xml');
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');

describe('parseJUnitXml on real reports', () => {
  it('reads a failure and an error, skipping passed and skipped tests', () => {
    const [suite] = parseJUnitXml(read('TEST-com.github.onozaty.junit.xml2csv.TestCase1.xml'));
    expect(suite).toMatchObject({
      suite: 'com.github.onozaty.junit.xml2csv.TestCase1',
      tests: 5,
      failures: 1,
      errors: 1,
      skipped: 1,
    });
    expect(suite!.failed.map(({ stack: _stack, ...f }) => f)).toEqual([
      {
        className: 'com.github.onozaty.junit.xml2csv.TestCase1',
        method: 'test2',
        kind: 'failure',
        type: 'java.lang.AssertionError',
        message: 'xxxxx',
        file: 'com/github/onozaty/junit/xml2csv/TestCase1.java',
        line: 16,
      },
      {
        className: 'com.github.onozaty.junit.xml2csv.TestCase1',
        method: 'test3',
        kind: 'error',
        type: 'java.lang.RuntimeException',
        message: '',
        file: 'com/github/onozaty/junit/xml2csv/TestCase1.java',
        line: 21,
      },
    ]);
    expect(suite!.failed[0]!.stack.split('\n')[0]).toBe('java.lang.AssertionError: xxxx');
  });

  it('turns each failed test into a test diagnostic', () => {
    const [suite] = parseJUnitXml(read('TEST-com.github.onozaty.junit.xml2csv.TestCase2.xml'));
    expect(suite!.failed.map((f) => junitFailureToDiagnostic(f, ':app:testDebugUnitTest'))).toEqual([
      {
        severity: 'error',
        source: 'test',
        file: 'com/github/onozaty/junit/xml2csv/TestCase2.java',
        line: 15,
        column: null,
        message: 'com.github.onozaty.junit.xml2csv.TestCase2 > test2: java.lang.AssertionError: zzzz',
        task: ':app:testDebugUnitTest',
      },
    ]);
  });

  it('reports nothing for a passing suite', () => {
    expect(parseJUnitXml(read('TEST-com.example.myapplication.ExampleUnitTest.xml'))).toEqual([
      {
        suite: 'com.example.myapplication.ExampleUnitTest',
        tests: 4,
        failures: 0,
        errors: 0,
        skipped: 0,
        failed: [],
      },
    ]);
  });
});

describe('parseJUnitXml shapes', () => {
  const kotlinFailure = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuite name="com.example.app.PriceTest" tests="1" skipped="0" failures="1" errors="0" timestamp="2024-01-01T00:00:00" hostname="h" time="0.1">',
    '  <properties/>',
    '  <testcase name="rounds half up" classname="com.example.app.PriceTest" time="0.01">',
    '    <failure message="java.lang.AssertionError: expected:&lt;1&gt; but was:&lt;2&gt;" type="java.lang.AssertionError">java.lang.AssertionError: expected:&lt;1&gt; but was:&lt;2&gt;',
    '\tat org.junit.Assert.fail(Assert.java:89)',
    '\tat org.junit.Assert.failNotEquals(Assert.java:835)',
    '\tat app//com.example.app.Price.round(Price.kt:12)',
    '\tat com.example.app.PriceTest.rounds half up(PriceTest.kt:26)',
    ...Array.from({ length: 60 }, (_, i) => `\tat org.junit.runners.ParentRunner$${i}.run(ParentRunner.java:${i + 1})`),
    '</failure>',
    '  </testcase>',
    `  <system-out><![CDATA[${'log line\n'.repeat(50_000)}]]></system-out>`,
    '  <system-err><![CDATA[]]></system-err>',
    '</testsuite>',
  ].join('\n');

  it('decodes the message, bounds the stack, and names the first frame past the frameworks without sources', () => {
    const [suite] = parseJUnitXml(kotlinFailure);
    const failure = suite!.failed[0]!;
    expect(failure).toMatchObject({
      method: 'rounds half up',
      type: 'java.lang.AssertionError',
      message: 'expected:<1> but was:<2>',
      file: 'com/example/app/Price.kt',
      line: 12,
    });
    expect(failure.stack.split('\n')).toHaveLength(MAX_STACK_LINES);
  });

  it("maps the first frame in the module's sources to its project-relative file", () => {
    const root = mkdtempSync(join(tmpdir(), 'junit-src-'));
    try {
      const main = join(root, 'app', 'src', 'main', 'kotlin', 'com', 'example', 'app');
      const test = join(root, 'app', 'src', 'test', 'java', 'com', 'example', 'app');
      mkdirSync(main, { recursive: true });
      mkdirSync(test, { recursive: true });
      writeFileSync(join(main, 'Price.kt'), '');
      writeFileSync(join(test, 'PriceTest.kt'), '');
      const roots = moduleSourceRoots(join(root, 'app'));
      expect(
        roots.map((r) =>
          r
            .slice(root.length + 1)
            .split(/[\\/]/)
            .join('/'),
        ),
      ).toEqual(['app/src/test/java', 'app/src/main/kotlin']);
      const [suite] = parseJUnitXml(kotlinFailure, { sourceRoots: roots, projectRoot: root });
      expect(suite!.failed[0]).toMatchObject({ file: 'app/src/main/kotlin/com/example/app/Price.kt', line: 12 });

      const results = join(root, 'app', 'build', 'test-results', 'testDebugUnitTest');
      mkdirSync(results, { recursive: true });
      writeFileSync(join(results, 'TEST-com.example.app.PriceTest.xml'), kotlinFailure);
      writeFileSync(join(results, 'output.bin'), 'not a report');
      const read = readJUnitResults(results, {
        moduleDir: join(root, 'app'),
        projectRoot: root,
        task: ':app:testDebugUnitTest',
      });
      expect(read.diagnostics).toEqual([
        {
          severity: 'error',
          source: 'test',
          file: 'app/src/main/kotlin/com/example/app/Price.kt',
          line: 12,
          column: null,
          message: 'com.example.app.PriceTest > rounds half up: java.lang.AssertionError: expected:<1> but was:<2>',
          task: ':app:testDebugUnitTest',
        },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads connected-test reports, whose failure has no message attribute, inside <testsuites>', () => {
    const report = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites><testsuite name="com.example.ExampleInstrumentedTest" tests="1" failures="1" errors="0" skipped="0" time="0.2">',
      '<properties><property name="device" value="Pixel_6(AVD) - 14" /></properties>',
      '<testcase name="useAppContext" classname="com.example.ExampleInstrumentedTest" time="0.05">',
      '<failure>org.junit.ComparisonFailure: expected:&lt;com.example[]&gt; but was:&lt;com.example[.debug]&gt;',
      '\tat org.junit.Assert.assertEquals(Assert.java:117)',
      '\tat com.example.ExampleInstrumentedTest.useAppContext(ExampleInstrumentedTest.kt:22)',
      '</failure></testcase></testsuite></testsuites>',
    ].join('\n');
    const [suite] = parseJUnitXml(report);
    expect(suite!.failed[0]).toMatchObject({
      type: 'org.junit.ComparisonFailure',
      message: 'expected:<com.example[]> but was:<com.example[.debug]>',
      file: 'com/example/ExampleInstrumentedTest.kt',
      line: 22,
    });
  });

  it('returns nothing for a file that is not XML', () => {
    expect(parseJUnitXml('<testsuite name="x"><testcase')).toEqual(expect.any(Array));
    expect(parseJUnitXml('')).toEqual([]);
  });
});
