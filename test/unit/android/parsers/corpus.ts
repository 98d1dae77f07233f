import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Captured real tool output, copied from the shared corpus (see PROVENANCE.md there). */
export const CORPUS = process.env.DROIDWRIGHT_CORPUS ?? resolve('test/fixtures/device-output');

export function corpus(path: string): string {
  return readFileSync(join(CORPUS, path), 'utf8');
}
