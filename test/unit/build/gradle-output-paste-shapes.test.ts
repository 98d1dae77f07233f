import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BuildDiagnostic } from '../../../src/plugins/build/services/gradle-output/build-diagnostic.js';
import { parseGradleOutput } from '../../../src/plugins/build/services/gradle-output-parser.js';
import { applyPasteShape } from './paste-shapes.js';

/*
 * A log pasted another way (indented, quoted, behind a runner's prefix, re-encoded) says the same thing: every
 * capture, rewritten by each paste shape, gives the diagnostics its untransformed text gives.
 */
const DIR = resolve('test/fixtures/gradle-output');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.txt'))
  .sort();
const texts = new Map(files.map((f) => [f, readFileSync(join(DIR, f), 'utf8')]));
const plain = new Map(files.map((f) => [f, parseGradleOutput(texts.get(f)!)]));

const whole = (d: BuildDiagnostic) => JSON.stringify(d);

/**
 * Captures whose diagnostics differ under a shape, as a list the failure message shows. A view that leaves fields out
 * compares the distinct diagnostics: two that differed only in a left-out field are one.
 */
function differing(shape: string, view = whole, skip: ReadonlySet<string> = new Set()) {
  const distinct = (ds: BuildDiagnostic[]) => (view === whole ? ds.map(view) : [...new Set(ds.map(view))]);
  const out: string[] = [];
  for (const file of files) {
    if (skip.has(file)) continue;
    const got = distinct(parseGradleOutput(applyPasteShape(shape, texts.get(file)!)));
    if (JSON.stringify(got) !== JSON.stringify(distinct(plain.get(file)!))) out.push(file);
  }
  return out;
}

/** Without the column: javac's caret column counts characters, and tabs for spaces change how many precede it. */
const withoutColumn = (d: BuildDiagnostic) => JSON.stringify({ ...d, column: null });
/** Where, and what the message starts with: a message's extent is all a lost blank line can change. */
const placeAndHead = (d: BuildDiagnostic) =>
  JSON.stringify([d.severity, d.source, d.file, d.line, d.message.toLowerCase().replace(/\s+/g, ' ').slice(0, 40)]);

describe('GradleOutputParser on pasted captures', () => {
  it.each([
    'indent4',
    'quote',
    'crlf',
    'gha-timestamp',
    'concurrently',
    'concurrently-named',
    'stderr',
    'ansi',
    'nbsp',
    'trailing-space',
    'trailing-cr',
    'double-spacing',
    'quote+indent4',
    'gha-timestamp+ansi',
  ])('%s gives the same diagnostics', (shape) => {
    expect(differing(shape)).toEqual([]);
  });

  it('tabs for indenting spaces, and back, give the same diagnostics but for a caret column', () => {
    expect(differing('tabs', withoutColumn)).toEqual([]);
    // A Windows console cuts rows at 80 columns, and a row shortened by tabs is no longer seen as cut.
    const consoleCut = new Set([
      'blocksw6_dependency_cordova_prompt_console_wrapped_pkix_two_repos.txt',
      'manifestw6_console_wrapped_80_columns_cordova_windows.txt',
      'manifestw7_duplicated_permission_feature_console_wrapped_windows.txt',
    ]);
    expect(differing('tabs-reverse', withoutColumn, consoleCut)).toEqual([]);
  });

  it('blank lines dropped give the same diagnostics, each message at least to its first paragraph', () => {
    expect(differing('blank-lines', placeAndHead)).toEqual([]);
  });
});

describe('a paste frame', () => {
  it('is not read from what Gradle and the tools put on their own lines', () => {
    // Gradle's task lines one after another, then a cause: not a quote.
    const tasks = [
      '> Task :app:preBuild',
      '> Task :app:compileDebugKotlin FAILED',
      'e: /p/A.kt:3:5 Unresolved reference: x',
    ];
    const quoted = tasks.map((l) => `> ${l}`);
    expect(parseGradleOutput(tasks.join('\n'))).toEqual(parseGradleOutput(quoted.join('\n')));
    expect(parseGradleOutput(tasks.join('\n'))[0]!.task).toBe(':app:compileDebugKotlin');
    // Maven's and KSP's tags are read, not taken off.
    const maven = [
      '[ERROR] /p/A.kt: (3, 5) Unresolved reference: x',
      '[ERROR] /p/B.kt: (4, 6) Unresolved reference: y',
    ];
    expect(parseGradleOutput(maven.join('\n')).map((x) => x.severity)).toEqual(['error', 'error']);
  });

  it('is read on the first lines and ends at the first line with text that lacks it', () => {
    const framed = Array.from({ length: 8 }, (_, k) => `[0] e: /p/A${k}.kt:3:5 Unresolved reference: x`);
    const out = parseGradleOutput([...framed, 'e: /p/C.kt:5:7 Unresolved reference: z'].join('\n'));
    expect(out.map((x) => x.file)).toEqual([...framed.map((_, k) => `/p/A${k}.kt`), '/p/C.kt']);
  });

  it('reads logs that are empty or only the frame', () => {
    for (const text of ['', '>', '> \n>\n>', '[0]\n[0] ', '   \n  ', '\r\n\r\n'])
      expect(parseGradleOutput(text)).toEqual([]);
  });
});
