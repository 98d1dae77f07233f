/*
 * The whole screen as a nested tree, IDE layout-inspector style, with everything a reader can assume left
 * out: a node is `{ c, id?, t?, d?, h?, b?, f?, k? }` — class simple name, element id (see element-ids.ts),
 * text, content-desc, hint, bounds `[l,t,r,b]`, flags (`click long scroll check checked edit password
 * focused selected disabled`, space-separated, only those set) and children.
 * Subtrees that are invisible or of zero size are pruned (counted in `pruned`). A subtree wholly outside the
 * screen is folded to `{ c, b, folded: n }` with the number of nodes it holds, and a run of such siblings (the
 * rows of a long list below the fold) to one `{ c, b, folded, siblings }` with their union bounds. Layout wrappers that carry
 * nothing (no id, text, flags) and have one child are skipped, their child taking their place.
 * When the JSON is over `maxBytes`, each node first keeps fewer children (the rest folded into one
 * `{ c: '…', folded, siblings }` entry) and, if that is not enough, the tree is cut at a smaller depth (deeper
 * nodes folded likewise), until it fits; `childrenLimit` and `truncatedAtDepth` say how it was cut.
 */
import { elementIds } from './element-ids.js';
import { simpleClassName } from './interactive-view.js';
import {
  boundsArea,
  isActionable,
  isEditable,
  overlapsScreen as intersects,
  type UiNode,
  type UiSnapshot,
} from './ui-dump-parser.js';

export const SPARSE_TREE_DEFAULT_MAX_BYTES = 16 * 1024;

export interface SparseNode {
  c: string;
  id?: string;
  t?: string;
  d?: string;
  h?: string;
  b?: [number, number, number, number];
  f?: string;
  k?: SparseNode[];
  /** Set on a folded node: how many nodes its subtree holds (itself included). */
  folded?: number;
  /** Set when several adjacent off-screen siblings were folded together: how many (`b` is their union). */
  siblings?: number;
}

export interface SparseTree {
  readonly roots: SparseNode[];
  /** Nodes removed with their invisible or zero-size subtrees. */
  readonly pruned: number;
  /** Nodes not shown because they are inside a folded node. */
  readonly foldedNodes: number;
  /** Depth at which the tree was cut to fit maxBytes, or null when it fit whole. */
  readonly truncatedAtDepth: number | null;
  /** Children each node kept to fit maxBytes, or null when none were cut for size. */
  readonly childrenLimit: number | null;
  readonly bytes: number;
}

export interface SparseTreeOptions {
  /** JSON size the tree must fit (SPARSE_TREE_DEFAULT_MAX_BYTES by default). */
  readonly maxBytes?: number;
}

interface TreeNode {
  readonly node: UiNode;
  readonly children: TreeNode[];
  size: number;
}

function buildForest(snapshot: UiSnapshot): TreeNode[] {
  const roots: TreeNode[] = [];
  const stack: TreeNode[] = [];
  for (const node of snapshot.nodes) {
    const item: TreeNode = { node, children: [], size: 1 };
    while (stack.length > node.depth) stack.pop();
    if (stack.length === 0) roots.push(item);
    else stack[stack.length - 1].children.push(item);
    stack.push(item);
  }
  const sizeOf = (item: TreeNode): number => {
    item.size = 1 + item.children.reduce((sum, child) => sum + sizeOf(child), 0);
    return item.size;
  };
  for (const root of roots) sizeOf(root);
  return roots;
}

/** A node's flags as short words (`click edit focused`), as the sparse tree and element rows print them. */
export function flagWords(node: UiNode): string {
  const f = node.flags;
  const out: string[] = [];
  if (f.clickable) out.push('click');
  if (f.longClickable) out.push('long');
  if (f.scrollable) out.push('scroll');
  if (f.checkable) out.push(f.checked ? 'checked' : 'check');
  if (isEditable(node)) out.push('edit');
  if (f.password) out.push('password');
  if (f.focused) out.push('focused');
  if (f.selected) out.push('selected');
  if (!f.enabled) out.push('disabled');
  return out.join(' ');
}

function carriesNothing(node: UiNode): boolean {
  return (
    !node.resourceId && !node.text && !node.contentDesc && !node.hint && !isActionable(node) && !node.flags.focused
  );
}

export function buildSparseTree(snapshot: UiSnapshot, options: SparseTreeOptions = {}): SparseTree {
  const maxBytes = options.maxBytes ?? SPARSE_TREE_DEFAULT_MAX_BYTES;
  const ids = elementIds(snapshot).idOf;
  const forest = buildForest(snapshot);
  let pruned = 0;
  let foldedNodes = 0;

  const render = (item: TreeNode, depth: number, depthLimit: number, childLimit: number): SparseNode | null => {
    const { node } = item;
    if (node.flags.visibleToUser === false || node.flags.displayed === false || boundsArea(node.bounds) === 0) {
      pruned += item.size;
      return null;
    }
    const b = node.bounds!;
    const box: [number, number, number, number] = [b.left, b.top, b.right, b.bottom];
    if (!intersects(node.bounds, snapshot.screen) || (depth >= depthLimit && item.children.length > 0)) {
      foldedNodes += item.size - 1;
      return { c: simpleClassName(node.className), b: box, folded: item.size };
    }
    if (carriesNothing(node) && item.children.length === 1)
      return render(item.children[0], depth + 1, depthLimit, childLimit);
    const out: SparseNode = { c: simpleClassName(node.className) };
    if (node.resourceId || isActionable(node)) out.id = ids.get(node);
    if (node.text) out.t = node.text;
    if (node.contentDesc) out.d = node.contentDesc;
    if (node.hint && node.hint !== node.text) out.h = node.hint;
    out.b = box;
    const flags = flagWords(node);
    if (flags) out.f = flags;
    const kids: SparseNode[] = [];
    let run: SparseNode | null = null;
    const rest: SparseNode = { c: '…', folded: 0, siblings: 0 };
    for (const child of item.children) {
      if (kids.length >= childLimit) {
        rest.folded! += child.size;
        rest.siblings! += 1;
        foldedNodes += child.size;
        continue;
      }
      const rendered = render(child, depth + 1, depthLimit, childLimit);
      if (!rendered) continue;
      const offscreen = rendered.folded !== undefined && !intersects(child.node.bounds, snapshot.screen);
      if (offscreen && run) {
        const [l, t, r, bottom] = run.b!;
        const [cl, ct, cr, cb] = rendered.b!;
        run.b = [Math.min(l, cl), Math.min(t, ct), Math.max(r, cr), Math.max(bottom, cb)];
        run.folded! += rendered.folded!;
        run.siblings = (run.siblings ?? 1) + 1;
        continue;
      }
      kids.push(rendered);
      run = offscreen ? rendered : null;
    }
    if (rest.siblings! > 0) kids.push(rest);
    if (kids.length > 0) out.k = kids;
    return out;
  };

  const attempt = (depthLimit: number, childLimit: number): { roots: SparseNode[]; bytes: number } => {
    pruned = 0;
    foldedNodes = 0;
    const roots = forest
      .map((root) => render(root, 0, depthLimit, childLimit))
      .filter((n): n is SparseNode => n !== null);
    return { roots, bytes: Buffer.byteLength(JSON.stringify(roots)) };
  };
  const finish = (result: { roots: SparseNode[]; bytes: number }, depth: number | null, children: number | null) => ({
    ...result,
    pruned,
    foldedNodes,
    truncatedAtDepth: depth,
    childrenLimit: children,
  });
  // The largest value in [low, high] for which `fits` holds, given that it holds for `low`.
  const largest = (low: number, high: number, fits: (value: number) => boolean): number => {
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fits(middle)) low = middle;
      else high = middle - 1;
    }
    return low;
  };

  const unlimited = Number.POSITIVE_INFINITY;
  const whole = attempt(unlimited, unlimited);
  if (whole.bytes <= maxBytes) return finish(whole, null, null);
  const widest = forest.length + snapshot.nodes.reduce((max, node) => Math.max(max, node.childCount), 0);
  if (attempt(unlimited, 1).bytes <= maxBytes) {
    const children = largest(1, widest, (limit) => attempt(unlimited, limit).bytes <= maxBytes);
    return finish(attempt(unlimited, children), null, children);
  }
  const maxDepth = snapshot.nodes.reduce((max, node) => Math.max(max, node.depth), 0);
  const depth = largest(0, maxDepth, (limit) => attempt(limit, 1).bytes <= maxBytes);
  return finish(attempt(depth, 1), depth, 1);
}
