import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectSelectionError, selectProject } from '../../../src/kernel/project-selection.js';

describe('selectProject', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'droidwright-test-select-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('finds the nearest ancestor with a settings file', () => {
    const root = join(dir, 'proj');
    mkdirSync(join(root, 'app', 'src', 'main'), { recursive: true });
    writeFileSync(join(root, 'settings.gradle'), '');
    expect(selectProject({ cwd: join(root, 'app', 'src', 'main') })).toEqual({ root, selectedBy: 'cwd' });
    writeFileSync(join(root, 'app', 'settings.gradle.kts'), '');
    expect(selectProject({ cwd: join(root, 'app', 'src') }).root).toBe(join(root, 'app'));
  });

  test('none when no settings file above', () => {
    expect(selectProject({ cwd: dir })).toEqual({ root: null, selectedBy: 'none' });
  });

  test('--project wins, is resolved against cwd and canonicalised', () => {
    const real = join(dir, 'real');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'link'));
    expect(selectProject({ cwd: dir, projectPath: 'link' })).toEqual({ root: real, selectedBy: 'flag' });
  });

  test('--project must be an existing directory', () => {
    expect(() => selectProject({ cwd: dir, projectPath: 'missing' })).toThrow(ProjectSelectionError);
    writeFileSync(join(dir, 'file'), '');
    expect(() => selectProject({ cwd: dir, projectPath: 'file' })).toThrow(/not a directory/);
  });
});
