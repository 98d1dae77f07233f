#!/usr/bin/env node
/*
 * Writes scenarios/screens/large-feed.xml: a deterministic 1080×2400 UI Automator dump of a long social
 * feed (a ScrollView holding every card, as a non-recycling list dumps), over 2,000 nodes, for the UI
 * benchmarks (`droidwright sim --scenario large-feed`). Run it again only to change the screen.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PKG = 'com.example.feed';
const CARDS = 170;
let index = 0;
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
function node(attrs, children = []) {
  const a = {
    index: 0,
    text: '',
    'resource-id': '',
    class: 'android.view.View',
    package: PKG,
    'content-desc': '',
    checkable: false,
    checked: false,
    clickable: false,
    enabled: true,
    focusable: false,
    focused: false,
    scrollable: false,
    'long-clickable': false,
    password: false,
    selected: false,
    ...attrs,
  };
  const body = Object.entries(a)
    .map(([k, v]) => `${k}="${esc(String(v))}"`)
    .join(' ');
  index++;
  if (children.length === 0) return `<node ${body} />`;
  return `<node ${body}>${children.map((c, i) => c.replace(/^<node index="\d+"/, `<node index="${i}"`)).join('')}</node>`;
}
const b = (l, t, r, bo) => `[${l},${t}][${r},${bo}]`;
const id = (name) => `${PKG}:id/${name}`;
const words = ['Morning', 'run', 'by', 'the', 'river', 'new', 'recipe', 'garden', 'update', 'trip', 'notes', 'photos'];
const cards = [];
for (let i = 0; i < CARDS; i++) {
  const top = 260 + i * 620;
  const text = (n) => Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
  cards.push(
    node(
      {
        class: 'android.widget.LinearLayout',
        'resource-id': id('card'),
        clickable: true,
        focusable: true,
        bounds: b(24, top, 1056, top + 600),
      },
      [
        node(
          {
            class: 'android.widget.LinearLayout',
            'resource-id': id('header'),
            bounds: b(48, top + 24, 1032, top + 144),
          },
          [
            node({
              class: 'android.widget.ImageView',
              'resource-id': id('avatar'),
              'content-desc': `Avatar of user ${i}`,
              bounds: b(48, top + 24, 168, top + 144),
            }),
            node({ class: 'android.widget.LinearLayout', bounds: b(192, top + 24, 900, top + 144) }, [
              node({
                class: 'android.widget.TextView',
                'resource-id': id('author'),
                text: `User ${i}`,
                bounds: b(192, top + 24, 900, top + 84),
              }),
              node({
                class: 'android.widget.TextView',
                'resource-id': id('time'),
                text: `${(i % 23) + 1}h`,
                bounds: b(192, top + 84, 900, top + 144),
              }),
            ]),
            node({
              class: 'android.widget.ImageButton',
              'resource-id': id('more'),
              'content-desc': 'More options',
              clickable: true,
              focusable: true,
              bounds: b(912, top + 24, 1032, top + 144),
            }),
          ],
        ),
        node({
          class: 'android.widget.TextView',
          'resource-id': id('title'),
          text: text(5),
          bounds: b(48, top + 168, 1032, top + 240),
        }),
        node({
          class: 'android.widget.TextView',
          'resource-id': id('body'),
          text: text(18),
          bounds: b(48, top + 240, 1032, top + 440),
        }),
        node(
          {
            class: 'android.widget.LinearLayout',
            'resource-id': id('actions'),
            bounds: b(48, top + 464, 1032, top + 584),
          },
          [
            node({
              class: 'android.widget.ImageButton',
              'resource-id': id('like'),
              'content-desc': 'Like',
              checkable: true,
              checked: i % 5 === 0,
              clickable: true,
              focusable: true,
              bounds: b(48, top + 464, 288, top + 584),
            }),
            node({
              class: 'android.widget.ImageButton',
              'resource-id': id('comment'),
              'content-desc': 'Comment',
              clickable: true,
              focusable: true,
              bounds: b(296, top + 464, 536, top + 584),
            }),
            node({
              class: 'android.widget.ImageButton',
              'resource-id': id('share'),
              'content-desc': 'Share',
              clickable: true,
              focusable: true,
              bounds: b(544, top + 464, 784, top + 584),
            }),
            node({
              class: 'android.widget.ImageButton',
              'resource-id': id('save'),
              'content-desc': 'Save',
              clickable: true,
              focusable: true,
              bounds: b(792, top + 464, 1032, top + 584),
            }),
          ],
        ),
      ],
    ),
  );
}
const tab = (name, left, selected) =>
  node(
    {
      class: 'android.widget.FrameLayout',
      'content-desc': name,
      clickable: true,
      focusable: true,
      selected,
      bounds: b(left, 2232, left + 270, 2400),
    },
    [node({ class: 'android.widget.TextView', text: name, bounds: b(left + 40, 2300, left + 230, 2360) })],
  );
const root = node({ class: 'android.widget.FrameLayout', bounds: b(0, 0, 1080, 2400) }, [
  node({ class: 'android.widget.LinearLayout', bounds: b(0, 0, 1080, 2400) }, [
    node({ class: 'android.view.ViewGroup', 'resource-id': id('toolbar'), bounds: b(0, 84, 1080, 252) }, [
      node({ class: 'android.widget.TextView', text: 'Feed', bounds: b(48, 120, 600, 216) }),
      node({
        class: 'android.widget.ImageButton',
        'resource-id': id('search'),
        'content-desc': 'Search',
        clickable: true,
        focusable: true,
        bounds: b(840, 108, 960, 228),
      }),
      node({
        class: 'android.widget.ImageButton',
        'resource-id': id('compose'),
        'content-desc': 'New post',
        clickable: true,
        focusable: true,
        bounds: b(960, 108, 1080, 228),
      }),
    ]),
    node(
      {
        class: 'android.widget.ScrollView',
        'resource-id': id('feed'),
        scrollable: true,
        focusable: true,
        bounds: b(0, 252, 1080, 2232),
      },
      [node({ class: 'android.widget.LinearLayout', bounds: b(0, 252, 1080, 260 + CARDS * 620) }, cards)],
    ),
    node({ class: 'android.widget.LinearLayout', 'resource-id': id('tabs'), bounds: b(0, 2232, 1080, 2400) }, [
      tab('Home', 0, true),
      tab('Explore', 270, false),
      tab('Inbox', 540, false),
      tab('Profile', 810, false),
    ]),
  ]),
]);
const xml = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${root}</hierarchy>`;
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'scenarios', 'screens', 'large-feed.xml');
writeFileSync(out, xml);
process.stdout.write(`${out}: ${index} nodes, ${xml.length} bytes\n`);
