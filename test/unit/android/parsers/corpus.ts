import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Captured real tool output shared by the team (see its README for provenance). */
export const CORPUS = process.env.DROIDWRIGHT_CORPUS ?? '/work/shared/corpus';

export function corpus(path: string): string {
  return readFileSync(join(CORPUS, path), 'utf8');
}
