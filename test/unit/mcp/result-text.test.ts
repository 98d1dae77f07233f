import { renderResultText } from '../../../src/mcp/result-text.js';

describe('renderResultText', () => {
  test('summary first, then key: value lines; lists of objects one line each, nested lists indented; nulls left out', () => {
    const text = renderResultText(
      '2 modules',
      {
        project: '/p',
        trusted: false,
        hint: null,
        tags: ['a', 'b'],
        modules: [
          { path: ':app', flavors: ['demo', 'play'], variants: [{ name: 'debug', minify: false }], note: null },
          { path: ':lib', variants: [] },
        ],
        server: { port: 5037, reachable: true },
        extra: {},
        message: 'two\nlines',
      },
      10_000,
    );
    expect(text).toBe(
      [
        '2 modules',
        'project: /p',
        'trusted: false',
        'tags: a, b',
        'modules (2):',
        '- path=:app, flavors=[demo, play]',
        '  variants (1):',
        '  - name=debug, minify=false',
        '- path=:lib',
        'server: port=5037, reachable=true',
        'message: "two\\nlines"',
      ].join('\n'),
    );
    expect(text).not.toContain('{');
  });

  test('cut at a line boundary within the byte budget, saying where the rest is', () => {
    const data = { items: Array.from({ length: 1000 }, (_, i) => ({ n: i, label: `item ${i}` })) };
    const text = renderResultText('1000 items', data, 2000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2000);
    expect(text.startsWith('1000 items\nitems (1000):\n- n=0, label=item 0')).toBe(true);
    expect(text.endsWith('… (text cut here; structuredContent holds the complete result)')).toBe(true);
  });
});
