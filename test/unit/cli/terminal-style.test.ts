import { colorsOn, terminalColumns } from '../../../src/cli/terminal-style.js';

describe('terminal style', () => {
  test.each([
    [{ isTTY: true }, {}, true],
    [{ isTTY: false }, {}, false],
    [{}, {}, false],
    [{ isTTY: true }, { NO_COLOR: '1' }, false],
    [{ isTTY: true }, { NO_COLOR: '' }, true],
    [{ isTTY: false }, { FORCE_COLOR: '1' }, true],
    [{ isTTY: false }, { FORCE_COLOR: '' }, true],
    [{ isTTY: true }, { FORCE_COLOR: '0' }, false],
    [{ isTTY: true }, { FORCE_COLOR: 'false' }, false],
    [{ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
  ])('colors on %j with %j: %s', (stream, env, expected) => {
    expect(colorsOn(stream, env)).toBe(expected);
  });

  test('the width is a terminal’s only', () => {
    expect(terminalColumns({ isTTY: true, columns: 120 })).toBe(120);
    expect(terminalColumns({ isTTY: false, columns: 120 })).toBeUndefined();
    expect(terminalColumns({})).toBeUndefined();
  });
});
