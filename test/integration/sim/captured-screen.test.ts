import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseUiDump } from '../../../src/android/ui/ui-dump-parser.js';
import type { SimulatedAndroidHandle } from '../../../src/sim/android/create-simulated-android.js';
import { CAPTURED_ACTIVITY, capturedScreenScenario } from '../../../src/sim/android/scenario/load-scenario.js';
import { parseSimArguments } from '../../../src/sim/sim-command.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { REPO_ROOT } from '../../support/mcp-client.js';
import { startSimOnAdb } from '../../support/sim-device.js';

/*
 * A captured UI Automator dump as the simulated device's screen, through a real adb server: `uiautomator
 * dump` answers the capture byte for byte, screencap draws it, and a tap and `input text` on its EditText
 * change that field (and only that attribute) in the next dump.
 */

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'uiautomator', 'nku_compose_form_edittext_entities.xml');

describe('a captured dump as a screen', () => {
  let adb: TestAdbServer;
  let phone: RunningSimulatedDevice;

  beforeAll(async () => {
    const captured = capturedScreenScenario(FIXTURE);
    adb = await startAdbServer();
    phone = await startSimOnAdb(adb, {
      androidOptions: {
        backgroundLogRate: 0,
        scenario: captured.scenario,
        width: captured.width,
        height: captured.height,
      },
    });
    (phone.android as SimulatedAndroidHandle).state.am.launch(captured.packageName, CAPTURED_ACTIVITY);
  });
  afterAll(async () => {
    await phone?.stop();
    await adb?.stop();
  });

  const dump = async (): Promise<string> =>
    (await adb.adb(['-s', phone.serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty'])).stdout;

  it('answers uiautomator dump with the capture as it was', async () => {
    const original = readFileSync(FIXTURE, 'utf8');
    expect(await dump()).toBe(`${original}UI hierchary dumped to: /dev/tty\n`);
  });

  it('draws it for screencap at the size it was captured', async () => {
    const png = (await adb.adb(['-s', phone.serial, 'exec-out', 'screencap', '-p'])).stdoutBuffer;
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const captured = capturedScreenScenario(FIXTURE);
    expect(png.readUInt32BE(16)).toBe(captured.width);
    expect(png.readUInt32BE(20)).toBe(captured.height);
  });

  it('types into the field a tap focused, rewriting only that field', async () => {
    const before = parseUiDump(await dump());
    const field = before.nodes.find((n) => n.className === 'android.widget.EditText')!;
    await adb.adb(['-s', phone.serial, 'shell', 'input', 'tap', String(field.center!.x), String(field.center!.y)]);
    await adb.adb(['-s', phone.serial, 'shell', 'input', 'text', 'fever%sand%scough']);
    const after = parseUiDump(await dump());
    expect(after.nodes.find((n) => n.path === field.path)!.text).toBe('fever and cough');
    const changed = after.nodes.filter((n, i) => n.text !== before.nodes[i].text).map((n) => n.path);
    expect(changed).toEqual([field.path]);
    expect(after.nodes.length).toBe(before.nodes.length);
  });

  it('is what droidwright sim --screen starts with', () => {
    const parsed = parseSimArguments(['--screen', FIXTURE, '--no-connect']);
    expect(parsed.launch).toBe('com.nku.app');
    expect(parsed.device.androidOptions).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
    expect(() => parseSimArguments(['--screen', '/no/such.xml', '--no-connect'])).toThrow(/no file at/);
  });
});
