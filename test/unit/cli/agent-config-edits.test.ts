import { parseJsonc, readEntry, removeEntry, setEntry } from '../../../src/cli/agents/jsonc-document.js';
import { unifiedDiff } from '../../../src/cli/agents/text-diff.js';
import { readTomlServer, removeTomlServer, setTomlServer } from '../../../src/cli/agents/toml-servers.js';

const launch = { command: '/usr/bin/node', args: ['/opt/dw/dist/cli.js', 'mcp'] };

describe('config edits keep everything else', () => {
  test('JSON with comments and trailing commas: add, replace and remove one entry', () => {
    const before =
      '{\n\t// editor settings\n\t"theme": "dark", /* inline */\n\t"mcpServers": {\n\t\t"a": {"command": "x"},\n\t},\n}\n';
    const added = setEntry(before, 'mcpServers', 'droidwright', launch);
    expect(added).toContain('\t// editor settings\n\t"theme": "dark", /* inline */\n');
    expect(added).toContain('\t\t"a": {"command": "x"},\n\t\t"droidwright": {\n\t\t\t"command": "/usr/bin/node",');
    expect(readEntry(added, 'mcpServers', 'droidwright')).toEqual(launch);
    const replaced = setEntry(added, 'mcpServers', 'droidwright', { command: 'npx', args: [] });
    expect(readEntry(replaced, 'mcpServers', 'droidwright')).toEqual({ command: 'npx', args: [] });
    expect(removeEntry(added, 'mcpServers', 'droidwright')).toBe(before);
    expect(parseJsonc(before)).toEqual({ theme: 'dark', mcpServers: { a: { command: 'x' } } });
  });

  test('a missing parent is added; an empty or missing file becomes a new document', () => {
    const before = '{\n  "theme": "dark"\n}\n';
    const added = setEntry(before, 'servers', 'droidwright', launch);
    expect(parseJsonc(added)).toEqual({ theme: 'dark', servers: { droidwright: launch } });
    expect(parseJsonc(setEntry('', 'servers', 'droidwright', launch))).toEqual({ servers: { droidwright: launch } });
    expect(() => setEntry('{ "servers": { oops } }', 'servers', 'droidwright', launch)).toThrow(/line 1/);
  });

  test('TOML: the [mcp_servers.droidwright] table is appended, read and removed', () => {
    const before = 'model = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n\n[profiles.fast]\nmodel = "mini"\n';
    const added = setTomlServer(before, 'droidwright', launch);
    expect(added.startsWith(before)).toBe(true);
    expect(readTomlServer(added, 'droidwright')).toEqual(launch);
    expect(readTomlServer(before, 'droidwright')).toBeUndefined();
    expect(removeTomlServer(added, 'droidwright')).toBe(before);
    const multiline =
      '[mcp_servers.droidwright]\ncommand = \'/n\'\nargs = [\n  "a",\n  \'b\',\n]\n[mcp_servers.droidwright.env]\nX = "1"\n';
    expect(readTomlServer(multiline, 'droidwright')).toEqual({ command: '/n', args: ['a', 'b'] });
    expect(removeTomlServer(`x = 1\n\n${multiline}`, 'droidwright')).toBe('x = 1\n');
  });

  test('the diff shows the changed lines with context', () => {
    expect(unifiedDiff('f', 'a\nb\nc\nd\n', 'a\nb\nX\nd\n')).toBe('--- f\n+++ f\n@@ -1,4 +1,4 @@\n a\n b\n-c\n+X\n d');
  });
});
