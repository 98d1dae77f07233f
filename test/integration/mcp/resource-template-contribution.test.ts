import { ContainerModule } from 'inversify';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { androidModule } from '../../../src/android/android.module.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { ToolError } from '../../../src/kernel/errors.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import { ResourceTemplateContribution } from '../../../src/kernel/resource-template-contribution.js';
import { defineTool, type AnyToolDefinition } from '../../../src/kernel/tool-definition.js';
import { ToolsetContribution } from '../../../src/kernel/toolset-contribution.js';
import { McpSession } from '../../../src/mcp/mcp-session.js';
import { coreModule } from '../../../src/plugins/core/core.module.js';
import { createTempHome } from '../../support/temp-home.js';

/*
 * A plugin adds its own resource template (as the debug-sessions plugin adds droidwright://sessions/{id})
 * with nothing but a kernel token: served, validated, policy-checked and recorded as its tool's call.
 */

const getWidget = defineTool({
  name: 'get_widget',
  toolset: 'device-admin',
  kind: 'R',
  title: 'Get widget',
  description: 'Reads one widget.',
  input: z.object({
    widget_id: z
      .string()
      .regex(/^w\d+$/)
      .describe('Widget id, w<digits>.'),
  }),
  output: z.object({ id: z.string().describe('Its id.'), colour: z.string().describe('Its colour.') }),
  async handler(args) {
    if (args.widget_id === 'w0') throw new ToolError('NOT_FOUND', 'No widget w0.');
    return { data: { id: args.widget_id, colour: 'blue' }, summary: `widget ${args.widget_id}` };
  },
});

const widgetModule = new ContainerModule(({ bind }) => {
  bind(ToolsetContribution).toConstantValue({
    name: 'device-admin',
    description: 'Widgets, for this test.',
    tools: () => [getWidget as unknown as AnyToolDefinition],
  });
  bind<ResourceTemplateContribution>(ResourceTemplateContribution).toConstantValue({
    uriTemplate: 'droidwright://widgets/{id}',
    name: 'widget',
    title: 'Widget',
    description: 'One widget.',
    mimeType: 'text/plain',
    tool: 'get_widget',
    toolArguments: (v) => ({ widget_id: v.id }),
    render: (data) => `${String(data.id)} is ${String(data.colour)}`,
  });
});

describe('a plugin contributes a resource template', () => {
  const temp = createTempHome('template-contribution');
  afterAll(() => temp.cleanup());

  async function connect(toolsets?: string[]) {
    const container = createContainer({ home: temp.home, cwd: temp.home, readOnly: false, env: process.env }, [
      coreModule,
      androidModule,
      widgetModule,
    ]);
    const session = new McpSession(container, { toolsets, logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await session.connect(serverTransport);
    const client = new Client({ name: 'template-test', version: '1' });
    await client.connect(clientTransport);
    return {
      client,
      session,
      calls: () =>
        container
          .get<EventStoreProvider>(EventStoreProvider)()
          .query({ types: ['mcp.tool_called'], order: 'asc', actorSession: session.sessionId })
          .map((e) => e.data as Record<string, unknown>),
      async close() {
        await client.close();
        await session.close('done');
        disposeContainer(container);
      },
    };
  }

  test('listed and read through its tool; bad variables refused by the tool schema; every read recorded', async () => {
    const h = await connect();
    try {
      const { resourceTemplates } = await h.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        'droidwright://events/{seq}',
        'droidwright://sessions/{id}',
        'droidwright://widgets/{id}',
      ]);
      const read = await h.client.readResource({ uri: 'droidwright://widgets/w7' });
      expect(read.contents).toEqual([{ uri: 'droidwright://widgets/w7', mimeType: 'text/plain', text: 'w7 is blue' }]);
      await expect(h.client.readResource({ uri: 'droidwright://widgets/x%3Brm' })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
      await expect(h.client.readResource({ uri: 'droidwright://widgets/w0' })).rejects.toMatchObject({
        code: -32002,
      });
      expect(h.calls()).toEqual([
        expect.objectContaining({ tool: 'get_widget', outcome: 'ok', arguments: { widget_id: 'w7' } }),
        expect.objectContaining({ tool: 'get_widget', outcome: 'refused', error_code: 'INVALID_ARGUMENT' }),
        expect.objectContaining({ tool: 'get_widget', outcome: 'error', error_code: 'NOT_FOUND' }),
      ]);
    } finally {
      await h.close();
    }
  });

  test('not listed, and refused, when its tool is not served', async () => {
    const h = await connect(['core']);
    try {
      expect((await h.client.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual([
        'event',
        'debug-session',
      ]);
      await expect(h.client.readResource({ uri: 'droidwright://widgets/w7' })).rejects.toThrow(/device-admin/);
    } finally {
      await h.close();
    }
  });
});
