import { openTestLineStore } from '../../integration/logcat/line-store-support.js';
import { freePort, runCli } from '../../support/mcp-client.js';
import { createTempHome } from '../../support/temp-home.js';

/* `droidwright logcat`: the stored device log for people, through the built CLI. */

let home: { home: string; cleanup(): void };
let adbPort: number;

beforeAll(async () => {
  home = createTempHome('logcat-cli');
  adbPort = await freePort();
  const store = openTestLineStore(home.home);
  store.append(
    'emulator-5554',
    [
      {
        time: '',
        timeMs: Date.UTC(2026, 0, 31, 12),
        pid: 100,
        tid: 100,
        level: 'I',
        tag: 'ActivityManager',
        message: 'Start proc',
      },
      {
        time: '',
        timeMs: Date.UTC(2026, 0, 31, 12, 0, 1),
        pid: 200,
        tid: 201,
        level: 'E',
        tag: 'AndroidRuntime',
        message: 'FATAL EXCEPTION: main\n\tat com.example.A.b(A.java:1)\u001b[31m',
      },
    ],
    (pid) => (pid === 200 ? 'com.example.app' : null),
  );
  store.close();
});

afterAll(() => home?.cleanup());

describe('droidwright logcat', () => {
  it('prints the stored lines plainly when piped, with a tag column, and never passes escape sequences on', async () => {
    const result = await runCli({ home: home.home, adbPort }, ['logcat']);
    expect(result.code).toBe(0);
    const out = result.stdout.split('\n');
    expect(out[0]).toBe('01-31 12:00:00.000   100         ActivityManager I Start proc');
    expect(out[1]).toBe('01-31 12:00:01.000   200          AndroidRuntime E FATAL EXCEPTION: main');
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('\\x1b[31m');
  });

  it('filters by package and level, prints JSON lines, and refuses bad options with usage', async () => {
    const json = await runCli({ home: home.home, adbPort }, ['logcat', '--package', 'com.example.app', '--json']);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ seq: 2, tag: 'AndroidRuntime', package: 'com.example.app' })]);
    const errors = await runCli({ home: home.home, adbPort }, [
      'logcat',
      '--min-level',
      'e',
      '--device',
      'emulator-5554',
    ]);
    expect(errors.stdout.trim().split('\n')).toHaveLength(2);
    expect(errors.stdout).toContain('AndroidRuntime E');
    const bad = await runCli({ home: home.home, adbPort }, ['logcat', '--min-level', 'X']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--min-level/);
  });
});
