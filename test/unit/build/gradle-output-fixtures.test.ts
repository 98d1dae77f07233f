import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HOLDOUT_EXPECTED } from './gradle-output-holdout-expected.js';

/*
 * The captures are only worth their provenance, and the held-out set is only worth its distance from the corpus:
 * a log in both would let a rule written for the corpus raise the held-out score, which is meant to estimate the
 * parser on logs nobody tuned it to.
 */
const CORPUS = resolve('test/fixtures/gradle-output');
const HOLDOUT = resolve('test/fixtures/gradle-output-holdout');

function captures(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort();
}

/** The README table's rows: file name → the source URLs the row gives (issue or page, without a fragment). */
function sourceRows(dir: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(join(dir, 'README.md'), 'utf8').split('\n')) {
    const row = /^\| `([^`]+\.txt)` \| (.*)$/.exec(line);
    if (!row) continue;
    rows.set(
      row[1],
      [...row[2].matchAll(/https?:\/\/[^\s)|]+/g)].map((m) => sourceKey(m[0])),
    );
  }
  return rows;
}

/** One bug report is one source, whichever comment or fragment of it a row points to. */
function sourceKey(url: string): string {
  return url
    .replace(/^https?:\/\//, '')
    .replace(/[#?].*$/, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

describe('Gradle output captures', () => {
  const upstream = readFileSync(join(CORPUS, 'UPSTREAM-README.md'), 'utf8');

  it('names a source for every capture in the corpus', () => {
    const rows = sourceRows(CORPUS);
    const unsourced = captures(CORPUS).filter((f) => !(rows.get(f)?.length ?? 0) && !upstream.includes(`\`${f}\``));
    expect(unsourced).toEqual([]);
  });

  it('names a source and an expectation for every held-out log, and nothing else', () => {
    const rows = sourceRows(HOLDOUT);
    const files = captures(HOLDOUT);
    expect(files.filter((f) => !(rows.get(f)?.length ?? 0))).toEqual([]);
    expect(Object.keys(HOLDOUT_EXPECTED).sort()).toEqual(files);
  });

  it('keeps the held-out set apart from the corpus: no bug report is in both', () => {
    const corpusSources = new Set([...sourceRows(CORPUS).values()].flat());
    const shared = [...sourceRows(HOLDOUT)].filter(([, urls]) => urls.some((u) => corpusSources.has(u)));
    expect(shared.map(([file]) => file)).toEqual([]);
  });
});
