import {
  EmptySelectorError,
  FIND_MAX,
  findActionableAncestor,
  findElements,
  findParent,
  resolveSingleTarget,
} from '../../../../src/android/ui/ui-selectors.js';
import { parseUiDump } from '../../../../src/android/ui/ui-dump-parser.js';
import { loginScreen, longListScreen, uiFixture } from './ui-dump-builder.js';

const login = parseUiDump(loginScreen({ signInEnabled: false }));
const list = parseUiDump(longListScreen(150));

describe('findElements', () => {
  it('matches exact text, case-insensitive substrings of text or content-desc', () => {
    expect(findElements(login, { text: 'Sign in' }).matches.map((n) => n.path)).toEqual(['0.4']);
    expect(findElements(login, { text: 'sign in' }).total).toBe(0);
    expect(findElements(login, { text_contains: 'REMEMBER' }).matches.map((n) => n.path)).toEqual(['0.3']);
    expect(findElements(login, { text_contains: 'percent' }).matches[0].resourceId).toBe(
      'com.android.systemui:id/battery',
    );
  });

  it('matches a resource id whole or by entry name, and a class whole or by simple name', () => {
    expect(findElements(login, { resource_id: 'com.example.app:id/email' }).total).toBe(1);
    expect(findElements(login, { resource_id: 'email' }).total).toBe(1);
    expect(findElements(login, { resource_id: 'mail' }).total).toBe(0);
    expect(findElements(login, { class: 'EditText' }).total).toBe(2);
    expect(findElements(login, { class: 'android.widget.EditText' }).total).toBe(2);
  });

  it('combines fields with AND', () => {
    expect(findElements(login, { class: 'EditText', text: '[password]' }).matches.map((n) => n.path)).toEqual(['0.2']);
    expect(findElements(login, { clickable: true, enabled: false }).matches.map((n) => n.path)).toEqual(['0.4']);
    expect(findElements(login, { content_desc: '87 percent', clickable: true }).total).toBe(0);
  });

  it('never matches a password by its real text', () => {
    expect(findElements(login, { text_contains: 'hunter2' }).total).toBe(0);
  });

  it('bounds matches (20 by default, 100 at most) and reports the total', () => {
    const rows = findElements(list, { resource_id: 'row_title' });
    expect(rows).toMatchObject({ total: 150, truncated: true });
    expect(rows.matches).toHaveLength(20);
    expect(findElements(list, { resource_id: 'row_title' }, 1000).matches).toHaveLength(FIND_MAX);
    expect(findElements(list, { text: 'Item 7' }).truncated).toBe(false);
  });

  it('refuses an empty selector', () => {
    expect(() => findElements(login, {})).toThrow(EmptySelectorError);
    expect(() => findElements(login, {})).toThrow(/text, text_contains, resource_id/);
  });

  it('finds CJK content-desc on a real capture', () => {
    const huawei = parseUiDump(uiFixture('weditor_huawei_launcher_cjk_reformatted.xml'));
    const withDesc = huawei.nodes.find((node) => /[\u4e00-\u9fff]/.test(node.contentDesc))!;
    expect(findElements(huawei, { content_desc: withDesc.contentDesc }).matches).toContain(withDesc);
  });
});

describe('resolveSingleTarget', () => {
  it('resolves one enabled match by selector, element id or tree path', () => {
    const enabled = parseUiDump(loginScreen());
    for (const target of [{ selector: { text: 'Sign in' } }, { element: 'sign_in' }, { element: '0.4' }]) {
      const resolved = resolveSingleTarget(enabled, target);
      expect(resolved.ok && resolved.node.text).toBe('Sign in');
    }
  });

  it('refuses a missing target, saying to read the screen again', () => {
    const resolved = resolveSingleTarget(login, { selector: { text: 'Log out' } });
    expect(resolved).toMatchObject({ ok: false, reason: 'not_found', candidates: [] });
    expect(!resolved.ok && resolved.message).toMatch(
      /no element matches selector \{text="Log out"\}.*read the screen again/,
    );
    expect(resolveSingleTarget(login, { element: 'n0000' })).toMatchObject({ ok: false, reason: 'not_found' });
  });

  it('refuses several matches instead of picking the first, listing their paths', () => {
    const resolved = resolveSingleTarget(list, { selector: { resource_id: 'row' } });
    expect(resolved).toMatchObject({ ok: false, reason: 'ambiguous' });
    if (resolved.ok) throw new Error('unreachable');
    expect(resolved.candidates.map((n) => n.path)).toEqual(['0.0.0', '0.0.1', '0.0.2', '0.0.3', '0.0.4']);
    expect(resolved.message).toMatch(
      /^150 elements match selector \{resource_id="row"\} \(0\.0\.0, .*, …\); add a selector field or target one by its tree path$/,
    );
  });

  it('refuses a disabled target for acting, and allows it for reading', () => {
    const resolved = resolveSingleTarget(login, { element: 'sign_in' });
    expect(resolved).toMatchObject({ ok: false, reason: 'disabled' });
    expect(!resolved.ok && resolved.message).toMatch(/is disabled/);
    expect(resolveSingleTarget(login, { element: 'sign_in' }, { requireEnabled: false }).ok).toBe(true);
  });
});

describe('resolveSingleTarget and visibility', () => {
  it('refuses a target below the screen or invisible, and allows it for reading', () => {
    const scrolled = parseUiDump(longListScreen(20));
    const below = resolveSingleTarget(scrolled, { selector: { text: 'Item 15' } });
    expect(below).toMatchObject({ ok: false, reason: 'not_visible' });
    expect(!below.ok && below.message).toMatch(/scroll it into view first/);
    expect(resolveSingleTarget(scrolled, { selector: { text: 'Item 15' } }, { requireVisible: false }).ok).toBe(true);
    expect(resolveSingleTarget(scrolled, { selector: { text: 'Item 3' } }).ok).toBe(true);
  });
});

describe('findParent and findActionableAncestor', () => {
  it('gives the parent of a node, and null for a root or an unknown path', () => {
    expect(findParent(list, '0.0.3.1')!.path).toBe('0.0.3');
    expect(findParent(list, '0')).toBeNull();
    expect(findParent(list, '9.9')).toBeNull();
  });

  it('climbs from a text to the clickable row that holds it', () => {
    expect(findActionableAncestor(list, '0.0.3.1')!.path).toBe('0.0.3');
    expect(findActionableAncestor(list, '0.0.3')!.path).toBe('0.0.3');
    expect(findActionableAncestor(login, '0.0')).toBeNull();
  });
});
