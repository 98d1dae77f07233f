import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogLineStore } from '../../../src/plugins/logcat/services/log-line-store.js';
import type { SimulatedAndroidHandle } from '../../../src/sim/android/create-simulated-android.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { startMcpClient, type McpTestClient } from '../../support/mcp-client.js';
import { killTrackedProcesses, trackPid } from '../../support/process-tracker.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createTempHome } from '../../support/temp-home.js';
import { isAlive, sleep, waitFor } from '../../support/wait.js';
import { openTestLineStore, storedLines } from '../../integration/logcat/line-store-support.js';

/*
 * start_logcat / stop_logcat through the built CLI and the SDK's real client: the detached
 * `droidwright logcat-worker` streams a simulated phone's flood through a real adb server into the line store, one
 * worker per device for every server, taken over after SIGKILL without storing a line twice.
 */

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

let home: { home: string; cleanup(): void };
let adb: TestAdbServer;
let phone: RunningSimulatedDevice;
let first: McpTestClient;
let second: McpTestClient;
let lines: LogLineStore;

async function call(mcp: McpTestClient, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}

async function ok(mcp: McpTestClient, name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = await call(mcp, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(' ')}`);
  return result.structuredContent!;
}

async function logcatEvents(mcp: McpTestClient): Promise<any[]> {
  const page = await ok(mcp, 'query_events', { types: ['logcat.*'], limit: 100, verbose: true });
  return [...page.events].sort((a, b) => a.seq - b.seq);
}

/** The flood's sequence numbers as stored, in store order. */
function floodSeqs(): number[] {
  return storedLines(lines, phone.serial)
    .filter((l) => l.tag === 'LogFlood')
    .map((l) => Number(/^seq=(\d+)/.exec(l.message)![1]));
}

/** Lines stored for the phone so far (cheap: the store's counter, not a read of every line). */
function storedCount(): number {
  return lines.counts(phone.serial).stored;
}

/** The flood sequence number of the newest stored line, 0 when it is not a flood line. */
function newestFloodSeq(): number {
  const newest = lines.counts(phone.serial).newestSeq;
  const line = newest === null ? undefined : lines.range(phone.serial, newest, newest, 1)[0];
  const match = line?.tag === 'LogFlood' ? /^seq=(\d+)/.exec(line.message) : null;
  return match ? Number(match[1]) : 0;
}

async function startWorker(mcp: McpTestClient): Promise<{ worker_pid: number; already_running: boolean }> {
  const started = (await ok(mcp, 'start_logcat', { device_serial: phone.serial })) as {
    worker_pid: number;
    already_running: boolean;
  };
  trackPid(started.worker_pid);
  return started;
}

beforeAll(async () => {
  home = createTempHome('logcat-e2e');
  writeFileSync(join(home.home, 'settings.json'), JSON.stringify({ logcatReconnectSeconds: 5 }));
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, logRate: 2000 } });
  // Room for the lines logged while no worker runs (logd's default would evict them at this rate).
  await adb.adb(['-s', phone.serial, 'shell', 'logcat', '-G', '64M']);
  const env = { home: home.home, adbPort: adb.port };
  first = await startMcpClient(env, [], { clientName: 'first-agent' });
  second = await startMcpClient(env, [], { clientName: 'second-agent' });
  lines = openTestLineStore(home.home);
}, 60_000);

afterAll(async () => {
  // The worker outlives servers by design: stop it by request, then by PID whatever a failed test left behind.
  if (second) await call(second, 'stop_logcat', { device_serial: phone.serial }).catch(() => undefined);
  lines?.close();
  await first?.close();
  await second?.close();
  await phone?.stop();
  await adb?.stop();
  killTrackedProcesses();
  home?.cleanup();
});

describe('start_logcat and stop_logcat', () => {
  it('one worker streams the device for every server, and it outlives the server that started it', async () => {
    const [a, b] = await Promise.all([startWorker(first), startWorker(second)]);
    expect(a.worker_pid).toBe(b.worker_pid);
    expect([a.already_running, b.already_running].sort()).toEqual([false, true]);
    const again = await startWorker(second);
    expect(again).toEqual({ device_serial: phone.serial, worker_pid: a.worker_pid, already_running: true });
    await waitFor(() => storedCount() > 2000, { what: 'flood lines in the store', timeoutMs: 30_000, intervalMs: 250 });

    const started = (await logcatEvents(first)).filter((e) => e.type === 'logcat.started');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      device: phone.serial,
      data: { pid: a.worker_pid, format: 'binary', buffers: ['main', 'system', 'crash'], took_over: null },
      // Both asked at once: whichever claimed the lease started the worker and is recorded as its actor.
      actor: expect.stringMatching(a.already_running ? /^agent second-agent / : /^agent first-agent /),
    });

    // The server that started it goes away; the worker goes on.
    const serverPid = first.pid;
    await first.close();
    expect(isAlive(serverPid)).toBe(false);
    const before = storedCount();
    await waitFor(() => storedCount() > before + 1000, {
      what: 'lines after the server exited',
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    expect(isAlive(a.worker_pid)).toBe(true);
    first = await startMcpClient({ home: home.home, adbPort: adb.port }, [], { clientName: 'first-agent' });
  }, 90_000);

  it('a worker killed mid-stream is taken over by the next start, and no line is stored twice or lost', async () => {
    const { worker_pid: killed } = await startWorker(second);
    process.kill(killed, 'SIGKILL');
    await waitFor(() => !isAlive(killed), { what: 'the worker to die' });
    await sleep(500);
    const { worker_pid: next, already_running } = await startWorker(first);
    expect(already_running).toBe(false);
    expect(next).not.toBe(killed);
    const lastBefore = newestFloodSeq();
    await waitFor(() => newestFloodSeq() > lastBefore + 2000, {
      what: 'the new worker catching up',
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    const events = await logcatEvents(first);
    expect(events.at(-1)).toMatchObject({ type: 'logcat.started', data: { pid: next, took_over: killed } });

    const seqs = floodSeqs();
    const start = seqs[0]!;
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => start + i));
  }, 90_000);

  it('stop_logcat from another server stops it and records who asked; a second stop finds none', async () => {
    const { worker_pid: pid } = await startWorker(first);
    const stopped = await ok(second, 'stop_logcat', { device_serial: phone.serial });
    expect(stopped).toEqual({ device_serial: phone.serial, was_running: true });
    await waitFor(() => !isAlive(pid), { what: 'the worker to exit', timeoutMs: 30_000 });
    const last = (await logcatEvents(second)).at(-1);
    expect(last).toMatchObject({
      type: 'logcat.stopped',
      actor: expect.stringMatching(/^agent second-agent /),
      data: { pid, reason: 'requested', dropped: 0 },
    });
    expect(last.data.stored).toBeGreaterThan(0);
    expect(last.data.read).toBeGreaterThanOrEqual(last.data.stored);
    expect(await ok(first, 'stop_logcat', { device_serial: phone.serial })).toEqual({
      device_serial: phone.serial,
      was_running: false,
    });
  }, 60_000);

  it('SIGTERM stops the worker as `signal`, after storing what it read', async () => {
    const { worker_pid: pid } = await startWorker(first);
    await sleep(1000);
    process.kill(pid, 'SIGTERM');
    await waitFor(() => !isAlive(pid), { what: 'the worker to exit', timeoutMs: 30_000 });
    const last = (await logcatEvents(first)).at(-1);
    expect(last).toMatchObject({ type: 'logcat.stopped', data: { pid, reason: 'signal', dropped: 0 } });
  }, 60_000);

  it("a crash logged while the worker streams is recorded as app.crashed, linked to the block's stored lines", async () => {
    const { worker_pid: pid } = await startWorker(first);
    const state = (phone.android as unknown as SimulatedAndroidHandle).state;
    const app = state.processes.startApp('com.example.crashy', 10_500);
    state.log(
      'crash',
      'E',
      'AndroidRuntime',
      `FATAL EXCEPTION: main\nProcess: com.example.crashy, PID: ${app.pid}\njava.lang.IllegalStateException: boom\n\tat com.example.crashy.MainActivity.onClick(MainActivity.kt:42)`,
      app.pid,
      10_500,
    );
    const crash = await waitFor(
      async () => (await ok(first, 'query_events', { types: ['app.crashed'], limit: 5, verbose: true })).events[0],
      { what: 'app.crashed', timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(crash.data).toMatchObject({
      device_serial: phone.serial,
      package: 'com.example.crashy',
      pid: app.pid,
      exception_class: 'java.lang.IllegalStateException',
    });
    const [line] = lines.range(phone.serial, crash.data.first_line_seq, crash.data.last_line_seq, 1);
    expect(line!.message).toMatch(/^FATAL EXCEPTION: main/);
    expect(line!.package).toBe('com.example.crashy');
    await ok(first, 'stop_logcat', { device_serial: phone.serial });
    await waitFor(() => !isAlive(pid), { what: 'the worker to exit', timeoutMs: 30_000 });
  }, 60_000);

  it('refuses unknown arguments and hostile serials before anything runs', async () => {
    const unknown = await call(first, 'start_logcat', { device_serial: phone.serial, clear_device_buffer: true });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toMatch(/clear_device_buffer/);
    for (const tool of ['start_logcat', 'stop_logcat']) {
      const hostile = await call(first, tool, { device_serial: "-s; rm -rf /'" });
      expect(hostile.isError).toBe(true);
      expect(hostile._meta?.error_code).toBe('INVALID_ARGUMENT');
    }
  });
});
