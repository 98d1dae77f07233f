import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkTemplates, matchTemplate } from '../../../src/mcp/resources/resource-catalog.js';
import { existingProjectFile, readBoundedText, resolveProjectFile } from '../../../src/mcp/resources/project-files.js';
import { createFakeGradleProject, createTempHome } from '../../support/temp-home.js';

const temp = createTempHome('resources-unit');
afterAll(() => temp.cleanup());

describe('resource templates', () => {
  test('a template matches one decoded path segment per variable, and nothing else', () => {
    expect(matchTemplate('droidwright://builds/{id}/log', 'droidwright://builds/b-12/log')).toEqual({ id: 'b-12' });
    expect(matchTemplate('droidwright://builds/{id}/log', 'droidwright://builds/a%20b/log')).toEqual({ id: 'a b' });
    expect(matchTemplate('droidwright://builds/{id}/log', 'droidwright://builds/a/b/log')).toBeNull();
    expect(matchTemplate('droidwright://builds/{id}/log', 'droidwright://builds//log')).toBeNull();
    expect(matchTemplate('droidwright://builds/{id}/log', 'droidwright://builds/%E0%A4%A/log')).toBeNull();
    expect(matchTemplate('droidwright://events/{seq}', 'droidwright://events/7?x=1')).toBeNull();
  });

  test('a contributed template must name a registered R tool, once, under droidwright://', () => {
    const template = {
      uriTemplate: 'droidwright://sessions/{id}',
      name: 'session',
      title: 'Session',
      description: 'A session.',
      mimeType: 'application/json' as const,
      tool: 'get_session',
      toolArguments: (v: Record<string, string>) => ({ id: v.id }),
    };
    const kinds: Record<string, string> = { get_session: 'R', stop_session: 'D' };
    expect(() => checkTemplates([template], (t) => kinds[t])).not.toThrow();
    expect(() => checkTemplates([template, template], (t) => kinds[t])).toThrow(/contributed twice/);
    expect(() => checkTemplates([{ ...template, tool: 'nope' }], (t) => kinds[t])).toThrow(/not registered/);
    expect(() => checkTemplates([{ ...template, tool: 'stop_session' }], (t) => kinds[t])).toThrow(/not a read-only/);
    expect(() => checkTemplates([{ ...template, uriTemplate: 'file:///{id}' }], (t) => kinds[t])).toThrow(
      /droidwright:\/\//,
    );
  });
});

describe('project files', () => {
  test('a link out of the project, or to a directory, is not served', () => {
    const project = createFakeGradleProject(temp.home, 'links');
    writeFileSync(join(temp.home, 'outside.gradle.kts'), 'secret');
    symlinkSync(join(temp.home, 'outside.gradle.kts'), join(project, 'build.gradle.kts'));
    expect(existingProjectFile(project, 'build-gradle')).toBeNull();
    expect(() => resolveProjectFile(project, join(project, 'build.gradle.kts'))).toThrow(/outside the project/);
    expect(existingProjectFile(project, 'settings-gradle')).toBe(join(project, 'settings.gradle.kts'));
    mkdirSync(join(project, 'app', 'src', 'main', 'AndroidManifest.xml'), { recursive: true });
    expect(existingProjectFile(project, 'manifest')).toBeNull();
    expect(existingProjectFile(project, 'app-build-gradle')).toBe(join(project, 'app', 'build.gradle.kts'));
  });

  test('reads are bounded on disk and on the wire, never split a character, and replace invalid UTF-8', () => {
    const path = join(temp.home, 'text.txt');
    writeFileSync(path, Buffer.concat([Buffer.from('ok '), Buffer.from([0xc3]), Buffer.from(' end')]));
    expect(readBoundedText(path, 1024, 1024)).toEqual({ text: 'ok \uFFFD end', size: 8, shown: 8 });
    // "é" is two bytes: a cut after 4 bytes would split it, so 3 are shown.
    writeFileSync(path, 'abcé'.repeat(10));
    const cut = readBoundedText(path, 4, 10_000);
    expect(cut.shown).toBe(3);
    expect(cut.text).toBe('abc\n[droidwright: truncated: the file is 50 bytes; the first 3 are shown]');
    // Quotes double on the wire: the text is cut until its JSON fits.
    writeFileSync(path, '"'.repeat(4000));
    const quoted = readBoundedText(path, 1_000_000, 2000);
    expect(Buffer.byteLength(JSON.stringify(quoted.text))).toBeLessThanOrEqual(2000);
    expect(quoted.shown).toBeGreaterThan(800);
  });
});
