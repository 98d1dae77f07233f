/**
 * Event type patterns: `*` matches any run of characters (dots included), everything else is
 * literal. `build.*`, `*.installed`, `mcp.tool_called`. Same semantics as SQLite GLOB once
 * `toSqlGlob` has escaped GLOB's other metacharacters, so in-memory and SQL filtering agree.
 */
export function isGlob(pattern: string): boolean {
  return pattern.includes('*');
}

export function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

/** A predicate matching any of the patterns (exact names or globs). */
export function typeMatcher(patterns: readonly string[]): (type: string) => boolean {
  const exact = new Set(patterns.filter((p) => !isGlob(p)));
  const globs = patterns.filter(isGlob).map(globToRegExp);
  return (type) => exact.has(type) || globs.some((re) => re.test(type));
}

/** Escapes SQLite GLOB metacharacters other than `*` (`?` and `[`) so they match literally. */
export function toSqlGlob(pattern: string): string {
  return pattern.replace(/[?[]/g, (c) => `[${c}]`);
}
