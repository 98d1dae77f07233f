/*
 * Reads a UI Automator window dump (`uiautomator dump`, any Android version since 4.1) into a flat,
 * pre-ordered node list that every UI view, selector and hash works on. Nodes are addressed by their tree
 * path: the dot-separated child indexes from the root (`0.2.1`), which is what the tools accept as a target.
 *
 * Real dumps are not always well-formed XML: apps put control characters in their text, `exec-out` appends
 * "UI hierchary dumped to: /dev/tty", old devices prefix warnings. `sanitizeUiDumpXml` removes what an XML
 * parser would reject before parsing, and nothing else (mojibake and RTL text are kept byte for byte: they
 * are what the device shows, and an agent may need to match them).
 */
import { XMLParser } from 'fast-xml-parser';

/** What a password field's text reads as everywhere in the model: the real text never leaves the parser. */
export const REDACTED_PASSWORD_TEXT = '[password]';

export interface UiBounds {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export interface UiNodeFlags {
  readonly clickable: boolean;
  readonly longClickable: boolean;
  readonly scrollable: boolean;
  readonly checkable: boolean;
  readonly checked: boolean;
  readonly enabled: boolean;
  readonly focusable: boolean;
  readonly focused: boolean;
  readonly selected: boolean;
  readonly password: boolean;
  /** `visible-to-user` (dumps from uiautomator2 servers and recent platforms); null when the dump lacks it. */
  readonly visibleToUser: boolean | null;
  /** `displayed` (Appium's uiautomator2 dumps); null when the dump lacks it. */
  readonly displayed: boolean | null;
}

export interface UiNode {
  /** Dot-separated child indexes from the root, e.g. `0.2.1`. The root node is `0`. */
  readonly path: string;
  /** The parent's path, or null for a root node. */
  readonly parentPath: string | null;
  readonly depth: number;
  /** Position of this node in `UiSnapshot.nodes` (document order). */
  readonly order: number;
  readonly childCount: number;
  readonly className: string;
  /** `com.example:id/login`, or '' when the view has none. */
  readonly resourceId: string;
  /** The text, or REDACTED_PASSWORD_TEXT for a non-empty password field. */
  readonly text: string;
  readonly contentDesc: string;
  readonly hint: string;
  readonly packageName: string;
  /** Null when the dump's bounds attribute is missing or unreadable. */
  readonly bounds: UiBounds | null;
  readonly center: { readonly x: number; readonly y: number } | null;
  readonly flags: UiNodeFlags;
}

export interface UiSnapshot {
  /** The `rotation` attribute of `<hierarchy>` (0–3), or 0 when absent. */
  readonly rotation: number;
  /** Every node in document (pre-)order. */
  readonly nodes: readonly UiNode[];
  /** Screen extent: the union of the root nodes' bounds (a dump carries no display size). */
  readonly screen: UiBounds | null;
  /** The package most nodes belong to, ignoring the system UI: what is in the foreground. */
  readonly foregroundPackage: string | null;
  /** Characters the sanitizer had to remove so the XML would parse. */
  readonly removedCharacters: number;
}

export class UiDumpParseError extends Error {
  override readonly name = 'UiDumpParseError';
}

/** Index a snapshot's nodes by path (built once per snapshot, used by selectors, the resolver and views). */
export function indexByPath(snapshot: UiSnapshot): ReadonlyMap<string, UiNode> {
  let index = pathIndexes.get(snapshot);
  if (!index) {
    index = new Map(snapshot.nodes.map((node) => [node.path, node]));
    pathIndexes.set(snapshot, index);
  }
  return index;
}
const pathIndexes = new WeakMap<UiSnapshot, Map<string, UiNode>>();

// XML 1.0 Char production: anything else makes a conforming parser stop. Lone surrogates come from apps
// that cut a string in the middle of an emoji.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the control characters XML 1.0 forbids.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// The same characters written as character references, which uiautomator's serializer emits for some.
const INVALID_CHAR_REFERENCE = /&#(?:x0*([0-9a-fA-F]{1,6})|0*([0-9]{1,7}));/g;

function isValidXmlCodePoint(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/**
 * The dump's XML with everything an XML parser would reject taken out: text before the XML declaration or
 * `<hierarchy>` and after `</hierarchy>` (adb and uiautomator chatter), characters XML 1.0 forbids, and
 * character references to them. `removed` counts the characters and references dropped inside the document.
 */
export function sanitizeUiDumpXml(raw: string): { xml: string; removed: number } {
  const start = raw.search(/<\?xml|<hierarchy/);
  if (start < 0)
    throw new UiDumpParseError('no <hierarchy> element in the dump: the device did not return a window dump');
  const endTag = raw.lastIndexOf('</hierarchy>');
  let xml = endTag >= 0 ? raw.slice(start, endTag + '</hierarchy>'.length) : raw.slice(start);
  let removed = 0;
  const drop = (): string => {
    removed++;
    return '';
  };
  xml = xml.replace(INVALID_XML_CHARS, drop).replace(LONE_SURROGATES, drop);
  xml = xml.replace(
    INVALID_CHAR_REFERENCE,
    (reference: string, hex: string | undefined, decimal: string | undefined) => {
      const code = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(decimal ?? '', 10);
      if (isValidXmlCodePoint(code)) return reference;
      removed++;
      return '';
    },
  );
  return { xml, removed };
}

const BOUNDS = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/;

/** `[l,t][r,b]` as numbers, or null when the attribute is missing or malformed. */
export function parseBounds(value: string | undefined): UiBounds | null {
  if (!value) return null;
  const match = BOUNDS.exec(value.trim());
  if (!match) return null;
  return { left: Number(match[1]), top: Number(match[2]), right: Number(match[3]), bottom: Number(match[4]) };
}

export function boundsArea(bounds: UiBounds | null): number {
  if (!bounds) return 0;
  return Math.max(0, bounds.right - bounds.left) * Math.max(0, bounds.bottom - bounds.top);
}

/** Deepest nesting a dump may have (`<hierarchy>` included); deeper dumps are refused as not XML. */
export const MAX_DUMP_DEPTH = 1000;

// Not `preserveOrder`: a dump's elements hold only `<node>` children, whose order an array keeps, and the
// ordered output costs about twice the time on a 2,000-node dump.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '$',
  isArray: (name) => name === 'node' || name === 'hierarchy',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // Entities are decoded by decodeEntities in one pass: the parser's own sequential replacement would turn a
  // double-escaped `&amp;#128266;` (text the app really shows) into an emoji.
  processEntities: false,
  htmlEntities: false,
  // Compose and WebView trees nest past the parser's default of 100; the bound still stops a hostile dump
  // before the recursive walks below could exhaust the stack.
  maxNestedTags: MAX_DUMP_DEPTH,
  // A dump is one element type with fixed attributes; no DOCTYPE or entity declarations are expected.
  allowBooleanAttributes: true,
});

interface DumpElement {
  readonly $?: Record<string, string>;
  readonly node?: DumpElement[];
}

const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(ENTITY, (reference: string, hex?: string, decimal?: string, name?: string) => {
    if (name) return NAMED_ENTITIES[name];
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(decimal ?? '', 10);
    return isValidXmlCodePoint(code) ? String.fromCodePoint(code) : reference;
  });
}

function flag(attributes: Record<string, string>, name: string): boolean {
  return attributes[name] === 'true';
}

function optionalFlag(attributes: Record<string, string>, name: string): boolean | null {
  const value = attributes[name];
  return value === undefined ? null : value === 'true';
}

function decodedAttributes(raw: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw) for (const key of Object.keys(raw)) out[key] = decodeEntities(raw[key]);
  return out;
}

/**
 * Parse a window dump. Throws UiDumpParseError when the text holds no hierarchy or is not XML even after
 * sanitizing; an empty `<hierarchy/>` (a secure window, or the screen off) parses to no nodes.
 */
export function parseUiDump(raw: string): UiSnapshot {
  const { xml, removed } = sanitizeUiDumpXml(raw);
  let document: { hierarchy?: DumpElement[] };
  try {
    document = parser.parse(xml) as { hierarchy?: DumpElement[] };
  } catch (error) {
    throw new UiDumpParseError(`the window dump is not XML: ${(error as Error).message}`);
  }
  if (!document.hierarchy || document.hierarchy.length === 0) {
    throw new UiDumpParseError('no <hierarchy> element in the dump: the device did not return a window dump');
  }
  // `<hierarchy/>` without attributes parses to an empty string, not an object.
  const first = document.hierarchy[0];
  const hierarchy: DumpElement = typeof first === 'object' && first !== null ? first : {};
  const rotation = Number.parseInt(hierarchy.$?.rotation ?? '0', 10);

  const nodes: UiNode[] = [];
  const walk = (children: readonly DumpElement[], parentPath: string | null, depth: number): void => {
    let childIndex = 0;
    for (const element of children) {
      const attributes = decodedAttributes(element.$);
      const path = parentPath === null ? String(childIndex) : `${parentPath}.${childIndex}`;
      childIndex++;
      const elementChildren = element.node ?? [];
      const password = flag(attributes, 'password');
      const text = attributes.text ?? '';
      const bounds = parseBounds(attributes.bounds);
      const order = nodes.length;
      const node: UiNode = {
        path,
        parentPath,
        depth,
        order,
        childCount: elementChildren.length,
        className: attributes.class ?? '',
        resourceId: attributes['resource-id'] ?? '',
        text: password && text !== '' ? REDACTED_PASSWORD_TEXT : text,
        contentDesc: attributes['content-desc'] ?? '',
        hint: attributes.hint ?? '',
        packageName: attributes.package ?? '',
        bounds,
        center: bounds
          ? { x: Math.floor((bounds.left + bounds.right) / 2), y: Math.floor((bounds.top + bounds.bottom) / 2) }
          : null,
        flags: {
          clickable: flag(attributes, 'clickable'),
          longClickable: flag(attributes, 'long-clickable'),
          scrollable: flag(attributes, 'scrollable'),
          checkable: flag(attributes, 'checkable'),
          checked: flag(attributes, 'checked'),
          // A dump without the attribute (hand-made or very old) means an enabled view, as on the device.
          enabled: attributes.enabled !== 'false',
          focusable: flag(attributes, 'focusable'),
          focused: flag(attributes, 'focused'),
          selected: flag(attributes, 'selected'),
          password,
          visibleToUser: optionalFlag(attributes, 'visible-to-user'),
          displayed: optionalFlag(attributes, 'displayed'),
        },
      };
      nodes.push(node);
      walk(elementChildren, path, depth + 1);
    }
  };
  walk(hierarchy.node ?? [], null, 0);

  return {
    rotation: Number.isFinite(rotation) ? rotation : 0,
    nodes,
    screen: screenExtent(nodes),
    foregroundPackage: foregroundPackage(nodes),
    removedCharacters: removed,
  };
}

function screenExtent(nodes: readonly UiNode[]): UiBounds | null {
  let extent: UiBounds | null = null;
  for (const node of nodes) {
    if (node.depth !== 0 || !node.bounds) continue;
    extent = extent
      ? {
          left: Math.min(extent.left, node.bounds.left),
          top: Math.min(extent.top, node.bounds.top),
          right: Math.max(extent.right, node.bounds.right),
          bottom: Math.max(extent.bottom, node.bounds.bottom),
        }
      : node.bounds;
  }
  return extent;
}

/** Packages whose windows sit over every app (status bar, navigation bar, keyboards) and never name the foreground. */
export const SYSTEM_OVERLAY_PACKAGES: ReadonlySet<string> = new Set(['com.android.systemui']);

function foregroundPackage(nodes: readonly UiNode[]): string | null {
  const counts = new Map<string, number>();
  for (const node of nodes) {
    if (!node.packageName || SYSTEM_OVERLAY_PACKAGES.has(node.packageName)) continue;
    counts.set(node.packageName, (counts.get(node.packageName) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [name, count] of counts) {
    if (count > bestCount) {
      best = name;
      bestCount = count;
    }
  }
  return best;
}

/** Whether the node shows on screen: not reported invisible, with a non-empty area. */
export function isOnScreen(node: UiNode): boolean {
  return node.flags.visibleToUser !== false && node.flags.displayed !== false && boundsArea(node.bounds) > 0;
}

/** Whether the bounds overlap the screen; unknown bounds or screen count as overlapping. */
export function overlapsScreen(bounds: UiBounds | null, screen: UiBounds | null): boolean {
  if (!bounds || !screen) return true;
  return (
    bounds.left < screen.right && bounds.right > screen.left && bounds.top < screen.bottom && bounds.bottom > screen.top
  );
}

/** Classes an agent types into (the dump has no `editable` attribute; these are the platform's and Compose's). */
export function isEditable(node: UiNode): boolean {
  return /EditText|AutoCompleteTextView|SearchView\$SearchAutoComplete/.test(node.className);
}

/** Whether a tap, long press, toggle, scroll or typing does something on this node. */
export function isActionable(node: UiNode): boolean {
  const f = node.flags;
  return f.clickable || f.longClickable || f.checkable || f.scrollable || isEditable(node);
}
