/*
 * The default view of a screen for an agent: one short text row per element it can act on or read, e.g.
 *
 *   login_button Button "Sign in" @540,1210 click
 *   n3f0a EditText hint="Email" @540,880 edit focused
 *   n9kq1 "Welcome back"
 *
 * Row: id, class simple name, label (text, else content-desc, else the texts of its non-actionable
 * descendants, which then get no row of their own), `hint=` for an empty field, the centre to tap, and
 * the flags that matter (click, long, scroll, check/checked, edit, focused, selected, disabled, password).
 * Static text rows carry no coordinates: an agent reads them, and targets their actionable ancestor; their
 * class is left out when it is TextView (`n9kq1 "Welcome back"`).
 * Elements off screen, invisible or of zero size are left out.
 */
import { elementIds } from './element-ids.js';
import { computeScreenHash } from './screen-hash.js';
import {
  isActionable,
  isEditable,
  isOnScreen,
  overlapsScreen,
  type UiNode,
  type UiSnapshot,
} from './ui-dump-parser.js';

export const INTERACTIVE_VIEW_DEFAULT_ROWS = 80;
export const INTERACTIVE_VIEW_MAX_ROWS = 500;
/** Labels longer than this are cut with an ellipsis: a row identifies an element, it does not transcribe it. */
export const LABEL_MAX_CHARS = 80;

export interface InteractiveElement {
  readonly id: string;
  readonly node: UiNode;
  /** Text shown for the element (own text, content-desc, or the texts it contains), cut to LABEL_MAX_CHARS. */
  readonly label: string;
  readonly actionable: boolean;
}

export interface InteractiveView {
  readonly screenHash: string;
  readonly package: string | null;
  readonly rotation: number;
  readonly rows: readonly string[];
  /** Elements the view holds in all. */
  readonly total: number;
  /** Elements left out by the row limit (the first `rows.length` in screen order were kept). */
  readonly omitted: number;
}

export interface InteractiveViewOptions {
  /** Rows to return; INTERACTIVE_VIEW_DEFAULT_ROWS by default, at most INTERACTIVE_VIEW_MAX_ROWS. */
  readonly maxRows?: number;
}

export function simpleClassName(className: string): string {
  const dot = className.lastIndexOf('.');
  return dot >= 0 ? className.slice(dot + 1) : className;
}

function cut(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > LABEL_MAX_CHARS ? `${flat.slice(0, LABEL_MAX_CHARS - 1)}…` : flat;
}

/**
 * The elements of the interactive view in screen (document) order: actionable on-screen nodes, and
 * on-screen nodes with text or content-desc that no actionable ancestor already labels.
 */
export function interactiveElements(snapshot: UiSnapshot): InteractiveElement[] {
  const ids = elementIds(snapshot).idOf;
  const elements: InteractiveElement[] = [];
  // Stack of actionable ancestors still open during the pre-order walk, with the texts they collect.
  // A scroll container is open too, so text directly inside it is not given to an element around it.
  const open: { node: UiNode; texts: string[]; element: { label: string }; absorbs: boolean }[] = [];
  const visibleDepthLimit: number[] = [];
  const finish = (entry: (typeof open)[number]): void => {
    if (!entry.element.label) entry.element.label = cut(entry.texts.join(' '));
  };
  for (const node of snapshot.nodes) {
    while (open.length > 0 && !isDescendant(node, open[open.length - 1].node)) finish(open.pop()!);
    while (visibleDepthLimit.length > 0 && node.depth <= visibleDepthLimit[visibleDepthLimit.length - 1]) {
      visibleDepthLimit.pop();
    }
    // An invisible or off-screen node hides its whole subtree (a ScrollView's content below the fold).
    if (visibleDepthLimit.length > 0) continue;
    if (!isOnScreen(node) || !overlapsScreen(node.bounds, snapshot.screen)) {
      visibleDepthLimit.push(node.depth);
      continue;
    }
    const ownText = node.text || node.contentDesc;
    if (isActionable(node)) {
      const element = { id: ids.get(node)!, node, label: cut(ownText), actionable: true };
      elements.push(element);
      const f = node.flags;
      open.push({ node, texts: [], element, absorbs: f.clickable || f.longClickable || f.checkable });
    } else if (ownText) {
      const labelled = open.length > 0 ? open[open.length - 1] : null;
      if (labelled?.absorbs && !labelled.element.label) labelled.texts.push(ownText);
      // The same words as the element's own label (a Button's content-desc over its TextView) add nothing.
      else if (labelled?.absorbs && labelled.element.label === cut(ownText)) continue;
      else elements.push({ id: ids.get(node)!, node, label: cut(ownText), actionable: false });
    }
  }
  while (open.length > 0) finish(open.pop()!);
  return elements;
}

function isDescendant(node: UiNode, ancestor: UiNode): boolean {
  return node.path.startsWith(`${ancestor.path}.`);
}

function quote(value: string): string {
  return JSON.stringify(value);
}

/** One element as a view row (see the module comment for the format). */
export function formatInteractiveRow(element: InteractiveElement): string {
  const { node } = element;
  const className = simpleClassName(node.className) || '?';
  // A read-only text is a TextView unless the row says otherwise: the class is left out, as a default.
  const parts = element.actionable || className !== 'TextView' ? [element.id, className] : [element.id];
  if (element.label) parts.push(quote(element.label));
  if (!node.text && node.hint) parts.push(`hint=${quote(cut(node.hint))}`);
  if (element.actionable && node.center) parts.push(`@${node.center.x},${node.center.y}`);
  const f = node.flags;
  if (f.clickable) parts.push('click');
  if (f.longClickable) parts.push('long');
  if (f.scrollable) parts.push('scroll');
  if (f.checkable) parts.push(f.checked ? 'checked' : 'check');
  if (isEditable(node)) parts.push('edit');
  if (f.password) parts.push('password');
  if (f.focused) parts.push('focused');
  if (f.selected) parts.push('selected');
  if (!f.enabled) parts.push('disabled');
  return parts.join(' ');
}

export function buildInteractiveView(snapshot: UiSnapshot, options: InteractiveViewOptions = {}): InteractiveView {
  const maxRows = Math.min(
    Math.max(1, Math.floor(options.maxRows ?? INTERACTIVE_VIEW_DEFAULT_ROWS)),
    INTERACTIVE_VIEW_MAX_ROWS,
  );
  const elements = interactiveElements(snapshot);
  const kept = elements.slice(0, maxRows);
  return {
    screenHash: computeScreenHash(snapshot),
    package: snapshot.foregroundPackage,
    rotation: snapshot.rotation,
    rows: kept.map(formatInteractiveRow),
    total: elements.length,
    omitted: elements.length - kept.length,
  };
}
