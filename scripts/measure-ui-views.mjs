#!/usr/bin/env node
/*
 * Sizes and speed of the UI views on every dump in test/fixtures/uiautomator/ plus built screens of 2,000+
 * nodes (test/unit/android/ui/ui-dump-builder.ts):
 * - bytes of our interactive view (its JSON) against the flat JSON list the most-used peer returns
 *   (mobile-mcp's list-elements: every node with text, content-desc, hint, resource-id, checkable or clickable
 *   and a non-empty rect, as `{type, text, label, rect, clickable?, focused?, identifier?}`), and against a flat
 *   list of every element with its coordinates;
 * - median time to sanitize + parse a dump, and to build the interactive view, the sparse tree and the hash.
 *
 *   node scripts/measure-ui-views.mjs [--runs N]
 *
 * A measurement, not a test: numbers vary with the machine; the ratio does not.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 30;

const out = mkdtempSync(join(tmpdir(), 'measure-ui-'));
try {
  await build({
    entryPoints: {
      parser: join(root, 'src/android/ui/ui-dump-parser.ts'),
      view: join(root, 'src/android/ui/interactive-view.ts'),
      tree: join(root, 'src/android/ui/sparse-tree.ts'),
      hash: join(root, 'src/android/ui/screen-hash.ts'),
      builder: join(root, 'test/unit/android/ui/ui-dump-builder.ts'),
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outdir: out,
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
  });
  const load = (name) => import(pathToFileURL(join(out, `${name}.mjs`)).href);
  const { parseUiDump } = await load('parser');
  const { buildInteractiveView } = await load('view');
  const { buildSparseTree } = await load('tree');
  const { computeScreenHash } = await load('hash');
  const { longListScreen } = await load('builder');

  const fixtures = join(root, 'test/fixtures/uiautomator');
  const screens = readdirSync(fixtures)
    .filter((name) => name.endsWith('.xml'))
    .map((name) => ({ name, xml: readFileSync(join(fixtures, name), 'utf8') }));
  screens.push({ name: '(built) 700-row list all on screen', xml: longListScreen(700, { rowHeight: 3 }) });
  screens.push({ name: '(built) 2,000-row list, 12 on screen', xml: longListScreen(2000) });

  const rect = (n) => ({
    x: n.bounds.left,
    y: n.bounds.top,
    width: n.bounds.right - n.bounds.left,
    height: n.bounds.bottom - n.bounds.top,
  });
  const peerList = (snapshot) => {
    // The peer walks children before their parent; order does not change the byte count.
    const elements = [];
    for (const n of snapshot.nodes) {
      if (!(n.text || n.contentDesc || n.hint || n.resourceId || n.flags.checkable || n.flags.clickable)) continue;
      if (!n.bounds || n.bounds.right <= n.bounds.left || n.bounds.bottom <= n.bounds.top) continue;
      const element = {
        type: n.className || 'text',
        text: n.text,
        label: n.contentDesc || n.hint || '',
        rect: rect(n),
      };
      if (n.flags.clickable) element.clickable = true;
      if (n.flags.focused) element.focused = true;
      if (n.resourceId) element.identifier = n.resourceId;
      elements.push(element);
    }
    return elements;
  };
  const everyElement = (snapshot) =>
    snapshot.nodes.map((n) => ({
      class: n.className,
      text: n.text,
      contentDesc: n.contentDesc,
      resourceId: n.resourceId,
      clickable: n.flags.clickable,
      rect: n.bounds ? rect(n) : null,
    }));
  const median = (fn) => {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const start = process.hrtime.bigint();
      fn();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  };

  const rows = [];
  for (const { name, xml } of screens) {
    const snapshot = parseUiDump(xml);
    const view = buildInteractiveView(snapshot);
    const viewBytes = Buffer.byteLength(JSON.stringify(view));
    const peerBytes = Buffer.byteLength(JSON.stringify(peerList(snapshot)));
    const allBytes = Buffer.byteLength(JSON.stringify(everyElement(snapshot)));
    rows.push({
      screen: name,
      nodes: snapshot.nodes.length,
      'dump B': Buffer.byteLength(xml),
      'view rows': `${view.rows.length}/${view.total}`,
      'view B': viewBytes,
      'peer B': peerBytes,
      'view/peer': (viewBytes / peerBytes).toFixed(2),
      'all-elements B': allBytes,
      'view/all': (viewBytes / allBytes).toFixed(2),
      'sparse B': buildSparseTree(snapshot).bytes,
      'parse ms': median(() => parseUiDump(xml)).toFixed(2),
      'view ms': median(() => buildInteractiveView(parseUiDump(xml))).toFixed(2),
      'tree ms': median(() => buildSparseTree(snapshot)).toFixed(2),
      'hash ms': median(() => computeScreenHash(snapshot)).toFixed(2),
    });
  }
  console.table(rows);
  const real = rows.filter((row) => !row.screen.startsWith('(built)'));
  const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);
  console.log(
    `real captures: view ${sum(real, 'view B')} B vs peer ${sum(real, 'peer B')} B (${(sum(real, 'view B') / sum(real, 'peer B')).toFixed(2)}), ` +
      `vs every element ${sum(real, 'all-elements B')} B (${(sum(real, 'view B') / sum(real, 'all-elements B')).toFixed(2)}); ${runs} runs per median`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
