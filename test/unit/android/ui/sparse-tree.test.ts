import { readdirSync } from 'node:fs';
import {
  SPARSE_TREE_DEFAULT_MAX_BYTES,
  type SparseNode,
  buildSparseTree,
} from '../../../../src/android/ui/sparse-tree.js';
import { parseUiDump } from '../../../../src/android/ui/ui-dump-parser.js';
import { UI_FIXTURES, buildDump, loginScreen, longListScreen, uiFixture } from './ui-dump-builder.js';

function walk(nodes: readonly SparseNode[], visit: (node: SparseNode) => void): void {
  for (const node of nodes) {
    visit(node);
    if (node.k) walk(node.k, visit);
  }
}

describe('buildSparseTree', () => {
  it('omits defaults: only set flags, no empty strings, wrappers with one child skipped', () => {
    const tree = buildSparseTree(parseUiDump(loginScreen()));
    expect(tree.truncatedAtDepth).toBeNull();
    expect(tree.childrenLimit).toBeNull();
    const [app] = tree.roots;
    expect(app).toEqual({
      c: 'FrameLayout',
      b: [0, 0, 1080, 2400],
      k: [
        { c: 'TextView', id: 'title', t: 'Welcome back', b: [100, 200, 980, 300] },
        { c: 'EditText', id: 'email', h: 'Email', b: [100, 400, 980, 500], f: 'click edit' },
        {
          c: 'EditText',
          id: 'password',
          t: '[password]',
          h: 'Password',
          b: [100, 550, 980, 650],
          f: 'click edit password',
        },
        { c: 'CheckBox', id: 'remember', t: 'Remember me', b: [100, 700, 600, 780], f: 'click check' },
        { c: 'Button', id: 'sign_in', t: 'Sign in', b: [100, 850, 980, 950], f: 'click' },
      ],
    });
    expect(tree.bytes).toBe(Buffer.byteLength(JSON.stringify(tree.roots)));
  });

  it('skips a chain of empty layout wrappers down to the node that carries something', () => {
    const tree = buildSparseTree(
      parseUiDump(
        buildDump([
          {
            children: [{ children: [{ children: [{ class: 'android.widget.Button', text: 'Go', clickable: true }] }] }],
          },
        ]),
      ),
    );
    expect(tree.roots).toEqual([{ c: 'Button', id: expect.any(String), t: 'Go', b: [0, 0, 1080, 2400], f: 'click' }]);
  });

  it('prunes invisible and zero-size subtrees and counts them', () => {
    const tree = buildSparseTree(
      parseUiDump(
        buildDump([
          {
            children: [
              { text: 'gone', visible: false, children: [{ text: 'a' }, { text: 'b' }] },
              { text: 'zero', bounds: [5, 5, 5, 5] },
              { text: 'kept', bounds: [0, 0, 100, 100] },
            ],
          },
        ]),
      ),
    );
    expect(tree.pruned).toBe(4);
    expect(JSON.stringify(tree.roots)).not.toMatch(/gone|zero|"a"/);
    expect(JSON.stringify(tree.roots)).toContain('kept');
  });

  it('folds rows below the screen into one node with their count', () => {
    const tree = buildSparseTree(parseUiDump(longListScreen(20)));
    const folded: SparseNode[] = [];
    walk(tree.roots, (node) => {
      if (node.folded) folded.push(node);
    });
    // Rows from y=2500 on are below the 2400 px screen: 20 rows of 200 px from y=100 leave 8 whole rows off screen.
    // Rows from y=2500 on are below the 2400 px screen: the 8 rows from row 12 fold into one entry.
    const rows = folded.filter((node) => node.c === 'LinearLayout');
    expect(rows).toEqual([{ c: 'LinearLayout', b: [0, 2500, 1080, 4100], folded: 24, siblings: 8 }]);
    // Row 11's subtitle starts at the screen's bottom edge: folded alone.
    expect(folded.filter((node) => node.c === 'TextView')).toEqual([
      { c: 'TextView', b: [40, 2400, 1040, 2490], folded: 1 },
    ]);
    expect(tree.foldedNodes).toBe(8 * 2);
  });

  it('keeps the visible rows of a 2,000-node list whole, folding the rest into one entry', () => {
    const tree = buildSparseTree(parseUiDump(longListScreen(700)));
    expect(tree.truncatedAtDepth).toBeNull();
    expect(tree.bytes).toBeLessThanOrEqual(SPARSE_TREE_DEFAULT_MAX_BYTES);
    expect(JSON.stringify(tree.roots)).toContain('Subtitle for item 10');
    expect(JSON.stringify(tree.roots)).toContain('"siblings":688');
  });

  it('fits the byte bound on a 2,000-node screen by keeping fewer children, and says how', () => {
    const snapshot = parseUiDump(longListScreen(700, { rowHeight: 3 }));
    const tree = buildSparseTree(snapshot);
    expect(tree.bytes).toBeLessThanOrEqual(SPARSE_TREE_DEFAULT_MAX_BYTES);
    expect(tree.bytes).toBeGreaterThan(SPARSE_TREE_DEFAULT_MAX_BYTES / 2);
    expect(tree.truncatedAtDepth).toBeNull();
    expect(tree.childrenLimit).toBeGreaterThan(10);
    const rest = tree.roots[0].k!.at(-1)!;
    expect(rest).toEqual({ c: '…', folded: (700 - tree.childrenLimit!) * 3, siblings: 700 - tree.childrenLimit! });
    expect(JSON.stringify(tree.roots)).toContain('Item 0');
  });

  it('cuts depth too when one child per node is still too big', () => {
    const deep = (level: number): object =>
      level === 0 ? { text: 'leaf' } : { id: `x:id/l${level}`, children: [deep(level - 1)] };
    const snapshot = parseUiDump(buildDump([deep(300) as never]));
    const tree = buildSparseTree(snapshot, { maxBytes: 2048 });
    expect(tree.bytes).toBeLessThanOrEqual(2048);
    expect(tree.childrenLimit).toBe(1);
    expect(tree.truncatedAtDepth).toBeGreaterThan(5);
  });

  it('stays under the default bound on every real capture, keeping every actionable element of small ones', () => {
    for (const name of readdirSync(UI_FIXTURES).filter((file) => file.endsWith('.xml'))) {
      const snapshot = parseUiDump(uiFixture(name));
      const tree = buildSparseTree(snapshot);
      expect(tree.bytes).toBeLessThanOrEqual(SPARSE_TREE_DEFAULT_MAX_BYTES);
      expect(tree.bytes).toBeLessThan(Buffer.byteLength(uiFixture(name)));
    }
  });
});
