// Renders a real screenshot of `droidwright tui` for the README: runs `droidwright demo` (simulated device, a
// scripted agent over MCP) in a private tmux server, opens the dashboard on the demo's project beside it,
// captures the pane with its colors (capture-pane -e), turns the ANSI text into an SVG and that into a PNG
// with sharp. Nothing is drawn by hand. Run after `npm run build`: node scripts/tui-screenshot.mjs [out.png]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const out = process.argv[2] ?? fileURLToPath(new URL('../docs/images/tui-dashboard.png', import.meta.url));
const COLUMNS = 110;
const ROWS = 30;
const socket = `dw-screenshot-${process.pid}`;
const tmux = (...args) => execFileSync('/usr/bin/tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(target, test, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', target);
    const found = test(text);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting on ${target}:\n${text}`);
    await sleep(250);
  }
}

// ---------------------------------------------------------------- ANSI (SGR only, as tmux prints) to SVG
const PALETTE = ['#1d1f21', '#cc6666', '#b5bd68', '#f0c674', '#81a2be', '#b294bb', '#8abeb7', '#c5c8c6'];
const BRIGHT = ['#666666', '#ff7b7b', '#d3e08a', '#ffe08a', '#a3c4e8', '#d6b5e0', '#a8e0d8', '#ffffff'];
const FG = '#c5c8c6';
const ESC = String.fromCharCode(27);
const SGR_SPLIT = new RegExp(`(${ESC}\\[[0-9;]*m)`);
const SGR_TOKEN = new RegExp(`^${ESC}\\[([0-9;]*)m$`);
const BG = '#1d1f21';

function color256(n) {
  if (n < 8) return PALETTE[n];
  if (n < 16) return BRIGHT[n - 8];
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v},${v},${v})`;
  }
  const i = n - 16;
  const level = (x) => (x === 0 ? 0 : 55 + x * 40);
  return `rgb(${level(Math.floor(i / 36))},${level(Math.floor(i / 6) % 6)},${level(i % 6)})`;
}

function applySgr(style, params) {
  const codes = params === '' ? [0] : params.split(';').map(Number);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c === 0) Object.assign(style, { fg: null, bg: null, bold: false, dim: false, inverse: false });
    else if (c === 1) style.bold = true;
    else if (c === 2) style.dim = true;
    else if (c === 7) style.inverse = true;
    else if (c === 22) Object.assign(style, { bold: false, dim: false });
    else if (c === 27) style.inverse = false;
    else if (c >= 30 && c <= 37) style.fg = PALETTE[c - 30];
    else if (c >= 90 && c <= 97) style.fg = BRIGHT[c - 90];
    else if (c === 39) style.fg = null;
    else if (c >= 40 && c <= 47) style.bg = PALETTE[c - 40];
    else if (c >= 100 && c <= 107) style.bg = BRIGHT[c - 100];
    else if (c === 49) style.bg = null;
    else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
      style[c === 38 ? 'fg' : 'bg'] = color256(codes[i + 2]);
      i += 2;
    } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
      style[c === 38 ? 'fg' : 'bg'] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
      i += 4;
    }
  }
}

function escapeXml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function ansiToSvg(ansi, columns, rows) {
  const cellW = 9;
  const cellH = 19;
  const pad = 12;
  const parts = [];
  const lines = ansi.split('\n').slice(0, rows);
  const style = { fg: null, bg: null, bold: false, dim: false, inverse: false };
  lines.forEach((line, row) => {
    let col = 0;
    const y = pad + row * cellH;
    for (const token of line.split(SGR_SPLIT)) {
      const sgr = SGR_TOKEN.exec(token);
      if (sgr) {
        applySgr(style, sgr[1]);
        continue;
      }
      if (!token) continue;
      const chars = [...token];
      let fg = style.fg ?? FG;
      let bg = style.bg;
      if (style.inverse) [fg, bg] = [bg ?? BG, fg];
      const x = pad + col * cellW;
      if (bg) parts.push(`<rect x="${x}" y="${y}" width="${chars.length * cellW}" height="${cellH}" fill="${bg}"/>`);
      parts.push(
        `<text x="${x}" y="${y + 14}" fill="${fg}"${style.bold ? ' font-weight="bold"' : ''}${style.dim ? ' fill-opacity="0.6"' : ''} textLength="${chars.length * cellW}" lengthAdjust="spacingAndGlyphs">${escapeXml(token)}</text>`,
      );
      col += chars.length;
    }
  });
  const width = pad * 2 + columns * cellW;
  const height = pad * 2 + rows * cellH;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans Mono, monospace" font-size="15" xml:space="preserve"><rect width="100%" height="100%" fill="${BG}"/>${parts.join('')}</svg>`;
}

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'droidwright-screenshot-'));
  const env = `DROIDWRIGHT_HOME=${home} TERM=xterm-256color`;
  try {
    tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'demo',
      '-x',
      '200',
      '-y',
      '50',
      `exec env ${env} ${process.execPath} ${CLI} demo`,
    );
    const project = await until('demo', (t) => /• demo project (\S+)/.exec(t)?.[1], 120_000);
    tmux(
      'new-session',
      '-d',
      '-s',
      'tui',
      '-x',
      String(COLUMNS),
      '-y',
      String(ROWS),
      `exec env ${env} ${process.execPath} ${CLI} tui --project ${project}`,
    );
    // The newest frame in which the demo's agent is still connected: the dashboard mid-session.
    let ansi = '';
    const deadline = Date.now() + 300_000;
    while (!/stays up|Ctrl-C/.test(tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'demo'))) {
      if (Date.now() > deadline) throw new Error('the demo did not finish within 5 minutes');
      const frame = tmux('capture-pane', '-p', '-e', '-t', 'tui');
      // Once a refusal is on screen, keep to frames that show it: that is what the dashboard is for.
      if (frame.includes('MCP 1:') && (frame.includes('REFUSED') || !ansi.includes('REFUSED'))) ansi = frame;
      await sleep(150);
    }
    if (!ansi) ansi = tmux('capture-pane', '-p', '-e', '-t', 'tui');
    await sharp(Buffer.from(ansiToSvg(ansi, COLUMNS, ROWS)))
      .png()
      .toFile(out);
    process.stdout.write(`wrote ${out}\n`);
    tmux('send-keys', '-t', 'tui', 'q');
    tmux('send-keys', '-t', 'demo', 'C-c');
    await sleep(3000);
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // Gone already.
    }
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
