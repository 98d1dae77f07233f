import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempHome } from '../../support/temp-home.js';
import { runCli, startMcpClient, stopPid, type McpTestClient } from '../../support/mcp-client.js';
import {
  copyFixtureProject,
  invocations,
  replayCapture,
  setScenario,
} from '../../integration/build/fixture-project.js';
import { isAlive, waitFor } from '../../support/wait.js';

/*
 * The build toolset through the built CLI and the SDK's real client: trust, policy, results,
 * progress, cancellation (request and cross-process), the cross-process lock, timeouts, and the
 * detached build worker: a client that disconnects (the SDK's close(): stdin, SIGTERM, SIGKILL) or a
 * server that is killed leaves the build running to its recorded end; a worker that is killed is
 * reaped as failed and its Gradle stopped.
 */

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

const env = { home: '', adbPort: 1 };
let project: { root: string; cleanup(): void };
let cleanHome: () => void;
const clients: McpTestClient[] = [];
/** Build workers (owner_pid of every build seen) and stand-in Gradle processes: all must be gone at the end. */
const workerPids = new Set<number>();

async function client(name: string): Promise<McpTestClient> {
  const c = await startMcpClient(env, ['--project', project.root], { clientName: name });
  clients.push(c);
  return c;
}

async function call(
  c: McpTestClient,
  name: string,
  args: Record<string, unknown>,
  options: Parameters<McpTestClient['client']['callTool']>[2] = {},
): Promise<ToolResult> {
  return track((await c.client.callTool({ name, arguments: args }, undefined, options)) as ToolResult);
}

/** A call refused before anything ran: an isError result whose code is in _meta (never a JSON-RPC error). */
async function refusal(p: Promise<ToolResult>): Promise<{ code: unknown; message: string }> {
  const result = await p;
  if (!result.isError) throw new Error(`expected a refusal, got: ${text(result)}`);
  return { code: result._meta?.error_code, message: text(result) };
}

function text(result: ToolResult): string {
  return result.content.map((c) => c.text ?? '').join('\n');
}

beforeAll(() => {
  const home = createTempHome('build-e2e');
  env.home = home.home;
  cleanHome = home.cleanup;
  project = copyFixtureProject('kts-flavors');
});

function gradlePids(): number[] {
  return invocations(project.root).map((i) => i.pid);
}

function track(result: ToolResult): ToolResult {
  const pid = result.structuredContent?.owner_pid;
  if (typeof pid === 'number') workerPids.add(pid);
  return result;
}

afterAll(async () => {
  for (const c of clients) await c.close();
  // Safety net: every worker and Gradle a test started, stopped by pid (the tests assert they are already gone).
  for (const pid of [...workerPids, ...gradlePids()]) await stopPid(pid, 500);
  project.cleanup();
  cleanHome();
});

describe('build tools over MCP', () => {
  let a: McpTestClient;

  beforeAll(async () => {
    a = await client('agent-a');
  });

  it('refuses an untrusted project as an isError result before anything is spawned', async () => {
    const error = await refusal(call(a, 'run_gradle_task', { task: 'assembleDebug' }));
    expect(error.code).toBe('PROJECT_NOT_TRUSTED');
    expect(error.message).toContain('droidwright trust');
    expect(invocations(project.root)).toEqual([]);
    const trusted = await runCli(env, ['trust', '--yes', project.root]);
    expect(trusted.code).toBe(0);
  });

  it('refuses blocked tasks, abbreviations and unknown argument keys as isError results', async () => {
    for (const task of ['pRB', 'uA', 'releaseToMav']) {
      const error = await refusal(call(a, 'run_gradle_task', { task }));
      expect(error.code).toBe('TASK_BLOCKED');
    }
    const unknown = await refusal(call(a, 'run_tests', { device: 'emulator-5554' }));
    expect(unknown.code).toBe('INVALID_ARGUMENT');
    expect(unknown.message).toContain('unknown argument "device"');
    // A device for JVM unit tests would be ignored: refused, by name.
    const unit = await refusal(call(a, 'run_tests', { device_serial: 'emulator-5554' }));
    expect(unit.code).toBe('INVALID_ARGUMENT');
    expect(unit.message).toContain('device_serial chooses the device of connected tests');
    expect(invocations(project.root)).toEqual([]);
  });

  it('builds successfully with progress notifications and reports the APK', async () => {
    setScenario(project.root, 'slow 700');
    const progress: { progress: number; message?: string }[] = [];
    const result = await call(
      a,
      'run_gradle_task',
      { task: ':app:assembleDemoPlayDebug' },
      { onprogress: (p) => void progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'success', origin: expect.stringContaining('agent-a') });
    expect(result.structuredContent!.apks[0]).toMatchObject({
      package: 'com.example.flavors.demo.debug',
      variant: 'demoPlayDebug',
    });
    expect(progress.length).toBeGreaterThanOrEqual(1);
    // Every tick says how long the build has run; one arriving before Gradle printed a task has nothing more to say.
    for (const tick of progress) expect(tick.message).toMatch(/^\d+ s elapsed/);
    expect(progress.some((tick) => /elapsed, > Task :app:/.test(tick.message ?? ''))).toBe(true);
    const apk = await call(a, 'find_apk_path', { variant: 'demoPlayDebug' });
    expect(apk.structuredContent).toMatchObject({ found: true, path: result.structuredContent!.apks[0].path });
  });

  it('reports a failing build as a tool error and its javac diagnostics with locations', async () => {
    replayCapture(project.root, 'javac_errors.txt');
    const result = await call(a, 'run_gradle_task', { task: 'assembleDebug' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('JavaHelper.java:8:24: incompatible types: int cannot be converted to String');
    const errors = await call(a, 'get_build_errors', { severity: 'error' });
    expect(errors.structuredContent!.diagnostics.slice(0, 2)).toEqual([
      expect.objectContaining({
        source: 'javac',
        file: '/Users/dev/project/app/src/main/java/com/example/r18/JavaHelper.java',
        line: 8,
        column: 24,
      }),
      expect.objectContaining({
        source: 'javac',
        line: 9,
        message: 'cannot find symbol (symbol: method missingCall(int); location: class JavaHelper)',
      }),
    ]);
  });

  it('fails an unknown task as Gradle does, the suggestion becomes a diagnostic, and abbreviations and module paths run', async () => {
    setScenario(project.root, 'success');
    const unknown = await call(a, 'run_gradle_task', { task: 'assembleDebg' });
    expect(unknown.isError).toBe(true);
    expect(unknown._meta?.error_code).toBe('BUILD_FAILED');
    const cause = "Task 'assembleDebg' not found in root project 'FlavorSample'. Some candidates are: 'assembleDebug'";
    const message = text(unknown);
    // Said once (the summary no longer repeats the first error), and what to call next on its own line.
    expect(message.split(cause)).toHaveLength(2);
    expect(message).toMatch(/ with 1 error\(s\):\n- /);
    expect(message).toMatch(/\nCall get_build_errors \(build_id "\w+"\)/);
    const errors = await call(a, 'get_build_errors', {});
    expect(errors.structuredContent!.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', source: 'gradle', message: cause }),
    ]);
    for (const [task, variants] of [
      ['aD', ['demoPlayDebug', 'fullPlayDebug']],
      ['app:assembleDebug', ['demoPlayDebug', 'fullPlayDebug']],
      [':app:aDPD', ['demoPlayDebug']],
    ] as const) {
      const built = await call(a, 'run_gradle_task', { task });
      expect(built.structuredContent).toMatchObject({ status: 'success' });
      expect(built.structuredContent!.apks.map((apk: { variant: string }) => apk.variant).sort()).toEqual(variants);
    }
  });

  it('names a failing unit test with its message, file:line and stack in a TESTS_FAILED result', async () => {
    setScenario(project.root, 'success');
    const sources = join(project.root, 'app', 'src', 'test', 'kotlin', 'com', 'example', 'flavors');
    mkdirSync(sources, { recursive: true });
    writeFileSync(
      join(sources, 'PriceCalculatorTest.kt'),
      `package com.example.flavors\n\nimport org.junit.Assert.assertEquals\nimport org.junit.Test\n\nclass PriceCalculatorTest {\n    @Test\n    fun appliesTenPercentDiscount() {\n        assertEquals(90, PriceCalculator().discounted(100))\n    }\n}\n`,
    );
    const modelFile = join(project.root, 'stand-in.json');
    const original = readFileSync(modelFile, 'utf8');
    const model = JSON.parse(original);
    model.modules[':app'].tests = {
      total: 4,
      failed: 1,
      failures: [
        {
          class: 'com.example.flavors.PriceCalculatorTest',
          method: 'appliesTenPercentDiscount',
          message: 'expected:<90> but was:<100>',
          file: 'PriceCalculatorTest.kt',
          line: 9,
        },
      ],
    };
    writeFileSync(modelFile, JSON.stringify(model));
    let result: ToolResult;
    try {
      result = await call(a, 'run_tests', { variant: 'demoPlayDebug' });
    } finally {
      writeFileSync(modelFile, original);
    }
    expect(result.isError).toBe(true);
    expect(result._meta?.error_code).toBe('TESTS_FAILED');
    const file = 'app/src/test/kotlin/com/example/flavors/PriceCalculatorTest.kt';
    const message = text(result);
    expect(message).toMatch(
      /^Test run \w+ \(:app:testDemoPlayDebugUnitTest\) failed after [\d.]+ s: 1 of 4 test\(s\) failed\./,
    );
    expect(message).toContain(
      `- com.example.flavors.PriceCalculatorTest > appliesTenPercentDiscount (${file}:9): java.lang.AssertionError: expected:<90> but was:<100>`,
    );
    expect(message).toContain(
      '    at com.example.flavors.PriceCalculatorTest.appliesTenPercentDiscount(PriceCalculatorTest.kt:9)',
    );
    expect(message).toMatch(/\nCall get_build_errors \(build_id "\w+"\) for every failed test/);
    expect(result._meta?.details).toMatchObject({
      status: 'failed',
      tests: { total: 4, passed: 3, failed: 1, skipped: 0, source: 'junit-xml' },
      failed_tests: [
        {
          class_name: 'com.example.flavors.PriceCalculatorTest',
          method: 'appliesTenPercentDiscount',
          message: 'java.lang.AssertionError: expected:<90> but was:<100>',
          file,
          line: 9,
          task: ':app:testDemoPlayDebugUnitTest',
        },
      ],
    });
    // The report's diagnostic replaces the console's `PriceCalculatorTest > appliesTenPercentDiscount FAILED`.
    const errors = await call(a, 'get_build_errors', { severity: 'error' });
    const tests = errors.structuredContent!.diagnostics.filter((d: { source: string }) => d.source === 'test');
    expect(tests).toEqual([
      {
        severity: 'error',
        source: 'test',
        file,
        line: 9,
        message:
          'com.example.flavors.PriceCalculatorTest > appliesTenPercentDiscount: java.lang.AssertionError: expected:<90> but was:<100>',
        task: ':app:testDemoPlayDebugUnitTest',
      },
    ]);
    const passing = await call(a, 'run_tests', { variant: 'demoPlayDebug' });
    expect(passing.isError).toBeFalsy();
    expect(passing.structuredContent).toMatchObject({ status: 'success', tests: { total: 4, failed: 0 } });
  });

  it('runs connected tests on the device device_serial names (ANDROID_SERIAL for Gradle)', async () => {
    setScenario(project.root, 'success');
    const result = await call(a, 'run_tests', {
      kind: 'connected',
      variant: 'demoPlayDebug',
      device_serial: 'emulator-5556',
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      status: 'success',
      tasks: [':app:connectedDemoPlayDebugAndroidTest'],
      tests: { total: 2, passed: 2, failed: 0, source: 'junit-xml' },
    });
    expect(invocations(project.root).at(-1)).toMatchObject({ android_serial: 'emulator-5556' });
  });

  it('cancels the build a cancelled request started', async () => {
    setScenario(project.root, 'slow 2000');
    const before = invocations(project.root).length;
    const controller = new AbortController();
    const pending = call(a, 'run_gradle_task', { task: 'assembleDebug' }, { signal: controller.signal }).catch(
      (e: Error) => e,
    );
    await waitFor(async () => invocations(project.root).length > before);
    controller.abort('stop');
    await pending;
    const status = await waitFor(async () => {
      const s = await call(a, 'get_build_status', { wait_ms: 2000 });
      return s.structuredContent!.status !== 'running' && s;
    });
    expect(status.structuredContent).toMatchObject({
      status: 'cancelled',
      cancelled_by: expect.stringContaining('agent-a'),
    });
  });

  it("lets one process build at a time and cancels another process's build with cancel_build", async () => {
    setScenario(project.root, 'slow 2000');
    const started = await call(a, 'run_gradle_task', { task: 'assembleDebug', wait: false });
    expect(started.structuredContent!.status).toBe('running');
    const worker = started.structuredContent!.owner_pid as number;
    expect(worker).not.toBe(a.pid);
    const b = await client('agent-b');
    const busy = await call(b, 'run_gradle_task', { task: 'assembleDebug' });
    expect(busy.isError).toBe(true);
    expect(text(busy)).toContain(`pid ${worker}`);
    expect(text(busy)).toContain(`agent-a`);
    const cancelled = await call(b, 'cancel_build', {});
    expect(cancelled.structuredContent).toMatchObject({
      build_id: started.structuredContent!.build_id,
      was_running: true,
      status: 'cancelled',
      cancelled_by: expect.stringContaining('agent-b'),
    });
    const history = await call(a, 'list_build_history', { limit: 1 });
    expect(history.structuredContent!.builds[0]).toMatchObject({
      status: 'cancelled',
      origin: expect.stringContaining('agent-a'),
      cancelled_by: expect.stringContaining('agent-b'),
    });
    await waitFor(async () => !isAlive(worker));
  });

  it('stops a build at its time limit, Gradle included', async () => {
    setScenario(project.root, 'slow 3000');
    const result = await call(a, 'run_gradle_task', { task: 'assembleDebug', timeout_sec: 1 });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('timed out');
    const status = await call(a, 'get_build_status', {});
    expect(status.structuredContent).toMatchObject({
      status: 'timed_out',
      reason: expect.stringContaining('Stopped after 1 s'),
    });
    await waitFor(
      async () => gradlePids().every((pid) => !isAlive(pid)) && !isAlive(status.structuredContent!.owner_pid),
    );
  });

  it('finishes and records a build whose client disconnects with the SDK close() (stdin, then SIGTERM, then SIGKILL)', async () => {
    setScenario(project.root, 'slow 300');
    const c = await client('agent-c');
    const server = (c.client.transport as unknown as { _process?: ChildProcess })._process!;
    expect(server).toBeDefined();
    const before = invocations(project.root).length;
    const inFlight = call(c, 'run_gradle_task', { task: 'assembleDebug' }).catch((e: Error) => e);
    await waitFor(async () => invocations(project.root).length > before);
    const b = clients.find((x) => x.client !== c.client && x.client !== a.client)!;
    const running = await call(b, 'get_build_status', {});
    expect(running.structuredContent).toMatchObject({ status: 'running', origin: expect.stringContaining('agent-c') });
    const buildId = running.structuredContent!.build_id as string;
    const worker = running.structuredContent!.owner_pid as number;
    const gradle = invocations(project.root).at(-1)!.pid;

    await c.client.close();
    await inFlight;
    // droidwright mcp left on its own when stdin closed: no SIGTERM or SIGKILL was needed.
    expect(server.exitCode).toBe(0);
    expect(server.signalCode).toBeNull();
    expect(isAlive(c.pid)).toBe(false);
    expect(isAlive(worker)).toBe(true);

    const done = await waitFor(async () => {
      const s = await call(b, 'get_build_status', { build_id: buildId, wait_ms: 5000 });
      return s.structuredContent!.status !== 'running' && s;
    }, 20_000);
    expect(done.structuredContent).toMatchObject({
      status: 'success',
      origin: expect.stringContaining('agent-c'),
      owner_pid: worker,
    });
    await waitFor(async () => !isAlive(worker) && !isAlive(gradle), 20_000);
  });

  it('finishes and records a build whose server is killed outright', async () => {
    setScenario(project.root, 'slow 200');
    const d = await client('agent-d');
    const started = await call(d, 'run_gradle_task', { task: ':app:assembleDemoPlayDebug', wait: false });
    const buildId = started.structuredContent!.build_id as string;
    process.kill(d.pid, 'SIGKILL');
    await waitFor(async () => !isAlive(d.pid));
    const b = clients.find((x) => x.client !== d.client && x.client !== a.client)!;
    const done = await call(b, 'get_build_status', { build_id: buildId, wait_ms: 10_000 });
    expect(done.structuredContent).toMatchObject({ status: 'success', origin: expect.stringContaining('agent-d') });
    expect(done.structuredContent!.apks).toHaveLength(1);
    await waitFor(async () => !isAlive(started.structuredContent!.owner_pid), 20_000);
  });

  it('records a build whose worker was killed as failed and stops the Gradle it left behind', async () => {
    setScenario(project.root, 'slow 5000');
    const before = invocations(project.root).length;
    const started = await call(a, 'run_gradle_task', { task: 'assembleDebug', wait: false });
    const worker = started.structuredContent!.owner_pid as number;
    await waitFor(async () => invocations(project.root).length > before);
    const gradle = invocations(project.root).at(-1)!.pid;
    process.kill(worker, 'SIGKILL');
    await waitFor(async () => !isAlive(worker));
    expect(isAlive(gradle)).toBe(true);
    const status = await call(a, 'get_build_status', { build_id: started.structuredContent!.build_id });
    const buildId = started.structuredContent!.build_id as string;
    expect(status.structuredContent).toMatchObject({
      status: 'failed',
      origin: expect.stringContaining('agent-a'),
      reason: expect.stringContaining("exited before recording the build's end"),
    });
    expect(status.structuredContent!.reason).toContain(
      `Start the build again; the worker's own output is in ${join(env.home, 'build-logs', `${buildId}.worker.log`)}.`,
    );
    expect(status.structuredContent!.reason).toContain(`process group (${gradle}) was stopped`);
    await waitFor(async () => !isAlive(gradle));
    // The project is free again.
    setScenario(project.root, 'success');
    const next = await call(a, 'run_gradle_task', { task: ':app:assembleDemoPlayDebug' });
    expect(next.structuredContent!.status).toBe('success');
  });

  it('records a timed-out build whose Gradle left a process holding its output, and frees the project', async () => {
    const gradlew = join(project.root, 'gradlew');
    const original = readFileSync(gradlew, 'utf8');
    const holderFile = join(project.root, '.holder.pid');
    // Outside Gradle's process group and session: killing the group leaves it holding stdout and stderr.
    writeFileSync(
      gradlew,
      `#!/bin/sh\nsetsid sleep 60 &\necho $! > "${holderFile}"\nwhile :; do echo "> Task :app:compileDebugJavaWithJavac"; sleep 0.2; done\n`,
    );
    let holder = 0;
    try {
      const result = await call(a, 'run_gradle_task', { task: 'assembleDebug', timeout_sec: 2 });
      holder = Number(readFileSync(holderFile, 'utf8'));
      workerPids.add(holder);
      expect(isAlive(holder)).toBe(true);
      expect(result.isError).toBe(true);
      const status = await call(a, 'get_build_status', {});
      expect(status.structuredContent).toMatchObject({ status: 'timed_out' });
      await waitFor(async () => !isAlive(status.structuredContent!.owner_pid));
    } finally {
      writeFileSync(gradlew, original);
      if (holder > 0) await stopPid(holder, 500);
    }
    setScenario(project.root, 'success');
    const next = await call(a, 'run_gradle_task', { task: ':app:assembleDemoPlayDebug' });
    expect(next.structuredContent!.status).toBe('success');
    // A worker that printed nothing leaves no empty worker log.
    const id = next.structuredContent!.build_id as string;
    await waitFor(async () => !isAlive(next.structuredContent!.owner_pid));
    expect(existsSync(join(env.home, 'build-logs', `${id}.log`))).toBe(true);
    expect(existsSync(join(env.home, 'build-logs', `${id}.worker.log`))).toBe(false);
  });

  it('leaves a verifiable event log and no build process behind', async () => {
    const verify = await runCli(env, ['events', 'verify']);
    expect(verify.code).toBe(0);
    await waitFor(async () => [...workerPids, ...gradlePids()].every((pid) => !isAlive(pid)), 20_000);
  });
});
