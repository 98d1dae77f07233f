import type { Container } from 'inversify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createContainer, disposeContainer } from '../../../src/kernel/composition-root.js';
import { EventStoreProvider } from '../../../src/kernel/event-store-provider.js';
import type { Logger } from '../../../src/kernel/tool-definition.js';
import { McpSession } from '../../../src/mcp/mcp-session.js';
import { pluginModules } from '../../../src/plugins/index.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { isAlive, sleep } from '../../support/wait.js';
import { commandCount, commandsRun } from '../android/support.js';

/*
 * Record before acting on a PostgreSQL log whose server is down: a call that would change a device is refused with
 * STORE_UNAVAILABLE naming the server, nothing reaches the (simulated) device, a read names the server too, nothing
 * is queued to be written later, and once the server is back the same call records its intent and runs.
 */

type CallResult = { isError?: boolean; content: { text: string }[]; _meta?: Record<string, unknown> };

let temp: { home: string; cleanup(): void };
let cluster: PostgresCluster;
let url: string;
let adb: TestAdbServer;
let phone: RunningSimulatedDevice;
let container: Container;
let session: McpSession;
let client: Client;
const logs: string[] = [];

beforeAll(async () => {
  temp = createTempHome('pg-unavailable');
  cluster = await startPostgresCluster();
  // trust authentication ignores the password: it is here to prove it is never shown.
  url = cluster.createDatabase('droidwright_mcp').replace('postgres@', 'postgres:s3cret-pw@');
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
  const project = createFakeGradleProject(temp.home, 'notes', { applicationId: 'com.example.notes' });
  container = createContainer(
    {
      home: temp.home,
      store: url,
      cwd: project,
      projectPath: project,
      readOnly: false,
      env: { ...process.env, ANDROID_ADB_SERVER_PORT: String(adb.port) },
    },
    pluginModules,
  );
  const logger: Logger = { debug() {}, info() {}, warn: (m) => logs.push(m), error: (m) => logs.push(m) };
  session = new McpSession(container, { logger, intentWaitMs: 1500 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.connect(serverSide);
  client = new Client({ name: 'pg-down-test', version: '1' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await session?.close('test finished');
  if (container) disposeContainer(container);
  await phone?.stop();
  await adb?.stop();
  cluster?.stop();
  temp?.cleanup();
});

async function stopServer(): Promise<void> {
  const pid = cluster.pid();
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  expect(isAlive(pid)).toBe(false);
}

test('server down: a W call is refused before acting, reads fail naming the server, nothing is queued; back up, it runs', async () => {
  const store = container.get<EventStoreProvider>(EventStoreProvider)();
  expect(store.kind).toBe('postgres');
  const warm = (await client.callTool({
    name: 'stop_app',
    arguments: { package: 'com.example.notes' },
  })) as CallResult;
  expect(warm.isError).toBeFalsy();
  const location = `postgres@127.0.0.1:${cluster.port}/`;

  await stopServer();
  const before = commandCount(phone);
  const refused = (await client.callTool({
    name: 'stop_app',
    arguments: { package: 'com.example.notes' },
  })) as CallResult;
  expect(refused.isError).toBe(true);
  expect(refused._meta).toMatchObject({ error_code: 'STORE_UNAVAILABLE' });
  expect(refused.content[0]!.text).toMatch(/stop_app did not run: .*could not take the record/);
  expect(refused.content[0]!.text).toContain(location);
  // Record before acting: the device saw nothing.
  expect(commandsRun(phone, before)).toEqual([]);

  const read = (await client.callTool({ name: 'query_events', arguments: { limit: 5 } })) as CallResult;
  expect(read.isError).toBe(true);
  expect(read._meta).toMatchObject({ error_code: 'STORE_UNAVAILABLE' });
  expect(read.content[0]!.text).toMatch(/PostgreSQL/);
  expect(read.content[0]!.text).toContain(location);

  cluster.restart();
  const ok = (await client.callTool({ name: 'stop_app', arguments: { package: 'com.example.notes' } })) as CallResult;
  expect(ok.isError).toBeFalsy();
  expect(commandsRun(phone, before)).toContainEqual(['am', 'force-stop', 'com.example.notes']);

  // Two calls ran, two were recorded: the refused one left nothing behind to be written later.
  const stops = store
    .query({ actorSession: session.sessionId, types: ['mcp.tool_call*'], order: 'asc' })
    .filter((e) => (e.data as { tool: string }).tool === 'stop_app');
  expect(stops.map((e) => e.type)).toEqual([
    'mcp.tool_call_started',
    'mcp.tool_called',
    'mcp.tool_call_started',
    'mcp.tool_called',
  ]);
  expect(store.query({ types: ['app.stopped'] })).toHaveLength(2);
  expect(store.verify()).toMatchObject({ ok: true });

  // The password was in the URL only: not in any message, log line or event.
  const everything = JSON.stringify([refused, read, logs, store.query({ limit: 10_000 }), store.path]);
  expect(everything).not.toContain('s3cret-pw');
});
