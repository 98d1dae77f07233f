import { createHash } from 'node:crypto';
import { parseUiDump } from '../../../src/android/ui/ui-dump-parser.js';
import {
  describeNode,
  focusedEditable,
  nodeAt,
  targetFromArgs,
  targetRecord,
} from '../../../src/plugins/ui/services/ui-action-runner.js';
import { fingerDirectionToReveal, swipeAcross } from '../../../src/plugins/ui/services/swipe-geometry.js';
import { checkAsciiTypeable, checkTextSize, textDigest } from '../../../src/plugins/ui/services/ui-text-entry.js';

const DUMP = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.x" clickable="false" enabled="true" focused="false" password="false" bounds="[0,0][1080,2400]">
  <node index="0" text="Sign in" resource-id="com.x:id/sign_in" class="android.widget.Button" package="com.x" clickable="true" enabled="true" focused="false" password="false" bounds="[100,1000][980,1140]">
    <node index="0" text="Sign in" resource-id="" class="android.widget.TextView" package="com.x" clickable="false" enabled="true" focused="false" password="false" bounds="[120,1010][960,1130]" />
  </node>
  <node index="1" text="secret" resource-id="com.x:id/pw" class="android.widget.EditText" package="com.x" clickable="true" enabled="true" focused="true" password="true" bounds="[100,600][980,760]" />
</node></hierarchy>`;

describe('acting tool helpers', () => {
  const snapshot = parseUiDump(DUMP);

  it('takes exactly one of element and selector fields', () => {
    expect(targetFromArgs({ element: 'sign_in' })).toEqual({ element: 'sign_in' });
    expect(targetFromArgs({ text: 'Sign in', resource_id: 'sign_in' })).toEqual({
      selector: { text: 'Sign in', resource_id: 'sign_in' },
    });
    expect(() => targetFromArgs({ element: 'sign_in', text: 'Sign in' })).toThrow(/not both/);
    expect(() => targetFromArgs({})).toThrow(/Name the element/);
    expect(targetFromArgs({}, false)).toBeNull();
    expect(() => targetFromArgs({ text_contains: 'x'.repeat(1001) })).toThrow(/over 1000/);
  });

  it('records what a tap hit, the actionable node under the point, never a password', () => {
    const hit = nodeAt(snapshot, 500, 1050)!;
    expect(hit.resourceId).toBe('com.x:id/sign_in');
    expect(describeNode(snapshot, hit)).toContain('"Sign in"');
    const field = focusedEditable(snapshot)!;
    expect(field.resourceId).toBe('com.x:id/pw');
    const record = targetRecord(field, { x: 1, y: 2 });
    expect(record.text).toBeNull();
    expect(JSON.stringify(record)).not.toContain('secret');
    expect(targetRecord(null, { x: 5, y: 6 })).toMatchObject({ path: null, x: 5, y: 6 });
  });

  it('swipes inside the element, the finger opposite to the content it reveals', () => {
    const bounds = { left: 0, top: 200, right: 1000, bottom: 1200 };
    expect(swipeAcross(bounds, 'up')).toEqual({ from: { x: 500, y: 1000 }, to: { x: 500, y: 400 } });
    expect(swipeAcross(bounds, 'left')).toEqual({ from: { x: 800, y: 700 }, to: { x: 200, y: 700 } });
    expect(fingerDirectionToReveal('down')).toBe('up');
    expect(fingerDirectionToReveal('left')).toBe('right');
  });

  it('bounds text by UTF-8 bytes and names the first character input text cannot type', () => {
    expect(() => checkTextSize('é'.repeat(500))).not.toThrow();
    expect(() => checkTextSize('é'.repeat(501))).toThrow(/1002 bytes/);
    expect(() => checkAsciiTypeable('ok\ttab')).toThrow(/U\+0009 at index 2/);
    expect(textDigest('🎉a')).toEqual({
      length: 2,
      sha256: createHash('sha256').update('🎉a', 'utf8').digest('hex'),
    });
  });
});
