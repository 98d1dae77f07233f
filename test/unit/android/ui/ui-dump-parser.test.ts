import { readdirSync } from 'node:fs';
import {
  MAX_DUMP_DEPTH,
  REDACTED_PASSWORD_TEXT,
  UiDumpParseError,
  indexByPath,
  isActionable,
  isOnScreen,
  parseBounds,
  parseUiDump,
  sanitizeUiDumpXml,
} from '../../../../src/android/ui/ui-dump-parser.js';
import { UI_FIXTURES, buildDump, loginScreen, longListScreen, uiFixture } from './ui-dump-builder.js';

const FIXTURES = readdirSync(UI_FIXTURES).filter((name) => name.endsWith('.xml'));

describe('parseUiDump on real captures', () => {
  it.each(FIXTURES)('%s parses to nodes whose paths match their place in the tree', (name) => {
    const snapshot = parseUiDump(uiFixture(name));
    expect(snapshot.nodes.length).toBeGreaterThan(0);
    const index = indexByPath(snapshot);
    expect(index.size).toBe(snapshot.nodes.length);
    for (const node of snapshot.nodes) {
      expect(node.path.split('.')).toHaveLength(node.depth + 1);
      if (node.parentPath !== null) {
        const parent = index.get(node.parentPath)!;
        expect(parent.depth).toBe(node.depth - 1);
        expect(Number(node.path.split('.').pop())).toBeLessThan(parent.childCount);
      }
      expect(node.bounds).not.toBeNull();
    }
    expect(snapshot.screen).not.toBeNull();
    expect(snapshot.foregroundPackage).toMatch(/^[\w.]+$/);
  });

  it('keeps the mojibake and the correct CJK text of the API 17 keyguard exactly as dumped', () => {
    const snapshot = parseUiDump(uiFixture('androidviewclient_api17_keyguard_mojibake.xml'));
    const texts = snapshot.nodes.map((node) => `${node.text}|${node.contentDesc}`);
    expect(texts.some((text) => text.includes('\u00e7\u008a\u00b6\u00e6\u0080\u0081'))).toBe(true);
    expect(texts.some((text) => text.includes('语言'))).toBe(true);
    expect(snapshot.foregroundPackage).toBe('android');
  });

  it('reads Chinese content-desc and NAF nodes of the Huawei launcher', () => {
    const snapshot = parseUiDump(uiFixture('weditor_huawei_launcher_cjk_reformatted.xml'));
    expect(snapshot.nodes.some((node) => /[\u4e00-\u9fff]/.test(node.text + node.contentDesc))).toBe(true);
    expect(snapshot.screen).toEqual({ left: 0, top: 0, right: 720, bottom: 1280 });
  });

  it('decodes entities: a numeric reference to an emoji becomes the emoji', () => {
    const nku = parseUiDump(uiFixture('nku_compose_form_edittext_entities.xml'));
    expect(nku.nodes.some((node) => node.text === '\u{1F50A} Listen')).toBe(true);
    // Decoding is one pass: an escaped reference stays the text the app shows.
    const escaped = parseUiDump(buildDump([{ text: '&#128266; &amp;lt;' }]));
    expect(escaped.nodes[0].text).toBe('&#128266; &amp;lt;');
  });

  it('reads the hint attribute of modern dumps and the focused EditText of the Compose form', () => {
    const nku = parseUiDump(uiFixture('nku_compose_form_edittext_entities.xml'));
    const field = nku.nodes.find((node) => node.className === 'android.widget.EditText')!;
    expect(field.flags).toMatchObject({ focused: true, clickable: true, longClickable: true, enabled: true });
    expect(isActionable(field)).toBe(true);
  });

  it('reads the indented CRLF format of API 17 and the reformatted YouTube dump', () => {
    const old = parseUiDump(uiFixture('xiaocong_launcher_home_api17.xml'));
    expect(old.screen).toEqual({ left: 0, top: 0, right: 480, bottom: 800 });
    const youtube = parseUiDump(uiFixture('ulcica_youtube_reformatted.xml'));
    expect(youtube.nodes).toHaveLength(63);
    expect(youtube.foregroundPackage).toBe('com.google.android.youtube');
  });
});

describe('the node model', () => {
  const snapshot = parseUiDump(loginScreen({ email: 'ada@example.com' }));
  const byId = (id: string) => snapshot.nodes.find((node) => node.resourceId === `com.example.app:id/${id}`)!;

  it('gives every node its tree path, bounds, centre, class, id, text, hint and package', () => {
    expect(byId('email')).toMatchObject({
      path: '0.1',
      parentPath: '0',
      depth: 1,
      className: 'android.widget.EditText',
      text: 'ada@example.com',
      hint: 'Email',
      packageName: 'com.example.app',
      bounds: { left: 100, top: 400, right: 980, bottom: 500 },
      center: { x: 540, y: 450 },
    });
    expect(snapshot.nodes[0].path).toBe('0');
    expect(snapshot.nodes.find((node) => node.resourceId.endsWith('/clock'))!.path).toBe('1.0');
  });

  it('never keeps the text of a password field', () => {
    const password = byId('password');
    expect(password.text).toBe(REDACTED_PASSWORD_TEXT);
    expect(password.flags.password).toBe(true);
    expect(JSON.stringify(snapshot)).not.toContain('hunter2');
  });

  it('leaves an empty password field empty, so "nothing typed yet" stays visible', () => {
    const empty = parseUiDump(buildDump([{ class: 'android.widget.EditText', password: true, text: '' }]));
    expect(empty.nodes[0].text).toBe('');
  });

  it('reads every flag', () => {
    expect(byId('remember').flags).toMatchObject({ checkable: true, checked: false, clickable: true });
    const flags = parseUiDump(
      buildDump([
        {
          clickable: true,
          longClickable: true,
          scrollable: true,
          checkable: true,
          checked: true,
          enabled: false,
          focusable: true,
          focused: true,
          selected: true,
          visible: false,
        },
      ]),
    ).nodes[0].flags;
    expect(flags).toEqual({
      clickable: true,
      longClickable: true,
      scrollable: true,
      checkable: true,
      checked: true,
      enabled: false,
      focusable: true,
      focused: true,
      selected: true,
      password: false,
      visibleToUser: false,
      displayed: null,
    });
  });

  it('names the foreground package from the app, not from the system UI drawn over it', () => {
    expect(snapshot.foregroundPackage).toBe('com.example.app');
    expect(snapshot.screen).toEqual({ left: 0, top: 0, right: 1080, bottom: 2400 });
  });

  it('reads the rotation', () => {
    expect(parseUiDump(buildDump([{}], 1)).rotation).toBe(1);
    expect(parseUiDump('<hierarchy><node bounds="[0,0][1,1]"/></hierarchy>').rotation).toBe(0);
  });

  it('treats a node without an enabled attribute as enabled, and a missing bounds as unknown', () => {
    const node = parseUiDump('<hierarchy rotation="0"><node class="X" /></hierarchy>').nodes[0];
    expect(node.flags.enabled).toBe(true);
    expect(node.bounds).toBeNull();
    expect(node.center).toBeNull();
    expect(isOnScreen(node)).toBe(false);
  });
});

describe('sanitizing and malformed input', () => {
  it('drops the adb chatter around the XML', () => {
    const raw = `WARNING: linker: something\n${buildDump([{ text: 'ok' }])}UI hierchary dumped to: /dev/tty\n`;
    const snapshot = parseUiDump(raw);
    expect(snapshot.nodes[0].text).toBe('ok');
    expect(snapshot.removedCharacters).toBe(0);
  });

  it('removes control characters, lone surrogates and references to forbidden characters', () => {
    const raw = buildDump([{ text: 'a\u0001b' }, { text: 'emoji \ud83d cut' }, { text: 'bell' }]).replace(
      'text="bell"',
      'text="be&#7;ll&#x0;&#x1F600;"',
    );
    const { removed } = sanitizeUiDumpXml(raw);
    expect(removed).toBe(4);
    const snapshot = parseUiDump(raw);
    expect(snapshot.nodes.map((node) => node.text)).toEqual(['ab', 'emoji  cut', 'bell😀']);
    expect(snapshot.removedCharacters).toBe(4);
  });

  it('keeps tabs, newlines and astral characters', () => {
    const snapshot = parseUiDump(buildDump([{ text: 'a\tb 😀 שלום مرحبا' }]));
    expect(snapshot.nodes[0].text).toBe('a\tb 😀 שלום مرحبا');
  });

  it('refuses text with no hierarchy, naming what is missing', () => {
    expect(() => parseUiDump('ERROR: could not get idle state.')).toThrow(UiDumpParseError);
    expect(() => parseUiDump('ERROR: could not get idle state.')).toThrow(/no <hierarchy>/);
  });

  it('refuses a truncated dump as not XML', () => {
    const truncated = buildDump([{ text: 'a', children: [{ text: 'b' }] }]).slice(0, -40);
    expect(() => parseUiDump(truncated)).toThrow(/not XML/);
  });

  it('reads trees nested 500 deep, and refuses one nested past MAX_DUMP_DEPTH', () => {
    const nested = (depth: number) =>
      `<hierarchy rotation="0">${'<node class="V" bounds="[0,0][1,1]">'.repeat(depth)}${'</node>'.repeat(depth)}</hierarchy>`;
    expect(parseUiDump(nested(500)).nodes).toHaveLength(500);
    expect(() => parseUiDump(nested(MAX_DUMP_DEPTH + 1))).toThrow(/not XML: Maximum nested tags/);
  });

  it('parses an empty hierarchy (a secure window) to no nodes', () => {
    const snapshot = parseUiDump(`<?xml version='1.0' ?><hierarchy rotation="0"></hierarchy>`);
    expect(snapshot.nodes).toEqual([]);
    expect(snapshot.screen).toBeNull();
    expect(snapshot.foregroundPackage).toBeNull();
    expect(parseUiDump('<hierarchy/>').nodes).toEqual([]);
    expect(parseUiDump('<hierarchy></hierarchy>').nodes).toEqual([]);
  });

  it('reads bounds, refusing malformed ones', () => {
    expect(parseBounds('[0,63][1080,2337]')).toEqual({ left: 0, top: 63, right: 1080, bottom: 2337 });
    expect(parseBounds('[-10,0][5,5]')).toEqual({ left: -10, top: 0, right: 5, bottom: 5 });
    expect(parseBounds('[0,0][1080]')).toBeNull();
    expect(parseBounds(undefined)).toBeNull();
  });

  it('parses a 2,000-node list with unique, ordered paths', () => {
    const snapshot = parseUiDump(longListScreen(700));
    expect(snapshot.nodes.length).toBeGreaterThanOrEqual(2000);
    expect(snapshot.nodes.map((node) => node.order)).toEqual(snapshot.nodes.map((_, i) => i));
    expect(snapshot.nodes[snapshot.nodes.length - 1].path).toBe('0.0.699.1');
  });
});
