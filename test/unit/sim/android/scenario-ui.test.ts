import sharp from 'sharp';
import { XMLParser } from 'fast-xml-parser';
import { fakeClock, newDevice, run } from './shell-io.js';
import { loadScenario } from '../../../../src/sim/android/scenario/load-scenario.js';
import type { SimulatedAndroidHandle } from '../../../../src/sim/android/create-simulated-android.js';

interface UiNode {
  text: string;
  resourceId: string;
  className: string;
  pkg: string;
  bounds: [number, number, number, number];
  attrs: Record<string, string>;
}

/** Reads a dump the way a tool would: every node with its attributes and parsed bounds. */
function nodes(xml: string): UiNode[] {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
  const out: UiNode[] = [];
  const visit = (n: Record<string, unknown>) => {
    const attrs = Object.fromEntries(Object.entries(n).filter(([, v]) => typeof v === 'string')) as Record<
      string,
      string
    >;
    const m = /^\[(\d+),(\d+)\]\[(\d+),(\d+)\]$/.exec(attrs.bounds ?? '');
    if (m)
      out.push({
        text: attrs.text,
        resourceId: attrs['resource-id'],
        className: attrs.class,
        pkg: attrs.package,
        bounds: [+m[1], +m[2], +m[3], +m[4]],
        attrs,
      });
    const children = n.node;
    for (const c of Array.isArray(children) ? children : children ? [children] : [])
      visit(c as Record<string, unknown>);
  };
  visit(doc.hierarchy);
  return out;
}

async function dump(android: SimulatedAndroidHandle): Promise<UiNode[]> {
  const r = await run(android, 'uiautomator dump /sdcard/window_dump.xml');
  expect(r.stdout).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
  return nodes(android.fs.readFile('/sdcard/window_dump.xml')!.toString('utf8'));
}

function byId(list: UiNode[], id: string): UiNode {
  const n = list.find((x) => x.resourceId.endsWith(`:id/${id}`));
  if (!n) throw new Error(`no node ${id} in ${list.map((x) => x.resourceId).join(',')}`);
  return n;
}

const center = (n: UiNode) =>
  `${Math.round((n.bounds[0] + n.bounds[2]) / 2)} ${Math.round((n.bounds[1] + n.bounds[3]) / 2)}`;

describe('scenario app UI', () => {
  let android: SimulatedAndroidHandle;
  let clock: ReturnType<typeof fakeClock>;
  beforeEach(async () => {
    clock = fakeClock();
    android = newDevice({ clock: clock.now });
    await run(android, 'am start -n com.example.notes/.LoginActivity');
  });
  afterEach(() => android.dispose());

  async function signIn(): Promise<void> {
    let ui = await dump(android);
    await run(android, `input tap ${center(byId(ui, 'email'))} && input text 'ada@example.com'`);
    await run(android, `input tap ${center(byId(ui, 'password'))} && input text hunter2`);
    ui = await dump(android);
    await run(android, `input tap ${center(byId(ui, 'sign_in'))}`);
  }

  it('dumps the login form in UI Automator format with escaping and the real message', async () => {
    const r = await run(android, 'uiautomator dump');
    expect(r.stdout).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    const xml = android.fs.readFile('/sdcard/window_dump.xml')!.toString();
    expect(
      xml.startsWith(
        `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.notes" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">`,
      ),
    ).toBe(true);
    expect(xml.endsWith('</hierarchy>')).toBe(true);
    const ui = nodes(xml);
    expect(byId(ui, 'password').attrs.password).toBe('true');
    expect(byId(ui, 'sign_in')).toMatchObject({
      text: 'Sign in',
      className: 'android.widget.Button',
      bounds: [64, 1000, 1016, 1144],
    });
    await run(android, `input tap ${center(byId(ui, 'email'))}`);
    await run(android, `input text '<a&b>"q"'`);
    const escaped = (await run(android, 'uiautomator dump /dev/tty')).stdout;
    expect(escaped).toContain('text="&lt;a&amp;b&gt;&quot;q&quot;" resource-id="com.example.notes:id/email"');
    expect(escaped.endsWith('</hierarchy>UI hierchary dumped to: /dev/tty\n')).toBe(true);
  });

  it('types into the focused field, masks passwords and validates before signing in', async () => {
    let ui = await dump(android);
    await run(android, `input tap ${center(byId(ui, 'sign_in'))}`);
    ui = await dump(android);
    expect(byId(ui, 'error').text).toBe('Enter a valid email and a password of 4+ characters');
    await run(android, `input tap ${center(byId(ui, 'email'))}`);
    await run(android, 'input text ada%sx');
    ui = await dump(android);
    expect(byId(ui, 'email')).toMatchObject({ text: 'ada x' });
    expect(byId(ui, 'email').attrs.focused).toBe('true');
    await run(android, 'input keyevent 67 67');
    await run(android, `input tap ${center(byId(ui, 'password'))}; input text secret`);
    ui = await dump(android);
    expect(byId(ui, 'email').text).toBe('ada');
    expect(byId(ui, 'password').text).toBe('••••••');
    expect(byId(ui, 'password').attrs.focused).toBe('true');
  });

  it('signs in, shows the loading screen for 800 ms, then the list, which scrolls to reveal more notes', async () => {
    await signIn();
    let ui = await dump(android);
    expect(byId(ui, 'loading_text').text).toBe('Loading notes…');
    clock.advance(799);
    expect(byId(await dump(android), 'loading_text')).toBeTruthy();
    clock.advance(1);
    ui = await dump(android);
    const titles = () => ui.filter((n) => n.resourceId.endsWith(':id/note_item_title')).map((n) => n.text);
    expect(titles()[0]).toBe('Grocery list');
    expect(titles()).not.toContain('Random thoughts');
    expect(ui.find((n) => n.resourceId.endsWith(':id/notes_list'))?.attrs.scrollable).toBe('true');
    for (let i = 0; i < 4; i++) await run(android, 'input swipe 540 1800 540 400 300');
    ui = await dump(android);
    expect(titles()).toContain('Random thoughts');
    expect(titles()).not.toContain('Grocery list');
    const logs = (await run(android, 'logcat -d -s LoginViewModel NotesRepository')).stdout;
    expect(logs).toMatch(/I LoginViewModel: Signing in as ada@example\.com\n/);
    expect(logs).toMatch(/10:30:00\.800 +\d+ +\d+ D NotesRepository: Loaded 24 notes from cache in 37ms\n/);
  });

  it('opens a note, goes back, toggles a setting, and goes home', async () => {
    await signIn();
    clock.advance(1000);
    let ui = await dump(android);
    const third = ui.filter((n) => n.resourceId.endsWith(':id/note_item_title'))[2];
    await run(android, `input tap ${center(third)}`);
    ui = await dump(android);
    expect(byId(ui, 'note_title').text).toBe('Book recommendations');
    expect((await run(android, 'dumpsys window | grep mCurrentFocus')).stdout).toContain(
      'com.example.notes/com.example.notes.NoteDetailActivity',
    );
    await run(android, 'input keyevent KEYCODE_BACK');
    ui = await dump(android);
    await run(android, `input tap ${center(byId(ui, 'open_settings'))}`);
    ui = await dump(android);
    expect(byId(ui, 'dark_theme').attrs).toMatchObject({ checkable: 'true', checked: 'false' });
    await run(android, `input tap ${center(byId(ui, 'dark_theme'))}`);
    ui = await dump(android);
    expect(byId(ui, 'dark_theme').attrs.checked).toBe('true');
    await run(android, 'input keyevent 3');
    ui = await dump(android);
    expect(ui[0].pkg).toBe('com.google.android.apps.nexuslauncher');
    const icon = ui.find((n) => n.text === 'Notes')!;
    await run(android, `input tap ${center(icon)}`);
    ui = await dump(android);
    expect(byId(ui, 'dark_theme').attrs.checked).toBe('true');
  });

  it('behaves like a locked phone: keyguard dump, taps ignored, swipe up unlocks; screen off has no root', async () => {
    await run(android, 'input keyevent 26');
    const off = await run(android, 'uiautomator dump /dev/tty');
    expect(off.stdout).toBe('');
    expect(off.stderr).toBe('ERROR: null root node returned by UiTestAutomationBridge.\n');
    await run(android, 'input keyevent KEYCODE_WAKEUP');
    let ui = await dump(android);
    expect(ui[0].pkg).toBe('com.android.systemui');
    expect((await run(android, 'dumpsys window | grep mCurrentFocus')).stdout).toContain('NotificationShade');
    expect((await run(android, 'dumpsys window policy | grep -E "showing=|mDreamingLockscreen"')).stdout).toContain(
      'showing=true',
    );
    await run(android, 'input tap 540 1072');
    await run(android, 'input swipe 540 2000 540 600');
    ui = await dump(android);
    expect(byId(ui, 'sign_in').pkg).toBe('com.example.notes');
  });

  it('renders screencap PNGs at the display size (and rotated)', async () => {
    const png = await run(android, 'screencap -p');
    expect(png.out.subarray(1, 4).toString()).toBe('PNG');
    expect(await sharp(png.out).metadata()).toMatchObject({ format: 'png', width: 1080, height: 2400 });
    await run(android, 'settings put system accelerometer_rotation 0; settings put system user_rotation 1');
    await run(android, 'screencap -p /sdcard/s.png');
    expect(await sharp(android.fs.readFile('/sdcard/s.png')!).metadata()).toMatchObject({ width: 2400, height: 1080 });
    expect((await run(android, 'uiautomator dump /dev/tty')).stdout).toContain('<hierarchy rotation="1">');
    const raw = await run(android, 'screencap');
    expect([raw.out.readUInt32LE(0), raw.out.readUInt32LE(4), raw.out.readUInt32LE(8)]).toEqual([2400, 1080, 1]);
    expect(raw.out.length).toBe(16 + 2400 * 1080 * 4);
  });

  it('scales the scenario to an overridden display size', async () => {
    await run(android, 'wm size 540x1200');
    const ui = await dump(android);
    expect(byId(ui, 'sign_in').bounds).toEqual([32, 500, 508, 572]);
  });

  it('validates scenario files and names every problem', () => {
    expect(() =>
      loadScenario({
        apps: [{ package: 'bad', label: 'x', activities: [{ name: '.A', screen: 'missing' }], screens: {} }],
      }),
    ).toThrow(/apps\.0\.package: .*Java package name.*activity \.A starts on unknown screen "missing"/);
    expect(loadScenario('notes-app').apps.map((a) => a.package)).toEqual(['com.example.notes', 'com.example.weather']);
  });
});
