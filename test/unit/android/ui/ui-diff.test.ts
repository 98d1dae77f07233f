import { diffUiCaptures } from '../../../../src/android/ui/ui-diff.js';
import { parseUiDump } from '../../../../src/android/ui/ui-dump-parser.js';
import { buildDump, loginScreen, longListScreen, uiFixture } from './ui-dump-builder.js';

const capture = (xml: string, activity?: string) => ({ snapshot: parseUiDump(xml), activity });

describe('diffUiCaptures', () => {
  it('reports the same screen as unchanged', () => {
    const diff = diffUiCaptures(capture(loginScreen()), capture(loginScreen({ clock: '10:00' })));
    expect(diff).toMatchObject({
      sameScreen: true,
      packageChanged: false,
      activityChanged: null,
      added: [],
      removed: [],
      omitted: 0,
    });
    // The status bar clock ticked: neither the hash nor the diff counts it.
    expect(diff.changed).toEqual([]);
  });

  it('reports typed text and a toggled checkbox as changes of the same elements', () => {
    const diff = diffUiCaptures(
      capture(loginScreen()),
      capture(loginScreen({ email: 'ada@example.com', remember: true })),
    );
    expect(diff.sameScreen).toBe(false);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    expect(diff.changed).toEqual([
      {
        id: 'email',
        before: 'email EditText hint="Email" @540,450 click edit',
        after: 'email EditText "ada@example.com" @540,450 click edit',
        fields: ['label'],
      },
      {
        id: 'remember',
        before: 'remember CheckBox "Remember me" @350,740 click check',
        after: 'remember CheckBox "Remember me" @350,740 click checked',
        fields: ['flags'],
      },
    ]);
  });

  it('reports a button becoming disabled', () => {
    const diff = diffUiCaptures(capture(loginScreen()), capture(loginScreen({ signInEnabled: false })));
    expect(diff.changed).toEqual([expect.objectContaining({ id: 'sign_in', fields: ['flags'] })]);
  });

  it('keys elements so a row inserted above does not make everything below "changed"', () => {
    const before = loginScreen();
    const after = before.replace(
      '<node index="1" text="" resource-id="com.example.app:id/email"',
      '<node index="1" text="Wrong password" resource-id="com.example.app:id/error" class="android.widget.TextView" package="com.example.app" bounds="[100,320][980,380]" /><node index="2" text="" resource-id="com.example.app:id/email"',
    );
    const diff = diffUiCaptures(capture(before), capture(after));
    expect(diff.added).toEqual(['error "Wrong password"']);
    expect(diff.removed).toEqual([]);
    expect(diff.changed).toEqual([]);
  });

  it('reports a scrolled list as moved, added and removed rows', () => {
    const diff = diffUiCaptures(capture(longListScreen(3)), capture(longListScreen(4)));
    expect(diff.added).toHaveLength(1);
    expect(diff.added[0]).toContain('Item 3');
    expect(diff.removed).toEqual([]);
  });

  it('says when another app or activity is in front', () => {
    const diff = diffUiCaptures(
      capture(loginScreen(), 'com.example.app/.LoginActivity'),
      capture(uiFixture('ulcica_youtube_reformatted.xml'), 'com.google.android.youtube/.HomeActivity'),
    );
    expect(diff).toMatchObject({
      packageChanged: true,
      beforePackage: 'com.example.app',
      afterPackage: 'com.google.android.youtube',
      activityChanged: true,
    });
    const sameActivity = diffUiCaptures(capture(loginScreen(), 'a/.B'), capture(loginScreen({ email: 'x' }), 'a/.B'));
    expect(sameActivity.activityChanged).toBe(false);
  });

  it('bounds the entries and says how many were left out', () => {
    const diff = diffUiCaptures(capture(buildDump([{}])), capture(longListScreen(30, { rowHeight: 60 })), 10);
    expect(diff.added.length + diff.removed.length + diff.changed.length).toBe(10);
    expect(diff.omitted).toBe(31 - 10);
  });
});
