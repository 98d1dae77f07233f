import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioInput } from '../../../src/sim/android/scenario/scenario-schema.js';
import type { SimulatedDevice } from '../../../src/sim/android/simulated-device.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { commandCount, commandsRun } from '../../integration/android/support.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { REPO_ROOT, startMcpClient, type McpTestClient } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';

/*
 * The acting ui tools through the built CLI and the SDK's real client, against a simulated phone behind a
 * real adb server running the notes app. The sim's command log shows exactly what each action ran.
 */

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

const ACTING_TOOLS = [
  'ui_tap',
  'ui_tap_element',
  'ui_type_text',
  'ui_fill_input',
  'ui_type_text_unicode',
  'clear_focused_input',
  'hide_soft_keyboard',
  'send_ui_key',
  'ui_swipe',
  'ui_scroll_until_element',
];

/** The notes app with one disabled button on its login screen, for the disabled-target refusal. */
function notesScenario(): ScenarioInput {
  const scenario = JSON.parse(readFileSync(join(REPO_ROOT, 'scenarios', 'notes-app.json'), 'utf8'));
  scenario.apps[0].screens.login.root.children.push({
    class: 'android.widget.Button',
    id: 'register',
    text: 'Register',
    enabled: false,
    bounds: [64, 1320, 1016, 1440],
  });
  return scenario;
}

let home: { home: string; cleanup(): void };
let adb: TestAdbServer;
let phone: RunningSimulatedDevice;
let mcp: McpTestClient;

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = await call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(' ')}`);
  return result.structuredContent!;
}

async function toolError(
  name: string,
  args: Record<string, unknown>,
): Promise<{ code: string; text: string; details: Record<string, any> }> {
  const result = await call(name, args);
  if (!result.isError) throw new Error(`expected ${name} to fail, got ${JSON.stringify(result.structuredContent)}`);
  expect(result.structuredContent).toBeUndefined();
  return {
    code: result._meta?.error_code,
    text: result.content.map((c) => c.text ?? '').join('\n'),
    details: result._meta?.details ?? {},
  };
}

function device(sim: RunningSimulatedDevice = phone): SimulatedDevice {
  return (sim.android as unknown as { state: SimulatedDevice }).state;
}

/** The value the sim holds for a field of the app in front. */
function fieldValue(key: string, sim: RunningSimulatedDevice = phone): string | undefined {
  return device(sim).am.foreground()?.runtime.values.get(`id:${key}`);
}

const CAPTURE_COMMANDS = new Set(['uiautomator', 'dumpsys', 'grep']);

/** Commands run on the device other than UI captures (uiautomator dump + the resumed-activity read). */
function actions(before: number, sim: RunningSimulatedDevice = phone): (readonly string[])[] {
  return commandsRun(sim, before).filter((argv) => !CAPTURE_COMMANDS.has(argv[0]) || argv[1] === 'input_method');
}

async function launchNotes(sim: RunningSimulatedDevice = phone, serial?: string): Promise<void> {
  await ok('stop_app', { package: 'com.example.notes', ...(serial ? { device_serial: serial } : {}) });
  await ok('launch_app', { package: 'com.example.notes', ...(serial ? { device_serial: serial } : {}) });
  expect(device(sim).am.foreground()?.screen.name).toBe('login');
}

/** The current screen hash, read without acting (hide_soft_keyboard with the keyboard down sends nothing). */
async function screenHash(serial?: string): Promise<string> {
  const { screen_hash } = await ok('hide_soft_keyboard', serial ? { device_serial: serial } : {});
  return screen_hash;
}

beforeAll(async () => {
  home = createTempHome('ui-actions-e2e');
  adb = await startAdbServer();
  phone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, scenario: notesScenario() } });
  const project = createFakeGradleProject(home.home, 'notes', { applicationId: 'com.example.notes' });
  mcp = await startMcpClient({ home: home.home, adbPort: adb.port }, ['--project', project]);
});

afterAll(async () => {
  await mcp?.close();
  await phone?.stop();
  await adb?.stop();
  home?.cleanup();
});

describe('acting ui tools over MCP', () => {
  it('lists every acting tool as kind W with a published definition of about 1 KB at most', async () => {
    const { tools } = await mcp.client.listTools();
    const sizes: Record<string, number> = {};
    for (const name of ACTING_TOOLS) {
      const tool = tools.find((t) => t.name === name);
      expect(tool).toBeDefined();
      expect(tool!.annotations?.readOnlyHint).toBe(false);
      expect(tool!.annotations?.destructiveHint ?? false).toBe(false);
      sizes[name] = Buffer.byteLength(JSON.stringify(tool));
    }
    process.stdout.write(`acting ui tool sizes in tools/list (bytes): ${JSON.stringify(sizes)}\n`);
    for (const [name, size] of Object.entries(sizes))
      expect({ name, size: size <= 1150 }).toEqual({ name, size: true });
  });

  it('completes login → list → detail → settings with element targets only, each guarded by the screen hash', async () => {
    await launchNotes();
    let hash = await screenHash();

    let result = await ok('ui_fill_input', {
      resource_id: 'email',
      value: 'ada@example.com',
      expect_screen_hash: hash,
    });
    expect(result.screen_changed).toBe(true);
    expect(result.diff.join('\n')).toContain('ada@example.com');
    hash = result.screen_hash;

    result = await ok('ui_fill_input', { element: 'password', value: 'hunter22', expect_screen_hash: hash });
    expect(result.target).toContain('password');
    expect(fieldValue('password')).toBe('hunter22');
    hash = result.screen_hash;

    result = await ok('ui_tap_element', { text: 'Sign in', expect_screen_hash: hash });
    expect(result.target).toContain('"Sign in"');
    expect(result.screen_changed).toBe(true);

    // The loading screen moves on by itself; scrolling waits for the list and finds a note below the fold.
    result = await ok('ui_scroll_until_element', { text: 'Release checklist' });
    expect(device().am.foreground()?.screen.name).toBe('notes');
    expect(result.target).toContain('Release checklist');
    expect(result.swipes).toBeGreaterThan(0);
    hash = result.screen_hash;

    result = await ok('ui_tap_element', { text: 'Release checklist', expect_screen_hash: hash });
    expect(result.diff[0]).toMatch(/^activity .*NoteDetailActivity/);
    expect(device().am.foreground()?.screen.name).toBe('note_detail');
    expect(result.diff.join('\n')).toContain('Release checklist');

    result = await ok('send_ui_key', { key: 'back', expect_screen_hash: result.screen_hash });
    expect(device().am.foreground()?.screen.name).toBe('notes');

    result = await ok('ui_tap_element', { element: 'open_settings', expect_screen_hash: result.screen_hash });
    expect(device().am.foreground()?.screen.name).toBe('settings');

    result = await ok('ui_tap_element', { text: 'Dark theme', expect_screen_hash: result.screen_hash });
    expect(result.diff.join('\n')).toMatch(/Dark theme.*→.*checked/);
  });
});
