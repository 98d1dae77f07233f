import { UsageError } from '../kernel/usage-error.js';

export interface ServedTools {
  /** Toolsets this process serves, in canonical order. */
  readonly toolsets: readonly string[];
  /** Contributed toolsets it leaves out. */
  readonly hidden: readonly string[];
  readonly readOnly: boolean;
}

/**
 * Parses `--toolsets a,b`. Every name must be a contributed toolset (of the live registry or of the build's
 * catalog); empty names are refused.
 */
export function resolveServedTools(
  contributed: { toolsets(): readonly { readonly name: string }[] },
  requested: readonly string[] | undefined,
  readOnly: boolean,
): ServedTools {
  const available = contributed.toolsets().map((t) => t.name);
  if (requested === undefined) return { toolsets: available, hidden: [], readOnly };
  const names = requested.map((n) => n.trim());
  const valid = `Valid toolsets: ${available.join(', ')}.`;
  if (names.length === 0 || names.some((n) => n.length === 0))
    throw new UsageError(`--toolsets needs a comma-separated list of toolset names. ${valid}`);
  const unknown = names.filter((n) => !available.includes(n));
  if (unknown.length > 0)
    throw new UsageError(`Unknown toolset${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. ${valid}`);
  const toolsets = available.filter((n) => names.includes(n));
  return { toolsets, hidden: available.filter((n) => !toolsets.includes(n)), readOnly };
}
