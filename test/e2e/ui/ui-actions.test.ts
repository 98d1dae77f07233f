import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeInputTextArguments } from '../../../src/plugins/ui/services/input-text-encoding.js';
import type { ScenarioInput } from '../../../src/sim/android/scenario/scenario-schema.js';
import type { SimulatedDevice } from '../../../src/sim/android/simulated-device.js';
import type { RunningSimulatedDevice } from '../../../src/sim/start-simulated-device.js';
import { commandCount, commandsRun } from '../../integration/android/support.js';
import { startAdbServer, type TestAdbServer } from '../../support/adb-server.js';
import { REPO_ROOT, runCli, startMcpClient, type McpTestClient } from '../../support/mcp-client.js';
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

async function screenHash(serial?: string): Promise<string> {
  const { screen_hash } = await ok('get_ui_hierarchy', serial ? { device_serial: serial } : {});
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
  it('lists every acting tool as kind W with a published definition of at most 1.5 KB', async () => {
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
      expect({ name, size: size <= 1500 }).toEqual({ name, size: true });
  });

  it('completes login → list → detail → settings reading with ui tools and acting on element targets only', async () => {
    await launchNotes();
    const idIn = (rows: string[], pattern: RegExp): string => {
      const row = rows.find((r) => pattern.test(r));
      if (!row) throw new Error(`no row matches ${pattern}: ${rows.join(' | ')}`);
      return row.split(' ')[0];
    };
    let view = await ok('get_ui_hierarchy', {});
    let result = await ok('ui_fill_input', {
      element: idIn(view.rows, /^\S+ EditText .*edit$/),
      value: 'ada@example.com',
      expect_screen_hash: view.screen_hash,
    });
    expect(result.screen_changed).toBe(true);
    expect(result.diff.join('\n')).toContain('ada@example.com');

    result = await ok('ui_fill_input', {
      element: idIn(view.rows, /EditText .*edit password/),
      value: 'hunter22',
      expect_screen_hash: result.screen_hash,
    });
    expect(result.target).toContain('password');
    expect(fieldValue('password')).toBe('hunter22');

    // find_ui_elements answers one view row per match; the row starts with the element id.
    const signIn = { id: (await ok('find_ui_elements', { text: 'Sign in' })).matches[0].split(' ')[0] };
    const stale = view.screen_hash;
    result = await ok('ui_tap_element', { element: signIn.id, expect_screen_hash: result.screen_hash });
    expect(result.target).toContain('"Sign in"');
    expect(result.screen_changed).toBe(true);
    // The screen the agent read before typing is gone: acting on it is refused.
    expect((await toolError('ui_tap_element', { element: signIn.id, expect_screen_hash: stale })).code).toBe(
      'SCREEN_CHANGED',
    );

    await ok('wait_for_element', { text: 'Grocery list' });
    result = await ok('ui_scroll_until_element', { text: 'Release checklist' });
    expect(result.target).toContain('Release checklist');
    expect(result.swipes).toBeGreaterThan(0);

    const note = { id: (await ok('find_ui_elements', { text: 'Release checklist' })).matches[0].split(' ')[0] };
    result = await ok('ui_tap_element', { element: note.id, expect_screen_hash: result.screen_hash });
    expect(result.diff[0]).toMatch(/^activity .*NoteDetailActivity/);
    view = await ok('get_ui_hierarchy', {});
    expect(view.rows.join('\n')).toContain('Release checklist');
    expect(device().am.foreground()?.screen.name).toBe('note_detail');

    result = await ok('send_ui_key', { key: 'back', expect_screen_hash: view.screen_hash });
    expect(device().am.foreground()?.screen.name).toBe('notes');

    view = await ok('get_ui_hierarchy', {});
    result = await ok('ui_tap_element', {
      element: idIn(view.rows, /^open_settings /),
      expect_screen_hash: view.screen_hash,
    });
    expect(device().am.foreground()?.screen.name).toBe('settings');

    view = await ok('get_ui_hierarchy', {});
    result = await ok('ui_tap_element', {
      element: idIn(view.rows, /"Dark theme"/),
      expect_screen_hash: view.screen_hash,
    });
    expect(result.diff.join('\n')).toMatch(/Dark theme.*→.*checked/);
  });
});

describe('refusals', () => {
  beforeAll(async () => {
    await launchNotes();
  });

  it('refuses every acting tool on a stale expect_screen_hash, giving the new hash and running nothing', async () => {
    const current = await screenHash();
    const stale = '0123456789abcdef';
    const cases: [string, Record<string, unknown>][] = [
      ['ui_tap', { x: 540, y: 1072 }],
      ['ui_tap_element', { element: 'sign_in' }],
      ['ui_fill_input', { element: 'email', value: 'x' }],
      ['ui_type_text', { text: 'x' }],
      ['ui_type_text_unicode', { text: 'é' }],
      ['clear_focused_input', {}],
      ['hide_soft_keyboard', {}],
      ['send_ui_key', { key: 'back' }],
      ['ui_swipe', { direction: 'up' }],
      ['ui_scroll_until_element', { text: 'Sign in' }],
    ];
    for (const [tool, args] of cases) {
      const before = commandCount(phone);
      const refused = await toolError(tool, { ...args, expect_screen_hash: stale });
      expect({ tool, code: refused.code, hash: refused.details.screen_hash }).toEqual({
        tool,
        code: 'SCREEN_CHANGED',
        hash: current,
      });
      expect(refused.text).toContain(current);
      expect({ tool, ran: actions(before) }).toEqual({ tool, ran: [] });
    }
    expect(device().am.foreground()?.screen.name).toBe('login');
  });

  it('refuses missing, ambiguous and disabled targets without tapping anything', async () => {
    const before = commandCount(phone);
    const missing = await toolError('ui_tap_element', { text: 'No such button' });
    expect(missing.code).toBe('ELEMENT_NOT_FOUND');

    const ambiguous = await toolError('ui_tap_element', { text_contains: 'e' });
    expect(ambiguous.code).toBe('ELEMENT_AMBIGUOUS');
    expect(ambiguous.details.candidates.length).toBeGreaterThanOrEqual(2);
    expect(ambiguous.text).toContain('Welcome to Notes');
    expect(ambiguous.text).toContain('Register');

    const disabled = await toolError('ui_tap_element', { element: 'register' });
    expect(disabled.code).toBe('ELEMENT_DISABLED');
    expect((await toolError('ui_fill_input', { text: 'Register', value: 'x' })).code).toBe('ELEMENT_DISABLED');

    const both = await toolError('ui_tap_element', { element: 'sign_in', text: 'Sign in' });
    expect(both.code).toBe('INVALID_ARGUMENT');
    const none = await toolError('ui_tap_element', {});
    expect(none.code).toBe('INVALID_ARGUMENT');
    expect(actions(before)).toEqual([]);
  });

  it('refuses to fill a target that is not a text field, oversize text and text input text cannot type', async () => {
    const before = commandCount(phone);
    const notEditable = await toolError('ui_fill_input', { element: 'title', value: 'x' });
    expect(notEditable.code).toBe('ELEMENT_NOT_EDITABLE');
    expect(notEditable.text).toContain('Welcome to Notes');

    expect((await toolError('ui_type_text', { text: 'a'.repeat(1001) })).code).toBe('INVALID_ARGUMENT');
    const wide = await toolError('ui_type_text_unicode', { text: 'é'.repeat(600) });
    expect(wide.code).toBe('INVALID_ARGUMENT');
    expect(wide.text).toContain('1200 bytes');
    expect((await toolError('ui_fill_input', { element: 'email', value: '€'.repeat(400) })).code).toBe(
      'INVALID_ARGUMENT',
    );
    const unicode = await toolError('ui_type_text', { text: 'café' });
    expect(unicode.code).toBe('INVALID_ARGUMENT');
    expect(unicode.text).toContain('ui_type_text_unicode');
    expect((await toolError('ui_type_text', { text: 'line\nbreak' })).code).toBe('INVALID_ARGUMENT');
    expect(actions(before)).toEqual([]);
  });

  it('refuses to type when no field has focus, and names what to install for Unicode on a bare device', async () => {
    await launchNotes();
    const before = commandCount(phone);
    expect((await toolError('ui_type_text', { text: 'hello' })).code).toBe('ELEMENT_NOT_FOUND');
    await ok('ui_tap_element', { element: 'email' });
    const missing = await toolError('ui_type_text_unicode', { text: 'héllo' });
    expect(missing.code).toBe('INPUT_METHOD_MISSING');
    expect(missing.text).toContain('ADBKeyboard');
    expect(missing.text).toContain('ca.zgrs.clipper');
    const ran = actions(before).map((argv) => argv[0]);
    expect(ran.filter((name) => name === 'am')).toEqual([]);
    expect(fieldValue('email') ?? '').toBe('');
  });
});

describe('typing', () => {
  const HOSTILE = [
    'a b',
    '  leading spaces',
    'trailing  ',
    '%s',
    '%%s',
    '100%',
    '%',
    '%%',
    '50%s off',
    '%s%s',
    '% s',
    's%',
    '%1$s %2$d',
    "'",
    "''",
    '"',
    '\\',
    '\\\\',
    '\\n',
    '\\t',
    '`id`',
    '$(id)',
    '${HOME}',
    '$HOME',
    '$?',
    '$$',
    'a;reboot',
    'a && id',
    'a || id',
    'a | id',
    'a > /sdcard/x',
    'a < /etc/hosts',
    'a & b',
    '(sub)',
    '{a,b}',
    '[abc]',
    '*',
    '?',
    '~',
    '~/x',
    '#comment',
    '!!',
    'a\\ b',
    'x=1 y=2',
    '-n',
    '--help',
    '-e foo',
    'keyevent 3',
    'tap 1 1',
    "' ; input keyevent 3 ; '",
    '"; reboot; "',
    'a\'b"c`d$e\\f',
    '^',
    '@user',
    'a,b.c/d:e',
    '+=-_',
    "'\"'\"'",
    '%s\'%s"%s',
    ' ',
    '-',
    '--',
    'user@example.com',
    Array.from({ length: 64 }, (_, i) => `w%${i} s`).join(''),
  ];

  beforeAll(async () => {
    await launchNotes();
    await ok('ui_tap_element', { element: 'email' });
  });

  it(`types ${HOSTILE.length} hostile strings exactly, with only their input text commands`, async () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(50);
    const wrong: unknown[] = [];
    for (const text of HOSTILE) {
      device().am.foreground()!.runtime.values.set('id:email', '');
      const before = commandCount(phone);
      await ok('ui_type_text', { text });
      const expected = encodeInputTextArguments(text).map((argument) => ['input', 'text', argument]);
      const ran = actions(before);
      const typed = fieldValue('email');
      if (typed !== text || JSON.stringify(ran) !== JSON.stringify(expected)) wrong.push({ text, typed, ran });
    }
    expect(wrong).toEqual([]);
    expect(device().am.foreground()?.screen.name).toBe('login');
  }, 120_000);

  it('records typed text as its length and SHA-256 only', async () => {
    device().am.foreground()!.runtime.values.set('id:email', '');
    const secret = 'correct horse battery staple';
    const result = await ok('ui_type_text', { text: secret });
    const { events } = await ok('query_events', { types: ['ui.text_entered'], limit: 1, verbose: true });
    const event = events[0];
    expect(event.data).toMatchObject({
      length: secret.length,
      sha256: createHash('sha256').update(secret).digest('hex'),
      method: 'input_text',
      cleared_first: false,
      screen_hash_after: result.screen_hash,
    });
    expect(event.data.target.resource_id).toBe('com.example.notes:id/email');
    const all = await ok('query_events', { limit: 50, verbose: true });
    expect(JSON.stringify(all)).not.toContain(secret);
  });

  it('clears the focused field, and the keyboard shows on focus and hides with hide_soft_keyboard', async () => {
    const before = commandCount(phone);
    const cleared = await ok('clear_focused_input', {});
    expect(fieldValue('email')).toBe('');
    expect(cleared.diff.join('\n')).toMatch(/→ email EditText @/);
    const keys = actions(before).find((argv) => argv[0] === 'input')!;
    expect(keys.slice(0, 3)).toEqual(['input', 'keyevent', '123']);
    expect(keys.slice(3).every((code) => code === '67')).toBe(true);

    expect(device().inputShown()).toBe(true);
    const hidden = await ok('hide_soft_keyboard', {});
    expect(hidden.was_shown).toBe(true);
    expect(device().inputShown()).toBe(false);
    expect(device().am.foreground()?.screen.name).toBe('login');
    const again = commandCount(phone);
    expect((await ok('hide_soft_keyboard', {})).was_shown).toBe(false);
    expect(actions(again).filter((argv) => argv[0] === 'input')).toEqual([]);
  });

  it('sends named keys as keycodes', async () => {
    await ok('ui_tap_element', { element: 'email' });
    const before = commandCount(phone);
    await ok('send_ui_key', { key: 'tab' });
    expect(actions(before).filter((argv) => argv[0] === 'input')).toEqual([['input', 'keyevent', '61']]);
    const focused = device().am.foreground()?.screen.focusedKey;
    expect(focused).toBe('id:password');
    await ok('send_ui_key', { key: 'delete', times: 3 });
    const { events } = await ok('query_events', { types: ['ui.key_sent'], limit: 3, verbose: true });
    expect(events.map((e: any) => e.data.keycode)).toEqual([67, 67, 67]);
  });
});

describe('taps and swipes', () => {
  beforeAll(async () => {
    await launchNotes();
  });

  it('taps and long-presses at coordinates, recording the element hit', async () => {
    let before = commandCount(phone);
    const tapped = await ok('ui_tap', { x: 540, y: 1240 });
    expect(tapped.target).toContain('Forgot password?');
    expect(actions(before)).toEqual([['input', 'tap', '540', '1240']]);
    before = commandCount(phone);
    await ok('ui_tap', { x: 540, y: 1240, long_press: true });
    expect(actions(before)).toEqual([['input', 'swipe', '540', '1240', '540', '1240', '800']]);
    const { events } = await ok('query_events', { types: ['ui.tapped'], limit: 1, verbose: true });
    expect(events[0].data).toMatchObject({ long_press: true, target: { resource_id: 'com.example.notes:id/forgot' } });
    const off = await toolError('ui_tap', { x: 5000, y: 10 });
    expect(off.code).toBe('INVALID_ARGUMENT');
  });

  it('swipes across an element or between points, and scrolling stops at the end of the list', async () => {
    await ok('ui_fill_input', { element: 'email', value: 'ada@example.com' });
    await ok('ui_fill_input', { element: 'password', value: 'hunter22' });
    await ok('ui_tap_element', { element: 'sign_in' });
    await ok('ui_scroll_until_element', { text: 'Grocery list' });
    let before = commandCount(phone);
    const swiped = await ok('ui_swipe', { direction: 'up', element: 'notes_list' });
    expect(swiped.screen_changed).toBe(true);
    const swipe = actions(before)[0];
    expect(swipe.slice(0, 2)).toEqual(['input', 'swipe']);
    expect(Number(swipe[3])).toBeGreaterThan(Number(swipe[5]));
    before = commandCount(phone);
    await ok('ui_swipe', { points: [540, 900, 540, 1500], duration_ms: 500 });
    expect(actions(before)).toEqual([['input', 'swipe', '540', '900', '540', '1500', '500']]);

    const notThere = await toolError('ui_scroll_until_element', { text: 'No such note', max_swipes: 25 });
    expect(notThere.code).toBe('ELEMENT_NOT_FOUND');
    expect(notThere.text).toContain('stopped moving');
    expect(notThere.details.swipes).toBeLessThan(25);
    const bad = await toolError('ui_swipe', { direction: 'up', points: [1, 2, 3, 4] });
    expect(bad.code).toBe('INVALID_ARGUMENT');
  });
});

describe('Unicode text through an input method or the clipboard', () => {
  let keyboardPhone: RunningSimulatedDevice;
  let clipperPhone: RunningSimulatedDevice;

  beforeAll(async () => {
    keyboardPhone = await startSimOnAdb(adb, {
      androidOptions: { backgroundLogRate: 0, inputHelpers: ['adb_keyboard'] },
    });
    clipperPhone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0, inputHelpers: ['clipper'] } });
  });
  afterAll(async () => {
    await keyboardPhone?.stop();
    await clipperPhone?.stop();
  });

  const TEXT = "Grüße, 世界! 🎉 שלום '$(id)' %s";

  it('types any text through ADBKeyboard and restores the previous input method', async () => {
    const serial = keyboardPhone.serial;
    await launchNotes(keyboardPhone, serial);
    const previous = device(keyboardPhone).currentInputMethod();
    await ok('ui_tap_element', { device_serial: serial, element: 'email' });
    const before = commandCount(keyboardPhone);
    await ok('ui_type_text_unicode', { device_serial: serial, text: TEXT });
    expect(fieldValue('email', keyboardPhone)).toBe(TEXT);
    expect(device(keyboardPhone).currentInputMethod()).toBe(previous);
    const base64 = Buffer.from(TEXT, 'utf8').toString('base64');
    expect(actions(before, keyboardPhone)).toContainEqual([
      'am',
      'broadcast',
      '-a',
      'ADB_INPUT_B64',
      '--es',
      'msg',
      base64,
    ]);
    const { events } = await ok('query_events', {
      types: ['ui.text_entered'],
      device: serial,
      limit: 1,
      verbose: true,
    });
    expect(events[0].data.method).toBe('ime_broadcast');
  });

  it('types any text through the clipboard when Clipper is installed, and ui_fill_input uses it for non-ASCII', async () => {
    const serial = clipperPhone.serial;
    await launchNotes(clipperPhone, serial);
    await ok('ui_tap_element', { device_serial: serial, element: 'email' });
    let before = commandCount(clipperPhone);
    await ok('ui_type_text_unicode', { device_serial: serial, text: TEXT });
    expect(fieldValue('email', clipperPhone)).toBe(TEXT);
    expect(actions(before, clipperPhone)).toContainEqual(['input', 'keyevent', '279']);
    before = commandCount(clipperPhone);
    await ok('ui_fill_input', { device_serial: serial, element: 'email', value: 'Zoë' });
    expect(fieldValue('email', clipperPhone)).toBe('Zoë');
  });
});

describe('an action after which the screen cannot be read', () => {
  let darkPhone: RunningSimulatedDevice;
  beforeAll(async () => {
    darkPhone = await startSimOnAdb(adb, { androidOptions: { backgroundLogRate: 0 } });
  });
  afterAll(async () => {
    await darkPhone?.stop();
  });

  it('says the key was sent and records it when the screen goes dark', async () => {
    const serial = darkPhone.serial;
    const failed = await toolError('send_ui_key', { device_serial: serial, key: 'power' });
    expect(failed.text).toContain('The action was sent');
    expect(device(darkPhone).screenOn).toBe(false);
    const { events } = await ok('query_events', { types: ['ui.key_sent'], device: serial, limit: 1, verbose: true });
    expect(events[0].data).toMatchObject({ key: 'power', keycode: 26, screen_hash_after: null });
  }, 60_000);
});

describe('the log of every action', () => {
  it('verifies, projections included', async () => {
    const verified = await runCli({ home: home.home, adbPort: adb.port }, ['events', 'verify', '--projections']);
    expect({ code: verified.code, stderr: verified.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
