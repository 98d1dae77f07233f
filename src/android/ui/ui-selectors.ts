/*
 * Finding elements on a parsed screen. A selector's fields combine with AND; text matches are exact
 * (`text`, `content_desc`) or case-insensitive substrings (`text_contains`); `resource_id` matches the
 * whole id or its entry name (`login` finds `com.example:id/login`); `class` the whole class or its simple
 * name (`Button` finds `android.widget.Button`).
 * `resolveSingleTarget` is what acting tools use: it never picks the first of several matches, and refuses a
 * missing, ambiguous or disabled target with a reason the agent can act on.
 */
import { nodeByElementId, resourceEntryName } from './element-ids.js';
import { simpleClassName } from './interactive-view.js';
import {
  indexByPath,
  isActionable,
  isOnScreen,
  overlapsScreen,
  type UiNode,
  type UiSnapshot,
} from './ui-dump-parser.js';

export const FIND_DEFAULT_MAX = 20;
export const FIND_MAX = 100;

export interface UiSelector {
  readonly text?: string;
  readonly text_contains?: string;
  readonly resource_id?: string;
  readonly content_desc?: string;
  readonly class?: string;
  readonly clickable?: boolean;
  readonly enabled?: boolean;
}

export const SELECTOR_FIELDS = [
  'text',
  'text_contains',
  'resource_id',
  'content_desc',
  'class',
  'clickable',
  'enabled',
] as const;

export interface FindResult {
  readonly matches: readonly UiNode[];
  /** Matching nodes in all (matches holds the first `max` in screen order). */
  readonly total: number;
  readonly truncated: boolean;
}

export class EmptySelectorError extends Error {
  override readonly name = 'EmptySelectorError';
  constructor() {
    super(`a selector needs at least one of ${SELECTOR_FIELDS.join(', ')}`);
  }
}

/** Whether the node satisfies every field the selector sets. */
export function matchesSelector(node: UiNode, selector: UiSelector): boolean {
  if (selector.text !== undefined && node.text !== selector.text) return false;
  if (selector.text_contains !== undefined) {
    const needle = selector.text_contains.toLowerCase();
    if (!node.text.toLowerCase().includes(needle) && !node.contentDesc.toLowerCase().includes(needle)) return false;
  }
  if (
    selector.resource_id !== undefined &&
    node.resourceId !== selector.resource_id &&
    (node.resourceId === '' || resourceEntryName(node.resourceId) !== selector.resource_id)
  ) {
    return false;
  }
  if (selector.content_desc !== undefined && node.contentDesc !== selector.content_desc) return false;
  if (
    selector.class !== undefined &&
    node.className !== selector.class &&
    simpleClassName(node.className) !== selector.class
  ) {
    return false;
  }
  if (selector.clickable !== undefined && node.flags.clickable !== selector.clickable) return false;
  if (selector.enabled !== undefined && node.flags.enabled !== selector.enabled) return false;
  return true;
}

function isEmpty(selector: UiSelector): boolean {
  return SELECTOR_FIELDS.every((field) => selector[field] === undefined);
}

/** Nodes matching the selector in screen order, at most `max` (FIND_DEFAULT_MAX by default, FIND_MAX at most). */
export function findElements(snapshot: UiSnapshot, selector: UiSelector, max = FIND_DEFAULT_MAX): FindResult {
  if (isEmpty(selector)) throw new EmptySelectorError();
  const limit = Math.min(Math.max(1, Math.floor(max)), FIND_MAX);
  const matches: UiNode[] = [];
  let total = 0;
  for (const node of snapshot.nodes) {
    if (!matchesSelector(node, selector)) continue;
    total++;
    if (matches.length < limit) matches.push(node);
  }
  return { matches, total, truncated: total > matches.length };
}

/** A target for an action: an element id or tree path from a view, or a selector. */
export type UiTarget = { readonly element: string } | { readonly selector: UiSelector };

export type TargetRefusal = 'not_found' | 'ambiguous' | 'disabled' | 'not_visible';

export type TargetResolution =
  | { readonly ok: true; readonly node: UiNode }
  | {
      readonly ok: false;
      readonly reason: TargetRefusal;
      readonly message: string;
      /** For `ambiguous`: the first matches (paths), so the agent can pick one by path. */
      readonly candidates: readonly UiNode[];
    };

/** How many candidates an ambiguous refusal lists. */
export const AMBIGUOUS_CANDIDATES_SHOWN = 5;

function describe(target: UiTarget): string {
  if ('element' in target) return `element ${JSON.stringify(target.element)}`;
  const fields = SELECTOR_FIELDS.filter((field) => target.selector[field] !== undefined).map(
    (field) => `${field}=${JSON.stringify(target.selector[field])}`,
  );
  return `selector {${fields.join(', ')}}`;
}

/**
 * The one node a target names, or why there is not exactly one usable node. With `requireEnabled` (the
 * default, for acting tools), a disabled target is refused rather than tapped to no effect; with
 * `requireVisible` (the default too), so is one that is invisible, of zero size or off the screen, whose
 * centre a tap would miss.
 */
export function resolveSingleTarget(
  snapshot: UiSnapshot,
  target: UiTarget,
  options: { readonly requireEnabled?: boolean; readonly requireVisible?: boolean } = {},
): TargetResolution {
  const requireEnabled = options.requireEnabled ?? true;
  const requireVisible = options.requireVisible ?? true;
  let candidates: readonly UiNode[];
  let total: number;
  if ('element' in target) {
    const node = nodeByElementId(snapshot, target.element);
    candidates = node ? [node] : [];
    total = candidates.length;
  } else {
    const found = findElements(snapshot, target.selector, FIND_MAX);
    candidates = found.matches;
    total = found.total;
  }
  if (total === 0) {
    return {
      ok: false,
      reason: 'not_found',
      message: `no element matches ${describe(target)} on the current screen; read the screen again (ids and paths change when the screen does) or loosen the selector`,
      candidates: [],
    };
  }
  if (total > 1) {
    const shown = candidates.slice(0, AMBIGUOUS_CANDIDATES_SHOWN);
    return {
      ok: false,
      reason: 'ambiguous',
      message: `${total} elements match ${describe(target)} (${shown.map((node) => node.path).join(', ')}${total > shown.length ? ', …' : ''}); add a selector field or target one by its tree path`,
      candidates: shown,
    };
  }
  const node = candidates[0];
  if (requireEnabled && !node.flags.enabled) {
    return {
      ok: false,
      reason: 'disabled',
      message: `the element ${describe(target)} (path ${node.path}) is disabled; acting on it would do nothing. Wait for it to become enabled or complete what enables it`,
      candidates: [node],
    };
  }
  if (requireVisible && (!isOnScreen(node) || !overlapsScreen(node.bounds, snapshot.screen))) {
    return {
      ok: false,
      reason: 'not_visible',
      message: `the element ${describe(target)} (path ${node.path}) is not on the screen (invisible, of zero size or scrolled out); scroll it into view first`,
      candidates: [node],
    };
  }
  return { ok: true, node };
}

/** The node's parent, or null for a root or an unknown path. */
export function findParent(snapshot: UiSnapshot, path: string): UiNode | null {
  const node = indexByPath(snapshot).get(path);
  if (!node || node.parentPath === null) return null;
  return indexByPath(snapshot).get(node.parentPath) ?? null;
}

/** The nearest ancestor (or the node itself) a tap acts on: what to target when a text's own node is not clickable. */
export function findActionableAncestor(snapshot: UiSnapshot, path: string): UiNode | null {
  const index = indexByPath(snapshot);
  let node = index.get(path) ?? null;
  while (node && !isActionable(node)) node = node.parentPath === null ? null : (index.get(node.parentPath) ?? null);
  return node;
}
