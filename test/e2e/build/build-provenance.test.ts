import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { freePort, runCli, startMcpClient, stopPid, type McpTestClient } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createTempHome } from '../../support/temp-home.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { copyFixtureProject, invocations, setScenario } from '../../integration/build/fixture-project.js';

/*
 * What a build was built from, through the built CLI and the SDK's real client: two builds of a dirty
 * git tree and compare_builds naming the files that changed between them, a project outside git told
 * apart by its source-set hashes, and install<Variant> of the stand-in Gradle putting the APK on the
 * simulated phone through the real adb server (and failing as AGP does with no device).
 */

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

let home: { home: string; cleanup(): void };
let adb: TestAdbServer;
let phone: RunningSimulatedDevice;
const projects: { root: string; cleanup(): void }[] = [];
const clients: McpTestClient[] = [];
const workerPids = new Set<number>();

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
}

function write(root: string, path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

async function open(root: string, adbPort = adb.port): Promise<McpTestClient> {
  const c = await startMcpClient({ home: home.home, adbPort }, ['--project', root], { clientName: 'provenance-agent' });
  clients.push(c);
  return c;
}

async function call(c: McpTestClient, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = (await c.client.callTool({ name, arguments: args })) as ToolResult;
  const pid = result.structuredContent?.owner_pid;
  if (typeof pid === 'number') workerPids.add(pid);
  return result;
}

function text(result: ToolResult): string {
  return result.content.map((c) => c.text ?? '').join('\n');
}

async function trusted(fixture: 'kts-flavors' | 'groovy-app'): Promise<string> {
  const project = copyFixtureProject(fixture);
  projects.push(project);
  setScenario(project.root, 'success');
  expect((await runCli({ home: home.home, adbPort: adb.port }, ['trust', '--yes', project.root])).code).toBe(0);
  return project.root;
}

beforeAll(async () => {
  home = createTempHome('provenance-e2e');
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
});

afterAll(async () => {
  for (const c of clients) await c.close();
  for (const pid of [...workerPids, ...projects.flatMap((p) => invocations(p.root).map((i) => i.pid))])
    await stopPid(pid, 500);
  await phone?.stop();
  await adb?.stop();
  for (const p of projects) p.cleanup();
  home?.cleanup();
});

describe('build provenance over MCP', () => {
  it('shows which files changed between two builds of a dirty git tree', async () => {
    const root = await trusted('kts-flavors');
    write(root, '.gitignore', 'build/\n.stand-in-gradle/\n');
    write(root, 'app/src/main/java/com/example/Greeter.kt', 'class Greeter\n');
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'first');
    const commit = git(root, 'rev-parse', 'HEAD').trim();
    const c = await open(root);

    write(root, 'app/src/main/java/com/example/Greeter.kt', 'class Greeter(val name: String)\n');
    const first = await call(c, 'run_gradle_task', { task: ':app:assembleDemoPlayDebug' });
    expect(first.isError).toBeFalsy();
    const firstStatus = await call(c, 'get_build_status', {});
    expect(firstStatus.structuredContent!.sources).toMatchObject({
      commit,
      branch: 'main',
      changed_files: 1,
      gradle: '8.11.1',
      agp: '8.7.3',
    });

    write(root, 'app/src/main/java/com/example/Greeter.kt', 'class Greeter(val name: String, val loud: Boolean)\n');
    write(root, 'app/src/main/java/com/example/Farewell.kt', 'class Farewell\n');
    const second = await call(c, 'run_gradle_task', { task: ':app:assembleDemoPlayDebug' });
    expect(second.isError).toBeFalsy();

    const compared = await call(c, 'compare_builds', {});
    expect(compared.isError).toBeFalsy();
    expect(compared.structuredContent).toEqual({
      base_build_id: first.structuredContent!.build_id,
      build_id: second.structuredContent!.build_id,
      commits: commit,
      files: ['A app/src/main/java/com/example/Farewell.kt', 'M app/src/main/java/com/example/Greeter.kt'],
      total: 2,
      has_more: false,
    });
    expect(text(compared)).toContain('2 file(s) changed (1 added, 0 removed, 1 modified)');

    const status = await call(c, 'get_build_status', { build_id: first.structuredContent!.build_id });
    expect(status.structuredContent!.sources).toMatchObject({ commit, changed_files: 1 });
    const history = await call(c, 'list_build_history', { limit: 2 });
    expect(history.structuredContent!.builds.map((b: any) => b.sources.changed_files)).toEqual([2, 1]);

    // Ids are checked like every build tool's: another project's or a made-up one is BUILD_NOT_FOUND.
    const unknown = await call(c, 'compare_builds', { base_build_id: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(unknown._meta?.error_code).toBe('BUILD_NOT_FOUND');
  }, 120_000);

  it('tells two builds of a project outside git apart by its source-set hashes', async () => {
    const root = await trusted('groovy-app');
    write(root, 'app/src/main/java/org/sample/Main.kt', 'class Main\n');
    const c = await open(root);
    const first = await call(c, 'run_gradle_task', { task: ':app:assembleFreeDebug' });
    expect(first.isError).toBeFalsy();
    const before = (await call(c, 'get_build_status', {})).structuredContent!.sources;
    expect(before.commit).toBeUndefined();
    expect(before.source_sets_sha256).toMatch(/^[0-9a-f]{64}$/);
    write(root, 'app/src/main/java/org/sample/Main.kt', 'class Main { fun go() = Unit }\n');
    const second = await call(c, 'run_gradle_task', { task: ':app:assembleFreeDebug' });
    const after = (await call(c, 'get_build_status', {})).structuredContent!.sources;
    expect(after.source_sets_sha256).not.toBe(before.source_sets_sha256);
    const compared = await call(c, 'compare_builds', {
      build_id: second.structuredContent!.build_id,
      base_build_id: first.structuredContent!.build_id,
    });
    expect(compared.structuredContent).toMatchObject({ files: ['M app/src/main/java/org/sample/Main.kt'], total: 1 });
    expect(compared.structuredContent).not.toHaveProperty('partial');
    expect(compared.structuredContent).not.toHaveProperty('commits');
  }, 120_000);

  it('installs the built APK on the phone with installDemoPlayDebug, and fails as AGP does with no device', async () => {
    const root = await trusted('kts-flavors');
    const c = await open(root);
    const installed = await call(c, 'run_gradle_task', { task: ':app:installDemoPlayDebug' });
    expect(text(installed)).not.toContain('failed');
    expect(installed.isError).toBeFalsy();
    expect(installed.structuredContent!.apks[0]).toMatchObject({ package: 'com.example.flavors.demo.debug' });
    const packages = await adb.adb(['-s', phone.serial, 'shell', 'pm', 'list', 'packages']);
    expect(packages.stdout).toContain('package:com.example.flavors.demo.debug');
    const log = await call(c, 'get_build_log', { filter: 'Install' });
    expect(log.structuredContent!.lines.join('\n')).toContain(`on '${phone.serial}' for :app:demoPlayDebug`);

    // Connected tests without device_serial run on the one online device, as AGP's do.
    const connected = await call(c, 'run_tests', { kind: 'connected', variant: 'demoPlayDebug' });
    expect(connected.structuredContent).toMatchObject({ status: 'success', tests: { total: 2, failed: 0 } });
    const started = await call(c, 'get_build_log', { filter: 'Starting 2 tests' });
    expect(started.structuredContent!.lines).toEqual([`Starting 2 tests on ${phone.serial}`]);

    // A server whose adb has no devices: the stand-in's install task fails like AGP's.
    const lonely = await open(root, await freePort());
    const failed = await call(lonely, 'run_gradle_task', { task: ':app:installDemoPlayDebug' });
    expect(failed.isError).toBe(true);
    expect(failed._meta?.error_code).toBe('BUILD_FAILED');
    expect(text(failed)).toContain('No connected devices!');
  }, 120_000);
});
