import { existsSync, readFileSync } from 'node:fs';
import type { SimulatedAndroidHandle } from '../../../src/sim/android/create-simulated-android.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { commandCount, commandsRun } from '../../integration/android/support.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { startMcpClient, type McpTestClient } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createTempHome } from '../../support/temp-home.js';

/*
 * The ui toolset's reading tools through the built CLI and the SDK's real client, against the simulated
 * phone (notes-app scenario) behind a real adb server: every tool's happy path and refusals, two server
 * processes capturing one device at once, a device whose UI Automator is held by another client, and a
 * capture that never finishes.
 */

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

let home: { home: string; cleanup(): void };
let adb: TestAdbServer;
let phone: RunningSimulatedDevice;
let mcp: McpTestClient;
const sim = () => (phone.android as SimulatedAndroidHandle).state;

async function call(name: string, args: Record<string, unknown> = {}, client = mcp): Promise<ToolResult> {
  return (await client.client.callTool({ name, arguments: args })) as ToolResult;
}

async function ok(name: string, args: Record<string, unknown> = {}, client = mcp): Promise<Record<string, any>> {
  const result = await call(name, args, client);
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(' ')}`);
  return result.structuredContent!;
}

async function toolError(name: string, args: Record<string, unknown>): Promise<{ code: string; text: string }> {
  const result = await call(name, args);
  if (!result.isError) throw new Error(`expected ${name} to fail, got ${JSON.stringify(result.structuredContent)}`);
  expect(result.structuredContent).toBeUndefined();
  return { code: result._meta?.error_code, text: result.content.map((c) => c.text ?? '').join('\n') };
}

/** The id, path and centre of an element line (`id path Class … @x,y flags`). */
function element(line: string): { id: string; path: string; x: number; y: number } {
  const [id, path] = line.split(' ');
  const at = /@(\d+),(\d+)/.exec(line);
  return { id, path, x: Number(at?.[1]), y: Number(at?.[2]) };
}

async function adbShell(command: string): Promise<string> {
  return (await adb.adb(['-s', phone.serial, 'shell', command])).stdout;
}

beforeAll(async () => {
  home = createTempHome('ui-read-e2e');
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, scenario: 'notes-app' } });
  mcp = await startMcpClient({ home: home.home, adbPort: adb.port }, ['--toolsets', 'ui,core']);
  await adbShell('am start -W -n com.example.notes/.LoginActivity');
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await phone?.stop();
  await adb?.stop();
  home?.cleanup();
});

afterEach(() => {
  sim().uiAutomator.setFault(null);
  sim().uiAutomator.dumpDelayMs = 0;
});

describe('reading the screen', () => {
  it('get_ui_hierarchy: the interactive view in one exec-out round trip, with the screen hash and activity', async () => {
    await ok('get_ui_hierarchy', {}); // the first call describes the newly seen device (getprop)
    const before = commandCount(phone);
    const view = await ok('get_ui_hierarchy', {});
    expect(commandsRun(phone, before).map((argv) => argv[0])).toEqual(['uiautomator', 'dumpsys', 'grep']);
    expect(view).toMatchObject({
      device_serial: phone.serial,
      view: 'interactive',
      package: 'com.example.notes',
      activity: 'com.example.notes/.LoginActivity',
      has_more: false,
    });
    expect(view.screen_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(view.rows.some((row: string) => /EditText/.test(row) && /edit/.test(row))).toBe(true);
    expect(view.total).toBe(view.rows.length);
    const paged = await ok('get_ui_hierarchy', { limit: 2 });
    expect(paged.rows).toEqual(view.rows.slice(0, 2));
    expect(paged).toMatchObject({ has_more: true, next_cursor: '2', total: view.total });
    const next = await ok('get_ui_hierarchy', { limit: 2, cursor: paged.next_cursor });
    expect(next.rows).toEqual(view.rows.slice(2, 4));
  });

  it('get_ui_hierarchy: sparse tree and the diff after a change', async () => {
    const sparse = await ok('get_ui_hierarchy', { view: 'sparse' });
    expect(sparse.view).toBe('sparse');
    expect(sparse.tree.length).toBeGreaterThan(0);
    expect(sparse.tree_file).toBeUndefined();
    const unchanged = await ok('get_ui_hierarchy', { view: 'diff' });
    expect(unchanged.diff).toMatchObject({ same_screen: true, changes: [] });
    // Type into the focused field through adb, as the acting tools will.
    const field = element((await ok('find_ui_elements', { class: 'EditText', max: 1 })).matches[0]);
    await adbShell(`input tap ${field.x} ${field.y}`);
    await adbShell('input text hello');
    const changed = await ok('get_ui_hierarchy', { view: 'diff' });
    expect(changed.diff.same_screen).toBe(false);
    expect(changed.diff.changes.some((line: string) => line.startsWith('~ ') && line.includes('"hello"'))).toBe(true);
    expect(changed.screen_hash).not.toBe(unchanged.screen_hash);
    const compared = await ok('compare_ui_state', {});
    expect(compared.diff).toMatchObject({ same_screen: true, before_hash: changed.screen_hash });
  });

  it('list_clickable_elements and find_ui_elements (AND of selectors; bounded)', async () => {
    const clickable = await ok('list_clickable_elements', {});
    expect(clickable.rows.length).toBeGreaterThan(0);
    expect(clickable.rows.every((row: string) => / (click|edit|check|checked|long|scroll)( |$)/.test(row))).toBe(true);
    const buttons = await ok('find_ui_elements', { class: 'Button', clickable: true });
    expect(buttons.total).toBeGreaterThan(0);
    for (const m of buttons.matches) expect(m).toMatch(/^\S+ [\d.]+ Button .*@\d+,\d+ .*click/);
    const none = await ok('find_ui_elements', { class: 'Button', text: 'no such text anywhere' });
    expect(none).toMatchObject({ total: 0, matches: [] });
    const empty = await toolError('find_ui_elements', {});
    expect(empty.code).toBe('INVALID_ARGUMENT');
    expect(empty.text).toMatch(/at least one of text, text_contains/);
    const unknown = await call('find_ui_elements', { text: 'x', xpath: '//node' });
    expect(unknown.isError).toBe(true);
    const tooMany = await call('find_ui_elements', { text: 'x', max: 101 });
    expect(tooMany.isError).toBe(true);
  });

  it('find_ui_parent: parent and actionable ancestor; unknown element refused', async () => {
    const text = element((await ok('find_ui_elements', { class: 'EditText', max: 1 })).matches[0]);
    const found = await ok('find_ui_parent', { element: text.path });
    expect(element(found.element).path).toBe(text.path);
    expect(element(found.parent).path).toBe(text.path.split('.').slice(0, -1).join('.'));
    expect(element(found.actionable).path).toBe(text.path);
    const byId = await ok('find_ui_parent', { element: text.id });
    expect(element(byId.element).path).toBe(text.path);
    const root = await ok('find_ui_parent', { element: '0' });
    expect(root.parent).toBeUndefined();
    const missing = await toolError('find_ui_parent', { element: '0.99.99' });
    expect(missing.code).toBe('NOT_FOUND');
  });

  it('wait_for_element: found, gone, timed out with progress, cancellable', async () => {
    const found = await ok('wait_for_element', { class: 'EditText', timeout_ms: 3000 });
    expect(found.total).toBeGreaterThan(0);
    const gone = await ok('wait_for_element', { text: 'never on screen', gone: true, timeout_ms: 2000 });
    expect(gone.total).toBe(0);
    const progress: number[] = [];
    const result = (await mcp.client.callTool(
      { name: 'wait_for_element', arguments: { text: 'never on screen', timeout_ms: 1200 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    )) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result._meta?.error_code).toBe('TIMEOUT');
    expect(progress.length).toBeGreaterThan(0);
    const controller = new AbortController();
    const started = Date.now();
    const waiting = mcp.client.callTool(
      { name: 'wait_for_element', arguments: { text: 'never on screen', timeout_ms: 30_000 } },
      undefined,
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 500);
    await expect(waiting).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    const empty = await toolError('wait_for_element', { timeout_ms: 1000 });
    expect(empty.code).toBe('INVALID_ARGUMENT');
  });

  it('ui_wait_for_idle and ui_assert_element', async () => {
    const idle = await ok('ui_wait_for_idle', {});
    expect(idle.reads).toBeGreaterThanOrEqual(2);
    expect(idle.screen_hash).toMatch(/^[0-9a-f]{16}$/);
    const visible = await ok('ui_assert_element', { class: 'EditText' });
    expect(visible).toMatchObject({ passed: true });
    expect(visible.matched).toBeGreaterThan(0);
    await ok('ui_assert_element', { text: 'not here at all', expect: 'absent' });
    const failed = await toolError('ui_assert_element', { text: 'not here at all' });
    expect(failed.code).toBe('ASSERTION_FAILED');
    expect(failed.text).toMatch(/nothing matches/);
    const disabled = await toolError('ui_assert_element', { class: 'EditText', expect: 'disabled' });
    expect(disabled.code).toBe('ASSERTION_FAILED');
  });

  it('screenshot: a downscaled PNG with its scale, recorded as ui.screenshot_taken', async () => {
    const result = await call('screenshot', {});
    expect(result.isError).toBeFalsy();
    const image = result.content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    const png = Buffer.from(image.data!, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const data = result.structuredContent!;
    expect(data).toMatchObject({ device_serial: phone.serial, width: 1080, height: 2400, image_height: 1280 });
    expect(data.image_width).toBe(576);
    expect(data.scale).toBeCloseTo(1.875, 3);
    expect(png.readUInt32BE(16)).toBe(data.image_width);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(128 * 1024);
    const full = await ok('screenshot', { full_size: true });
    expect(full.file).toBeDefined();
    expect(existsSync(full.file)).toBe(true);
    expect(readFileSync(full.file).readUInt32BE(16)).toBe(1080);
    const small = await call('screenshot', { max_dimension: 100 });
    expect(small.isError).toBe(true);
    const events = (await ok('query_events', { types: ['ui.screenshot_taken'], verbose: true })).events;
    expect(events.length).toBe(2);
    expect(events[0].data).toMatchObject({ device_serial: phone.serial, width: 1080, height: 2400 });
    expect(events[0].data.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('capturing one device from several places', () => {
  it('two server processes capturing the same device at once take turns', async () => {
    const second = await startMcpClient({ home: home.home, adbPort: adb.port }, ['--toolsets', 'ui']);
    try {
      const automator = sim().uiAutomator;
      automator.dumpDelayMs = 400;
      automator.maxConcurrent = 0;
      const results = await Promise.all([
        call('get_ui_hierarchy', {}),
        call('get_ui_hierarchy', {}, second),
        call('list_clickable_elements', {}),
        call('list_clickable_elements', {}, second),
      ]);
      for (const r of results) expect(r.isError).toBeFalsy();
      // UI Automator answers "already registered" to a second client: one at a time is what made all succeed.
      expect(automator.maxConcurrent).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('a device whose UI Automator another client holds: UI_BUSY at once', async () => {
    sim().uiAutomator.setFault('already_registered');
    const started = Date.now();
    const busy = await toolError('get_ui_hierarchy', {});
    expect(busy.code).toBe('UI_BUSY');
    expect(busy.text).toMatch(/already registered/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a capture past its deadline: UI_CAPTURE_TIMEOUT, and the device is free again after', async () => {
    sim().uiAutomator.setFault('hang');
    const waited = await toolError('wait_for_element', { text: 'anything', timeout_ms: 1500 });
    expect(waited.code).toBe('TIMEOUT');
    expect(waited.text).toMatch(/could not be captured within/);
    sim().uiAutomator.setFault('idle_timeout');
    const idle = await toolError('ui_wait_for_idle', { timeout_ms: 1200 });
    expect(idle.code).toBe('TIMEOUT');
    expect(idle.text).toMatch(/could not get idle state/);
    sim().uiAutomator.setFault(null);
    await ok('get_ui_hierarchy', {});
  });
});
