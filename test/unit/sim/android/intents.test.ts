import sharp from 'sharp';
import { parseAmStart } from '../../../../src/android/parsers/am-start.js';
import { filterMatches, parseUri } from '../../../../src/sim/android/intent-resolver.js';
import { loadScenario } from '../../../../src/sim/android/scenario/load-scenario.js';
import type { SimulatedAndroidHandle } from '../../../../src/sim/android/create-simulated-android.js';
import { newDevice, run } from './shell-io.js';

const VIEW = 'android.intent.action.VIEW';
const DEFAULT = 'android.intent.category.DEFAULT';

/** The text of every node in the current window, from a real uiautomator dump. */
async function screenTexts(android: SimulatedAndroidHandle): Promise<string[]> {
  const xml = (await run(android, 'uiautomator dump /dev/tty')).stdout;
  const unescapeXml = (t: string) =>
    t
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return [...xml.matchAll(/ text="([^"]*)"/g)].map((m) => unescapeXml(m[1])).filter((t) => t.length > 0);
}

async function systemLog(android: SimulatedAndroidHandle): Promise<string> {
  return (await run(android, 'logcat -d -b system -s ActivityTaskManager:I')).stdout;
}

describe('intent filter matching', () => {
  it('splits URIs as android.net.Uri does', () => {
    expect(parseUri('notes://note/3?x=1#f')).toEqual({ scheme: 'notes', host: 'note', port: null, path: '/3' });
    expect(parseUri('https://u@Notes.Example.com:8443/n/7')).toEqual({
      scheme: 'https',
      host: 'Notes.Example.com',
      port: 8443,
      path: '/n/7',
    });
    expect(parseUri('package:com.example.notes')).toEqual({ scheme: 'package', host: null, port: null, path: null });
  });

  it('merges the <data> entries of one filter and needs DEFAULT, like IntentFilter.match', () => {
    const filter = {
      actions: [VIEW],
      categories: [DEFAULT],
      data: [{ scheme: 'https' }, { host: '*.example.com' }, { pathPrefix: '/n/' }],
    };
    expect(filterMatches(filter, { action: VIEW, categories: [], data: 'https://notes.example.com/n/1' })).toBe(true);
    expect(filterMatches(filter, { action: VIEW, categories: [], data: 'https://NOTES.example.com/n/1' })).toBe(true);
    expect(filterMatches(filter, { action: VIEW, categories: [], data: 'https://example.com/n/1' })).toBe(false);
    expect(filterMatches(filter, { action: VIEW, categories: [], data: 'https://a.example.com/x/1' })).toBe(false);
    expect(
      filterMatches(filter, {
        action: VIEW,
        categories: ['android.intent.category.BROWSABLE'],
        data: 'https://a.example.com/n/1',
      }),
    ).toBe(false);
    expect(
      filterMatches({ ...filter, categories: [] }, { action: VIEW, categories: [], data: 'https://a.example.com/n/1' }),
    ).toBe(false);
    expect(filterMatches(filter, { categories: [], data: 'https://a.example.com/n/1' })).toBe(true);
    // Without schemes or types a filter takes only intents without data; a typed intent needs a typed filter.
    expect(filterMatches({ actions: ['a'], categories: [DEFAULT], data: [] }, { action: 'a', categories: [] })).toBe(
      true,
    );
    expect(
      filterMatches({ actions: ['a'], categories: [DEFAULT], data: [] }, { action: 'a', categories: [], data: 'x:y' }),
    ).toBe(false);
    expect(
      filterMatches(
        { actions: ['a'], categories: [DEFAULT], data: [{ mimeType: 'image/*' }] },
        { action: 'a', categories: [], type: 'image/png' },
      ),
    ).toBe(true);
    expect(
      filterMatches(
        { actions: ['a'], categories: [DEFAULT], data: [{ scheme: 'x' }] },
        { action: 'a', categories: [], data: 'x:y', type: 'text/plain' },
      ),
    ).toBe(false);
  });
});

describe('am start resolves implicit intents', () => {
  let android: SimulatedAndroidHandle;
  beforeEach(() => {
    android = newDevice();
  });
  afterEach(() => android.dispose());

  it('opens the one activity whose filter matches a deep link, with the real am -W output and log lines', async () => {
    const r = await run(android, 'am start -W -a android.intent.action.VIEW -d notes://note/3');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^Starting: Intent \{ act=android\.intent\.action\.VIEW dat=notes:\/\/note\/\.\.\. \}\nStatus: ok\nLaunchState: COLD\nActivity: com\.example\.notes\/\.NoteDetailActivity\nTotalTime: \d+\nWaitTime: \d+\nComplete\n$/,
    );
    expect(android.state.am.foreground()?.screen.activity).toBe('com.example.notes.NoteDetailActivity');
    const log = await systemLog(android);
    expect(log).toContain(
      'START u0 {act=android.intent.action.VIEW dat=notes://note/... flg=0x10000000 cmp=com.example.notes/.NoteDetailActivity} from uid 2000',
    );
    expect(log).toMatch(/Displayed com\.example\.notes\/\.NoteDetailActivity: \+\d+ms/);

    const https = await run(
      android,
      'am start -W -a android.intent.action.VIEW -d https://notes.example.com/n/7 -p com.example.notes',
    );
    expect(parseAmStart(https.stdout + https.stderr, https.code)).toMatchObject({
      ok: true,
      activity: 'com.example.notes/.NoteDetailActivity',
    });
  });

  it('starts a new instance for a link with other data, and delivers the same link to the running one', async () => {
    await run(android, 'am start -W -a android.intent.action.VIEW -d notes://note/3');
    const other = await run(android, 'am start -W -a android.intent.action.VIEW -d notes://note/4');
    expect(parseAmStart(other.stdout, other.code)).toMatchObject({
      launchState: 'WARM',
      activity: 'com.example.notes/.NoteDetailActivity',
    });
    const same = await run(android, 'am start -W -a android.intent.action.VIEW -d notes://note/4');
    expect(same.stderr).toBe(
      'Warning: Activity not started, intent has been delivered to currently running top-most instance.\n',
    );
    await run(android, 'input keyevent KEYCODE_BACK');
    expect(android.state.am.foreground()?.screen.data).toBe('notes://note/3');
    // One START and one Displayed per launch, not a second pair for the pushed activity.
    expect((await systemLog(android)).match(/Displayed com\.example\.notes/g)).toHaveLength(2);
  });

  it('keeps the unable-to-resolve error (exit 0) for links, packages and paths no filter takes', async () => {
    for (const args of [
      '-d notes://other/3',
      '-d https://notes.example.com/x/7',
      '-d notes://note/3 -p com.example.weather',
      '-d notes:note',
    ]) {
      const r = await run(android, `am start -W -a android.intent.action.VIEW ${args}`);
      expect({ args, code: r.code }).toEqual({ args, code: 0 });
      expect(r.stderr).toMatch(
        /^Error: Activity not started, unable to resolve Intent \{ act=android\.intent\.action\.VIEW dat=\S+ flg=0x10000000( pkg=\S+)? \}\n$/,
      );
      expect(parseAmStart(r.stdout + r.stderr, r.code).ok).toBe(false);
    }
    expect(android.state.am.foregroundPackage()).toBeNull();
  });

  it('shows the chooser when several apps take the link', async () => {
    const both = loadScenario('notes-app');
    const filter = { actions: [VIEW], categories: [DEFAULT], data: [{ scheme: 'notes', host: 'note' }] };
    const weather = both.apps.find((a) => a.package === 'com.example.weather')!;
    weather.activities[0].intentFilters = [filter];
    android.dispose();
    android = newDevice({ scenario: both });
    const r = await run(android, 'am start -W -a android.intent.action.VIEW -d notes://note/3');
    expect(r.stdout).toMatch(
      /\nStatus: ok\nLaunchState: WARM\nActivity: android\/com\.android\.internal\.app\.ResolverActivity\nTotalTime: \d+\nWaitTime: \d+\nComplete\n$/,
    );
    expect(android.state.am.foregroundPackage()).toBe('android');
    expect(await screenTexts(android)).toEqual(['Open with', 'Notes', 'Weather', 'Just once', 'Always']);
    // No app process starts for the chooser; it lives in system_server.
    expect((await run(android, 'pidof com.example.notes')).code).toBe(1);
    expect(await systemLog(android)).toContain('cmp=android/com.android.internal.app.ResolverActivity} from uid 2000');
    await run(android, 'input keyevent KEYCODE_BACK');
    expect(android.state.am.foregroundPackage()).toBeNull();
    expect((await run(android, 'pidof system_server')).code).toBe(0);
    // -p narrows the candidates to one: no chooser.
    const narrowed = await run(
      android,
      'am start -W -a android.intent.action.VIEW -d notes://note/3 -p com.example.weather',
    );
    expect(parseAmStart(narrowed.stdout, narrowed.code).activity).toBe('com.example.weather/.MainActivity');
  });

  it('opens App info in Settings for package: data, with the app label on screen', async () => {
    const r = await run(
      android,
      'am start -W -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.example.notes',
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^Starting: Intent \{ act=android\.settings\.APPLICATION_DETAILS_SETTINGS dat=package:\.\.\. \}\nStatus: ok\nLaunchState: COLD\nActivity: com\.android\.settings\/\.applications\.InstalledAppDetails\nTotalTime: \d+\nWaitTime: \d+\nComplete\n$/,
    );
    expect(android.state.am.foregroundPackage()).toBe('com.android.settings');
    const texts = await screenTexts(android);
    expect(texts).toEqual(
      expect.arrayContaining([
        'App info',
        'Notes',
        'Force stop',
        'Uninstall',
        'Permissions',
        'Storage & cache',
        'version 1.4.0',
      ]),
    );
    const xml = (await run(android, 'uiautomator dump /dev/tty')).stdout;
    expect(xml).toContain(
      'resource-id="com.android.settings:id/entity_header_title" class="android.widget.TextView" package="com.android.settings"',
    );
    const png = await run(android, 'screencap -p');
    expect((await sharp(png.out).metadata()).format).toBe('png');
    expect(await systemLog(android)).toMatch(
      /Displayed com\.android\.settings\/\.applications\.InstalledAppDetails: \+\d+ms/,
    );
    expect((await run(android, 'logcat -d -b system -s ActivityManager:I')).stdout).toMatch(
      /Start proc \d+:com\.android\.settings\/1000 for next-top-activity/,
    );

    // Another package's App info replaces the label in the running Settings.
    await run(android, 'am start -W -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.example.weather');
    expect(await screenTexts(android)).toContain('Weather');
    expect(await screenTexts(android)).not.toContain('Notes');
  });

  it('App info for a package that is not installed logs, finishes at once, and am reports no activity', async () => {
    await run(android, 'am start -n com.example.weather/.MainActivity');
    const r = await run(
      android,
      'am start -W -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.not.installed',
    );
    expect(r.stdout).toMatch(/\nStatus: ok\nLaunchState: UNKNOWN \(0\)\nWaitTime: \d+\nComplete\n$/);
    expect(parseAmStart(r.stdout, r.code)).toMatchObject({ ok: true, activity: null, totalTimeMs: null });
    expect(android.state.am.foregroundPackage()).toBe('com.example.weather');
    expect((await run(android, 'logcat -d -s AppInfoDashboard:W')).stdout).toContain(
      'Package info not available. Is this package already uninstalled?',
    );
    await run(android, 'input keyevent KEYCODE_HOME');
    await run(android, 'am start -W -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.not.installed');
    expect(android.state.am.foregroundPackage()).toBeNull();
  });

  it('opens the Settings home and Network & internet for their actions', async () => {
    const home = await run(android, 'am start -W -a android.settings.SETTINGS');
    expect(parseAmStart(home.stdout, home.code).activity).toBe('com.android.settings/.Settings');
    expect(await screenTexts(android)).toEqual(expect.arrayContaining(['Settings', 'Network & internet', 'Apps']));
    const wireless = await run(android, 'am start -W -a android.settings.WIRELESS_SETTINGS');
    expect(parseAmStart(wireless.stdout, wireless.code)).toMatchObject({
      ok: true,
      activity: 'com.android.settings/.Settings$NetworkDashboardActivity',
    });
    expect(await screenTexts(android)).toEqual(
      expect.arrayContaining(['Network & internet', 'Internet', 'Airplane mode']),
    );
    // The launcher still opens Settings by package, as before filters existed.
    await run(android, 'input keyevent KEYCODE_HOME');
    expect(parseAmStart((await run(android, 'am start -W -p com.android.settings')).stdout, 0).ok).toBe(true);
  });

  it('rejects scenario filters that are not intent filters', () => {
    const bad = loadScenario('notes-app');
    const raw = JSON.parse(JSON.stringify(bad));
    raw.apps[0].activities[0].intentFilters = [{ actions: [], data: [{ scheme: 'x', pathPrefix: 'no-slash' }] }];
    expect(() => loadScenario(raw)).toThrow(/intentFilters\.0\.actions.*intentFilters\.0\.data\.0\.pathPrefix/);
  });
});
