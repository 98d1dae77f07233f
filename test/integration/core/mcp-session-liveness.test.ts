import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { EventCatalog } from '../../../src/events/event-catalog.js';
import { EventStore } from '../../../src/events/event-store.js';
import { processStartTime } from '../../../src/kernel/process-identity.js';
import type { Logger } from '../../../src/kernel/tool-definition.js';
import { CallRecorder } from '../../../src/mcp/call-recorder.js';
import { coreEvents } from '../../../src/plugins/core/core.events.js';
import { mcpActivityProjection } from '../../../src/plugins/core/mcp-activity.projection.js';
import { McpActivityReader, sessionIsLocal } from '../../../src/plugins/core/services/mcp-activity-reader.js';
import { type Actor, thisHost } from '../../../src/shared/actor.js';
import { removeTempDirs, tempDir } from '../../support/event-store-fixtures.js';

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const facts = {
  clientName: 'test-client',
  clientVersion: '1',
  protocolVersion: '2025-11-25',
  toolsets: ['core'],
  readOnly: false,
  projectRoot: null,
};

/** A stand-in for a `droidwright mcp` server process: something with a pid and a start time that we can kill. */
async function startServerStandIn(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('MCP session liveness', () => {
  let store: EventStore;
  let reader: McpActivityReader;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    store = EventStore.open({
      path: join(tempDir(), 'events.db'),
      catalog: new EventCatalog(coreEvents),
      projections: [mcpActivityProjection],
    });
    reader = new McpActivityReader(() => store);
  });
  afterEach(async () => {
    store.close();
    for (const child of children.splice(0)) await kill(child);
  });
  afterAll(removeTempDirs);

  const alive = () =>
    Object.fromEntries(reader.sessions({ includeEnded: true, limit: 50 }).map((s) => [s.session, s.alive]));

  it("records the server's start time and reports a crashed server whose pid was reused as not alive", async () => {
    if (process.platform !== 'linux') return; // Start times come from /proc; elsewhere only the pid is checked.
    const server = await startServerStandIn();
    children.push(server);
    const actor: Actor = { kind: 'agent', session: 'live', client: 'test-client', pid: server.pid! };
    new CallRecorder(() => store, 'live', silent).sessionStarted(actor, facts);
    const [started] = store.query({ types: ['mcp.session_started'] });
    expect((started!.data as { pid_start: string }).pid_start).toBe(processStartTime(server.pid!));

    // A server that crashed without recording its end, whose pid the kernel then gave to the process
    // above: same pid, another start time.
    const crashedStart = String(Number(processStartTime(server.pid!)) - 1);
    store.appendMany([
      {
        type: 'mcp.session_started',
        stream: 'mcp:crashed',
        actor: { ...actor, session: 'crashed' },
        data: { ...(started!.data as object), session: 'crashed', pid_start: crashedStart },
      },
    ]);
    // Recorded before start times were: only the pid can be checked, as before.
    const { pid_start: _, ...legacy } = started!.data as Record<string, unknown>;
    store.appendMany([
      {
        type: 'mcp.session_started',
        stream: 'mcp:legacy',
        actor: { ...actor, session: 'legacy' },
        data: { ...legacy, session: 'legacy' },
      },
    ]);

    expect(alive()).toEqual({ live: true, crashed: false, legacy: true });
    expect(reader.liveSessions().map((s) => s.session)).not.toContain('crashed');

    await kill(server);
    expect(alive()).toEqual({ live: false, crashed: false, legacy: false });
    expect(reader.liveSessions()).toEqual([]);
  });

  it("judges only this machine's servers by pid: another machine's session is live until it ends", async () => {
    const here = thisHost();
    // A pid above Linux's largest: absent here, as the pids of another machine's processes are.
    const far: Actor = { kind: 'agent', session: 'far', client: 'test-client', pid: 2 ** 22 + 5, host: `not-${here}` };
    const near: Actor = { ...far, session: 'near', host: here };
    new CallRecorder(() => store, 'far', silent).sessionStarted(far, facts);
    new CallRecorder(() => store, 'near', silent).sessionStarted(near, facts);
    expect(alive()).toEqual({ far: true, near: false });
    expect(reader.liveSessions()).toEqual([expect.objectContaining({ session: 'far', host: `not-${here}` })]);
    await new CallRecorder(() => store, 'far', silent).sessionEnded(far, 'stdin closed');
    expect(alive()).toEqual({ far: false, near: false });
    expect(sessionIsLocal(null, here)).toBe(true);
  });

  it('rebuilds the same sessions, start times included, from the log', async () => {
    const server = await startServerStandIn();
    children.push(server);
    new CallRecorder(() => store, 'one', silent).sessionStarted(
      { kind: 'agent', session: 'one', pid: server.pid! },
      facts,
    );
    const before = store.prepareRead('SELECT * FROM mcp_sessions ORDER BY session').all();
    store.rebuildProjections(['mcp_activity']);
    expect(store.prepareRead('SELECT * FROM mcp_sessions ORDER BY session').all()).toEqual(before);
    expect(before).toEqual([expect.objectContaining({ session: 'one', pid_start: processStartTime(server.pid!) })]);
  });
});
