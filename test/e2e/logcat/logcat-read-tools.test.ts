import type { LogcatEntry } from '../../../src/android/logcat/logcat-entry.js';
import type { LogLineStore } from '../../../src/plugins/logcat/services/log-line-store.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { openTestLineStore } from '../../integration/logcat/line-store-support.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { startMcpClient, type McpTestClient } from '../../support/mcp-client.js';
import { killTrackedProcesses, trackPid } from '../../support/process-tracker.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createTempHome } from '../../support/temp-home.js';
import { sleep } from '../../support/wait.js';

/*
 * The read side of the logcat toolset through the built CLI and the SDK's real client: lines are seeded into the
 * data directory's logcat.db for the simulated phone's serial (what the worker would have stored), then read,
 * counted, cleared and waited for.
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
let mcp: McpTestClient;
let lines: LogLineStore;

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = await call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(' ')}`);
  return result.structuredContent!;
}

function entry(n: number, over: Partial<LogcatEntry> = {}): LogcatEntry {
  return {
    time: '',
    timeMs: Date.UTC(2026, 0, 31, 12, 0, 0) + n * 1000,
    pid: n % 2 === 0 ? 2001 : 2002,
    tid: 9,
    level: n % 10 === 0 ? 'E' : 'I',
    tag: n % 2 === 0 ? 'Checkout' : 'Network',
    message: `event ${n}`,
    ...over,
  };
}

const packageOf = (pid: number) => (pid === 2001 ? 'com.example.shop' : 'com.other.app');

beforeAll(async () => {
  home = createTempHome('logcat-read-e2e');
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
  mcp = await startMcpClient({ home: home.home, adbPort: adb.port }, [], { clientName: 'reader' });
  lines = openTestLineStore(home.home);
}, 60_000);

afterAll(async () => {
  if (mcp) await call('stop_logcat', { device_serial: phone.serial }).catch(() => undefined);
  lines?.close();
  await mcp?.close();
  await phone?.stop();
  await adb?.stop();
  killTrackedProcesses();
  home?.cleanup();
});

describe('logcat read tools', () => {
  it('says when nothing was streamed yet, and points to start_logcat', async () => {
    const empty = await ok('get_logcat_entries', { device_serial: phone.serial });
    expect(empty).toMatchObject({ lines: [], more: 0, note: expect.stringContaining('start_logcat') });
  });

  it('get_logcat_entries filters, pages with before_seq, and refuses bad arguments naming them', async () => {
    lines.append(
      phone.serial,
      Array.from({ length: 300 }, (_, i) => entry(i + 1)),
      packageOf,
    );
    const page = await ok('get_logcat_entries', { device_serial: phone.serial, count: 5 });
    expect(page.lines).toHaveLength(5);
    expect(page.lines[4]).toMatch(/^300 01-31 12:05:00\.000 2001 9 E Checkout: event 300$/);
    expect(page).toMatchObject({ more: 295, next_before_seq: 296 });
    const older = await ok('get_logcat_entries', { device_serial: phone.serial, count: 2, before_seq: 296 });
    expect(older.lines.map((l: string) => l.split(' ')[0])).toEqual(['294', '295']);

    const filtered = await ok('get_logcat_entries', {
      device_serial: phone.serial,
      min_level: 'E',
      tag: ['Checkout'],
      package: 'com.example.shop',
      count: 100,
    });
    expect(filtered.lines).toHaveLength(30);
    expect(filtered.lines.every((l: string) => / E Checkout: /.test(l))).toBe(true);
    const text = await ok('get_logcat_entries', { device_serial: phone.serial, text: 'EVENT 12', count: 100 });
    expect(text.lines.map((l: string) => l.split(': ')[1])).toEqual([
      'event 12',
      'event 120',
      'event 121',
      'event 122',
      'event 123',
      'event 124',
      'event 125',
      'event 126',
      'event 127',
      'event 128',
      'event 129',
    ]);
    const regex = await ok('get_logcat_entries', { device_serial: phone.serial, regex: '^event 29\\d$' });
    expect(regex.lines).toHaveLength(10);
    const since = await ok('get_logcat_entries', { device_serial: phone.serial, since: '3s' });
    expect(since.lines.map((l: string) => l.split(' ')[0])).toEqual(['297', '298', '299', '300']);
    const iso = await ok('get_logcat_entries', {
      device_serial: phone.serial,
      since: '2026-01-31T12:00:10Z',
      until: String(Date.UTC(2026, 0, 31, 12, 0, 11)),
    });
    expect(iso.lines.map((l: string) => l.split(' ')[0])).toEqual(['10', '11']);

    const badRegex = await call('get_logcat_entries', { device_serial: phone.serial, regex: '(a' });
    expect(badRegex.isError).toBe(true);
    expect(badRegex._meta?.error_code).toBe('INVALID_ARGUMENT');
    expect(badRegex.content[0]!.text).toMatch(/regex.*\(a/s);
    const badTime = await call('get_logcat_entries', { device_serial: phone.serial, since: 'yesterday' });
    expect(badTime.isError).toBe(true);
    expect(badTime.content[0]!.text).toMatch(/since/);
    const mine = await call('get_logcat_entries', { device_serial: phone.serial, package: 'mine' });
    expect(mine.isError).toBe(true);
    expect(mine._meta?.error_code).toBe('PROJECT_NOT_FOUND');
    const unknownKey = await call('get_logcat_entries', { device_serial: phone.serial, lines: 5 });
    expect(unknownKey.isError).toBe(true);
    const hostile = await ok('get_logcat_entries', {
      device_serial: phone.serial,
      text: "%' OR 1=1 --",
      tag: "x'; DROP",
    });
    expect(hostile.lines).toEqual([]);
  }, 60_000);

  it('get_logcat_stats counts levels and tags; clear_logcat empties our store, not the seqs', async () => {
    const stats = await ok('get_logcat_stats', { device_serial: phone.serial });
    expect(stats).toMatchObject({
      device_serial: phone.serial,
      worker: 'stopped',
      lines: 300,
      stored: 300,
      evicted: 0,
      dropped: 0,
      by_level: { E: 30, I: 270 },
      top_tags: expect.arrayContaining([
        { tag: 'Checkout', lines: 150 },
        { tag: 'Network', lines: 150 },
      ]),
      retention_lines: 1_000_000,
      retention_bytes: 256 * 2 ** 20,
    });
    const cleared = await ok('clear_logcat', { device_serial: phone.serial });
    expect(cleared).toEqual({ device_serial: phone.serial, removed: 300, next_seq: 301 });
    const after = await ok('get_logcat_entries', { device_serial: phone.serial });
    expect(after.lines).toEqual([]);
    expect(after.note).toMatch(/cleared or evicted/);
    expect(lines.append(phone.serial, [entry(1)], packageOf)).toEqual({ first: 301, last: 301 });
  });

  it('wait_for_log returns the first matching line after the call, or times out; it starts the worker', async () => {
    lines.append(phone.serial, [entry(1, { message: 'READY before the call' })], packageOf);
    const waiting = call('wait_for_log', {
      device_serial: phone.serial,
      marker: '^READY \\d+$',
      package: 'com.example.shop',
      timeout_ms: 20_000,
    });
    await sleep(1500);
    lines.append(phone.serial, [entry(2, { message: 'READY 1' }), entry(4, { message: 'READY 2' })], packageOf);
    const matched = (await waiting).structuredContent!;
    expect(matched).toMatchObject({ outcome: 'matched', line: expect.stringMatching(/Checkout: READY 1$/) });
    const stats = await ok('get_logcat_stats', { device_serial: phone.serial });
    expect(stats.worker).toBe('running');
    trackPid(stats.worker_pid);

    const timedOut = await ok('wait_for_log', {
      device_serial: phone.serial,
      marker: 'never printed',
      timeout_ms: 500,
    });
    expect(timedOut).toMatchObject({ outcome: 'timed_out' });
    expect(timedOut.waited_ms).toBeGreaterThanOrEqual(500);
    const invalid = await call('wait_for_log', { device_serial: phone.serial, marker: '(?<name>x)\\1' });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]!.text).toMatch(/marker/);
  }, 60_000);

  it('wait_for_log ends at once when the app it waits on crashes, naming the crash', async () => {
    const shell = (...args: string[]) => adb.adb(['-s', phone.serial, 'shell', ...args]);
    await shell('am', 'start', '-W', '-n', 'com.example.notes/.LoginActivity');
    const began = Date.now();
    const waiting = call('wait_for_log', {
      device_serial: phone.serial,
      marker: 'never printed',
      package: 'com.example.notes',
      timeout_ms: 60_000,
    });
    // Sign in, then tap the scenario's Crash button (by its bounds): the app dies of an uncaught exception.
    await shell('input', 'tap', '540', '600');
    await shell('input', 'text', 'ada@example.com');
    await shell('input', 'tap', '540', '800');
    await shell('input', 'text', 'secret1');
    await shell('input', 'tap', '540', '1072');
    await sleep(1500);
    await shell('input', 'tap', '284', '2112');
    const ended = (await waiting).structuredContent!;
    expect(ended).toMatchObject({
      outcome: 'crashed',
      crash: expect.stringMatching(/^app\.crashed com\.example\.notes: /),
      crash_event_seq: expect.any(Number),
    });
    expect(Date.now() - began).toBeLessThan(50_000);
    const groups = await ok('get_crash_logs', { package: 'com.example.notes' });
    expect(JSON.stringify(groups)).toContain('com.example.notes');
  }, 90_000);
});
