/*
 * A real UI Automator dump as a screen of the simulated device (`droidwright sim --screen FILE.xml`, or
 * `"dump": "file.xml"` for a scenario screen): the nodes become the view tree that taps, typing and screencap
 * act on, and `uiautomator dump` answers the captured XML itself, byte for byte, with only the attributes the
 * user changed since (a field's text, focus, a toggled check) rewritten in place. So a user reproduces their
 * own app's screen in CI from one capture, and the UI tools are tested on real dumps, not only drawn screens.
 */
import type { Rect, ViewNode } from './view-node.js';

interface Span {
  readonly start: number;
  readonly end: number;
}

interface CapturedNode {
  readonly attrs: ReadonlyMap<string, string>;
  /** Where each attribute's value sits in the XML (between the quotes). */
  readonly spans: ReadonlyMap<string, Span>;
  readonly children: CapturedNode[];
}

export interface CapturedDump {
  /** The file it came from, for messages. */
  readonly source: string;
  readonly xml: string;
  readonly rotation: number;
  readonly roots: readonly CapturedNode[];
  /** Nodes in document order, as the view tree built from it walks them. */
  readonly order: readonly CapturedNode[];
  /** The package most nodes belong to (system UI aside): the app this screen is of. */
  readonly foregroundPackage: string | null;
  readonly nodeCount: number;
}

export class CapturedDumpError extends Error {
  override readonly name = 'CapturedDumpError';
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return safeCodePoint(Number.parseInt(name.slice(2), 16), whole);
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10), whole);
    return ENTITIES[name] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

function encode(value: string): string {
  return value.replace(/[&<>"]/g, (c) => `&${c === '&' ? 'amp' : c === '<' ? 'lt' : c === '>' ? 'gt' : 'quot'};`);
}

/** Reads the attributes of the tag whose name ends at `from`; returns them and the index after `>` or `/>`. */
function readAttributes(
  xml: string,
  from: number,
): { attrs: Map<string, string>; spans: Map<string, Span>; end: number; selfClosing: boolean } {
  const attrs = new Map<string, string>();
  const spans = new Map<string, Span>();
  let i = from;
  for (;;) {
    while (i < xml.length && /\s/.test(xml[i])) i++;
    if (i >= xml.length) throw new CapturedDumpError('the dump ends inside a tag');
    if (xml[i] === '>') return { attrs, spans, end: i + 1, selfClosing: false };
    if (xml.startsWith('/>', i)) return { attrs, spans, end: i + 2, selfClosing: true };
    const eq = xml.indexOf('=', i);
    if (eq < 0) throw new CapturedDumpError(`an attribute without a value at offset ${i}`);
    const name = xml.slice(i, eq).trim();
    let q = eq + 1;
    while (q < xml.length && /\s/.test(xml[q])) q++;
    const quote = xml[q];
    if (quote !== '"' && quote !== "'") throw new CapturedDumpError(`attribute ${name} is not quoted (offset ${q})`);
    const close = xml.indexOf(quote, q + 1);
    if (close < 0) throw new CapturedDumpError(`attribute ${name} is not closed`);
    attrs.set(name, decode(xml.slice(q + 1, close)));
    spans.set(name, { start: q + 1, end: close });
    i = close + 1;
  }
}

/** Parses a UI Automator dump, keeping where every attribute value is so it can be answered back as captured. */
export function parseCapturedDump(xml: string, source: string): CapturedDump {
  const start = xml.indexOf('<hierarchy');
  if (start < 0) throw new CapturedDumpError(`${source} is not a UI Automator dump (no <hierarchy> element)`);
  const head = readAttributes(xml, start + '<hierarchy'.length);
  const roots: CapturedNode[] = [];
  const order: CapturedNode[] = [];
  const stack: CapturedNode[] = [];
  let i = head.end;
  for (;;) {
    const open = xml.indexOf('<', i);
    if (open < 0) break;
    if (xml.startsWith('</node', open)) {
      stack.pop();
      i = xml.indexOf('>', open) + 1;
      continue;
    }
    if (xml.startsWith('</hierarchy', open)) break;
    if (xml.startsWith('<node', open) && /[\s/>]/.test(xml[open + 5] ?? '')) {
      const tag = readAttributes(xml, open + 5);
      const node: CapturedNode = { attrs: tag.attrs, spans: tag.spans, children: [] };
      order.push(node);
      if (stack.length > 0) stack[stack.length - 1].children.push(node);
      else roots.push(node);
      if (!tag.selfClosing) stack.push(node);
      i = tag.end;
      continue;
    }
    // Comments, processing instructions, unknown elements: skipped.
    i = open + 1;
  }
  if (order.length === 0) throw new CapturedDumpError(`${source} holds no <node> elements`);
  const counts = new Map<string, number>();
  for (const node of order) {
    const pkg = node.attrs.get('package') ?? '';
    if (pkg && pkg !== 'com.android.systemui') counts.set(pkg, (counts.get(pkg) ?? 0) + 1);
  }
  const foregroundPackage = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return {
    source,
    xml,
    rotation: Number.parseInt(head.attrs.get('rotation') ?? '0', 10) || 0,
    roots,
    order,
    foregroundPackage,
    nodeCount: order.length,
  };
}

const BOUNDS = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/;

function boundsOf(node: CapturedNode): Rect {
  const m = BOUNDS.exec(node.attrs.get('bounds') ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : [0, 0, 0, 0];
}

const flag = (node: CapturedNode, name: string): boolean => node.attrs.get(name) === 'true';

/** The state a captured screen keeps, as the scenario engine keeps it for drawn screens. */
export interface CapturedScreenState {
  readonly screenName: string;
  readonly focusedKey: string | null;
  readonly values: ReadonlyMap<string, string>;
  readonly checked: ReadonlyMap<string, boolean>;
}

export function capturedNodeKey(screenName: string, index: number): string {
  return `${screenName}#dump${index}`;
}

/** The view tree of a captured screen with the user's changes applied (typed text, focus, toggles). */
export function renderCapturedDump(dump: CapturedDump, state: CapturedScreenState): ViewNode {
  const indexOf = new Map(dump.order.map((node, index) => [node, index]));
  const build = (node: CapturedNode): ViewNode => {
    const index = indexOf.get(node)!;
    const key = capturedNodeKey(state.screenName, index);
    const className = node.attrs.get('class') ?? '';
    const editable = /EditText|AutoCompleteTextView/.test(className);
    const focusable = flag(node, 'focusable');
    const password = flag(node, 'password');
    const typed = state.values.get(key);
    // A typed password shows as bullets, as Android draws it; the value stays behind it.
    const text =
      typed === undefined ? (node.attrs.get('text') ?? '') : password ? '•'.repeat([...typed].length) : typed;
    return {
      className,
      resourceId: node.attrs.get('resource-id') ?? '',
      text,
      contentDesc: node.attrs.get('content-desc') ?? '',
      packageName: node.attrs.get('package') ?? '',
      bounds: boundsOf(node),
      checkable: flag(node, 'checkable'),
      checked: state.checked.get(key) ?? flag(node, 'checked'),
      clickable: flag(node, 'clickable'),
      enabled: node.attrs.get('enabled') !== 'false',
      focusable,
      focused: state.focusedKey === null ? flag(node, 'focused') : state.focusedKey === key,
      scrollable: flag(node, 'scrollable'),
      longClickable: flag(node, 'long-clickable'),
      password,
      ...(password && typed !== undefined ? { rawText: typed } : {}),
      selected: flag(node, 'selected'),
      children: node.children.map(build),
      key,
      editable,
      hint: node.attrs.get('hint') ?? '',
    };
  };
  const roots = dump.roots.map(build);
  const root = roots.length === 1 ? roots[0] : wrapRoots(roots);
  return { ...root, captured: dump };
}

/** A dump with several windows (a dialog over an app): one invisible frame holds them, as the display does. */
function wrapRoots(roots: ViewNode[]): ViewNode {
  const bounds: Rect = [
    Math.min(...roots.map((r) => r.bounds[0])),
    Math.min(...roots.map((r) => r.bounds[1])),
    Math.max(...roots.map((r) => r.bounds[2])),
    Math.max(...roots.map((r) => r.bounds[3])),
  ];
  return {
    ...roots[roots.length - 1],
    className: 'android.widget.FrameLayout',
    resourceId: '',
    text: '',
    contentDesc: '',
    bounds,
    clickable: false,
    editable: false,
    children: roots,
    key: `${roots[0].key}/windows`,
  };
}

/**
 * The dump as captured, with the attributes the rendered tree changed rewritten in place (text, checked,
 * focused). Nodes are matched by document order, which is how the tree was built.
 */
export function answerCapturedDump(dump: CapturedDump, tree: ViewNode): string {
  const rendered: ViewNode[] = [];
  const collect = (node: ViewNode): void => {
    if (!node.key.endsWith('/windows')) rendered.push(node);
    for (const child of node.children) collect(child);
  };
  collect(tree);
  const edits: { span: Span; value: string }[] = [];
  dump.order.forEach((node, index) => {
    const now = rendered[index];
    if (!now) return;
    const change = (name: string, value: string): void => {
      const span = node.spans.get(name);
      if (span && node.attrs.get(name) !== value) edits.push({ span, value: encode(value) });
    };
    change('text', now.text);
    change('checked', String(now.checked));
    change('focused', String(now.focused));
  });
  if (edits.length === 0) return dump.xml;
  edits.sort((a, b) => a.span.start - b.span.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += dump.xml.slice(at, edit.span.start) + edit.value;
    at = edit.span.end;
  }
  return out + dump.xml.slice(at);
}
