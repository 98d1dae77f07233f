import { readdirSync } from 'node:fs';
import {
  INTERACTIVE_VIEW_DEFAULT_ROWS,
  INTERACTIVE_VIEW_MAX_ROWS,
  LABEL_MAX_CHARS,
  buildInteractiveView,
  interactiveElements,
} from '../../../../src/android/ui/interactive-view.js';
import { nodeByElementId } from '../../../../src/android/ui/element-ids.js';
import { computeScreenHash } from '../../../../src/android/ui/screen-hash.js';
import { parseUiDump } from '../../../../src/android/ui/ui-dump-parser.js';
import { UI_FIXTURES, buildDump, loginScreen, longListScreen, uiFixture } from './ui-dump-builder.js';

describe('buildInteractiveView', () => {
  it('lists the login screen as one compact row per element, with the centre to tap', () => {
    const snapshot = parseUiDump(loginScreen());
    const view = buildInteractiveView(snapshot);
    expect(view.rows).toEqual([
      'title "Welcome back"',
      'email EditText hint="Email" @540,450 click edit',
      'password EditText "[password]" @540,600 click edit password',
      'remember CheckBox "Remember me" @350,740 click check',
      'sign_in Button "Sign in" @540,900 click',
      'clock "9:41"',
      'battery ImageView "87 percent"',
    ]);
    expect(view).toMatchObject({ total: 7, omitted: 0, package: 'com.example.app', rotation: 0 });
    expect(view.screenHash).toBe(computeScreenHash(snapshot));
    expect(JSON.stringify(view)).not.toContain('hunter2');
  });

  it('marks disabled, checked, focused, selected, long-clickable and scrollable elements', () => {
    const view = buildInteractiveView(
      parseUiDump(
        buildDump([
          {
            class: 'android.widget.ScrollView',
            scrollable: true,
            bounds: [0, 0, 1080, 2000],
            children: [
              {
                class: 'android.widget.Switch',
                text: 'Wi-Fi',
                checkable: true,
                checked: true,
                clickable: true,
                bounds: [0, 0, 1080, 100],
              },
              {
                class: 'android.widget.Button',
                text: 'Send',
                clickable: true,
                enabled: false,
                bounds: [0, 100, 1080, 200],
              },
              {
                class: 'android.widget.TextView',
                text: 'Tab',
                clickable: true,
                selected: true,
                longClickable: true,
                bounds: [0, 200, 1080, 300],
              },
            ],
          },
        ]),
      ),
    );
    expect(view.rows.slice(1)).toEqual([
      expect.stringMatching(/Switch "Wi-Fi" @540,50 click checked$/),
      expect.stringMatching(/Button "Send" @540,150 click disabled$/),
      expect.stringMatching(/TextView "Tab" @540,250 click long selected$/),
    ]);
    expect(view.rows[0]).toMatch(/ScrollView @540,1000 scroll$/);
  });

  it('labels a clickable row by the texts inside it, which then get no row of their own', () => {
    const view = buildInteractiveView(parseUiDump(longListScreen(3)));
    expect(view.rows[0]).toMatch(/^list RecyclerView @540,1250 scroll$/);
    expect(view.rows[1]).toMatch(/^n[0-9a-z]{4,} LinearLayout "Item 0 Subtitle for item 0" @540,200 click$/);
    expect(view.total).toBe(4);
  });

  it('does not repeat a label a button already carries (YouTube tabs: content-desc over a TextView)', () => {
    const view = buildInteractiveView(parseUiDump(uiFixture('ulcica_youtube_reformatted.xml')));
    const homeRows = view.rows.filter((row) => row.includes('"Home"'));
    expect(homeRows).toHaveLength(1);
    expect(homeRows[0]).toMatch(/Button "Home" @168,2776 click selected/);
  });

  it('leaves out invisible, zero-size and their descendants', () => {
    const view = buildInteractiveView(
      parseUiDump(
        buildDump([
          {
            children: [
              {
                class: 'android.widget.Button',
                text: 'Hidden',
                clickable: true,
                visible: false,
                children: [{ text: 'inside' }],
              },
              { class: 'android.widget.Button', text: 'Zero', clickable: true, bounds: [10, 10, 10, 50] },
              { class: 'android.widget.Button', text: 'Shown', clickable: true, bounds: [0, 0, 100, 100] },
            ],
          },
        ]),
      ),
    );
    expect(view.rows).toEqual([expect.stringContaining('"Shown"')]);
  });

  it('cuts long labels and collapses whitespace', () => {
    const long = 'word '.repeat(60);
    const view = buildInteractiveView(
      parseUiDump(buildDump([{ children: [{ text: `a\n\n${long}`, bounds: [0, 0, 10, 10] }] }])),
    );
    const label = JSON.parse(view.rows[0].slice(view.rows[0].indexOf('"')));
    expect(label.length).toBe(LABEL_MAX_CHARS);
    expect(label.startsWith('a word')).toBe(true);
    expect(label.endsWith('…')).toBe(true);
  });

  it('leaves out elements below the screen (a ScrollView dump holds its whole content)', () => {
    const view = buildInteractiveView(parseUiDump(longListScreen(20)));
    // Rows 0-11 overlap the 2400 px screen (row 11 spans 2300-2500); rows 12-19 lie below it.
    expect(view.total).toBe(13);
    expect(view.rows.join('\n')).toContain('Item 11');
    expect(view.rows.join('\n')).not.toContain('Item 12');
  });

  it('keeps 80 rows by default, up to 500, and says how many were left out', () => {
    const snapshot = parseUiDump(longListScreen(700, { rowHeight: 3 }));
    const byDefault = buildInteractiveView(snapshot);
    expect(byDefault.rows).toHaveLength(INTERACTIVE_VIEW_DEFAULT_ROWS);
    expect(byDefault.total).toBe(701);
    expect(byDefault.omitted).toBe(701 - INTERACTIVE_VIEW_DEFAULT_ROWS);
    expect(buildInteractiveView(snapshot, { maxRows: 10_000 }).rows).toHaveLength(INTERACTIVE_VIEW_MAX_ROWS);
    expect(buildInteractiveView(snapshot, { maxRows: 0 }).rows).toHaveLength(1);
  });

  it('gives ids that resolve back to the element on every real capture', () => {
    for (const name of readdirSync(UI_FIXTURES).filter((file) => file.endsWith('.xml'))) {
      const snapshot = parseUiDump(uiFixture(name));
      for (const element of interactiveElements(snapshot)) {
        expect(nodeByElementId(snapshot, element.id)).toBe(element.node);
      }
      expect(buildInteractiveView(snapshot).rows.length).toBeGreaterThan(0);
    }
  });
});
