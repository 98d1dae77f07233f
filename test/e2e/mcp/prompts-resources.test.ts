import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { copyFixtureProject } from '../../integration/build/fixture-project.js';
import {
  freePort,
  REPO_ROOT,
  runCli,
  startMcpClient,
  stopPid,
  type CliEnv,
  type McpTestClient,
} from '../../support/mcp-client.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';

/*
 * Prompts and resources through the built CLI and the SDK's real client over stdio: what is listed
 * follows --toolsets and --read-only and the project's files; reads stay inside the project, are
 * bounded and recorded.
 */

const RESOURCE_NOT_FOUND = -32002;

describe('MCP prompts and resources over stdio', () => {
  const temp = createTempHome('e2e-surface');
  let env: CliEnv;
  let project: string;
  const started: McpTestClient[] = [];

  beforeAll(async () => {
    env = { home: join(temp.home, 'data'), adbPort: await freePort() };
    mkdirSync(env.home);
    project = createFakeGradleProject(temp.home, 'notes', { applicationId: 'com.example.notes' });
    mkdirSync(join(project, 'app', 'src', 'main'), { recursive: true });
  });
  afterEach(async () => {
    while (started.length > 0) await started.pop()!.close();
  });
  afterAll(() => temp.cleanup());

  async function start(args: string[] = []): Promise<McpTestClient> {
    const client = await startMcpClient(env, ['--project', project, ...args]);
    started.push(client);
    return client;
  }

  async function rpcError(promise: Promise<unknown>): Promise<McpError> {
    try {
      await promise;
    } catch (error) {
      return error as McpError;
    }
    throw new Error('expected a JSON-RPC error');
  }

  async function calls(mcp: McpTestClient): Promise<Record<string, any>[]> {
    const result = await mcp.client.callTool({
      name: 'query_events',
      arguments: { types: ['mcp.tool_called'], limit: 50, verbose: true },
    });
    return (result.structuredContent as { events: { data: Record<string, any> }[] }).events.map((e) => e.data);
  }

  test('prompts follow the served tools and render a plan with the given arguments; bad arguments are -32602', async () => {
    const full = await start();
    const { prompts } = await full.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['diagnose-crash', 'full-deploy', 'build-and-fix', 'test-ui-flow']);
    const got = await full.client.getPrompt({
      name: 'full-deploy',
      arguments: { device_serial: 'emulator-5554', variant: 'demoDebug' },
    });
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(text).toContain(
      '`run_run_configuration` with name: <the configuration name from list_run_configurations>, device_serial: "emulator-5554"',
    );
    expect(text).toContain('Build the "demoDebug" variant');
    const bad = await rpcError(full.client.getPrompt({ name: 'diagnose-crash', arguments: { package: '$(reboot)' } }));
    expect(bad.code).toBe(ErrorCode.InvalidParams);
    expect(bad.message).toMatch(/package must be/);
    const unknown = await rpcError(full.client.getPrompt({ name: 'make-coffee' }));
    expect(unknown.code).toBe(ErrorCode.InvalidParams);

    const readOnly = await start(['--read-only']);
    expect((await readOnly.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['diagnose-crash']);
    // A prompt that is not listed is not served either.
    expect((await rpcError(readOnly.client.getPrompt({ name: 'build-and-fix' }))).message).toMatch(/not serve/);

    const buildOnly = await start(['--toolsets', 'core,build']);
    expect((await buildOnly.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['build-and-fix']);
  });

  test('project files are listed when they exist inside the project; the skill always; templates follow the toolsets', async () => {
    rmSync(join(project, 'app', 'src', 'main', 'AndroidManifest.xml'), { force: true });
    const mcp = await start();
    const uris = (await mcp.client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual([
      'droidwright://project-info',
      'droidwright://health',
      'droidwright://skill',
      'droidwright://project/app-build-gradle',
      'droidwright://project/settings-gradle',
    ]);
    const skill = await mcp.client.readResource({ uri: 'droidwright://skill' });
    expect(skill.contents[0]).toMatchObject({
      mimeType: 'text/markdown',
      text: readFileSync(join(REPO_ROOT, 'skills', 'droidwright', 'SKILL.md'), 'utf8'),
    });
    const settings = await mcp.client.readResource({ uri: 'droidwright://project/settings-gradle' });
    expect((settings.contents[0] as { text: string }).text).toContain('include(":app", ":lib")');
    const missing = await rpcError(mcp.client.readResource({ uri: 'droidwright://project/manifest' }));
    expect(missing.code).toBe(RESOURCE_NOT_FOUND);

    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'droidwright://builds/{id}/log',
      'droidwright://events/{seq}',
      'droidwright://sessions/{id}',
    ]);
    const coreOnly = await start(['--toolsets', 'core']);
    expect((await coreOnly.client.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual([
      'event',
      'debug-session',
    ]);
    const noBuild = await rpcError(coreOnly.client.readResource({ uri: 'droidwright://builds/abc/log' }));
    expect(noBuild.message).toMatch(/"build" toolset.*--toolsets core,build/);
  });

  test('a file a symlink takes out of the project is neither listed nor read; big and invalid UTF-8 files are bounded', async () => {
    const outside = join(temp.home, 'secret.txt');
    writeFileSync(outside, 'the user’s private notes');
    symlinkSync(outside, join(project, 'app', 'src', 'main', 'AndroidManifest.xml'));
    // 600 KiB with an invalid byte near the start: read to the bound, replaced, cut with a note.
    const big = Buffer.concat([Buffer.from('plugins { }\n'), Buffer.from([0xff, 0xfe]), Buffer.alloc(600 * 1024, 'a')]);
    writeFileSync(join(project, 'build.gradle.kts'), big);
    try {
      const mcp = await start();
      const uris = (await mcp.client.listResources()).resources.map((r) => r.uri);
      expect(uris).not.toContain('droidwright://project/manifest');
      expect(uris).toContain('droidwright://project/build-gradle');
      const refused = await rpcError(mcp.client.readResource({ uri: 'droidwright://project/manifest' }));
      expect(refused.code).toBe(ErrorCode.InvalidParams);
      expect(refused.message).toMatch(/outside the project.*PATH_OUTSIDE_PROJECT/);
      expect(refused.message).not.toContain('private notes');

      const read = await mcp.client.readResource({ uri: 'droidwright://project/build-gradle' });
      const text = (read.contents[0] as { text: string }).text;
      expect(text.startsWith('plugins { }\n\uFFFD\uFFFDaaa')).toBe(true);
      expect(text).toMatch(
        new RegExp(`\\[droidwright: truncated: the file is ${big.length} bytes; the first \\d+ are shown\\]$`),
      );
      // Within droidwright's 128 KiB response bound.
      expect(Buffer.byteLength(JSON.stringify(read), 'utf8')).toBeLessThan(128 * 1024);

      // Every read is on record, the refusal too.
      const recorded = await calls(mcp);
      expect(recorded).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            tool: 'resources/read',
            outcome: 'refused',
            error_code: 'PATH_OUTSIDE_PROJECT',
            arguments: { uri: 'droidwright://project/manifest' },
          }),
          expect.objectContaining({
            tool: 'resources/read',
            outcome: 'ok',
            arguments: { uri: 'droidwright://project/build-gradle' },
          }),
        ]),
      );
    } finally {
      rmSync(join(project, 'app', 'src', 'main', 'AndroidManifest.xml'), { force: true });
      rmSync(join(project, 'build.gradle.kts'), { force: true });
    }
  });

  test("a build's log is a resource: the end of the log its worker wrote", async () => {
    const fixture = copyFixtureProject('kts-flavors');
    let workerPid: number | undefined;
    try {
      expect((await runCli(env, ['trust', '--yes', fixture.root])).code).toBe(0);
      const mcp = await startMcpClient(env, ['--project', fixture.root]);
      started.push(mcp);
      const build = await mcp.client.callTool({ name: 'run_gradle_task', arguments: { task: 'assembleDebug' } });
      const { build_id, status, owner_pid } = build.structuredContent as Record<string, any>;
      workerPid = owner_pid;
      expect(status).toBe('success');
      const log = await mcp.client.callTool({ name: 'get_build_log', arguments: { build_id, lines: 2000 } });
      const lines = (log.structuredContent as { lines: string[] }).lines;
      expect(lines.length).toBeGreaterThan(0);
      const read = await mcp.client.readResource({ uri: `droidwright://builds/${encodeURIComponent(build_id)}/log` });
      expect(read.contents[0]).toMatchObject({ mimeType: 'text/plain', text: lines.join('\n') });
    } finally {
      await stopPid(workerPid);
      fixture.cleanup();
    }
  });

  test('templates read through their tool: validated by its schema, recorded as its call', async () => {
    const mcp = await start();
    // The session's own start is in the log by the time a call is recorded.
    const events = await mcp.client.callTool({ name: 'query_events', arguments: { limit: 1 } });
    const seq = (events.structuredContent as { events: { seq: number }[] }).events[0]!.seq;
    const read = await mcp.client.readResource({ uri: `droidwright://events/${seq}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ seq });
    expect((await rpcError(mcp.client.readResource({ uri: 'droidwright://events/999999' }))).code).toBe(
      RESOURCE_NOT_FOUND,
    );
    const badSeq = await rpcError(mcp.client.readResource({ uri: 'droidwright://events/1%3B%20drop' }));
    expect(badSeq.code).toBe(ErrorCode.InvalidParams);
    expect(badSeq.message).toMatch(/seq must be a positive event sequence number/);
    const noBuild = await rpcError(mcp.client.readResource({ uri: 'droidwright://builds/nope/log' }));
    expect(noBuild.code).toBe(RESOURCE_NOT_FOUND);
    expect(noBuild.message).toMatch(/BUILD_NOT_FOUND|NOT_FOUND/);
    const recorded = await calls(mcp);
    expect(recorded).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tool: 'query_events',
          outcome: 'ok',
          summary: expect.stringContaining(`resource droidwright://events/${seq}`),
        }),
        expect.objectContaining({ tool: 'get_build_log', arguments: expect.objectContaining({ build_id: 'nope' }) }),
        expect.objectContaining({ tool: 'query_events', outcome: 'refused', error_code: 'INVALID_ARGUMENT' }),
      ]),
    );
  });
});
