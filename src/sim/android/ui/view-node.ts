import type { Action } from '../scenario/scenario-schema.js';
import type { CapturedDump } from './captured-dump.js';

export type Rect = readonly [left: number, top: number, right: number, bottom: number];

/** One node of the on-screen view tree, as UI Automator reports it plus what the simulation needs to act on it. */
export interface ViewNode {
  readonly className: string;
  readonly resourceId: string;
  readonly text: string;
  readonly contentDesc: string;
  readonly packageName: string;
  readonly bounds: Rect;
  readonly checkable: boolean;
  readonly checked: boolean;
  readonly clickable: boolean;
  readonly enabled: boolean;
  readonly focusable: boolean;
  readonly focused: boolean;
  readonly scrollable: boolean;
  readonly longClickable: boolean;
  readonly password: boolean;
  readonly selected: boolean;
  readonly children: readonly ViewNode[];
  /** Engine identity: stable across renders of the same screen (field values and toggles are keyed by it). */
  readonly key: string;
  readonly editable: boolean;
  readonly hint: string;
  /** The typed value behind a password field (text shows bullets). */
  readonly rawText?: string;
  readonly onTap?: Action;
  readonly onText?: Action;
  /** Set on scrollable list containers: which list, and how far it can scroll. */
  readonly list?: { readonly key: string; readonly maxScroll: number; readonly itemHeight: number };
  /** What launching this node does (launcher icons). */
  readonly launches?: string;
  /** On the root of a screen loaded from a real dump: the capture, which `uiautomator dump` answers. */
  readonly captured?: CapturedDump;
}

export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r[0] && x < r[2] && y >= r[1] && y < r[3];
}

/** The deepest node under (x, y) that reacts to touch, as Android's dispatch finds the view that consumes it. */
export function hitTest(root: ViewNode, x: number, y: number): ViewNode | null {
  if (!contains(root.bounds, x, y)) return null;
  for (let i = root.children.length - 1; i >= 0; i--) {
    const hit = hitTest(root.children[i], x, y);
    if (hit) return hit;
  }
  return root.clickable || root.editable || root.checkable || root.launches ? root : null;
}

/** The innermost scrollable list under (x, y). */
export function findList(root: ViewNode, x: number, y: number): ViewNode | null {
  if (!contains(root.bounds, x, y)) return null;
  for (const child of root.children) {
    const hit = findList(child, x, y);
    if (hit) return hit;
  }
  return root.list ? root : null;
}

export function walk(root: ViewNode, visit: (node: ViewNode) => void): void {
  visit(root);
  for (const c of root.children) walk(c, visit);
}

function escapeXml(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (code < 0x20) out += `&#${code};`;
    else out += ch;
  }
  return out;
}

function serializeNode(node: ViewNode, index: number): string {
  const b = node.bounds;
  const attrs =
    `index="${index}" text="${escapeXml(node.text)}" resource-id="${escapeXml(node.resourceId)}" class="${escapeXml(node.className)}" ` +
    `package="${escapeXml(node.packageName)}" content-desc="${escapeXml(node.contentDesc)}" checkable="${node.checkable}" ` +
    `checked="${node.checked}" clickable="${node.clickable}" enabled="${node.enabled}" focusable="${node.focusable}" ` +
    `focused="${node.focused}" scrollable="${node.scrollable}" long-clickable="${node.longClickable}" password="${node.password}" ` +
    `selected="${node.selected}" bounds="[${b[0]},${b[1]}][${b[2]},${b[3]}]"`;
  if (node.children.length === 0) return `<node ${attrs} />`;
  return `<node ${attrs}>${node.children.map((c, i) => serializeNode(c, i)).join('')}</node>`;
}

/** The window hierarchy exactly as `uiautomator dump` writes it (one line, no trailing newline). */
export function toUiAutomatorXml(root: ViewNode, rotation: number): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">${serializeNode(root, 0)}</hierarchy>`;
}

/** Defaults for nodes the system draws (launcher, keyguard, decor). */
export function systemNode(
  partial: Partial<ViewNode> & Pick<ViewNode, 'className' | 'packageName' | 'bounds' | 'key'>,
): ViewNode {
  return {
    resourceId: '',
    text: '',
    contentDesc: '',
    checkable: false,
    checked: false,
    clickable: false,
    enabled: true,
    focusable: false,
    focused: false,
    scrollable: false,
    longClickable: false,
    password: false,
    selected: false,
    children: [],
    editable: false,
    hint: '',
    ...partial,
  };
}
