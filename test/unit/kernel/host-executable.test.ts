import { chmodSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  hostChildPath,
  hostPathEntries,
  isBareCommandName,
  resolveHostExecutable,
} from '../../../src/kernel/host-executable.js';

function tool(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}

describe('host executables', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'dw-host-exe-')));
  const project = join(root, 'project');
  const host = join(root, 'host', 'bin');
  tool(join(project, 'java'));
  tool(join(project, 'bin', 'java'));
  const hostJava = tool(join(host, 'java'));
  // A link into the project from outside is the project's directory all the same.
  symlinkSync(join(project, 'bin'), join(root, 'project-bin-link'));

  it('searches only absolute PATH entries outside the project', () => {
    const PATH = ['.', '', 'bin', join(project, 'bin'), join(root, 'project-bin-link'), host].join(delimiter);
    expect(hostPathEntries({ env: { PATH }, exclude: [project] })).toEqual([host]);
    expect(resolveHostExecutable('java', { env: { PATH }, exclude: [project] })).toBe(hostJava);
    expect(resolveHostExecutable('java', { env: { PATH: `.${delimiter}bin` } })).toBeNull();
    // Without a project to exclude, an absolute entry counts wherever it is.
    expect(resolveHostExecutable('java', { env: { PATH: join(project, 'bin') } })).toBe(join(project, 'bin', 'java'));
    expect(resolveHostExecutable('javac', { env: { PATH } })).toBeNull();
  });

  it('looks up names, never paths', () => {
    expect(isBareCommandName('adb')).toBe(true);
    for (const bad of ['', '.', '..', './adb', 'bin/adb', '/usr/bin/adb'])
      expect(() => resolveHostExecutable(bad, { env: { PATH: host } })).toThrow(TypeError);
  });

  it('hands children the absolute entries only', () => {
    expect(hostChildPath(['.', '', 'bin', '/usr/bin', '/bin'].join(delimiter))).toBe(
      ['/usr/bin', '/bin'].join(delimiter),
    );
    expect(hostChildPath(undefined)).toBeUndefined();
  });
});
