import {
  answerCapturedDump,
  capturedNodeKey,
  parseCapturedDump,
  renderCapturedDump,
} from '../../../../src/sim/android/ui/captured-dump.js';

const XML =
  "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"1\">" +
  '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.x" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">' +
  '<node index="0" text="a &amp; b &lt;c&gt; &#128266;" resource-id="com.x:id/t" class="android.widget.TextView" package="com.x" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][540,100]" />' +
  '<node index="1" text="" resource-id="com.x:id/pw" class="android.widget.EditText" package="com.x" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="true" selected="false" bounds="[0,100][540,200]" />' +
  '</node></hierarchy>';

describe('captured dumps as sim screens', () => {
  const dump = parseCapturedDump(XML, 'inline');
  const state = { screenName: 's', focusedKey: null, values: new Map<string, string>(), checked: new Map() };

  it('reads nodes in document order with decoded attributes', () => {
    expect(dump).toMatchObject({ rotation: 1, nodeCount: 3, foregroundPackage: 'com.x' });
    const tree = renderCapturedDump(dump, state);
    expect(tree.children[0].text).toBe('a & b <c> 🔊');
    expect(tree.children[1]).toMatchObject({ editable: true, password: true, key: capturedNodeKey('s', 2) });
  });

  it('answers the capture unchanged, then with only typed and focused attributes rewritten', () => {
    expect(answerCapturedDump(dump, renderCapturedDump(dump, state))).toBe(XML);
    const key = capturedNodeKey('s', 2);
    const typed = renderCapturedDump(dump, { ...state, focusedKey: key, values: new Map([[key, 's3cret']]) });
    expect(typed.children[1]).toMatchObject({ text: '••••••', rawText: 's3cret', focused: true });
    const answered = answerCapturedDump(dump, typed);
    expect(answered).not.toContain('s3cret');
    expect(answered.replace('text="••••••"', 'text=""').replace(/focused="true"/, 'focused="false"')).toBe(XML);
  });

  it('refuses what is not a dump', () => {
    expect(() => parseCapturedDump('<html/>', 'x.html')).toThrow(/not a UI Automator dump/);
    expect(() => parseCapturedDump('<hierarchy rotation="0"></hierarchy>', 'empty.xml')).toThrow(/no <node>/);
  });
});
