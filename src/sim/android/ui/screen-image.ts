import sharp from 'sharp';
import type { Display } from './screen-renderer.js';
import { LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE } from './screen-renderer.js';
import type { ViewNode } from './view-node.js';

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function nodeSvg(node: ViewNode, out: string[]): void {
  const [l, t, r, b] = node.bounds;
  const w = r - l;
  const h = b - t;
  const font = Math.max(14, Math.min(56, Math.round(h * 0.42)));
  const textY = t + h / 2 + font * 0.35;
  const cls = node.className;
  const dark = node.packageName === LAUNCHER_PACKAGE || node.packageName === SYSTEMUI_PACKAGE;
  const ink = dark ? '#ffffff' : '#1c1b1f';
  if (/Button/.test(cls) && !node.checkable) {
    out.push(
      `<rect x="${l}" y="${t}" width="${w}" height="${h}" rx="${Math.round(h / 2)}" fill="${node.enabled ? '#6750a4' : '#c9c5d0'}"/>`,
    );
    if (node.text)
      out.push(
        `<text x="${l + w / 2}" y="${textY}" font-family="sans-serif" font-size="${font}" fill="#ffffff" text-anchor="middle">${esc(node.text)}</text>`,
      );
  } else if (node.editable) {
    out.push(`<rect x="${l}" y="${t}" width="${w}" height="${h}" fill="#f3edf7"/>`);
    out.push(
      `<rect x="${l}" y="${b - (node.focused ? 6 : 3)}" width="${w}" height="${node.focused ? 6 : 3}" fill="${node.focused ? '#6750a4' : '#49454f'}"/>`,
    );
    const shown = node.text || node.hint;
    if (shown)
      out.push(
        `<text x="${l + 32}" y="${textY}" font-family="sans-serif" font-size="${font}" fill="${node.text ? '#1c1b1f' : '#79747e'}">${esc(shown)}</text>`,
      );
  } else if (node.checkable) {
    const tw = Math.min(w, Math.round(h * 1.6));
    const tx = r - tw - 16;
    out.push(
      `<rect x="${tx}" y="${t + h * 0.25}" width="${tw}" height="${h * 0.5}" rx="${h * 0.25}" fill="${node.checked ? '#6750a4' : '#e7e0ec'}"/>`,
    );
    out.push(
      `<circle cx="${node.checked ? tx + tw - h * 0.25 : tx + h * 0.25}" cy="${t + h / 2}" r="${h * 0.2}" fill="#ffffff"/>`,
    );
    if (node.text)
      out.push(
        `<text x="${l + 32}" y="${textY}" font-family="sans-serif" font-size="${font}" fill="${ink}">${esc(node.text)}</text>`,
      );
  } else if (/ImageView|ImageButton/.test(cls)) {
    out.push(`<rect x="${l}" y="${t}" width="${w}" height="${h}" rx="12" fill="${dark ? '#ffffff33' : '#e8def8'}"/>`);
  } else if (node.launches) {
    const s = Math.min(w, h) * 0.5;
    out.push(`<circle cx="${l + w / 2}" cy="${t + s * 0.6}" r="${s / 2}" fill="#d0bcff"/>`);
    out.push(
      `<text x="${l + w / 2}" y="${b - 12}" font-family="sans-serif" font-size="${Math.min(36, font)}" fill="#ffffff" text-anchor="middle">${esc(node.text)}</text>`,
    );
  } else {
    if (node.clickable && node.children.length > 0)
      out.push(`<rect x="${l}" y="${b - 2}" width="${w}" height="2" fill="#e6e0e9"/>`);
    if (node.text)
      out.push(
        `<text x="${l}" y="${textY}" font-family="sans-serif" font-size="${font}" fill="${ink}">${esc(node.text)}</text>`,
      );
  }
  for (const child of node.children) nodeSvg(child, out);
}

/** Draws the window the way the display would show it: status bar, then the view tree; black when off. */
export function screenSvg(root: ViewNode | null, display: Display, clockText: string): string {
  const { width, height } = display;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`];
  if (!root) {
    parts.push(`<rect width="${width}" height="${height}" fill="#000000"/>`, '</svg>');
    return parts.join('');
  }
  const dark = root.packageName === LAUNCHER_PACKAGE || root.packageName === SYSTEMUI_PACKAGE;
  parts.push(`<rect width="${width}" height="${height}" fill="${dark ? '#1d1b20' : '#fffbfe'}"/>`);
  nodeSvg(root, parts);
  const bar = Math.round(height * 0.03);
  parts.push(
    `<rect width="${width}" height="${bar}" fill="${dark ? '#1d1b20' : '#f7f2fa'}"/>`,
    `<text x="${Math.round(width * 0.05)}" y="${Math.round(bar * 0.72)}" font-family="sans-serif" font-size="${Math.round(bar * 0.6)}" fill="${dark ? '#ffffff' : '#1c1b1f'}">${esc(clockText)}</text>`,
    '</svg>',
  );
  return parts.join('');
}

export async function renderPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}

/** `screencap` without -p: width, height, format (1 = RGBA_8888), dataspace, then raw pixels. */
export async function renderRaw(svg: string, display: Display): Promise<Buffer> {
  const pixels = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
  const header = Buffer.alloc(16);
  header.writeUInt32LE(display.width, 0);
  header.writeUInt32LE(display.height, 4);
  header.writeUInt32LE(1, 8);
  header.writeUInt32LE(0, 12);
  return Buffer.concat([header, pixels]);
}
