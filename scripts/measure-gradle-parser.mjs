#!/usr/bin/env node
/*
 * Precision and recall of the Gradle output parser on the captures in test/fixtures/gradle-output/,
 * against the expected diagnostics written out in test/unit/build/gradle-output-expected.ts.
 *
 *   node scripts/measure-gradle-parser.mjs [--parser <path to a gradle-output-parser.ts>] [--only a.txt,b.txt] [--verbose] [--speed]
 *   node scripts/measure-gradle-parser.mjs --holdout [--parser …] [--strict]
 *     [--transform <shape>[,<shape>…]|all]
 *
 * `--parser` measures another version of the parser (e.g. one taken from git history) on the same set. The parser
 * imports its tools' patterns from gradle-output/ beside it: take that directory from the same commit.
 * `--only` measures a named batch of captures (e.g. the ones just added, before the parser learns them).
 * A found diagnostic counts as correct when severity, source, file name and line agree with an expected
 * one and its message contains the expected message's first 40 characters (case and spacing aside):
 * a reader acting on it would go to the same place for the same reason. `--strict` counts a found diagnostic as correct
 * only when every field (whole path, column, whole message, task) equals an expected one's, as the unit test does.
 * `--holdout` scores the held-out set in test/fixtures/gradle-output-holdout/ instead (labelled by people who never saw
 * the parser): read its totals only, and never write a rule for one of its logs.
 * `--speed` also times the parser on all the captures repeated to 200k lines (median of 7 runs), so two
 * versions of the parser can be compared on the same input (with `--transform <one shape>`, as that shape rewrote them).
 * `--transform` rewrites every capture as people paste logs (indented, quoted, behind a runner's prefix, re-encoded:
 * the shapes are in test/unit/build/paste-shapes.ts; `a+b` composes two, `all` takes each) and measures each shape
 * against the same expected diagnostics, which a paste shape does not change. Its table also counts the captures
 * whose diagnostics differ in any field from the untransformed parse (`changed`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const parserPath = resolve(
  args.includes('--parser')
    ? args[args.indexOf('--parser') + 1]
    : join(root, 'src/plugins/build/services/gradle-output-parser.ts'),
);
const verbose = args.includes('--verbose');
const speed = args.includes('--speed');
const holdout = args.includes('--holdout');
const strict = args.includes('--strict');
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : null;
const transformArg = args.includes('--transform') ? args[args.indexOf('--transform') + 1] : null;

const out = mkdtempSync(join(tmpdir(), 'measure-parser-'));
try {
  await build({
    entryPoints: {
      parser: parserPath,
      expected: join(root, `test/unit/build/gradle-output-${holdout ? 'holdout-' : ''}expected.ts`),
      shapes: join(root, 'test/unit/build/paste-shapes.ts'),
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outdir: out,
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
  });
  const { parseGradleOutput } = await import(pathToFileURL(join(out, 'parser.mjs')).href);
  const expectedModule = await import(pathToFileURL(join(out, 'expected.mjs')).href);
  const EXPECTED = holdout ? expectedModule.HOLDOUT_EXPECTED : expectedModule.EXPECTED;
  const { PASTE_SHAPES, applyPasteShape } = await import(pathToFileURL(join(out, 'shapes.mjs')).href);

  const norm = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const base = (f) => (f === null ? null : f.split(/[\\/]/).pop());
  const matches = (found, want) =>
    strict
      ? key(found) === key(want)
      : found.severity === want.severity &&
        found.source === want.source &&
        base(found.file) === base(want.file) &&
        found.line === want.line &&
        norm(found.message).includes(norm(want.message).slice(0, 40));

  const dir = join(root, holdout ? 'test/fixtures/gradle-output-holdout' : 'test/fixtures/gradle-output');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt') && (only === null || only.has(f)))
    .sort();
  const texts = new Map(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  const key = (x) => JSON.stringify([x.severity, x.source, x.file, x.line, x.column, x.message, x.task]);

  /** Parses every capture (rewritten by a paste shape when one is named) and scores it per source. */
  const measure = (shape, baseline) => {
    const bySource = new Map();
    const row = (source) => {
      if (!bySource.has(source)) bySource.set(source, { expected: 0, found: 0, correct: 0 });
      return bySource.get(source);
    };
    const parsed = new Map();
    let changed = 0;
    const tag = shape === null ? '' : `[${shape}] `;
    for (const file of files) {
      const want = EXPECTED[file] ?? [];
      const text = texts.get(file);
      const found = parseGradleOutput(shape === null ? text : applyPasteShape(shape, text));
      parsed.set(file, found);
      if (baseline && found.map(key).join('\n') !== baseline.get(file).map(key).join('\n')) changed++;
      const unmatched = [...want];
      for (const w of want) row(w.source).expected++;
      for (const f of found) {
        row(f.source).found++;
        const at = unmatched.findIndex((w) => matches(f, w));
        if (at >= 0) {
          row(f.source).correct++;
          unmatched.splice(at, 1);
        } else if (verbose) console.log(`${tag}${file}: unexpected ${JSON.stringify(f)}`);
      }
      if (verbose) for (const w of unmatched) console.log(`${tag}${file}: missed ${JSON.stringify(w)}`);
    }
    const total = { expected: 0, found: 0, correct: 0 };
    for (const r of bySource.values()) for (const k of Object.keys(total)) total[k] += r[k];
    return { bySource, total, parsed, changed };
  };

  const pct = (a, b) => (b === 0 ? '   -  ' : `${((100 * a) / b).toFixed(1).padStart(5)}%`);
  const counts = (r) =>
    `${String(r.expected).padStart(8)} ${String(r.found).padStart(6)} ${String(r.correct).padStart(8)}  ${pct(r.correct, r.expected)}  ${pct(r.correct, r.found)}`;
  const plain = measure(null, null);
  console.log(`parser: ${parserPath}`);
  if (transformArg === null) {
    console.log('source        expected  found  correct  recall  precision');
    for (const [source, r] of [...plain.bySource.entries()].sort()) console.log(`${source.padEnd(13)} ${counts(r)}`);
    console.log(`${'all'.padEnd(13)} ${counts(plain.total)}`);
  } else {
    const shapes = transformArg === 'all' ? Object.keys(PASTE_SHAPES) : transformArg.split(',');
    for (const shape of shapes) applyPasteShape(shape, ''); // an unknown name fails before the table starts
    const width = Math.max(18, ...shapes.map((s) => s.length + 1));
    console.log(`${'paste shape'.padEnd(width)} expected  found  correct  recall  precision  changed`);
    console.log(`${'(none)'.padEnd(width)} ${counts(plain.total)}  ${String(0).padStart(7)}`);
    for (const shape of shapes) {
      const r = measure(shape, plain.parsed);
      console.log(`${shape.padEnd(width)} ${counts(r.total)}  ${String(r.changed).padStart(7)}`);
    }
  }

  if (speed) {
    // With one paste shape named, the captures are timed as that shape rewrote them (what a frame costs).
    const shape = transformArg !== null && !transformArg.includes(',') && transformArg !== 'all' ? transformArg : null;
    const all = readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .sort()
      .flatMap((f) => {
        const text = readFileSync(join(dir, f), 'utf8');
        return (shape === null ? text : applyPasteShape(shape, text)).split('\n');
      });
    const lines = [];
    while (lines.length < 200_000) lines.push(...all);
    const { GradleOutputParser } = await import(pathToFileURL(join(out, 'parser.mjs')).href);
    // CPU time as well as wall time: on a shared machine the wall time mostly measures the other processes.
    const ms = [];
    const cpu = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const parser = new GradleOutputParser();
      for (const line of lines) parser.push(line);
      parser.finish();
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    console.log(
      `speed${shape === null ? '' : ` (${shape})`}: ${lines.length} lines, wall median ${ms[3].toFixed(0)} ms (min ${ms[0].toFixed(0)}), CPU median ${cpu[3].toFixed(0)} ms (min ${cpu[0].toFixed(0)})`,
    );
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
