import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CliEnv, freePort, runCli } from '../../support/mcp-client.js';
import { createTempHome } from '../../support/temp-home.js';

const R8 = resolve('test/fixtures/retrace/r8');
const RETRACE = resolve('test/fixtures/retrace');
const cases = readdirSync(R8)
  .filter((f) => f.endsWith('.expected.txt'))
  .map((f) => f.slice(0, -'.expected.txt'.length))
  .sort();

const PROGUARD_CLASSPATH = '/usr/share/java/proguard-retrace.jar:/usr/share/java/proguard.jar';
const proguardRetrace = (() => {
  if (!PROGUARD_CLASSPATH.split(':').every((jar) => existsSync(jar))) return false;
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('droidwright retrace', () => {
  const temp = createTempHome('retrace-cli');
  let env: CliEnv;

  beforeAll(async () => {
    // No SDK in reach: the built-in engine answers, as on a machine without Command-line Tools.
    env = {
      home: join(temp.home, 'data'),
      adbPort: await freePort(),
      extra: { ANDROID_HOME: join(temp.home, 'no-sdk'), ANDROID_SDK_ROOT: join(temp.home, 'no-sdk') },
    };
  });
  afterAll(() => temp.cleanup());

  test('R8 publishes enough retrace cases to mean something', () => {
    expect(cases.length).toBeGreaterThanOrEqual(14);
  });

  test.each(cases)("prints R8's expected output for its %s test case", async (name) => {
    const result = await runCli(env, [
      'retrace',
      '--mapping',
      join(R8, `${name}.mapping.txt`),
      join(R8, `${name}.obfuscated.txt`),
    ]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toBe(readFileSync(join(R8, `${name}.expected.txt`), 'utf8'));
  });

  test('reads the trace from stdin when no file is given (a real R8 mapping with inline frames)', async () => {
    const result = await runCli(env, ['retrace', '--mapping', join(RETRACE, 'sentry_mapping-inlines.txt')], {
      input: readFileSync(join(RETRACE, 'sentry_inlines_obfuscated_stacktrace.txt'), 'utf8'),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(join(RETRACE, 'sentry_inlines_retraced_expected.txt'), 'utf8'));
  });

  test('usage errors name what is missing', async () => {
    const noMapping = await runCli(env, ['retrace', join(R8, `${cases[0]}.obfuscated.txt`)]);
    expect(noMapping.code).toBe(2);
    expect(noMapping.stderr).toMatch(/--mapping FILE is required/);
    const missingTrace = await runCli(env, ['retrace', '--mapping', join(R8, `${cases[0]}.mapping.txt`), '/nope.txt']);
    expect(missingTrace.code).toBe(2);
    expect(missingTrace.stderr).toMatch(/Cannot read \/nope\.txt \(ENOENT\)/);
    const missingMapping = await runCli(env, ['retrace', '--mapping', '/nope/mapping.txt'], { input: 'x\n' });
    expect(missingMapping.code).toBe(1);
    expect(missingMapping.stderr).toMatch(/Cannot read the mapping file \/nope\/mapping\.txt/);
  });

  (proguardRetrace ? test : test.skip)(
    "runs the SDK's retrace when one is installed (a ProGuard ReTrace standing in for cmdline-tools)",
    async () => {
      const sdk = join(temp.home, 'sdk');
      const bin = join(sdk, 'cmdline-tools', 'latest', 'bin');
      mkdirSync(bin, { recursive: true });
      const marker = join(temp.home, 'sdk-retrace-ran');
      writeFileSync(
        join(bin, 'retrace'),
        `#!/bin/sh\necho "$@" > '${marker}'\nexec java -cp '${PROGUARD_CLASSPATH}' proguard.retrace.ReTrace "$@"\n`,
      );
      chmodSync(join(bin, 'retrace'), 0o755);
      const name = 'InlineWithLineNumbersStackTrace';
      const result = await runCli({ ...env, extra: { ANDROID_HOME: sdk } }, [
        'retrace',
        '--mapping',
        join(R8, `${name}.mapping.txt`),
        join(R8, `${name}.obfuscated.txt`),
      ]);
      expect(result.code).toBe(0);
      expect(readFileSync(marker, 'utf8')).toContain(join(R8, `${name}.mapping.txt`));
      expect(result.stdout).toBe(readFileSync(join(R8, `${name}.expected.txt`), 'utf8'));
    },
    60_000,
  );
});
