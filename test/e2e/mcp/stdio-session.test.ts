import { spawn } from 'node:child_process';
import type { StoredEvent } from '../../../src/events/event-definition.js';
import {
  CLI,
  freePort,
  runCli,
  startMcpClient,
  stopPid,
  type CliEnv,
  type McpTestClient,
} from '../../support/mcp-client.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { sleep } from '../../support/wait.js';

const CORE_TOOLS = ['get_project_info', 'run_health_check', 'query_events', 'list_mcp_sessions'];

describe('droidwright mcp over stdio with the SDK client', () => {
  const temp = createTempHome('e2e-mcp');
  let env: CliEnv;
  let project: string;
  const started: McpTestClient[] = [];

  beforeAll(async () => {
    env = { home: temp.home, adbPort: await freePort() };
    project = createFakeGradleProject(temp.home, 'demo');
  });
  afterEach(async () => {
    while (started.length > 0) await started.pop()!.close();
  });
  afterAll(() => temp.cleanup());

  async function start(args: string[] = [], options: { cwd?: string } = {}): Promise<McpTestClient> {
    const client = await startMcpClient(env, args, options);
    started.push(client);
    return client;
  }

  test('a real client initializes, lists the core tools with schemas and annotations, calls each; the log records it and verifies', async () => {
    const mcp = await start(['--project', project]);
    const { client } = mcp;
    expect(client.getServerVersion()).toMatchObject({
      name: 'droidwright',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(client.getInstructions()).toContain(`Project: ${project}`);

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of CORE_TOOLS) expect(names).toContain(name);
    for (const tool of tools.filter((t) => CORE_TOOLS.includes(t.name))) {
      expect(tool.title).toEqual(expect.any(String));
      expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description!.length).toBeGreaterThan(40);
    }

    const info = await client.callTool({ name: 'get_project_info', arguments: {} });
    expect(info.structuredContent).toMatchObject({
      root: project,
      selected_by: 'flag',
      trusted: false,
      trust_hint: expect.stringContaining(`droidwright trust ${project}`),
      data_dir: temp.home,
      application_modules: [expect.objectContaining({ path: ':app', application_id: 'com.example.demo' })],
    });

    const health = await client.callTool({ name: 'run_health_check', arguments: {} });
    const checks = health.structuredContent as {
      adb: { server: { port: number; reachable: boolean } };
      gradle_wrapper: { ok: boolean; version: string };
      all_ok: boolean;
    };
    expect(checks.adb.server).toMatchObject({ port: env.adbPort, reachable: false });
    expect(checks.gradle_wrapper).toMatchObject({ ok: true, version: '8.7' });
    expect(typeof checks.all_ok).toBe('boolean');

    const events = await client.callTool({ name: 'query_events', arguments: { types: ['mcp.*'], limit: 10 } });
    const queried = events.structuredContent as {
      events: { type: string }[];
      count: number;
      has_more: boolean;
      last_seq: number;
    };
    expect(queried.events[0]!.type).toBe('mcp.tool_called');
    expect(queried.events.at(-1)!.type).toBe('mcp.session_started');
    expect(queried.last_seq).toBeGreaterThanOrEqual(3);

    const sessions = await client.callTool({ name: 'list_mcp_sessions', arguments: {} });
    const mine = (
      sessions.structuredContent as {
        sessions: { current: boolean; alive: boolean; client_name: string; calls: number; pid: number }[];
      }
    ).sessions.find((s) => s.current)!;
    expect(mine).toMatchObject({ alive: true, client_name: 'droidwright-e2e', calls: 3, pid: mcp.pid });

    // The audit trail, read by another process.
    const listed = await runCli(env, ['events', 'list', '--json', '--type', 'mcp.*']);
    expect(listed.code).toBe(0);
    const logged = JSON.parse(listed.stdout) as StoredEvent<{ tool?: string; outcome?: string }>[];
    const calls = logged.filter((e) => e.type === 'mcp.tool_called').map((e) => e.data.tool);
    expect(calls).toEqual(CORE_TOOLS);
    expect(logged.every((e) => e.actor.kind === 'agent' && e.actor.client === 'droidwright-e2e')).toBe(true);

    const verify = await runCli(env, ['events', 'verify']);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^ok: hash chain intact/);

    await mcp.close();
    started.pop();
    const ended = JSON.parse(
      (await runCli(env, ['events', 'list', '--json', '--type', 'mcp.session_ended'])).stdout,
    ) as StoredEvent<{ session: string; calls: number }>[];
    expect(ended.at(-1)!.data).toMatchObject({ calls: 4 });
  });

  test('trusting the project from the CLI shows up in a running session at once', async () => {
    const mcp = await start([], { cwd: `${project}/app` });
    const before = await mcp.client.callTool({ name: 'get_project_info', arguments: {} });
    expect(before.structuredContent).toMatchObject({ root: project, selected_by: 'cwd' });
    const trust = await runCli(env, ['trust', '--yes', project]);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain(`Trusted ${project}`);
    const after = await mcp.client.callTool({ name: 'get_project_info', arguments: {} });
    expect(after.structuredContent).toMatchObject({ trusted: true });
    expect(after.structuredContent).not.toHaveProperty('trust_hint');
    expect((await runCli(env, ['untrust', project])).code).toBe(0);
  });

  test('--toolsets core --read-only: hidden and unknown tools are JSON-RPC errors naming their toolset and flag; bad arguments are isError results', async () => {
    const mcp = await start(['--toolsets', 'core', '--read-only']);
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(CORE_TOOLS));
    expect(names).not.toContain('run_gradle_task');
    expect(names).not.toContain('install_apk');
    await expect(
      mcp.client.callTool({ name: 'run_gradle_task', arguments: { task: 'assembleDebug' } }),
    ).rejects.toThrow(/"build" toolset.*--toolsets core,build/);
    await expect(mcp.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    const bad = await mcp.client.callTool({ name: 'query_events', arguments: { limit: 0 } });
    expect(bad.isError).toBe(true);
    expect(bad._meta).toMatchObject({ error_code: 'INVALID_ARGUMENT', field: 'limit' });
    expect((bad.content as { text: string }[])[0]!.text).toMatch(/^Invalid arguments for query_events: limit: /);
    // Resources follow the served toolsets too: core is served, so its resources are listed.
    expect((await mcp.client.listResources()).resources.map((r) => r.uri)).toContain('droidwright://project-info');
  });

  test('--toolsets bogus and an empty list exit 2 before anything starts, listing valid names', async () => {
    for (const args of [['--toolsets', 'bogus'], ['--toolsets', ''], ['--toolsets']]) {
      const result = await runCli(env, ['mcp', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/toolset/);
    }
    const bogus = await runCli(env, ['mcp', '--toolsets', 'core,bogus']);
    expect(bogus.stderr).toMatch(/Unknown toolset: bogus\. Valid toolsets: core/);
    const missing = await runCli(env, ['mcp', '--project', `${temp.home}/nope`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such directory/);
  });

  test('stdout carries nothing but JSON-RPC for a whole session; SIGTERM ends and records it', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp'], {
      env: { ...process.env, DROIDWRIGHT_HOME: env.home, ANDROID_ADB_SERVER_PORT: String(env.adbPort) },
      cwd: project,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', () => {});
    const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    const waitFor = async (id: number) => {
      const deadline = Date.now() + 20_000;
      while (!stdout.split('\n').some((l) => l.includes(`"id":${id}`))) {
        if (Date.now() > deadline) throw new Error(`no reply to ${id}: ${stdout}`);
        await sleep(20);
      }
    };
    try {
      send({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      });
      await waitFor(0);
      // A W call in the same write as the handshake's end: its intent is recorded after the session's start.
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'cancel_build', arguments: {} },
        })}\n`,
      );
      send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_health_check', arguments: {} } });
      send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'get_project_info', arguments: { unexpected: 1 } },
      });
      send({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'droidwright://health' } });
      await waitFor(4);
      await waitFor(2);
      await waitFor(5);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await stopPid(child.pid);
    }
    const lines = stdout.split('\n').filter((l) => l.length > 0);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    const init = JSON.parse(lines[0]!) as { result: { protocolVersion: string } };
    expect(init.result.protocolVersion).toBe('2025-06-18');

    const ended = JSON.parse(
      (await runCli(env, ['events', 'list', '--json', '--type', 'mcp.session_*'])).stdout,
    ) as StoredEvent<{ reason?: string; protocol_version?: string; client_name?: string }>[];
    const raw = ended.filter((e) => e.actor.client === 'raw');
    expect(raw.map((e) => e.type)).toEqual(['mcp.session_started', 'mcp.session_ended']);
    expect(raw[0]!.data).toMatchObject({ protocol_version: '2025-06-18', client_name: 'raw' });
    expect(raw[1]!.data.reason).toBe('SIGTERM');
    const session = raw[0]!.actor.session;
    const all = JSON.parse(
      (await runCli(env, ['events', 'list', '--json', '--type', 'mcp.*'])).stdout,
    ) as StoredEvent[];
    const mine = all.filter((e) => e.actor.session === session).sort((a, b) => a.seq - b.seq);
    expect(mine[0]!.type).toBe('mcp.session_started');
    expect(mine.map((e) => e.type)).toContain('mcp.tool_call_started');
    expect(mine.at(-1)!.type).toBe('mcp.session_ended');
  });

  test('started by hand in a terminal, mcp prints help and exits 2 instead of hanging', async () => {
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      // `script` gives the child a pseudo-terminal on stdin.
      const child = spawn('script', ['-qec', `${process.execPath} ${CLI} mcp`, '/dev/null'], {
        env: { ...process.env, DROIDWRIGHT_HOME: env.home, ANDROID_ADB_SERVER_PORT: String(env.adbPort) },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const timer = setTimeout(() => void stopPid(child.pid), 15_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
    expect(result.code).toBe(2);
    expect(result.out).toMatch(/started by an AI client/);
  });
});
