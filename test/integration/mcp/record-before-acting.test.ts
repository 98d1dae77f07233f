import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
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
import { REPO_ROOT, stopPid } from '../../support/mcp-client.js';
import { trackPid, untrackPid } from '../../support/process-tracker.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';
import { commandCount, commandsRun } from '../android/support.js';

/*
 * Record before acting, against a real log file locked by another process: a call that would change a
 * device is refused with STORE_UNAVAILABLE once the lock outlasts the bound, nothing runs on the
 * (simulated) device, and the server keeps answering other requests while the call waits.
 */

const INTENT_WAIT_MS = 1500;

/** Another process holding the log's write lock (BEGIN IMMEDIATE) until its stdin closes. */
async function holdWriteLock(dbPath: string): Promise<ChildProcessWithoutNullStreams> {
  const script = `
    import Database from 'better-sqlite3';
    const db = new Database(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    process.stdin.resume();
    process.stdin.on('end', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, dbPath], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  trackPid(child.pid!);
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.on('data', (c: Buffer) => c.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited (${code}): ${err}`)));
  });
  return child;
}

async function release(child: ChildProcessWithoutNullStreams): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.end();
  await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 3000)))]);
  clearTimeout(timer);
  await stopPid(child.pid, 500);
  untrackPid(child.pid!);
}

let temp: { home: string; cleanup(): void };
let adb: TestAdbServer;
let phone: RunningSimulatedDevice;
let container: Container;
let session: McpSession;
let client: Client;
const logs: string[] = [];

beforeAll(async () => {
  temp = createTempHome('record-first');
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
  const project = createFakeGradleProject(temp.home, 'notes', { applicationId: 'com.example.notes' });
  container = createContainer(
    {
      home: temp.home,
      cwd: project,
      projectPath: project,
      readOnly: false,
      env: { ...process.env, ANDROID_ADB_SERVER_PORT: String(adb.port) },
    },
    pluginModules,
  );
  const logger: Logger = { debug() {}, info() {}, warn: (m) => logs.push(m), error: (m) => logs.push(m) };
  session = new McpSession(container, { logger, intentWaitMs: INTENT_WAIT_MS });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.connect(serverSide);
  client = new Client({ name: 'lock-test', version: '1' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await session?.close('test finished');
  if (container) disposeContainer(container);
  await phone?.stop();
  await adb?.stop();
  temp?.cleanup();
});

test('a device call is refused with STORE_UNAVAILABLE while the log stays locked, nothing runs, and the server keeps answering', async () => {
  const warm = await client.callTool({ name: 'list_devices', arguments: {} });
  expect(warm.isError).toBeFalsy();

  const locker = await holdWriteLock(join(temp.home, 'events.db'));
  try {
    const before = commandCount(phone);
    const started = Date.now();
    let callDoneAt = 0;
    const call = client.callTool({ name: 'stop_app', arguments: { package: 'com.example.notes' } }).then((r) => {
      callDoneAt = Date.now();
      return r;
    });
    // The intent is waiting for the lock: the event loop is free, so other requests are answered now.
    await new Promise((r) => setTimeout(r, 200));
    await client.ping();
    const listed = await client.listTools();
    const answeredAt = Date.now();
    expect(listed.tools.map((t) => t.name)).toContain('stop_app');

    const result = (await call) as { isError?: boolean; content: { text: string }[]; _meta?: Record<string, unknown> };
    expect(answeredAt).toBeLessThan(callDoneAt);
    expect(callDoneAt - started).toBeGreaterThanOrEqual(INTENT_WAIT_MS - 50);
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ error_code: 'STORE_UNAVAILABLE' });
    expect(result.content[0]!.text).toMatch(/stop_app did not run: .*locked by another process for more than \d+ ms/);
    // Nothing reached the device.
    expect(commandsRun(phone, before)).toEqual([]);
  } finally {
    await release(locker);
  }

  // Lock released: the same call records its intent, runs, and records its outcome linked to it.
  const before = commandCount(phone);
  const ok = await client.callTool({ name: 'stop_app', arguments: { package: 'com.example.notes' } });
  expect(ok.isError).toBeFalsy();
  expect(commandsRun(phone, before)).toContainEqual(['am', 'force-stop', 'com.example.notes']);
  const store = container.get<EventStoreProvider>(EventStoreProvider)();
  const records = store.query({ actorSession: session.sessionId, types: ['mcp.tool_call*'], order: 'asc' });
  const stops = records.filter((e) => (e.data as { tool: string }).tool === 'stop_app');
  expect(stops.map((e) => e.type)).toEqual(['mcp.tool_call_started', 'mcp.tool_called']);
  expect(stops[0]!.package).toBe('com.example.notes');
  expect(stops[1]!.correlation).toBe(stops[0]!.id);
  const appStopped = store.query({ types: ['app.stopped'], limit: 1 })[0]!;
  expect(appStopped.seq).toBeGreaterThan(stops[0]!.seq);
  expect(appStopped.seq).toBeLessThan(stops[1]!.seq);
});

test('a session that starts while the log is locked is on record before the first call it makes', async () => {
  const locker = await holdWriteLock(join(temp.home, 'events.db'));
  let locked = true;
  const second = new McpSession(container, { logger: { debug() {}, info() {}, warn() {}, error() {} } });
  const secondClient = new Client({ name: 'early-caller', version: '1' });
  try {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await second.connect(serverSide);
    await secondClient.connect(clientSide);
    // The start record now waits for the lock; the call's intent, asked for right after, must queue behind it.
    const call = secondClient.callTool({ name: 'stop_app', arguments: { package: 'com.example.notes' } });
    await new Promise((r) => setTimeout(r, 300));
    await release(locker);
    locked = false;
    expect(((await call) as { isError?: boolean }).isError).toBeFalsy();
    const store = container.get<EventStoreProvider>(EventStoreProvider)();
    const mine = store.query({ actorSession: second.sessionId, types: ['mcp.*'], order: 'asc' });
    expect(mine.map((e) => e.type)).toEqual(['mcp.session_started', 'mcp.tool_call_started', 'mcp.tool_called']);
  } finally {
    if (locked) await release(locker);
    await secondClient.close();
    await second.close('test finished');
  }
});
