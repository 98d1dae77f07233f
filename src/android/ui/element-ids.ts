/*
 * Short element ids for the views: the resource id's entry name when no other node on the screen has it
 * (`login_button`), otherwise `n` and four or more base-36 characters of a hash of the tree path (`n3f0a`).
 * Both depend only on the screen's structure, so the same screen captured again gives the same ids; and both
 * are shorter than the tree paths of deep Compose screens. Tree paths are accepted wherever an id is.
 */
import { createHash } from 'node:crypto';
import { indexByPath, type UiNode, type UiSnapshot } from './ui-dump-parser.js';

const HASHED_ID = /^n[0-9a-z]{4,}$/;
const TREE_PATH = /^\d+(?:\.\d+)*$/;

export interface ElementIds {
  readonly idOf: ReadonlyMap<UiNode, string>;
  readonly nodeOf: ReadonlyMap<string, UiNode>;
}

const cache = new WeakMap<UiSnapshot, ElementIds>();

/** The entry name of a resource id: `login` for `com.example:id/login`, the whole value when it has no `/`. */
export function resourceEntryName(resourceId: string): string {
  const slash = resourceId.lastIndexOf('/');
  return slash >= 0 ? resourceId.slice(slash + 1) : resourceId;
}

function pathDigest(path: string): string {
  const hex = createHash('sha1').update(path).digest('hex').slice(0, 12);
  return BigInt(`0x${hex}`).toString(36).padStart(9, '0');
}

/** Ids for every node of the snapshot (computed once per snapshot). */
export function elementIds(snapshot: UiSnapshot): ElementIds {
  const cached = cache.get(snapshot);
  if (cached) return cached;
  const entryCounts = new Map<string, number>();
  for (const node of snapshot.nodes) {
    if (!node.resourceId) continue;
    const entry = resourceEntryName(node.resourceId);
    entryCounts.set(entry, (entryCounts.get(entry) ?? 0) + 1);
  }
  const idOf = new Map<UiNode, string>();
  const nodeOf = new Map<string, UiNode>();
  const hashed: UiNode[] = [];
  for (const node of snapshot.nodes) {
    const entry = node.resourceId ? resourceEntryName(node.resourceId) : '';
    // An entry name that could be read as a hashed id or a tree path would make the resolver guess.
    if (entry && entryCounts.get(entry) === 1 && !HASHED_ID.test(entry) && !TREE_PATH.test(entry)) {
      idOf.set(node, entry);
      nodeOf.set(entry, node);
    } else {
      hashed.push(node);
    }
  }
  for (const node of hashed) {
    const digest = pathDigest(node.path);
    let length = 4;
    let id = `n${digest.slice(0, length)}`;
    while (nodeOf.has(id) && length < digest.length) id = `n${digest.slice(0, ++length)}`;
    if (nodeOf.has(id)) id = `n${digest}_${node.order}`;
    idOf.set(node, id);
    nodeOf.set(id, node);
  }
  const ids = { idOf, nodeOf };
  cache.set(snapshot, ids);
  return ids;
}

/** The node an element id or a tree path names on this snapshot, or null. */
export function nodeByElementId(snapshot: UiSnapshot, idOrPath: string): UiNode | null {
  if (TREE_PATH.test(idOrPath)) return indexByPath(snapshot).get(idOrPath) ?? null;
  return elementIds(snapshot).nodeOf.get(idOrPath) ?? null;
}
