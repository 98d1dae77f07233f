/*
 * What changed between two captures, in the elements of the interactive view: added, removed and changed
 * (label, hint, flags, or a centre that moved), each keyed by an identity that survives nodes being
 * inserted above it — the resource id when it is unique on both screens, else class + resource id + label,
 * with an ordinal among equals; a change of package (another app in the foreground) or of the activity the
 * caller read from the device is reported apart, since then the element lists are about different screens.
 * Texts the screen hash ignores (system UI texts, times of day) are ignored here too.
 */
import { computeScreenHash, volatileFree } from './screen-hash.js';
import { formatInteractiveRow, type InteractiveElement, interactiveElements } from './interactive-view.js';
import { isEditable, type UiSnapshot } from './ui-dump-parser.js';

export const UI_DIFF_DEFAULT_MAX_ENTRIES = 50;

export interface UiDiffCapture {
  readonly snapshot: UiSnapshot;
  /** The foreground activity read from the device at capture time (a dump does not carry it), when known. */
  readonly activity?: string | null;
}

export interface UiElementChange {
  /** The element's id on the new screen. */
  readonly id: string;
  readonly before: string;
  readonly after: string;
  /** Which of label, hint, flags, position changed. */
  readonly fields: readonly ('label' | 'hint' | 'flags' | 'position')[];
}

export interface UiDiff {
  readonly beforeHash: string;
  readonly afterHash: string;
  readonly sameScreen: boolean;
  readonly packageChanged: boolean;
  readonly beforePackage: string | null;
  readonly afterPackage: string | null;
  /** Null when either capture's activity is unknown. */
  readonly activityChanged: boolean | null;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly UiElementChange[];
  /** Entries left out of added + removed + changed by maxEntries. */
  readonly omitted: number;
}

function flagKey(element: InteractiveElement): string {
  const f = element.node.flags;
  return [
    f.clickable,
    f.longClickable,
    f.scrollable,
    f.checkable,
    f.checked,
    f.enabled,
    f.focused,
    f.selected,
    isEditable(element.node),
  ]
    .map((value) => (value ? '1' : '0'))
    .join('');
}

function identities(
  elements: readonly InteractiveElement[],
  uniqueIds: ReadonlySet<string>,
): Map<string, InteractiveElement> {
  const out = new Map<string, InteractiveElement>();
  const seen = new Map<string, number>();
  for (const element of elements) {
    const { node } = element;
    let key: string;
    if (node.resourceId && uniqueIds.has(node.resourceId)) key = `rid:${node.resourceId}`;
    else {
      const base = `${node.className}|${node.resourceId}|${element.actionable ? 'a' : 's'}|${element.actionable ? '' : volatileFree(node, element.label)}`;
      const ordinal = seen.get(base) ?? 0;
      seen.set(base, ordinal + 1);
      key = `${base}#${ordinal}`;
    }
    out.set(key, element);
  }
  return out;
}

function uniqueResourceIds(elements: readonly InteractiveElement[]): Set<string> {
  const counts = new Map<string, number>();
  for (const { node } of elements)
    if (node.resourceId) counts.set(node.resourceId, (counts.get(node.resourceId) ?? 0) + 1);
  return new Set([...counts].filter(([, count]) => count === 1).map(([id]) => id));
}

export function diffUiCaptures(
  before: UiDiffCapture,
  after: UiDiffCapture,
  maxEntries = UI_DIFF_DEFAULT_MAX_ENTRIES,
): UiDiff {
  const beforeElements = interactiveElements(before.snapshot);
  const afterElements = interactiveElements(after.snapshot);
  const beforeUnique = uniqueResourceIds(beforeElements);
  const afterUnique = uniqueResourceIds(afterElements);
  const bothUnique = new Set([...beforeUnique].filter((id) => afterUnique.has(id)));
  const oldByKey = identities(beforeElements, bothUnique);
  const newByKey = identities(afterElements, bothUnique);

  const added: string[] = [];
  const removed: string[] = [];
  const changed: UiElementChange[] = [];
  for (const [key, element] of newByKey) {
    const old = oldByKey.get(key);
    if (!old) {
      added.push(formatInteractiveRow(element));
      continue;
    }
    const fields: UiElementChange['fields'][number][] = [];
    if (volatileFree(old.node, old.label) !== volatileFree(element.node, element.label)) fields.push('label');
    if (old.node.hint !== element.node.hint) fields.push('hint');
    if (flagKey(old) !== flagKey(element)) fields.push('flags');
    if (old.node.center?.x !== element.node.center?.x || old.node.center?.y !== element.node.center?.y)
      fields.push('position');
    if (fields.length > 0) {
      changed.push({ id: element.id, before: formatInteractiveRow(old), after: formatInteractiveRow(element), fields });
    }
  }
  for (const [key, element] of oldByKey) if (!newByKey.has(key)) removed.push(formatInteractiveRow(element));

  let budget = Math.max(0, Math.floor(maxEntries));
  const take = <T>(list: T[]): T[] => {
    const kept = list.slice(0, budget);
    budget -= kept.length;
    return kept;
  };
  const keptChanged = take(changed);
  const keptAdded = take(added);
  const keptRemoved = take(removed);
  const beforeHash = computeScreenHash(before.snapshot);
  const afterHash = computeScreenHash(after.snapshot);
  const knownActivities = before.activity != null && after.activity != null;
  return {
    beforeHash,
    afterHash,
    sameScreen: beforeHash === afterHash,
    packageChanged: before.snapshot.foregroundPackage !== after.snapshot.foregroundPackage,
    beforePackage: before.snapshot.foregroundPackage,
    afterPackage: after.snapshot.foregroundPackage,
    activityChanged: knownActivities ? before.activity !== after.activity : null,
    added: keptAdded,
    removed: keptRemoved,
    changed: keptChanged,
    omitted:
      changed.length + added.length + removed.length - keptChanged.length - keptAdded.length - keptRemoved.length,
  };
}
