import type { InstalledPackage } from '../package-manager.js';
import { capturedDumpOf } from '../scenario/load-scenario.js';
import { renderCapturedDump } from './captured-dump.js';
import type { NodeSpec, Scenario } from '../scenario/scenario-schema.js';
import { systemNode, type Rect, type ViewNode } from './view-node.js';

/** What a rendered screen needs to know about the app's live state. */
export interface ScreenState {
  readonly screenName: string;
  readonly focusedKey: string | null;
  readonly scroll: ReadonlyMap<string, number>;
  readonly values: ReadonlyMap<string, string>;
  readonly checked: ReadonlyMap<string, boolean>;
  readonly texts: ReadonlyMap<string, string>;
}

export interface Display {
  readonly width: number;
  readonly height: number;
}

export const LAUNCHER_PACKAGE = 'com.google.android.apps.nexuslauncher';
export const SYSTEMUI_PACKAGE = 'com.android.systemui';

/** Maps the scenario's design coordinates onto the current display (wm size, rotation). */
export class Scaler {
  constructor(
    private readonly design: { width: number; height: number },
    private readonly display: Display,
  ) {}

  rect(r: readonly number[]): Rect {
    const sx = this.display.width / this.design.width;
    const sy = this.display.height / this.design.height;
    return [Math.round(r[0] * sx), Math.round(r[1] * sy), Math.round(r[2] * sx), Math.round(r[3] * sy)];
  }

  y(v: number): number {
    return Math.round((v * this.display.height) / this.design.height);
  }
}

function resourceId(pkg: string, id: string | undefined): string {
  if (!id) return '';
  return id.includes(':id/') ? id : `${pkg}:id/${id}`;
}

/** The state key of a scenario node: its id when it has one (so fields are shared by id), else its tree path. */
export function nodeKey(screen: string, spec: NodeSpec, path: string): string {
  return spec.id ? `id:${spec.id}` : `${screen}${path}`;
}

function clip(r: Rect, to: Rect): Rect | null {
  const c: Rect = [Math.max(r[0], to[0]), Math.max(r[1], to[1]), Math.min(r[2], to[2]), Math.min(r[3], to[3])];
  return c[2] > c[0] && c[3] > c[1] ? c : null;
}

function decor(pkg: string, display: Display, content: ViewNode, key: string): ViewNode {
  const full: Rect = [0, 0, display.width, display.height];
  const contentFrame = systemNode({
    className: 'android.widget.FrameLayout',
    packageName: pkg,
    resourceId: 'android:id/content',
    bounds: full,
    key: `${key}/content`,
    children: [content],
  });
  const linear = systemNode({
    className: 'android.widget.LinearLayout',
    packageName: pkg,
    bounds: full,
    key: `${key}/decor`,
    children: [contentFrame],
  });
  return systemNode({
    className: 'android.widget.FrameLayout',
    packageName: pkg,
    bounds: full,
    key: `${key}/window`,
    children: [linear],
  });
}

export function renderScenarioScreen(
  scenario: Scenario,
  pkg: InstalledPackage,
  state: ScreenState,
  display: Display,
): ViewNode {
  const spec = pkg.spec!;
  const screen = spec.screens[state.screenName];
  const captured = capturedDumpOf(screen);
  if (captured) return renderCapturedDump(captured, state);
  const scale = new Scaler(scenario.design, display);

  const build = (node: NodeSpec, path: string, clipTo: Rect | null): ViewNode | null => {
    const key = nodeKey(state.screenName, node, path);
    const scaled = scale.rect(node.bounds);
    const bounds = clipTo ? clip(scaled, clipTo) : scaled;
    if (!bounds) return null;
    const editable = node.editable ?? /EditText/.test(node.class);
    const value = editable ? (state.values.get(key) ?? node.text ?? '') : (state.texts.get(key) ?? node.text ?? '');
    const password = node.password ?? false;
    const children: ViewNode[] = [];
    (node.children ?? []).forEach((child, i) => {
      const built = build(child, `${path}/${i}`, clipTo);
      if (built) children.push(built);
    });
    let list: ViewNode['list'];
    if (node.list) {
      const l = node.list;
      const itemH = scale.y(l.itemHeight);
      const viewport = bounds[3] - bounds[1];
      const maxScroll = Math.max(0, l.items.length * itemH - viewport);
      const offset = Math.min(state.scroll.get(key) ?? 0, maxScroll);
      list = { key, maxScroll, itemHeight: itemH };
      l.items.forEach((item, i) => {
        const top = scaled[1] + i * itemH - offset;
        const row: Rect = [scaled[0], top, scaled[2], top + itemH];
        const visible = clip(row, bounds);
        if (!visible) return;
        const pad = Math.round(itemH * 0.12);
        const rowChildren: ViewNode[] = [];
        const title = clip(
          [row[0] + pad * 2, row[1] + pad, row[2] - pad * 2, row[1] + Math.round(itemH * 0.55)],
          bounds,
        );
        if (title) {
          rowChildren.push(
            systemNode({
              className: 'android.widget.TextView',
              packageName: pkg.name,
              resourceId: resourceId(pkg.name, l.titleId ?? 'title'),
              text: item.title,
              bounds: title,
              key: `${key}#${i}/title`,
            }),
          );
        }
        const sub =
          item.subtitle !== undefined
            ? clip([row[0] + pad * 2, row[1] + Math.round(itemH * 0.55), row[2] - pad * 2, row[3] - pad], bounds)
            : null;
        if (sub) {
          rowChildren.push(
            systemNode({
              className: 'android.widget.TextView',
              packageName: pkg.name,
              resourceId: resourceId(pkg.name, l.subtitleId ?? 'subtitle'),
              text: item.subtitle!,
              bounds: sub,
              key: `${key}#${i}/subtitle`,
            }),
          );
        }
        children.push(
          systemNode({
            className: l.itemClass ?? 'android.widget.LinearLayout',
            packageName: pkg.name,
            bounds: visible,
            clickable: true,
            focusable: true,
            key: `${key}#${i}`,
            children: rowChildren,
            onTap: item.onTap,
          }),
        );
      });
    }
    return {
      className: node.class,
      resourceId: resourceId(pkg.name, node.id),
      text: password && value ? '•'.repeat([...value].length) : value,
      rawText: password ? value : undefined,
      contentDesc: node.desc ?? '',
      packageName: pkg.name,
      bounds,
      checkable: node.checkable ?? false,
      checked: state.checked.get(key) ?? node.checked ?? false,
      clickable: node.clickable ?? (editable || !!node.onTap),
      enabled: node.enabled ?? true,
      focusable: node.focusable ?? (editable || node.clickable || !!node.onTap || false),
      focused: state.focusedKey === key,
      scrollable: node.scrollable ?? !!node.list,
      longClickable: node.longClickable ?? false,
      password,
      selected: node.selected ?? false,
      children,
      key,
      editable,
      hint: node.hint ?? '',
      onTap: node.onTap,
      onText: node.onText,
      list,
    };
  };

  const content = build(screen.root, '', null)!;
  return decor(pkg.name, display, content, `${pkg.name}:${state.screenName}`);
}

/** What an installed APK without scenario behaviour shows: its label in an action bar and a greeting. */
export function renderGenericScreen(pkg: InstalledPackage, activity: string, display: Display): ViewNode {
  const w = display.width;
  const bar = Math.round(display.height * 0.06);
  const top = Math.round(display.height * 0.04);
  const key = `${pkg.name}:${activity}`;
  const content = systemNode({
    className: 'android.view.ViewGroup',
    packageName: pkg.name,
    bounds: [0, top, w, display.height],
    key: `${key}/root`,
    children: [
      systemNode({
        className: 'android.widget.TextView',
        packageName: pkg.name,
        text: pkg.label,
        bounds: [Math.round(w * 0.04), top, Math.round(w * 0.8), top + bar],
        key: `${key}/title`,
      }),
      systemNode({
        className: 'android.widget.TextView',
        packageName: pkg.name,
        text: 'Hello World!',
        bounds: [
          Math.round(w * 0.35),
          Math.round(display.height * 0.48),
          Math.round(w * 0.65),
          Math.round(display.height * 0.52),
        ],
        key: `${key}/hello`,
      }),
    ],
  });
  return decor(pkg.name, display, content, key);
}

/** The home screen: a grid of launchable apps, as the Pixel launcher shows them. */
export function renderLauncher(apps: readonly InstalledPackage[], display: Display): ViewNode {
  const w = display.width;
  const h = display.height;
  const cols = 4;
  const cell = Math.floor(w / cols);
  const rowH = Math.round(h * 0.11);
  const firstRow = Math.round(h * 0.45);
  const icons = apps.map((app, i) => {
    const col = i % cols;
    const row = Math.floor(i / cols);
    const top = firstRow + row * rowH;
    return systemNode({
      className: 'android.widget.TextView',
      packageName: LAUNCHER_PACKAGE,
      text: app.label,
      contentDesc: app.label,
      bounds: [col * cell, top, (col + 1) * cell, top + rowH],
      clickable: true,
      focusable: true,
      longClickable: true,
      key: `launcher/${app.name}`,
      launches: app.name,
    });
  });
  const workspace = systemNode({
    className: 'android.widget.ScrollView',
    packageName: LAUNCHER_PACKAGE,
    resourceId: `${LAUNCHER_PACKAGE}:id/workspace`,
    bounds: [0, 0, w, h],
    scrollable: true,
    key: 'launcher/workspace',
    children: icons,
  });
  return systemNode({
    className: 'android.widget.FrameLayout',
    packageName: LAUNCHER_PACKAGE,
    bounds: [0, 0, w, h],
    key: 'launcher/root',
    children: [
      systemNode({
        className: 'android.widget.FrameLayout',
        packageName: LAUNCHER_PACKAGE,
        resourceId: `${LAUNCHER_PACKAGE}:id/launcher`,
        bounds: [0, 0, w, h],
        key: 'launcher/frame',
        children: [workspace],
      }),
    ],
  });
}

/** The lock screen (no secure lock): clock, date and the swipe hint, owned by System UI. */
export function renderKeyguard(display: Display, nowMs: number): ViewNode {
  const w = display.width;
  const h = display.height;
  const d = new Date(nowMs);
  const clock = `${d.getUTCHours()}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const date = `${days[d.getUTCDay()]}, ${months[d.getUTCMonth()]} ${d.getUTCDate()}`;
  const node = (className: string, id: string, bounds: Rect, extra: Partial<ViewNode> = {}) =>
    systemNode({
      className,
      packageName: SYSTEMUI_PACKAGE,
      resourceId: id ? `${SYSTEMUI_PACKAGE}:id/${id}` : '',
      bounds,
      key: `keyguard/${id || className}`,
      ...extra,
    });
  return node('android.widget.FrameLayout', '', [0, 0, w, h], {
    children: [
      node('android.widget.FrameLayout', 'notification_panel', [0, 0, w, h], {
        children: [
          node(
            'android.widget.TextView',
            'date_view',
            [Math.round(w * 0.07), Math.round(h * 0.08), Math.round(w * 0.6), Math.round(h * 0.11)],
            { text: date },
          ),
          node(
            'android.widget.TextView',
            'lockscreen_clock_view',
            [Math.round(w * 0.07), Math.round(h * 0.12), Math.round(w * 0.93), Math.round(h * 0.3)],
            { text: clock },
          ),
          node(
            'android.widget.TextView',
            'keyguard_indication_text',
            [Math.round(w * 0.2), Math.round(h * 0.9), Math.round(w * 0.8), Math.round(h * 0.93)],
            { text: 'Swipe up to open' },
          ),
          node(
            'android.widget.ImageView',
            'lock_icon',
            [Math.round(w * 0.45), Math.round(h * 0.82), Math.round(w * 0.55), Math.round(h * 0.87)],
            { contentDesc: 'Unlock' },
          ),
        ],
      }),
    ],
  });
}
