import type { Container } from 'inversify';

/**
 * Collects everything bound to a contribution token (Theia's ContributionProvider pattern).
 * Yields an empty list when nothing is bound, so a container with no plugins still starts.
 */
export function getContributions<T>(container: Container, token: symbol): T[] {
  if (!container.isBound(token)) return [];
  return container.getAll<T>(token);
}
