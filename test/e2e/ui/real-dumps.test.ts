import { join } from 'node:path';
import type { SimulatedAndroidHandle } from '../../../src/sim/android/create-simulated-android.js';
import { CAPTURED_ACTIVITY, capturedScreenScenario } from '../../../src/sim/android/scenario/load-scenario.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { REPO_ROOT, startMcpClient, type McpTestClient } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';
import { createTempHome } from '../../support/temp-home.js';

/*
 * The ui tools on screens captured from real apps by other people (test/fixtures/uiautomator/README.md says where
 * each came from), served by the simulated device as captured: a long reformatted YouTube list, a CJK launcher, a
 * Compose form. Each must read, find and act through the real MCP client as on our own scenario screens.
 */

type ToolResult = { isError?: boolean; content: { text?: string }[]; structuredContent?: Record<string, any> };

const fixture = (name: string) => join(REPO_ROOT, 'test', 'fixtures', 'uiautomator', name);

let home: { home: string; cleanup(): void };
let adb: TestAdbServer;
let mcp: McpTestClient;

beforeAll(async () => {
  home = createTempHome('ui-real-dumps');
  adb = await startAdbServer();
  mcp = await startMcpClient({ home: home.home, adbPort: adb.port }, [], { clientName: 'real-dumps' });
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await adb?.stop();
  home?.cleanup();
});

async function onCapturedScreen<T>(name: string, use: (serial: string) => Promise<T>): Promise<T> {
  const captured = capturedScreenScenario(fixture(name));
  const phone: RunningSimulatedDevice = await startSimOnAdb(adb, {
    androidOptions: {
      backgroundLogRate: 0,
      scenario: captured.scenario,
      width: captured.width,
      height: captured.height,
    },
  });
  try {
    (phone.android as SimulatedAndroidHandle).state.am.launch(captured.packageName, CAPTURED_ACTIVITY);
    return await use(phone.serial);
  } finally {
    await phone.stop();
  }
}

async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(' ')}`);
  return result.structuredContent!;
}

describe('ui tools on real captured screens', () => {
  it.each([
    ['ulcica_youtube_reformatted.xml', /Button|TextView/],
    ['weditor_huawei_launcher_cjk_reformatted.xml', /[\u4e00-\u9fff]/],
    ['androidviewclient_api27_nexuslauncher.xml', /TextView/],
  ])(
    '%s: the interactive view, a sparse tree, a selector and a tap by element',
    async (name, rowPattern) => {
      await onCapturedScreen(name, async (serial) => {
        const view = await ok('get_ui_hierarchy', { device_serial: serial });
        expect(view.screen_hash).toMatch(/^[0-9a-f]{16}$/);
        expect(view.rows.length).toBeGreaterThan(0);
        expect(view.rows.join('\n')).toMatch(rowPattern);
        const sparse = await ok('get_ui_hierarchy', { device_serial: serial, view: 'sparse' });
        expect(sparse.screen_hash).toBe(view.screen_hash);
        const clickable = await ok('find_ui_elements', { device_serial: serial, clickable: true });
        expect(clickable.matches.length).toBeGreaterThan(0);
        const target = String(clickable.matches[0]).split(' ')[0];
        const tapped = await ok('ui_tap_element', {
          device_serial: serial,
          element: target,
          expect_screen_hash: view.screen_hash,
        });
        expect(tapped.screen_hash).toMatch(/^[0-9a-f]{16}$/);
      });
    },
    60_000,
  );

  it('fills the Compose form field and reads the new text back', async () => {
    await onCapturedScreen('nku_compose_form_edittext_entities.xml', async (serial) => {
      const view = await ok('get_ui_hierarchy', { device_serial: serial });
      const field = view.rows.find((row: string) => / EditText /.test(row));
      expect(field).toBeDefined();
      const filled = await ok('ui_fill_input', {
        device_serial: serial,
        element: field.split(' ')[0],
        value: 'ada@example.com',
        expect_screen_hash: view.screen_hash,
      });
      expect(filled.screen_changed).toBe(true);
      const found = await ok('find_ui_elements', { device_serial: serial, text: 'ada@example.com' });
      expect(found.matches).toHaveLength(1);
    });
  }, 60_000);
});
