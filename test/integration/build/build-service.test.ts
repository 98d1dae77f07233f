import 'reflect-metadata';
import { jest } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import type { z } from 'zod';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Container } from 'inversify';
import { DATA_BUDGET_BYTES, wireBytes } from '../../../src/kernel/bounded-output.js';
import { cliActor, systemActor, thisHost, type Actor } from '../../../src/shared/actor.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { InvalidArgumentsError, ToolError } from '../../../src/kernel/errors.js';
import { getContributions } from '../../../src/kernel/contribution-provider.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { checkToolCall, ToolCallPolicy } from '../../../src/kernel/tool-call-policy.js';
import type { RuntimeOptions } from '../../../src/kernel/runtime-options.js';
import type { ProgressUpdate } from '../../../src/kernel/tool-definition.js';
import { createToolContext } from '../../../src/kernel/tool-context.js';
import { ToolRegistry } from '../../../src/kernel/tool-registry.js';
import { TrustService } from '../../../src/plugins/core/trust-service.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { BuildLauncher, InProcessBuildLauncher } from '../../../src/plugins/build/services/build-launcher.js';
import { currentProcess } from '../../../src/kernel/process-identity.js';
import { BuildLock } from '../../../src/plugins/build/services/build-lock.js';
import { BuildLogWriter } from '../../../src/plugins/build/services/build-log-writer.js';
import { BuildService } from '../../../src/plugins/build/services/build-service.js';
import { failureError } from '../../../src/plugins/build/services/build-waiter.js';
import { BuildWorker } from '../../../src/plugins/build/services/build-worker.js';
import { createTempHome } from '../../support/temp-home.js';
import { sleep, waitFor } from '../../support/wait.js';
import { copyFixtureProject, invocations, replayCapture, setScenario } from './fixture-project.js';
import { BuildStarted } from '../../../src/plugins/build/build.events.js';

const agent: Actor = { kind: 'agent', session: 'sess-int-1', client: 'jest-agent', pid: process.pid };
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

interface Harness {
  container: Container;
  root: string;
  home: string;
  call(
    name: string,
    args: Record<string, unknown>,
    opts?: { signal?: AbortSignal; progress?: (u: ProgressUpdate) => Promise<void> },
  ): Promise<{ data: any; summary: string }>;
  idle(): Promise<void>;
  cleanup(): void;
}

function harness(fixture: 'kts-flavors' | 'groovy-app', trusted = true, sharedHome?: string): Harness {
  const temp = sharedHome === undefined ? createTempHome('build-int') : { home: sharedHome, cleanup() {} };
  const { home, cleanup: cleanHome } = temp;
  const project = copyFixtureProject(fixture);
  const options: RuntimeOptions = {
    home,
    cwd: project.root,
    projectPath: project.root,
    readOnly: false,
    env: process.env,
  };
  const container = createContainer(options, pluginModules);
  // The sources are not bundled under jest: the worker runs in this process (the e2e tests cover the detached worker).
  container.unbind(BuildLauncher);
  container.bind(BuildLauncher).to(InProcessBuildLauncher).inSingletonScope();
  if (trusted) container.get(TrustService).trust(project.root, cliActor());
  const registry = container.get(ToolRegistry);
  const store = container.get<EventStoreProvider>(EventStoreProvider);
  const policies = getContributions<ToolCallPolicy>(container, ToolCallPolicy);
  return {
    container,
    root: project.root,
    home,
    async call(name, args, opts = {}) {
      const tool = registry.get(name)!.definition;
      const parsed = registry.get(name)!.input.parse(args);
      // As the MCP adapter does: the policies (trust for O tools) run once, before the handler.
      await checkToolCall(policies, { tool, args: parsed, actor: agent });
      const ctx = createToolContext({
        actor: agent,
        store,
        logger: quiet,
        signal: opts.signal,
        progress: opts.progress,
      });
      const result = await tool.handler(parsed, ctx);
      tool.output.parse(result.data);
      return result as { data: any; summary: string };
    },
    async idle() {
      await (container.get(BuildLauncher) as InProcessBuildLauncher).whenIdle();
    },
    cleanup() {
      disposeContainer(container);
      project.cleanup();
      cleanHome();
    },
  };
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('build toolset (in process, stand-in Gradle)', () => {
  let h: Harness;
  beforeAll(() => {
    h = harness('kts-flavors');
  });
  afterAll(async () => {
    await h.idle();
    h.cleanup();
  });

  it('refuses an untrusted project before anything runs', async () => {
    const u = harness('kts-flavors', false);
    try {
      const error = await rejection(u.call('run_gradle_task', { task: 'assembleDebug' }));
      expect(error).toBeInstanceOf(InvalidArgumentsError);
      expect((error as InvalidArgumentsError).code).toBe('PROJECT_NOT_TRUSTED');
      expect(error.message).toContain('droidwright trust');
      expect(invocations(u.root)).toEqual([]);
    } finally {
      u.cleanup();
    }
  });

  it('refuses blocked tasks and unsafe arguments without running Gradle', async () => {
    for (const task of ['publishReleaseBundle', 'pRB', 'uA', 'releaseToMav']) {
      const error = await rejection(h.call('run_gradle_task', { task }));
      expect([task, (error as InvalidArgumentsError).code]).toEqual([task, 'TASK_BLOCKED']);
    }
    const args = await rejection(
      h.call('run_gradle_task', { task: 'assembleDebug', args: ['--init-script', 'x.gradle'] }),
    );
    expect((args as InvalidArgumentsError).code).toBe('INVALID_ARGUMENT');
    expect(invocations(h.root)).toEqual([]);
  });

  it('runs a successful build and records APKs, provenance, log hash and progress', async () => {
    setScenario(h.root, 'success');
    const progress: ProgressUpdate[] = [];
    const { data, summary } = await h.call(
      'run_gradle_task',
      { task: 'assemble', module: ':app', variant: 'demoPlayDebug' },
      { progress: async (u) => void progress.push(u) },
    );
    expect(summary).toMatch(/succeeded/);
    expect(data).toMatchObject({
      status: 'success',
      tasks: [':app:assembleDemoPlayDebug'],
      module: ':app',
      variant: 'demoPlayDebug',
      origin: expect.stringContaining('jest-agent'),
    });
    expect(data.apks).toHaveLength(1);
    expect(data.apks[0]).toMatchObject({
      package: 'com.example.flavors.demo.debug',
      version_code: 7,
      version_name: '1.7',
      variant: 'demoPlayDebug',
      module: ':app',
    });
    expect(data.apks[0].sha256).toBe(createHash('sha256').update(readFileSync(data.apks[0].path)).digest('hex'));

    const store = h.container.get<EventStoreProvider>(EventStoreProvider)();
    const [finished] = store.query({ types: ['build.finished'], correlation: data.build_id });
    const [started] = store.query({ types: ['build.started'], correlation: data.build_id });
    const log = readFileSync(data.log_path);
    expect((finished!.data as any).log.sha256).toBe(createHash('sha256').update(log).digest('hex'));
    expect(log.toString()).toContain('> Task :app:assembleDemoPlayDebug');
    const provenance = (started!.data as any).provenance;
    expect(provenance.gradle_version).toBe('8.11.1');
    expect(provenance.build_files.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining([
        'settings.gradle.kts',
        'app/build.gradle.kts',
        'gradle/libs.versions.toml',
        'gradle/wrapper/gradle-wrapper.properties',
        'gradle.properties',
      ]),
    );
    expect(provenance.git).toEqual({ commit: null, branch: null, dirty: null, changed_files: null });
    expect(started!.actor).toMatchObject({ kind: 'agent', session: 'sess-int-1' });
    // The stand-in finishes in well under the 2 s progress interval, so progress may or may not be sent.
    for (const p of progress) expect(p.message).toMatch(/elapsed/);
  });

  it('finds the APK by exact variant and records the minified mapping', async () => {
    const found = await h.call('find_apk_path', { variant: 'demoPlayDebug' });
    expect(found.data).toMatchObject({
      found: true,
      module: ':app',
      variant: 'demoPlayDebug',
      application_id: 'com.example.flavors.demo.debug',
    });
    expect(found.data.built_by).toMatch(/^[0-9a-f]{12}$/);
    const missing = await h.call('find_apk_path', { variant: 'fullPlayDebug' });
    expect(missing.data).toMatchObject({ found: false, candidates: ['demoPlayDebug'] });
    const release = await h.call('run_gradle_task', { task: ':app:assembleFullPlayRelease' });
    const store = h.container.get<EventStoreProvider>(EventStoreProvider)();
    const [finished] = store.query({ types: ['build.finished'], correlation: release.data.build_id });
    expect((finished!.data as any).mappings).toEqual([
      expect.objectContaining({ module: ':app', variant: 'fullPlayRelease' }),
    ]);
    const ambiguous = await h.call('find_apk_path', {});
    expect(ambiguous.data).toMatchObject({ found: false, reason: expect.stringContaining('Several variants') });
  });

  it('records a failing build from real Kotlin output with located diagnostics', async () => {
    replayCapture(h.root, 'kotlin_k2_errors.txt');
    const error = await rejection(h.call('run_gradle_task', { task: 'assembleDebug' }));
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('BUILD_FAILED');
    expect(error.message).toContain("Greeter.kt:4:54: Unresolved reference 'missingExtension'.");
    const errors = await h.call('get_build_errors', {});
    expect(errors.data.counts).toEqual({ error: 4, warning: 0, info: 0 });
    expect(errors.data.diagnostics[0]).toEqual({
      severity: 'error',
      source: 'kotlin',
      file: '/Users/dev/project/app/src/main/java/com/example/r18/Greeter.kt',
      line: 4,
      column: 54,
      message: "Unresolved reference 'missingExtension'.",
      task: ':app:compileDebugKotlin',
    });
    const log = await h.call('get_build_log', { lines: 5, filter: 'e: file' });
    expect(log.data.lines).toHaveLength(3);
    const status = await h.call('get_build_status', {});
    expect(status.data).toMatchObject({ status: 'failed', errors: 4, reason: expect.stringContaining('Greeter.kt:4') });
  });

  it('times out a slow build and records why', async () => {
    setScenario(h.root, 'slow 3000');
    const error = await rejection(h.call('run_gradle_task', { task: 'assembleDebug', timeout_sec: 1 }));
    expect((error as ToolError).code).toBe('TIMEOUT');
    const status = await h.call('get_build_status', {});
    expect(status.data).toMatchObject({ status: 'timed_out', reason: expect.stringContaining('Stopped after 1 s') });
  });

  it('cancels the build a cancelled request started, recorded as cancelled by that agent', async () => {
    setScenario(h.root, 'slow 3000');
    const before = invocations(h.root).length;
    const controller = new AbortController();
    const pending = rejection(h.call('run_gradle_task', { task: 'assembleDebug' }, { signal: controller.signal }));
    await waitFor(() => invocations(h.root).length > before);
    controller.abort('user pressed stop');
    const error = await pending;
    expect((error as ToolError).code).toBe('CANCELLED');
    expect(error.message).toMatch(/BUILD CANCELLED: assembleDebug .* was cancelled by agent jest-agent/);
    const store = h.container.get<EventStoreProvider>(EventStoreProvider)();
    const [cancelled] = store.query({ types: ['build.cancelled'] });
    expect(cancelled!.actor).toMatchObject({ session: 'sess-int-1' });
    expect(cancelled!.data).toMatchObject({ via: 'request' });
  });

  it('returns at once with wait: false, refuses a second build, and long-polls to the end', async () => {
    setScenario(h.root, 'slow 200');
    const started = await h.call('run_gradle_task', { task: 'assembleDebug', wait: false });
    expect(started.data.status).toBe('running');
    const busy = await rejection(h.call('run_gradle_task', { task: 'assembleDebug' }));
    expect((busy as ToolError).code).toBe('BUILD_IN_PROGRESS');
    expect(busy.message).toContain(`pid ${process.pid}`);
    const status = await h.call('get_build_status', { build_id: started.data.build_id, wait_ms: 10_000 });
    expect(status.data.status).toBe('success');
    expect(status.data.apks.map((a: { variant: string }) => a.variant).sort()).toEqual([
      'demoPlayDebug',
      'fullPlayDebug',
    ]);
  });

  it('records a build with 250 long Japanese Kotlin errors (over 256 KiB of UTF-8) as failed, not running forever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-ja-capture-'));
    try {
      const errors = Array.from(
        { length: 250 },
        (_, i) =>
          `e: file:///home/dev/アプリ/app/src/main/java/com/example/画面${i}.kt:${i + 1}:5 未解決の参照です: '関数${i}'。${'型の不一致: 期待される型は文字列ですが、実際の型は整数です。'.repeat(12)}`,
      );
      const capture = join(dir, 'japanese.txt');
      writeFileSync(
        capture,
        [
          '> Task :app:compileDebugKotlin FAILED',
          ...errors,
          '',
          'FAILURE: Build failed with an exception.',
          '',
          'BUILD FAILED in 3s',
          '',
        ].join('\n'),
      );
      expect(Buffer.byteLength(errors.join('\n'), 'utf8')).toBeGreaterThan(256 * 1024);
      // A wrapper that prints the capture with cat: the stand-in replays with one write and exits, which loses
      // what does not fit the pipe; this test needs every byte to reach the parser.
      const j = harness('kts-flavors');
      try {
        writeFileSync(join(j.root, 'gradlew'), `#!/bin/sh\ncat '${capture}'\nexit 1\n`, { mode: 0o755 });
        const error = await rejection(j.call('run_gradle_task', { task: 'assembleDebug' }));
        expect((error as ToolError).code).toBe('BUILD_FAILED');
        const errorsView = await j.call('get_build_errors', { limit: 500 });
        expect(errorsView.data.counts.error).toBe(250);
        expect(errorsView.data.diagnostics.length).toBeGreaterThan(20);
        expect(errorsView.data.diagnostics[0].message).toContain('未解決の参照です');
        // Replies stay readable: both the diagnostics page and the log lines are bounded in bytes, and page on.
        expect(wireBytes(errorsView.data)).toBeLessThanOrEqual(DATA_BUDGET_BYTES + 1024);
        expect(errorsView.data).toMatchObject({
          has_more: true,
          next_cursor: String(errorsView.data.diagnostics.length),
        });
        const next = await j.call('get_build_errors', { limit: 500, cursor: errorsView.data.next_cursor });
        expect(next.data.diagnostics[0]).not.toEqual(errorsView.data.diagnostics[0]);
        const log = await j.call('get_build_log', { lines: 2000 });
        expect(log.data.truncated).toBe(true);
        expect(log.data.lines.length).toBeLessThan(250);
        expect(log.data.lines.at(-1)).toBe('BUILD FAILED in 3s');
        expect(wireBytes(log.data)).toBeLessThanOrEqual(DATA_BUDGET_BYTES + 1024);
        expect(log.data.has_more).toBe(true);
        const store = j.container.get<EventStoreProvider>(EventStoreProvider)();
        const [finished] = store.query({ types: ['build.finished'], correlation: errorsView.data.build_id });
        expect(finished!.data).toMatchObject({ status: 'failed', diagnostics_total: 250, truncated: true });
        expect(store.verify().ok).toBe(true);
      } finally {
        await j.idle();
        j.cleanup();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses build ids of another project, naming the selected one', async () => {
    const [own] = (await h.call('list_build_history', { limit: 1 })).data.builds;
    const other = harness('groovy-app', true, h.home);
    try {
      for (const [tool, args] of [
        ['get_build_status', { build_id: own.build_id }],
        ['get_build_log', { build_id: own.build_id }],
        ['get_build_errors', { build_id: own.build_id }],
        ['cancel_build', { build_id: own.build_id }],
      ] as const) {
        const error = await rejection(other.call(tool, args));
        expect([tool, (error as ToolError).code]).toEqual([tool, 'BUILD_NOT_FOUND']);
        expect(error.message).toContain(other.root);
      }
      expect((await h.call('get_build_status', { build_id: own.build_id })).data.build_id).toBe(own.build_id);
    } finally {
      await other.idle();
      other.cleanup();
    }
  });

  it('lists variants, sets the active one and reads the build config', async () => {
    const variants = await h.call('list_build_variants', { module: ':app' });
    expect(variants.data.variants).toHaveLength(12);
    expect(variants.data).toMatchObject({
      total: 12,
      has_more: false,
      modules: [{ module: ':app', variant_total: 12 }],
    });
    const set = await h.call('set_active_variant', { variant: 'fullPlayDebug' });
    expect(set.data).toEqual({ module: ':app', variant: 'fullPlayDebug' });
    expect((await h.call('list_build_variants', {})).data.modules[0].active_variant).toBe('fullPlayDebug');
    const apk = await h.call('find_apk_path', {});
    expect(apk.data).toMatchObject({ found: true, variant: 'fullPlayDebug' });
    const bad = await rejection(h.call('set_active_variant', { variant: 'nope' }));
    expect(bad.message).toContain('demoPlayDebug');
    const config = await h.call('get_build_config', {});
    expect(config.data.modules.map((m: { module: string; type: string }) => [m.module, m.type])).toEqual([
      [':app', 'application'],
      [':core', 'library'],
    ]);
    expect(config.data.modules[0]).toMatchObject({
      compile_sdk: 35,
      min_sdk: 24,
      target_sdk: 35,
      application_id: 'com.example.flavors',
    });
  });

  it('keeps a history whose projection rebuild equals the live read model', async () => {
    const history = await h.call('list_build_history', { limit: 100 });
    expect(history.data.builds.length).toBeGreaterThanOrEqual(6);
    const store = h.container.get<EventStoreProvider>(EventStoreProvider)();
    const snapshot = () => ({
      builds: store.prepareRead('SELECT * FROM builds ORDER BY id').all(),
      diagnostics: store.prepareRead('SELECT * FROM build_diagnostics ORDER BY build_id, idx').all(),
      apks: store.prepareRead('SELECT * FROM build_apks ORDER BY build_id, idx').all(),
      variants: store.prepareRead('SELECT * FROM active_variants ORDER BY project_root, module').all(),
    });
    const live = snapshot();
    store.rebuildProjections(['build_history']);
    expect(snapshot()).toEqual(live);
  });
});

describe('run_tests (Groovy fixture)', () => {
  let h: Harness;
  beforeAll(() => {
    h = harness('groovy-app');
  });
  afterAll(async () => {
    await h.idle();
    h.cleanup();
  });

  it('reports failing unit tests as a TESTS_FAILED error naming each, with counts from the JUnit reports', async () => {
    const error = (await rejection(h.call('run_tests', { kind: 'unit', variant: 'freeDebug' }))) as ToolError;
    expect(error).toBeInstanceOf(ToolError);
    expect(error.code).toBe('TESTS_FAILED');
    expect(error.message).toMatch(
      /^Test run \w+ \(:app:testFreeDebugUnitTest\) failed after [\d.]+ s: 2 of 5 test\(s\) failed\./,
    );
    expect(error.message).toContain(
      '- com.example.StandInTest > case0 (com/example/StandInTest.kt:12): java.lang.AssertionError: expected:<1> but was:<2>',
    );
    expect(error.message).toContain('- com.example.StandInTest > case1 (com/example/StandInTest.kt:13)');
    expect(error.details).toMatchObject({
      status: 'failed',
      tests: { total: 5, passed: 3, failed: 2, skipped: 0, source: 'junit-xml' },
    });
    const status = await h.call('get_build_status', {});
    expect(status.data).toMatchObject({ status: 'failed', kind: 'test', tasks: [':app:testFreeDebugUnitTest'] });
    // build.finished records the failed tests with their stacks, and each as a diagnostic.
    const store = h.container.get<EventStoreProvider>(EventStoreProvider)();
    const [finished] = store.query({ types: ['build.finished'], stream: `build:${status.data.build_id}`, limit: 1 });
    const data = finished!.data as { failed_tests: { stack: string }[]; diagnostics: { source: string }[] };
    expect(data.failed_tests).toHaveLength(2);
    expect(data.failed_tests[0]!.stack).toContain('at com.example.StandInTest.case0(StandInTest.kt:12)');
    expect(data.diagnostics.filter((d) => d.source === 'test')).toHaveLength(2);
  });

  it('sends custom test tasks through the task policy', async () => {
    const error = await rejection(h.call('run_tests', { task: 'publishTestResults' }));
    expect((error as InvalidArgumentsError).code).toBe('TASK_BLOCKED');
  });
});

describe('build worker under failure', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness('kts-flavors');
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await h.idle();
    h.cleanup();
  });

  it('keeps parsing when the build log fails, leaves the outcome in a file when the event log refuses it, and the reaper imports it', async () => {
    const store = h.container.get<EventStoreProvider>(EventStoreProvider)();
    h.container.get(BuildWorker).finishRetryMs = 200;
    jest.spyOn(BuildLogWriter.prototype, 'write').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    });
    const append = store.append.bind(store);
    jest.spyOn(store, 'append').mockImplementation((definition, data, meta) => {
      if (definition.type === 'build.finished')
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return append(definition, data, meta);
    });
    setScenario(h.root, 'success');
    const started = await h.call('run_gradle_task', { task: ':app:assembleDemoPlayDebug', wait: false });
    const id = started.data.build_id as string;
    await h.idle();
    jest.restoreAllMocks();
    const outcomeFile = join(h.home, 'build-logs', `${id}.outcome.json`);
    // BUILD SUCCESSFUL was still seen although no line reached the log.
    expect(JSON.parse(readFileSync(outcomeFile, 'utf8'))).toMatchObject({ build_id: id, status: 'success' });

    // A build like it whose worker is dead (its pid exited) and that left its outcome behind.
    const [event] = store.query({ types: ['build.started'], stream: `build:${id}`, limit: 1 });
    const orphan = 'a0a0a0a0a0a0';
    const dead = spawnSync('true').pid!;
    const data = event!.data as z.input<typeof BuildStarted.schema>;
    append(
      BuildStarted,
      { ...data, build_id: orphan, pid: dead, log_path: join(h.home, 'build-logs', `${orphan}.log`) },
      { stream: `build:${orphan}`, correlation: orphan, actor: agent },
    );
    writeFileSync(
      join(h.home, 'build-logs', `${orphan}.outcome.json`),
      readFileSync(outcomeFile, 'utf8').replace(id, orphan),
    );
    const status = await h.call('get_build_status', { build_id: orphan });
    expect(status.data).toMatchObject({ status: 'success' });
    const [finished] = store.query({ types: ['build.finished'], stream: `build:${orphan}`, limit: 1 });
    expect(finished!.actor).toMatchObject({ kind: 'agent', session: agent.session });
    expect(finished!.data).toMatchObject({ reaped_by: `system (pid ${process.pid} on ${thisHost()})` });

    // Without an outcome file: unknown, recorded as its starter, and the message says what to do.
    const lost = 'b0b0b0b0b0b0';
    append(
      BuildStarted,
      { ...data, build_id: lost, pid: dead, log_path: join(h.home, 'build-logs', `${lost}.log`) },
      { stream: `build:${lost}`, correlation: lost, actor: agent },
    );
    const unknown = await h.call('get_build_status', { build_id: lost });
    expect(unknown.data.status).toBe('failed');
    expect(unknown.data.reason).toBe(
      `The build worker (pid ${dead}) exited before recording the build's end, so its outcome is unknown. Start the build again; the worker's own output is in ${join(h.home, 'build-logs', `${lost}.worker.log`)}.`,
    );
    const record = h.container.get(BuildService).resolveBuild(lost);
    const message = failureError(
      record,
      `Build ${lost} failed after 1 s with 0 error(s): ${record.reason}.`,
      [],
    ).message;
    expect(message).not.toMatch(/\.\./);
    expect(message).not.toContain('get_build_errors');

    // Started on another machine sharing the log: its worker's pid means nothing here, so it is not reaped.
    const elsewhere = 'c0c0c0c0c0c0';
    append(
      BuildStarted,
      { ...data, build_id: elsewhere, pid: dead, log_path: join(h.home, 'build-logs', `${elsewhere}.log`) },
      { stream: `build:${elsewhere}`, correlation: elsewhere, actor: { ...agent, host: `not-${thisHost()}` } },
    );
    const running = await h.call('get_build_status', { build_id: elsewhere });
    expect(running.data.status).toBe('running');
    expect(store.query({ types: ['build.finished'], stream: `build:${elsewhere}` })).toEqual([]);
  });

  it('records a build as cancelled (shutdown) when its worker is stopped while waiting for the hand-over', async () => {
    // A launcher that starts nothing: this test plays the worker itself, before the server hands over.
    const parked = { pid: process.pid, startTime: 'parked' };
    const c = createContainer(
      { home: h.home, cwd: h.root, projectPath: h.root, readOnly: false, env: process.env },
      pluginModules,
    );
    c.unbind(BuildLauncher);
    c.bind(BuildLauncher).toConstantValue({ launch: async () => parked });
    const worker = c.get(BuildWorker);
    const handle = await c
      .get(BuildService)
      .start({ kind: 'build', tasks: ['assembleDebug'], args: [], module: null, variant: null }, agent);
    const lock = new BuildLock(c.get<EventStoreProvider>(EventStoreProvider)());
    // The lock back with a live server that has not handed over yet.
    expect(lock.handOver(handle.buildId, parked, currentProcess())).toBe(true);
    try {
      const run = worker.run(handle.buildId, { pid: process.pid, startTime: 'worker' });
      await sleep(200);
      worker.stopAll(systemActor(), 'shutdown');
      const record = await run;
      expect(record).toMatchObject({
        status: 'cancelled',
        reason: expect.stringContaining('the build worker was stopped'),
      });
      expect(invocations(h.root)).toEqual([]);
    } finally {
      lock.release(h.root, handle.buildId);
      disposeContainer(c);
    }
  });
});
