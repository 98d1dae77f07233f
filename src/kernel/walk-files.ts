import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Visits the regular files under `dir`, depth-first, at most `maxDepth` directories down. Unreadable or
 * missing directories are skipped: build output trees change while we look. `visit` returns false to
 * stop the whole walk (a caller's count bound), anything else to go on.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: callbacks that never stop the walk just return nothing
export function walkFiles(dir: string, maxDepth: number, visit: (path: string, name: string) => boolean | void): void {
  let stopped = false;
  const walk = (current: string, depth: number): void => {
    if (depth > maxDepth) return;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (stopped) return;
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (entry.isFile() && visit(path, entry.name) === false) stopped = true;
    }
  };
  walk(dir, 0);
}
