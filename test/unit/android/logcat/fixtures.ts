import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Real captures (see test/fixtures/logcat/README.md and test/fixtures/retrace/README.md for provenance). */
export const FIXTURES = resolve('test/fixtures');

export function fixture(path: string): string {
  return readFileSync(join(FIXTURES, path), 'utf8');
}
