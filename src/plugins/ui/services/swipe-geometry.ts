import type { UiBounds } from '../../../android/ui/ui-dump-parser.js';

export type Direction = 'up' | 'down' | 'left' | 'right';

export interface SwipePath {
  readonly from: { x: number; y: number };
  readonly to: { x: number; y: number };
}

/**
 * A swipe whose finger moves in `direction` across the middle `fraction` of the bounds, centred, so it starts
 * and ends inside the element (a swipe that starts on a neighbour scrolls the neighbour).
 */
export function swipeAcross(bounds: UiBounds, direction: Direction, fraction = 0.6): SwipePath {
  const cx = Math.round((bounds.left + bounds.right) / 2);
  const cy = Math.round((bounds.top + bounds.bottom) / 2);
  const halfH = Math.floor(((bounds.bottom - bounds.top) * fraction) / 2);
  const halfW = Math.floor(((bounds.right - bounds.left) * fraction) / 2);
  switch (direction) {
    case 'up':
      return { from: { x: cx, y: cy + halfH }, to: { x: cx, y: cy - halfH } };
    case 'down':
      return { from: { x: cx, y: cy - halfH }, to: { x: cx, y: cy + halfH } };
    case 'left':
      return { from: { x: cx + halfW, y: cy }, to: { x: cx - halfW, y: cy } };
    case 'right':
      return { from: { x: cx - halfW, y: cy }, to: { x: cx + halfW, y: cy } };
  }
}

/** The finger direction that brings content lying in `toward` into view (content below: swipe up). */
export function fingerDirectionToReveal(toward: Direction): Direction {
  const opposite: Record<Direction, Direction> = { up: 'down', down: 'up', left: 'right', right: 'left' };
  return opposite[toward];
}
