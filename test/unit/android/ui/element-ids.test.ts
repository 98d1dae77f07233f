import { elementIds, nodeByElementId, resourceEntryName } from '../../../../src/android/ui/element-ids.js';
import { parseUiDump } from '../../../../src/android/ui/ui-dump-parser.js';
import { buildDump, loginScreen, longListScreen, uiFixture } from './ui-dump-builder.js';

describe('element ids', () => {
  it('uses the resource id entry name when it is unique on the screen', () => {
    const snapshot = parseUiDump(loginScreen());
    const signIn = snapshot.nodes.find((node) => node.text === 'Sign in')!;
    expect(elementIds(snapshot).idOf.get(signIn)).toBe('sign_in');
    expect(nodeByElementId(snapshot, 'sign_in')).toBe(signIn);
  });

  it('hashes the tree path for repeated or missing resource ids, unique over 2,000 nodes', () => {
    const snapshot = parseUiDump(longListScreen(700));
    const ids = elementIds(snapshot);
    expect(ids.nodeOf.size).toBe(snapshot.nodes.length);
    const row = snapshot.nodes.find((node) => node.path === '0.0.5')!;
    expect(ids.idOf.get(row)).toMatch(/^n[0-9a-z]{4,}/);
    expect(nodeByElementId(snapshot, ids.idOf.get(row)!)).toBe(row);
  });

  it('gives the same ids to the same screen captured again', () => {
    const first = elementIds(parseUiDump(uiFixture('ulcica_youtube_reformatted.xml')));
    const second = elementIds(parseUiDump(uiFixture('ulcica_youtube_reformatted.xml')));
    expect([...second.nodeOf.keys()]).toEqual([...first.nodeOf.keys()]);
  });

  it('accepts a tree path wherever an id is accepted, and answers null for unknown ones', () => {
    const snapshot = parseUiDump(loginScreen());
    expect(nodeByElementId(snapshot, '0.4')!.text).toBe('Sign in');
    expect(nodeByElementId(snapshot, '0.9')).toBeNull();
    expect(nodeByElementId(snapshot, 'nope')).toBeNull();
  });

  it('never uses an entry name that reads like a hashed id or a tree path', () => {
    const snapshot = parseUiDump(buildDump([{ id: 'x:id/n1234' }, { id: 'x:id/12' }]));
    const ids = [...elementIds(snapshot).idOf.values()];
    expect(ids).not.toContain('n1234');
    expect(ids).not.toContain('12');
  });

  it('reads the entry name of a resource id', () => {
    expect(resourceEntryName('com.example:id/login')).toBe('login');
    expect(resourceEntryName('android:id/content')).toBe('content');
    expect(resourceEntryName('plain')).toBe('plain');
  });
});
