import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Real captured dumps (see test/fixtures/uiautomator/README.md for where each came from). */
export const UI_FIXTURES = resolve('test/fixtures/uiautomator');

export function uiFixture(name: string): string {
  return readFileSync(join(UI_FIXTURES, name), 'utf8');
}

export interface NodeSpec {
  readonly class?: string;
  readonly text?: string;
  readonly id?: string;
  readonly desc?: string;
  readonly hint?: string;
  readonly pkg?: string;
  readonly bounds?: [number, number, number, number];
  readonly clickable?: boolean;
  readonly longClickable?: boolean;
  readonly scrollable?: boolean;
  readonly checkable?: boolean;
  readonly checked?: boolean;
  readonly enabled?: boolean;
  readonly focusable?: boolean;
  readonly focused?: boolean;
  readonly selected?: boolean;
  readonly password?: boolean;
  readonly visible?: boolean;
  readonly children?: readonly NodeSpec[];
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function renderNode(spec: NodeSpec, index: number): string {
  const b = spec.bounds ?? [0, 0, 1080, 2400];
  const attributes: [string, string][] = [
    ['index', String(index)],
    ['text', spec.text ?? ''],
    ['resource-id', spec.id ?? ''],
    ['class', spec.class ?? 'android.widget.FrameLayout'],
    ['package', spec.pkg ?? 'com.example.app'],
    ['content-desc', spec.desc ?? ''],
    ['checkable', String(spec.checkable ?? false)],
    ['checked', String(spec.checked ?? false)],
    ['clickable', String(spec.clickable ?? false)],
    ['enabled', String(spec.enabled ?? true)],
    ['focusable', String(spec.focusable ?? false)],
    ['focused', String(spec.focused ?? false)],
    ['scrollable', String(spec.scrollable ?? false)],
    ['long-clickable', String(spec.longClickable ?? false)],
    ['password', String(spec.password ?? false)],
    ['selected', String(spec.selected ?? false)],
    ['bounds', `[${b[0]},${b[1]}][${b[2]},${b[3]}]`],
  ];
  if (spec.hint !== undefined) attributes.push(['hint', spec.hint]);
  if (spec.visible !== undefined) attributes.push(['visible-to-user', String(spec.visible)]);
  const head = `<node ${attributes.map(([k, v]) => `${k}="${escapeAttribute(v)}"`).join(' ')}`;
  const children = spec.children ?? [];
  if (children.length === 0) return `${head} />`;
  return `${head}>${children.map((child, i) => renderNode(child, i)).join('')}</node>`;
}

/** A dump in the one-line format recent devices produce. */
export function buildDump(roots: readonly NodeSpec[], rotation = 0): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">${roots
    .map((root, i) => renderNode(root, i))
    .join('')}</hierarchy>`;
}

/** A status bar with a clock and battery level, as the system UI draws over every app. */
export function statusBar(clock: string, battery: string): NodeSpec {
  return {
    pkg: 'com.android.systemui',
    bounds: [0, 0, 1080, 63],
    children: [
      {
        class: 'android.widget.TextView',
        id: 'com.android.systemui:id/clock',
        text: clock,
        pkg: 'com.android.systemui',
        bounds: [40, 0, 140, 63],
      },
      {
        class: 'android.widget.ImageView',
        id: 'com.android.systemui:id/battery',
        desc: battery,
        pkg: 'com.android.systemui',
        bounds: [980, 0, 1040, 63],
      },
    ],
  };
}

/** A login screen: email field, password field holding a secret, a sign-in button and a remember-me box. */
export function loginScreen(
  overrides: { email?: string; signInEnabled?: boolean; clock?: string; remember?: boolean } = {},
): string {
  return buildDump([
    {
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          class: 'android.widget.TextView',
          id: 'com.example.app:id/title',
          text: 'Welcome back',
          bounds: [100, 200, 980, 300],
        },
        {
          class: 'android.widget.EditText',
          id: 'com.example.app:id/email',
          text: overrides.email ?? '',
          hint: 'Email',
          clickable: true,
          focusable: true,
          bounds: [100, 400, 980, 500],
        },
        {
          class: 'android.widget.EditText',
          id: 'com.example.app:id/password',
          text: 'hunter2-secret',
          hint: 'Password',
          clickable: true,
          focusable: true,
          password: true,
          bounds: [100, 550, 980, 650],
        },
        {
          class: 'android.widget.CheckBox',
          id: 'com.example.app:id/remember',
          text: 'Remember me',
          checkable: true,
          checked: overrides.remember ?? false,
          clickable: true,
          bounds: [100, 700, 600, 780],
        },
        {
          class: 'android.widget.Button',
          id: 'com.example.app:id/sign_in',
          text: 'Sign in',
          clickable: true,
          enabled: overrides.signInEnabled ?? true,
          bounds: [100, 850, 980, 950],
        },
      ],
    },
    statusBar(overrides.clock ?? '9:41', '87 percent'),
  ]);
}

/**
 * A long list: `rows` clickable rows with a title and a subtitle each, inside a RecyclerView. Rows are 200 px
 * high (most of a long list then lies below the 2400 px screen, as in a ScrollView's dump); with `rowHeight`
 * set, title and subtitle split each row, and a small height puts thousands of elements on screen at once.
 */
export function longListScreen(rows: number, options: { firstRowTitle?: string; rowHeight?: number } = {}): string {
  const rowHeight = options.rowHeight ?? 200;
  const half = Math.floor(rowHeight / 2);
  const box = (top: number, bottom: number): [number, number, number, number] => [40, top, 1040, bottom];
  return buildDump([
    {
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          class: 'androidx.recyclerview.widget.RecyclerView',
          id: 'com.example.app:id/list',
          scrollable: true,
          bounds: [0, 100, 1080, 2400],
          children: Array.from({ length: rows }, (_, i) => ({
            class: 'android.widget.LinearLayout',
            id: 'com.example.app:id/row',
            clickable: true,
            bounds: [0, 100 + i * rowHeight, 1080, 100 + (i + 1) * rowHeight] as [number, number, number, number],
            children: [
              {
                class: 'android.widget.TextView',
                id: 'com.example.app:id/row_title',
                text: i === 0 && options.firstRowTitle ? options.firstRowTitle : `Item ${i}`,
                bounds: options.rowHeight
                  ? box(100 + i * rowHeight, 100 + i * rowHeight + half)
                  : box(110 + i * rowHeight, 190 + i * rowHeight),
              },
              {
                class: 'android.widget.TextView',
                id: 'com.example.app:id/row_subtitle',
                text: `Subtitle for item ${i}`,
                bounds: options.rowHeight
                  ? box(100 + i * rowHeight + half, 100 + (i + 1) * rowHeight)
                  : box(200 + i * rowHeight, 290 + i * rowHeight),
              },
            ],
          })),
        },
      ],
    },
  ]);
}
