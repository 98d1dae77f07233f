import { readdirSync } from 'node:fs';
import { SCREEN_HASH_LENGTH, computeScreenHash } from '../../../../src/android/ui/screen-hash.js';
import { parseUiDump } from '../../../../src/android/ui/ui-dump-parser.js';
import { UI_FIXTURES, buildDump, loginScreen, longListScreen, statusBar, uiFixture } from './ui-dump-builder.js';

const hashOf = (xml: string) => computeScreenHash(parseUiDump(xml));

describe('computeScreenHash', () => {
  it('is a short hex string, the same for two parses of the same capture', () => {
    const hash = hashOf(loginScreen());
    expect(hash).toMatch(new RegExp(`^[0-9a-f]{${SCREEN_HASH_LENGTH}}$`));
    expect(hashOf(loginScreen())).toBe(hash);
  });

  it('differs between every pair of real captures', () => {
    const hashes = readdirSync(UI_FIXTURES)
      .filter((name) => name.endsWith('.xml'))
      .map((name) => hashOf(uiFixture(name)));
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('ignores the status bar clock and battery, and an in-app time of day', () => {
    const base = hashOf(loginScreen({ clock: '9:41' }));
    expect(hashOf(loginScreen({ clock: '10:02' }))).toBe(base);
    const withBattery = (battery: string) =>
      hashOf(
        buildDump([
          { children: [{ class: 'android.widget.Button', text: 'Go', clickable: true }] },
          statusBar('9:41', battery),
        ]),
      );
    expect(withBattery('87 percent')).toBe(withBattery('12 percent'));
    const appClock = (time: string) =>
      hashOf(buildDump([{ children: [{ class: 'android.widget.TextView', text: time }] }]));
    expect(appClock('09:41 AM')).toBe(appClock('11:07 PM'));
    expect(appClock('21:07:33')).toBe(appClock('08:00:00'));
  });

  it('ignores a notification icon appearing in the status bar', () => {
    const withIcons = (icons: number) => {
      const bar = statusBar('9:41', '87 percent');
      const extra = Array.from({ length: icons }, (_, i) => ({
        class: 'android.widget.ImageView',
        pkg: 'com.android.systemui',
        desc: `Notification ${i}`,
        bounds: [150 + i * 50, 0, 190 + i * 50, 63] as [number, number, number, number],
      }));
      return hashOf(
        buildDump([
          { children: [{ class: 'android.widget.Button', text: 'Go', clickable: true }] },
          { ...bar, children: [...extra, ...(bar.children ?? [])] },
        ]),
      );
    };
    expect(withIcons(2)).toBe(withIcons(0));
  });

  it('ignores focus moving between fields', () => {
    const focused = (field: 'a' | 'b') =>
      hashOf(
        buildDump([
          {
            children: [
              {
                class: 'android.widget.EditText',
                id: 'x:id/a',
                focusable: true,
                focused: field === 'a',
                bounds: [0, 0, 100, 100],
              },
              {
                class: 'android.widget.EditText',
                id: 'x:id/b',
                focusable: true,
                focused: field === 'b',
                bounds: [0, 100, 100, 200],
              },
            ],
          },
        ]),
      );
    expect(focused('a')).toBe(focused('b'));
  });

  it('changes when an actionable element changes: typed text, a checkbox, enabled state, a label', () => {
    const base = hashOf(loginScreen());
    expect(hashOf(loginScreen({ email: 'a@b.c' }))).not.toBe(base);
    expect(hashOf(loginScreen({ remember: true }))).not.toBe(base);
    expect(hashOf(loginScreen({ signInEnabled: false }))).not.toBe(base);
    expect(hashOf(loginScreen().replace('Sign in', 'Sign up'))).not.toBe(base);
  });

  it('changes when a list row shows a different item (its text is not actionable itself)', () => {
    expect(hashOf(longListScreen(5, { firstRowTitle: 'Other' }))).not.toBe(hashOf(longListScreen(5)));
  });

  it('changes when the structure changes: a row more, a node moved, the rotation', () => {
    expect(hashOf(longListScreen(6))).not.toBe(hashOf(longListScreen(5)));
    expect(hashOf(loginScreen().replace('[100,850][980,950]', '[100,860][980,960]'))).not.toBe(hashOf(loginScreen()));
    expect(hashOf(buildDump([{}], 1))).not.toBe(hashOf(buildDump([{}], 0)));
  });

  it('changes when a system dialog or the notification shade covers the app, though its texts are ignored', () => {
    const shade = {
      pkg: 'com.android.systemui',
      bounds: [0, 0, 1080, 1200] as [number, number, number, number],
      children: [{ pkg: 'com.android.systemui', class: 'android.widget.Button', text: 'Clear all', clickable: true }],
    };
    expect(hashOf(loginScreen())).not.toBe(
      hashOf(loginScreen().replace('</hierarchy>', `${buildDump([shade]).replace(/^.*<hierarchy rotation="0">/, '')}`)),
    );
  });

  it('does not depend on the password field content, which the parser never keeps', () => {
    expect(hashOf(loginScreen().replace('hunter2-secret', 'other-secret'))).toBe(hashOf(loginScreen()));
  });
});
