import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContainerModule, type Container } from 'inversify';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, type McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { InvalidArgumentsError, ToolError } from '../../../src/kernel/errors.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { ToolCallPolicy } from '../../../src/kernel/tool-call-policy.js';
import { defineTool, type AnyToolDefinition, type Logger } from '../../../src/kernel/tool-definition.js';
import { ToolsetContribution } from '../../../src/kernel/toolset-contribution.js';
import { McpSession } from '../../../src/mcp/mcp-session.js';
import { androidModule } from '../../../src/android/android.module.js';
import { coreModule } from '../../../src/plugins/core/core.module.js';
import { createTempHome } from '../../support/temp-home.js';
import { sleep } from '../../support/wait.js';

/** A throwaway "build" toolset exercising every path through the adapter. */
const slowTask = defineTool({
  name: 'run_slow_task',
  toolset: 'build',
  kind: 'O',
  title: 'Run slow task',
  description: 'Reports progress, then waits until cancelled or told to finish.',
  input: z.object({
    steps: z.number().int().min(1).max(10).describe('Progress steps to report.'),
    wait: z.boolean().default(false).describe('Wait for cancellation.'),
  }),
  output: z.object({ done: z.number().int().describe('Steps done.') }),
  async handler(args, ctx) {
    for (let i = 1; i <= args.steps; i++) await ctx.progress({ progress: i, total: args.steps, message: `step ${i}` });
    await ctx.progress({ progress: 1 }); // stale: dropped, not an error
    if (args.wait) {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    }
    return { data: { done: args.steps }, summary: `${args.steps} steps` };
  },
});
const secretTool = defineTool({
  name: 'set_secret',
  toolset: 'build',
  kind: 'W',
  title: 'Set secret',
  description: 'Takes a sensitive argument.',
  input: z.object({
    secret: z.string().describe('Sensitive.'),
    block: z.boolean().default(false).describe('Ask the policy to refuse.'),
  }),
  output: z.object({ length: z.number().int().describe('Length.') }),
  sensitive: ['secret'],
  async handler(args) {
    return { data: { length: args.secret.length }, summary: 'stored' };
  },
});
const failing = (name: string, error: () => Error, output?: unknown) =>
  defineTool({
    name,
    toolset: 'build',
    kind: 'R',
    title: name,
    description: 'Fails on purpose.',
    input: z.object({}),
    output: z.object({ ok: z.boolean().describe('Never true.') }),
    async handler() {
      if (output !== undefined) return { data: output as { ok: boolean }, summary: 'bad' };
      throw error();
    },
  });
const tools: AnyToolDefinition[] = [
  slowTask,
  secretTool,
  failing(
    'get_device_state',
    () => new ToolError('NO_DEVICE', 'No device is online. Start an emulator.', { port: 5037 }),
  ),
  failing(
    'get_untrusted',
    () =>
      new InvalidArgumentsError(
        'The project is not trusted. Ask the user to run droidwright trust.',
        'PROJECT_NOT_TRUSTED',
      ),
  ),
  failing('get_bug', () => new Error('boom')),
  failing('get_bad_output', () => new Error('unused'), { ok: 'yes' }),
];

const testModule = new ContainerModule(({ bind }) => {
  bind<ToolsetContribution>(ToolsetContribution).toConstantValue({
    name: 'build',
    description: 'Test build tools.',
    tools: () => tools,
  });
  bind<ToolCallPolicy>(ToolCallPolicy).toConstantValue({
    check: ({ args }) => {
      if (args.block === true) throw new InvalidArgumentsError('Blocked by policy.', 'TASK_BLOCKED', 'block');
    },
  });
});

interface Harness {
  client: Client;
  session: McpSession;
  container: Container;
  logs: string[];
  close(): Promise<void>;
}

async function connect(home: string, options: { toolsets?: string[]; readOnly?: boolean } = {}): Promise<Harness> {
  const container = createContainer({ home, cwd: home, readOnly: false, env: process.env }, [
    coreModule,
    androidModule,
    testModule,
  ]);
  const logs: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: (m) => logs.push(m),
    warn: (m) => logs.push(m),
    error: (m) => logs.push(m),
  };
  const session = new McpSession(container, { ...options, logger });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await session.connect(serverTransport);
  const client = new Client({ name: 'adapter-test', version: '9.9' });
  await client.connect(clientTransport);
  return {
    client,
    session,
    container,
    logs,
    async close() {
      await client.close();
      await session.close('test finished');
      disposeContainer(container);
    },
  };
}

function store(h: Harness) {
  return h.container.get<EventStoreProvider>(EventStoreProvider)();
}

function toolCalls(h: Harness) {
  return store(h)
    .query({ types: ['mcp.tool_called'], order: 'asc', actorSession: h.session.sessionId })
    .map(
      (e) =>
        e.data as {
          tool: string;
          outcome: string;
          error_code: string | null;
          arguments: Record<string, unknown>;
          summary: string;
        },
    );
}

async function until<T>(fn: () => T | undefined, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    return error as McpError;
  }
  throw new Error('expected a JSON-RPC error');
}

describe('MCP adapter in-process (InMemoryTransport)', () => {
  const temp = createTempHome('adapter');
  afterAll(() => temp.cleanup());

  test('lists tools with schemas and kind annotations; records the session start', async () => {
    const h = await connect(temp.home);
    try {
      const { tools: listed } = await h.client.listTools();
      const slow = listed.find((t) => t.name === 'run_slow_task')!;
      expect(slow.annotations).toEqual({
        title: 'Run slow task',
        readOnlyHint: false,
        destructiveHint: true,
        openWorldHint: true,
      });
      expect(slow.inputSchema).toMatchObject({
        type: 'object',
        properties: { steps: { type: 'integer', description: 'Progress steps to report.' } },
        required: ['steps'],
      });
      expect(slow.outputSchema).toMatchObject({
        type: 'object',
        anyOf: [
          { type: 'object', properties: { done: { type: 'integer' } } },
          { properties: { error_code: { type: 'string' } }, required: ['error_code', 'message'] },
        ],
      });
      expect(listed.map((t) => t.name)).toContain('get_project_info');
      expect(h.client.getServerVersion()).toMatchObject({ name: 'droidwright' });
      expect(h.client.getInstructions()).toContain('- build (');
      // Recorded just after the handshake replies, so the first tools/list never waits for the log.
      const started = await until(() => {
        const found = store(h).query({ types: ['mcp.session_started'], actorSession: h.session.sessionId });
        return found.length > 0 ? found : undefined;
      });
      expect(started[0]!.data).toMatchObject({
        client_name: 'adapter-test',
        client_version: '9.9',
        toolsets: ['core', 'build'],
        read_only: false,
        pid: process.pid,
      });
      expect(typeof (started[0]!.data as { protocol_version: string }).protocol_version).toBe('string');
    } finally {
      await h.close();
    }
  });

  test('progress notifications reach the client when it asks for them', async () => {
    const h = await connect(temp.home);
    try {
      const seen: Progress[] = [];
      const result = await h.client.callTool({ name: 'run_slow_task', arguments: { steps: 3 } }, undefined, {
        onprogress: (p) => seen.push(p),
      });
      expect(result.structuredContent).toEqual({ done: 3 });
      expect((result.content as { text: string }[])[0]!.text.split('\n')[0]).toBe('3 steps');
      await until(() => (seen.length === 3 ? true : undefined));
      expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual([
        [1, 3, 'step 1'],
        [2, 3, 'step 2'],
        [3, 3, 'step 3'],
      ]);
      expect(toolCalls(h).at(-1)).toMatchObject({ tool: 'run_slow_task', outcome: 'ok', summary: '3 steps' });
    } finally {
      await h.close();
    }
  });

  test('notifications/cancelled aborts ctx.signal and is recorded as cancelled', async () => {
    const h = await connect(temp.home);
    try {
      const controller = new AbortController();
      const call = h.client.callTool({ name: 'run_slow_task', arguments: { steps: 1, wait: true } }, undefined, {
        signal: controller.signal,
        // Abort once the handler is known to be running (it reported progress).
        onprogress: () => setTimeout(() => controller.abort(), 10),
      });
      await expect(call).rejects.toThrow();
      const record = await until(() => toolCalls(h).find((c) => c.tool === 'run_slow_task'));
      expect(record).toMatchObject({ outcome: 'cancelled', error_code: 'CANCELLED' });
    } finally {
      await h.close();
    }
  });

  test('errors: ToolError → isError result; invalid args and policy → invalid params; bugs → internal error', async () => {
    const h = await connect(temp.home);
    try {
      const failed = await h.client.callTool({ name: 'get_device_state', arguments: {} });
      expect(failed.isError).toBe(true);
      expect((failed.content as { text: string }[])[0]!.text).toBe(
        'No device is online. Start an emulator. (error_code: NO_DEVICE)',
      );
      expect(failed.structuredContent).toEqual({
        error_code: 'NO_DEVICE',
        message: 'No device is online. Start an emulator.',
        details: { port: 5037 },
      });

      const badArgs = await rpcError(h.client.callTool({ name: 'run_slow_task', arguments: { steps: 99 } }));
      expect(badArgs.code).toBe(ErrorCode.InvalidParams);
      expect(badArgs.message).toMatch(/Invalid arguments for run_slow_task: steps: /);

      const untrusted = await rpcError(h.client.callTool({ name: 'get_untrusted', arguments: {} }));
      expect(untrusted.code).toBe(ErrorCode.InvalidParams);
      expect(untrusted.message).toMatch(/not trusted/);

      const blocked = await rpcError(
        h.client.callTool({ name: 'set_secret', arguments: { secret: 'hunter2', block: true } }),
      );
      expect(blocked.code).toBe(ErrorCode.InvalidParams);
      expect(blocked.message).toMatch(/Blocked by policy/);

      const bug = await rpcError(h.client.callTool({ name: 'get_bug', arguments: {} }));
      expect(bug.code).toBe(ErrorCode.InternalError);
      expect(h.logs.some((l) => l.includes('internal error in get_bug') && l.includes('boom'))).toBe(true);

      const badOutput = await rpcError(h.client.callTool({ name: 'get_bad_output', arguments: {} }));
      expect(badOutput.code).toBe(ErrorCode.InternalError);

      const unknown = await rpcError(h.client.callTool({ name: 'no_such_tool', arguments: {} }));
      expect(unknown.code).toBe(ErrorCode.InvalidParams);

      expect(toolCalls(h).map((c) => [c.tool, c.outcome, c.error_code])).toEqual([
        ['get_device_state', 'error', 'NO_DEVICE'],
        ['run_slow_task', 'refused', 'INVALID_ARGUMENT'],
        ['get_untrusted', 'refused', 'PROJECT_NOT_TRUSTED'],
        ['set_secret', 'refused', 'TASK_BLOCKED'],
        ['get_bug', 'error', 'INTERNAL'],
        ['get_bad_output', 'error', 'INTERNAL'],
        ['no_such_tool', 'refused', 'NOT_FOUND'],
      ]);
      // The sensitive argument is fingerprinted, never stored.
      const secret = toolCalls(h).find((c) => c.tool === 'set_secret')!;
      expect(secret.arguments.secret).toMatchObject({ redacted: true, length: 7 });
      expect(JSON.stringify(store(h).query({ limit: 1000 }))).not.toContain('hunter2');
    } finally {
      await h.close();
    }
  });

  test('hidden tools are absent from tools/list and refused with the toolset and the flag; read-only hides writers', async () => {
    const h = await connect(temp.home, { toolsets: ['core'] });
    try {
      const names = (await h.client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('run_slow_task');
      const refused = await rpcError(h.client.callTool({ name: 'run_slow_task', arguments: { steps: 1 } }));
      expect(refused.code).toBe(ErrorCode.InvalidParams);
      expect(refused.message).toMatch(/"build" toolset.*--toolsets core,build/);
      expect(h.client.getInstructions()).toContain('Hidden toolsets: build');
      expect(toolCalls(h).at(-1)).toMatchObject({
        tool: 'run_slow_task',
        outcome: 'refused',
        error_code: 'TOOL_DISABLED',
      });
    } finally {
      await h.close();
    }
    const ro = await connect(temp.home, { readOnly: true });
    try {
      const names = (await ro.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('get_device_state');
      expect(names).not.toContain('set_secret');
      const refused = await rpcError(ro.client.callTool({ name: 'set_secret', arguments: { secret: 'x' } }));
      expect(refused.message).toMatch(/--read-only/);
    } finally {
      await ro.close();
    }
  });

  test('session end is recorded once; resources return the project-info and health JSON, and reads are audited', async () => {
    const h = await connect(temp.home);
    const { resources } = await h.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['droidwright://project-info', 'droidwright://health']);
    const info = await h.client.readResource({ uri: 'droidwright://project-info' });
    expect(JSON.parse((info.contents[0] as { text: string }).text)).toMatchObject({
      selected_by: 'none',
      data_dir: temp.home,
    });
    await expect(h.client.readResource({ uri: 'droidwright://nope' })).rejects.toThrow(/Unknown resource/);
    await h.close();
    await h.session.close('again');
    const reader = createContainer({ home: temp.home, cwd: temp.home, readOnly: false, env: process.env }, [
      coreModule,
      androidModule,
    ]);
    try {
      const ended = reader
        .get<EventStoreProvider>(EventStoreProvider)()
        .query({ types: ['mcp.session_ended'], actorSession: h.session.sessionId });
      expect(ended.map((e) => e.data)).toEqual([{ session: h.session.sessionId, reason: 'test finished', calls: 1 }]);
      const reads = reader
        .get<EventStoreProvider>(EventStoreProvider)()
        .query({ types: ['mcp.tool_called'], actorSession: h.session.sessionId });
      expect(reads.map((e) => e.data)).toEqual([
        expect.objectContaining({
          tool: 'get_project_info',
          outcome: 'ok',
          summary: expect.stringContaining('resource droidwright://project-info'),
        }),
      ]);
    } finally {
      disposeContainer(reader);
    }
  });

  test('when the log cannot be written, calls still answer and the failure goes to the logger', async () => {
    const home = join(temp.home, 'broken');
    mkdirSync(home);
    writeFileSync(join(home, 'events.db'), 'not a database'.repeat(200));
    const h = await connect(home);
    try {
      const result = await h.client.callTool({ name: 'run_slow_task', arguments: { steps: 1 } });
      expect(result.structuredContent).toEqual({ done: 1 });
      expect(h.logs.some((l) => l.includes('could not record mcp.tool_called'))).toBe(true);
    } finally {
      await h.close();
    }
  });
});
