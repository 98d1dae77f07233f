import { matchesFilter } from '../../../src/tui/dashboard-panels.js';
import { clean, colorsEnabled, fitLine, lineText, wrapText } from '../../../src/tui/screen-text.js';

describe('colorsEnabled', () => {
  it.each([
    [{}, true],
    [{ NO_COLOR: '1' }, false],
    [{ NO_COLOR: '' }, true],
    [{ FORCE_COLOR: '0' }, false],
    [{ FORCE_COLOR: 'false' }, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    [{ FORCE_COLOR: '3' }, true],
  ])('%j → %s', (env, expected) => {
    expect(colorsEnabled(env as NodeJS.ProcessEnv)).toBe(expected);
  });
});

describe('fitLine', () => {
  it('cuts a line of styled runs to the width with an ellipsis and keeps the styles', () => {
    const line = [
      { text: 'droidwright ', bold: true },
      { text: '/a/long/project/path', color: 'cyan' },
    ];
    const fitted = fitLine(line, 16);
    expect(lineText(fitted)).toBe('droidwright /a/…');
    expect(fitted[1]).toMatchObject({ color: 'cyan' });
    expect(lineText(fitLine(line, 100))).toBe('droidwright /a/long/project/path');
    expect(fitLine(line, 0)).toEqual([]);
  });

  it('turns terminal control characters from recorded strings into spaces', () => {
    expect(clean('evil\u001b[2Jclient\r\n\u009b')).toBe('evil [2Jclient   ');
    expect(lineText(fitLine([{ text: 'a\u001bb' }], 10))).toBe('a b');
  });
});

describe('wrapText', () => {
  it('wraps on words and cuts words longer than a line', () => {
    expect(wrapText('Trust /tmp/project? Agents will be able to run its build.', 20)).toEqual([
      'Trust /tmp/project?',
      'Agents will be able',
      'to run its build.',
    ]);
    expect(wrapText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});

describe('matchesFilter', () => {
  const row = { client: 'claude-code', tool: 'install_apk', outcome: 'refused', summary: 'Not trusted' };
  it('matches field:value terms on that field and bare words anywhere, all terms, any case', () => {
    expect(matchesFilter('', row)).toBe(true);
    expect(matchesFilter('outcome:refused', row)).toBe(true);
    expect(matchesFilter('outcome:ok', row)).toBe(false);
    expect(matchesFilter('client:CLAUDE tool:install', row)).toBe(true);
    expect(matchesFilter('trusted', row)).toBe(true);
    expect(matchesFilter('trusted tool:launch', row)).toBe(false);
    // An unknown field is a bare word.
    expect(matchesFilter('pkg:x', row)).toBe(false);
  });
});
