import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { ToolRegistry } from '../../../src/kernel/tool-registry.js';
import { buildToolCatalog } from '../../../src/mcp/build-tool-catalog.js';
import { McpSession } from '../../../src/mcp/mcp-session.js';
import { catalogFromRegistry } from '../../../src/mcp/tool-catalog-generator.js';
import { pluginModules } from '../../../src/plugins/index.js';
import { assertBuilt, freePort, REPO_ROOT, startMcpClient, type CliEnv } from '../../support/mcp-client.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** What an SDK client sees of a session: the handshake's answer and the full tool list. */
async function seen(client: Client) {
  const { tools } = await client.listTools();
  const { resources } = await client.listResources();
  return {
    server: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
    instructions: client.getInstructions(),
    tools,
    resources,
  };
}

describe('the build-time tool catalog', () => {
  const temp = createTempHome('tool-catalog');
  let env: CliEnv;
  let project: string;
  beforeAll(async () => {
    env = { home: temp.home, adbPort: await freePort() };
    project = createFakeGradleProject(temp.home, 'demo');
  });
  afterAll(() => temp.cleanup());

  test('dist/tool-catalog.json is what the live registry of every plugin publishes, whatever the project', () => {
    assertBuilt();
    const built = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'tool-catalog.json'), 'utf8')) as unknown;
    expect(buildToolCatalog()).toEqual(built);
    // In a project, with this process's environment, the tools publish the same.
    const container = createContainer(
      { home: temp.home, cwd: project, readOnly: false, env: process.env },
      pluginModules,
    );
    try {
      expect(catalogFromRegistry(container.get(ToolRegistry))).toEqual(built);
    } finally {
      disposeContainer(container);
    }
  });

  test.each([
    [[]],
    [['--toolsets', 'core,build']],
    [['--read-only']],
    [['--toolsets', 'core,logcat', '--read-only']],
    [['--confirm', 'destructive']],
  ])(
    'droidwright mcp %j answers the handshake and the lists from the catalog exactly as the live session would',
    async (args: string[]) => {
      const mcp = await startMcpClient(env, ['--project', project, ...args]);
      let fromCatalog: Awaited<ReturnType<typeof seen>>;
      try {
        fromCatalog = await seen(mcp.client);
      } finally {
        await mcp.close();
      }
      const flag = (name: string) => args[args.indexOf(name) + 1];
      const container = createContainer(
        { home: temp.home, cwd: temp.home, projectPath: project, readOnly: false, env: process.env },
        pluginModules,
      );
      const session = new McpSession(container, {
        ...(args.includes('--toolsets') ? { toolsets: flag('--toolsets')!.split(',') } : {}),
        readOnly: args.includes('--read-only'),
        ...(args.includes('--confirm') ? { confirm: flag('--confirm') as 'destructive' } : {}),
        logger: quiet,
      });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'droidwright-e2e', version: '1.2.3' });
      try {
        await session.connect(serverTransport);
        await client.connect(clientTransport);
        const live = await seen(client);
        expect(fromCatalog).toEqual(live);
        expect(fromCatalog.tools.length).toBeGreaterThan(0);
      } finally {
        await client.close();
        await session.close('test finished');
        disposeContainer(container);
      }
    },
    60_000,
  );
});
