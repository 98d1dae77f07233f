import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContainerModule, type Container } from 'inversify';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, type JSONRPCMessage, type McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
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
let slowTaskRuns = 0;
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
    slowTaskRuns++;
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
const echo = defineTool({
  name: 'get_echo',
  toolset: 'build',
  kind: 'R',
  title: 'Get echo',
  description: 'Returns a text of the asked size.',
  input: z.object({ size: z.number().int().min(0).max(1_000_000).describe('Characters to return.') }),
  output: z.object({
    text: z.string().describe('The text.'),
    items: z.array(z.object({ n: z.number().int().describe('Index.') })).describe('A few items.'),
  }),
  async handler(args) {
    return { data: { text: 'x'.repeat(args.size), items: [{ n: 1 }, { n: 2 }] }, summary: `${args.size} characters` };
  },
});
const tools: AnyToolDefinition[] = [
  slowTask,
  echo,
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

async function connect(
  home: string,
  options: { toolsets?: string[]; readOnly?: boolean } = {},
  clientName = 'adapter-test',
): Promise<Harness> {
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
  const client = new Client({ name: clientName, version: '9.9' });
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

function text(result: object): string {
  return (result as { content: { text: string }[] }).content.map((c) => c.text).join('\n');
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
      expect(slow.title).toBe('Run slow task');
      expect(slow.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        openWorldHint: true,
      });
      expect(slow.inputSchema).toMatchObject({
        type: 'object',
        properties: { steps: { type: 'integer', description: 'Progress steps to report.' } },
        required: ['steps'],
      });
      // Strict input; output describes success only, without zod's safe-integer bounds or field prose.
      expect(slow.inputSchema.additionalProperties).toBe(false);
      expect(slow.outputSchema).toEqual({
        type: 'object',
        properties: { done: { type: 'integer' } },
        required: ['done'],
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

  test('errors: ToolError, invalid args and policy refusals → isError results with the code; bugs → internal error', async () => {
    const h = await connect(temp.home);
    try {
      const failed = await h.client.callTool({ name: 'get_device_state', arguments: {} });
      expect(failed.isError).toBe(true);
      expect((failed.content as { text: string }[])[0]!.text).toBe(
        'No device is online. Start an emulator. (error_code: NO_DEVICE)',
      );
      expect(failed.structuredContent).toBeUndefined();
      expect(failed._meta).toEqual({ error_code: 'NO_DEVICE', details: { port: 5037 } });

      const badArgs = await h.client.callTool({ name: 'run_slow_task', arguments: { steps: 99 } });
      expect(badArgs.isError).toBe(true);
      expect(text(badArgs)).toMatch(
        /^Invalid arguments for run_slow_task: steps: .*10.*\(error_code: INVALID_ARGUMENT\)$/,
      );
      expect(badArgs._meta).toEqual({ error_code: 'INVALID_ARGUMENT', field: 'steps' });

      const wrongType = await h.client.callTool({ name: 'run_slow_task', arguments: { steps: 'three' } });
      expect(text(wrongType)).toMatch(/steps: .*number/);

      const untrusted = await h.client.callTool({ name: 'get_untrusted', arguments: {} });
      expect(untrusted.isError).toBe(true);
      expect(text(untrusted)).toMatch(/not trusted.*\(error_code: PROJECT_NOT_TRUSTED\)/);
      expect(untrusted._meta).toMatchObject({ error_code: 'PROJECT_NOT_TRUSTED' });

      const blocked = await h.client.callTool({ name: 'set_secret', arguments: { secret: 'hunter2', block: true } });
      expect(blocked.isError).toBe(true);
      expect(blocked._meta).toEqual({ error_code: 'TASK_BLOCKED', field: 'block' });
      expect(text(blocked)).toMatch(/Blocked by policy/);

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
    // No project is selected, so no project files; the skill ships with droidwright.
    expect(resources.map((r) => r.uri)).toEqual([
      'droidwright://project-info',
      'droidwright://health',
      'droidwright://skill',
    ]);
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
      expect(ended.map((e) => e.data)).toEqual([{ session: h.session.sessionId, reason: 'test finished', calls: 2 }]);
      const reads = reader
        .get<EventStoreProvider>(EventStoreProvider)()
        .query({ types: ['mcp.tool_called'], actorSession: h.session.sessionId });
      // Newest first: a read of an unknown URI is on record too (a probe is worth seeing).
      expect(reads.map((e) => e.data)).toEqual([
        expect.objectContaining({
          tool: 'resources/read',
          outcome: 'refused',
          error_code: 'NOT_FOUND',
          arguments: { uri: 'droidwright://nope' },
        }),
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

  test('when the log cannot be written, reads still answer and a call that acts is refused before it runs', async () => {
    const home = join(temp.home, 'broken');
    mkdirSync(home);
    writeFileSync(join(home, 'events.db'), 'not a database'.repeat(200));
    const h = await connect(home);
    try {
      const read = await h.client.callTool({ name: 'get_echo', arguments: { size: 3 } });
      expect(read.structuredContent).toEqual({ text: 'xxx', items: [{ n: 1 }, { n: 2 }] });
      expect(h.logs.some((l) => l.includes('could not record mcp.tool_called'))).toBe(true);
      const runsBefore = slowTaskRuns;
      const acting = await h.client.callTool({ name: 'run_slow_task', arguments: { steps: 1 } });
      expect(acting.isError).toBe(true);
      expect(acting._meta).toMatchObject({ error_code: 'STORE_UNAVAILABLE' });
      expect(text(acting)).toMatch(/run_slow_task did not run: .*could not take the record.*Nothing was changed/);
      expect(slowTaskRuns).toBe(runsBefore);
    } finally {
      await h.close();
    }
  });

  test('a call that acts records its intent before the handler runs, and its outcome linked to it', async () => {
    const h = await connect(temp.home);
    try {
      await h.client.callTool({ name: 'set_secret', arguments: { secret: 'pa55' } });
      await h.client.callTool({ name: 'get_echo', arguments: { size: 1 } });
      const events = store(h).query({ order: 'asc', actorSession: h.session.sessionId, types: ['mcp.tool_*'] });
      expect(events.map((e) => [e.type, (e.data as { tool: string }).tool])).toEqual([
        ['mcp.tool_call_started', 'set_secret'],
        ['mcp.tool_called', 'set_secret'],
        ['mcp.tool_called', 'get_echo'],
      ]);
      const [intent, outcome, read] = events;
      expect(intent!.data).toMatchObject({ tool: 'set_secret', kind: 'W', arguments: { secret: { redacted: true } } });
      expect(outcome!.correlation).toBe(intent!.id);
      expect(read!.correlation).toBeNull();
    } finally {
      await h.close();
    }
  });

  test('unknown argument keys are refused by name, and a 5 MB argument is recorded bounded', async () => {
    const h = await connect(temp.home);
    try {
      const runsBefore = slowTaskRuns;
      const unknown = await h.client.callTool({
        name: 'run_slow_task',
        arguments: { steps: 1, device_serial: 'emulator-5554' },
      });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toMatch(/unknown argument "device_serial".*remove it/);
      expect(unknown._meta).toEqual({ error_code: 'INVALID_ARGUMENT', field: 'device_serial' });

      const huge = 'A'.repeat(5 * 1024 * 1024);
      const oversized = await h.client.callTool({ name: 'run_slow_task', arguments: { steps: 1, blob: huge } });
      expect(oversized.isError).toBe(true);
      expect(text(oversized)).toMatch(/unknown argument "blob"/);
      expect(slowTaskRuns).toBe(runsBefore);

      const secret = await h.client.callTool({ name: 'set_secret', arguments: { secret: huge } });
      expect(secret.structuredContent).toEqual({ length: huge.length });

      const calls = toolCalls(h);
      expect(calls.map((c) => [c.tool, c.outcome, c.error_code])).toEqual([
        ['run_slow_task', 'refused', 'INVALID_ARGUMENT'],
        ['run_slow_task', 'refused', 'INVALID_ARGUMENT'],
        ['set_secret', 'ok', null],
      ]);
      expect(calls[1]!.arguments.blob).toMatchObject({ truncated: true, length: huge.length, head: 'A'.repeat(64) });
      for (const event of store(h).query({ actorSession: h.session.sessionId, limit: 100 }))
        expect(JSON.stringify(event.data).length).toBeLessThan(16 * 1024);
    } finally {
      await h.close();
    }
  });

  test('a response over 128 KiB on the wire is withheld as RESPONSE_TOO_LARGE; text is a compact rendering', async () => {
    const h = await connect(temp.home);
    try {
      const small = await h.client.callTool({ name: 'get_echo', arguments: { size: 5 } });
      expect(text(small)).toBe('5 characters\ntext: xxxxx\nitems (2):\n- n=1\n- n=2');
      // Fits: the text rendering is cut so structured + text stay under the bound.
      const fits = await h.client.callTool({ name: 'get_echo', arguments: { size: 100_000 } });
      expect(fits.isError).toBeFalsy();
      expect(Buffer.byteLength(JSON.stringify(fits))).toBeLessThanOrEqual(128 * 1024);
      expect(text(fits)).toMatch(/text cut here; structuredContent holds the complete result/);
      const tooBig = await h.client.callTool({ name: 'get_echo', arguments: { size: 200_000 } });
      expect(tooBig.isError).toBe(true);
      expect(tooBig._meta).toEqual({ error_code: 'RESPONSE_TOO_LARGE' });
      expect(Buffer.byteLength(JSON.stringify(tooBig))).toBeLessThan(2048);
      expect(h.logs.some((l) => l.includes('get_echo produced a') && l.includes('droidwright bug'))).toBe(true);
      expect(toolCalls(h).at(-1)).toMatchObject({
        tool: 'get_echo',
        outcome: 'error',
        error_code: 'RESPONSE_TOO_LARGE',
      });
    } finally {
      await h.close();
    }
  });

  test('a client name of 10,000 characters is recorded cut, and its calls are recorded', async () => {
    const h = await connect(temp.home, {}, 'n'.repeat(10_000));
    try {
      const result = await h.client.callTool({ name: 'set_secret', arguments: { secret: 'x' } });
      expect(result.isError).toBeFalsy();
      const started = await until(() => {
        const found = store(h).query({ types: ['mcp.session_started'], actorSession: h.session.sessionId });
        return found.length > 0 ? found : undefined;
      });
      const name = (started[0]!.data as { client_name: string }).client_name;
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
      expect(name.startsWith('nnnn')).toBe(true);
      expect(toolCalls(h).map((c) => [c.tool, c.outcome])).toEqual([['set_secret', 'ok']]);
    } finally {
      await h.close();
    }
  });

  test('resources follow --toolsets; resources/templates/list lists only templates whose tools are served', async () => {
    const h = await connect(temp.home, { toolsets: ['build'] });
    try {
      // The skill reads no tool, so it is always there; the reports and the event template need core.
      expect((await h.client.listResources()).resources.map((r) => r.uri)).toEqual(['droidwright://skill']);
      expect((await h.client.listResourceTemplates()).resourceTemplates).toEqual([]);
      await expect(h.client.readResource({ uri: 'droidwright://project-info' })).rejects.toThrow(
        /"core" toolset.*--toolsets build,core/,
      );
      expect(toolCalls(h).at(-1)).toMatchObject({
        tool: 'get_project_info',
        outcome: 'refused',
        error_code: 'TOOL_DISABLED',
      });
    } finally {
      await h.close();
    }
  });
});

describe('MCP adapter: the protocol itself (raw JSON-RPC over InMemoryTransport)', () => {
  const temp = createTempHome('adapter-raw');
  afterAll(() => temp.cleanup());

  async function raw() {
    const container = createContainer({ home: temp.home, cwd: temp.home, readOnly: false, env: process.env }, [
      coreModule,
      androidModule,
      testModule,
    ]);
    const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    const session = new McpSession(container, { logger: quiet });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const replies = new Map<number, JSONRPCMessage>();
    clientSide.onmessage = (message) => {
      if ('id' in message) replies.set(message.id as number, message);
    };
    await clientSide.start();
    await session.connect(serverSide);
    let nextId = 1;
    return {
      async request(method: string, params?: unknown): Promise<any> {
        const id = nextId++;
        await clientSide.send({
          jsonrpc: '2.0',
          id,
          method,
          ...(params !== undefined ? { params } : {}),
        } as JSONRPCMessage);
        return until(() => replies.get(id));
      },
      notify: (method: string) => clientSide.send({ jsonrpc: '2.0', method } as JSONRPCMessage),
      async close() {
        await session.close('test finished');
        disposeContainer(container);
      },
    };
  }

  const initialize = {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  };

  test('tools/call and resources/read before the handshake are refused and nothing runs', async () => {
    const c = await raw();
    try {
      const runsBefore = slowTaskRuns;
      const early = await c.request('tools/call', { name: 'run_slow_task', arguments: { steps: 1 } });
      expect(early.error.code).toBe(-32600);
      expect(early.error.message).toMatch(/before the MCP handshake completed/);
      expect((await c.request('initialize', initialize)).result.serverInfo.name).toBe('droidwright');
      const beforeInitialized = await c.request('resources/read', { uri: 'droidwright://project-info' });
      expect(beforeInitialized.error.code).toBe(-32600);
      expect(slowTaskRuns).toBe(runsBefore);
      await c.notify('notifications/initialized');
      const now = await c.request('tools/call', { name: 'run_slow_task', arguments: { steps: 1 } });
      expect(now.result.structuredContent).toEqual({ done: 1 });
    } finally {
      await c.close();
    }
  });

  test('malformed built-in requests get -32602 in one readable line', async () => {
    const c = await raw();
    try {
      const noVersion = await c.request('initialize', { capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
      expect(noVersion.error.code).toBe(-32602);
      expect(noVersion.error.message).toMatch(/^Invalid initialize request: params\.protocolVersion: [^\n]+\.$/);
      await c.request('initialize', initialize);
      await c.notify('notifications/initialized');
      const noName = await c.request('tools/call', { arguments: {} });
      expect(noName.error.code).toBe(-32602);
      expect(noName.error.message).toMatch(/^Invalid tools\/call request: params\.name: [^\n]+\.$/);
      expect((await c.request('ping')).result).toEqual({});
    } finally {
      await c.close();
    }
  });
});
