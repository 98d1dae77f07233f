/*
 * A screen hash the acting tools compare against `expect_screen_hash`: equal for two captures of the same
 * screen, different as soon as something an agent could act on moved, appeared, disappeared or changed.
 *
 * In the hash, for every node: its tree path, class, resource id, package, bounds, and the flags that change
 * what an action does (clickable, long-clickable, scrollable, checkable, checked, enabled, selected,
 * password), its text, content-desc and hint; plus the rotation.
 * Out of the hash, because they change while the screen an agent acts on does not:
 * - the system UI (`com.android.systemui`: status bar clock, battery level, signal, notification icons coming
 *   and going) except its windows' root bounds and its actionable nodes, without their texts: an opened
 *   notification shade or a system dialog still changes the hash, a new notification icon does not;
 * - a text or content-desc that is only a time of day (`9:41`, `09:41 AM`, `21:07:33`): in-app clocks;
 * - focus (`focused`, `focusable`) and visibility flags: tapping a field moves focus and nothing else;
 * - a password field's text, which the parser never keeps (its presence is in: the marker is hashed).
 * Relative times ("5 min ago") and counters that tick are in: they are ordinary text the hash cannot tell
 * from content, and a wrong "changed" only costs the agent a re-read, while a wrong "same" taps the wrong thing.
 */
import { createHash } from 'node:crypto';
import { SYSTEM_OVERLAY_PACKAGES, isActionable, type UiNode, type UiSnapshot } from './ui-dump-parser.js';

/** Hex characters of the SHA-256 kept: 64 bits, short in every response and collision-free in practice. */
export const SCREEN_HASH_LENGTH = 16;

const TIME_OF_DAY = /^\s*\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp]\.?\s?[Mm]\.?)?\s*$/;

/**
 * The value as the hash sees it: '' for system UI text, `<time>` for a time of day, else unchanged. The diff
 * uses it too, so what the hash ignores never shows up as a change.
 */
export function volatileFree(node: UiNode, value: string): string {
  if (SYSTEM_OVERLAY_PACKAGES.has(node.packageName)) return '';
  return TIME_OF_DAY.test(value) ? '<time>' : value;
}

function nodeFingerprint(node: UiNode): string {
  const b = node.bounds;
  const f = node.flags;
  const flagBits =
    (f.clickable ? 'c' : '') +
    (f.longClickable ? 'l' : '') +
    (f.scrollable ? 's' : '') +
    (f.checkable ? 'k' : '') +
    (f.checked ? 'K' : '') +
    (f.enabled ? 'e' : '') +
    (f.selected ? 'S' : '') +
    (f.password ? 'p' : '');
  return [
    node.path,
    node.className,
    node.resourceId,
    node.packageName,
    b ? `${b.left},${b.top},${b.right},${b.bottom}` : '',
    flagBits,
    volatileFree(node, node.text),
    volatileFree(node, node.contentDesc),
    node.hint,
  ].join('\u001f');
}

/** The screen hash of a parsed capture (SCREEN_HASH_LENGTH hex characters). */
export function computeScreenHash(snapshot: UiSnapshot): string {
  const hash = createHash('sha256');
  hash.update(`rotation=${snapshot.rotation}\u001e`);
  for (const node of snapshot.nodes) {
    if (SYSTEM_OVERLAY_PACKAGES.has(node.packageName) && node.depth > 0 && !isActionable(node)) continue;
    hash.update(`${nodeFingerprint(node)}\u001e`);
  }
  return hash.digest('hex').slice(0, SCREEN_HASH_LENGTH);
}
