import {
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { CatalogFront } from '../../../src/mcp/catalog-front.js';
import { SERVER_CAPABILITIES, type ToolCatalog } from '../../../src/mcp/tool-catalog.js';
import type { ServedTools } from '../../../src/mcp/toolset-selection.js';

const published = (name: string) => ({
  name,
  title: name,
  description: `${name} does it.`,
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: { type: 'object', properties: { ok: {} } },
  annotations: { readOnlyHint: true, openWorldHint: false },
});

const catalog: ToolCatalog = {
  version: '0.0.0',
  protocol: { latest: LATEST_PROTOCOL_VERSION, supported: [...SUPPORTED_PROTOCOL_VERSIONS] },
  toolsets: [
    { name: 'core', description: 'Core.', tools: [{ name: 'get_a', kind: 'R', published: published('get_a') }] },
    { name: 'build', description: 'Build.', tools: [{ name: 'run_b', kind: 'O', published: published('run_b') }] },
  ],
};

function harness(served: ServedTools = { toolsets: ['core', 'build'], hidden: [], readOnly: false }) {
  const written: unknown[] = [];
  const handedOver: { replay: string; dropReplyTo: string | undefined; forwarded: string[] }[] = [];
  const front = new CatalogFront({
    catalog,
    served,
    serverInfo: { name: 'droidwright', version: '0.0.0' },
    instructions: 'Use the tools.',
    write: (line) => written.push(JSON.parse(line)),
    handOver: (replay, dropReplyTo) => {
      const record = { replay, dropReplyTo, forwarded: [] as string[] };
      handedOver.push(record);
      return (text) => record.forwarded.push(text);
    },
  });
  const send = (message: unknown) => front.push(`${JSON.stringify(message)}\n`);
  return { front, written, handedOver, send };
}

const initialize = (params: unknown, id: unknown = 0) => ({ jsonrpc: '2.0', id, method: 'initialize', params });
const plainParams = {
  protocolVersion: '2025-06-18',
  capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} },
  clientInfo: { name: 'claude-code', version: '2.0.0' },
};

describe('CatalogFront answers the start of a session from the catalog', () => {
  test('initialize, initialized, ping and tools/list, as the SDK server would answer them', () => {
    const h = harness();
    h.send(initialize(plainParams));
    h.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    h.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    h.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(h.handedOver).toEqual([]);
    expect(h.front.handshakeComplete).toBe(true);
    expect(h.written).toEqual([
      {
        result: {
          protocolVersion: '2025-06-18',
          capabilities: SERVER_CAPABILITIES,
          serverInfo: { name: 'droidwright', version: '0.0.0' },
          instructions: 'Use the tools.',
        },
        jsonrpc: '2.0',
        id: 0,
      },
      { result: {}, jsonrpc: '2.0', id: 'p' },
      { result: { tools: [published('get_a'), published('run_b')] }, jsonrpc: '2.0', id: 1 },
    ]);
  });

  test('an unsupported protocol version gets the latest; --read-only and --toolsets filter the list', () => {
    const h = harness({ toolsets: ['core'], hidden: ['build'], readOnly: true });
    h.send(initialize({ ...plainParams, protocolVersion: '1999-01-01' }));
    h.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x' } });
    expect((h.written[0] as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      LATEST_PROTOCOL_VERSION,
    );
    expect(h.written[1]).toEqual({ result: { tools: [published('get_a')] }, jsonrpc: '2.0', id: 1 });
  });

  test('a line split across reads and CRLF endings are read as the SDK reads them', () => {
    const h = harness();
    const line = JSON.stringify(initialize(plainParams));
    h.front.push(line.slice(0, 10));
    h.front.push(`${line.slice(10)}\r\n`);
    expect(h.written).toHaveLength(1);
  });

  test('every initialize it answers is one the SDK schema accepts', () => {
    const accepted = [
      plainParams,
      { ...plainParams, capabilities: {} },
      { ...plainParams, capabilities: { experimental: { x: {} }, extensions: { 'a/b': {} } } },
      { ...plainParams, clientInfo: { name: 'n', version: 'v', title: 't' } },
      { ...plainParams, capabilities: { elicitation: { form: {} }, sampling: { tools: {}, context: {} } } },
    ];
    for (const params of accepted) {
      const h = harness();
      h.send(initialize(params));
      expect(h.handedOver).toEqual([]);
      expect(InitializeRequestSchema.safeParse(initialize(params)).success).toBe(true);
    }
  });
});

describe('CatalogFront hands anything else to the full server, unchanged and in order', () => {
  test.each([
    ['no protocol version', initialize({ capabilities: {}, clientInfo: { name: 'n', version: 'v' } })],
    ['no client info', initialize({ protocolVersion: '2025-06-18', capabilities: {} })],
    ['icons in client info', initialize({ ...plainParams, clientInfo: { name: 'n', version: 'v', icons: [] } })],
    ['a tasks capability', initialize({ ...plainParams, capabilities: { tasks: {} } })],
    ['roots.listChanged not a boolean', initialize({ ...plainParams, capabilities: { roots: { listChanged: 1 } } })],
    ['_meta in params', initialize({ ...plainParams, _meta: { progressToken: 1 } })],
    ['a fractional id', initialize(plainParams, 1.5)],
    ['a null id', initialize(plainParams, null)],
    ['a call before the handshake', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_a' } }],
    ['resources/list', { jsonrpc: '2.0', id: 1, method: 'resources/list' }],
    ['prompts/list', { jsonrpc: '2.0', id: 1, method: 'prompts/list' }],
    ['tools/list with _meta', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: {} } }],
    ['ping with params', { jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 1 } }],
    ['initialized before initialize', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['a response', { jsonrpc: '2.0', id: 1, result: {} }],
    ['another JSON-RPC version', { jsonrpc: '1.0', id: 1, method: 'ping' }],
    ['an extra top-level key', { jsonrpc: '2.0', id: 1, method: 'ping', extra: true }],
  ])('%s', (_why, message) => {
    const h = harness();
    const line = `${JSON.stringify(message)}\n`;
    h.front.push(`${line}{"jsonrpc":"2.0","id":9,`);
    h.front.push('"method":"ping"}\n');
    expect(h.written).toEqual([]);
    expect(h.handedOver).toEqual([
      { replay: '', dropReplyTo: undefined, forwarded: [`${line}{"jsonrpc":"2.0","id":9,`, '"method":"ping"}\n'] },
    ]);
  });

  test('text that is not JSON is handed over as it came', () => {
    const h = harness();
    h.front.push('not json\n');
    expect(h.handedOver[0]!.forwarded).toEqual(['not json\n']);
  });

  test('after the handshake it replays the initialize under a private id, then the initialized notification', () => {
    const h = harness();
    h.send(initialize(plainParams, 'client-id'));
    h.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    h.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_a', arguments: {} } });
    h.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    const [over] = h.handedOver;
    const replayed = over!.replay
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(replayed).toEqual([
      { ...initialize(plainParams, over!.dropReplyTo) },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(over!.dropReplyTo).toMatch(/^droidwright-front-initialize-/);
    expect(over!.forwarded.map((t) => JSON.parse(t).id)).toEqual([2, 3]);
    // Only the initialize was answered here.
    expect(h.written).toHaveLength(1);
  });

  test('a second initialize is the full server to answer', () => {
    const h = harness();
    h.send(initialize(plainParams, 1));
    h.send(initialize(plainParams, 2));
    expect(h.written).toHaveLength(1);
    expect(h.handedOver).toHaveLength(1);
    expect(JSON.parse(h.handedOver[0]!.forwarded[0]!).id).toBe(2);
  });

  test('handOver() with nothing pending replays and forwards what comes next', () => {
    const h = harness();
    h.send(initialize(plainParams));
    h.front.handOver();
    h.front.handOver();
    h.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(h.handedOver).toHaveLength(1);
    expect(h.handedOver[0]!.forwarded.map((t) => JSON.parse(t).id)).toEqual([5]);
    expect(h.written).toHaveLength(1);
  });
});
