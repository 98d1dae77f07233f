/** One run of text on a dashboard line, with its style; a line is a list of them, cut to the terminal's width. */
export interface Segment {
  readonly text: string;
  readonly color?: string;
  /** Background color (pidcat's level badges); dropped with the other colors under NO_COLOR. */
  readonly background?: string;
  readonly bold?: boolean;
  readonly inverse?: boolean;
  readonly dim?: boolean;
}

export type Line = readonly Segment[];

/**
 * Whether to color: FORCE_COLOR (anything but 0/false) forces it, NO_COLOR (any non-empty value, no-color.org)
 * turns it off, FORCE_COLOR=0 too; otherwise on (the dashboard only runs on a terminal).
 */
export function colorsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return true;
}

/** Cuts a line to `width` columns (an ellipsis marks the cut); control characters from the log become spaces. */
export function fitLine(line: Line, width: number): Line {
  const out: Segment[] = [];
  let left = Math.max(0, width);
  for (const segment of line) {
    if (left <= 0) break;
    const text = clean(segment.text);
    if (text.length <= left) {
      out.push(text === segment.text ? segment : { ...segment, text });
      left -= text.length;
    } else {
      out.push({ ...segment, text: left > 1 ? `${text.slice(0, left - 1)}…` : text.slice(0, left) });
      left = 0;
    }
  }
  return out;
}

export function lineText(line: Line): string {
  return line.map((s) => s.text).join('');
}

/** Terminal control characters in recorded strings (client names, summaries, log lines) must not reach the screen. */
export function clean(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

export function pad(text: string, width: number): string {
  const t = clean(text);
  return t.length > width ? `${t.slice(0, Math.max(0, width - 1))}…` : t.padEnd(width);
}

export function padStart(text: string, width: number): string {
  return text.length > width ? text.slice(0, width) : text.padStart(width);
}

export function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export function duration(ms: number | null): string {
  if (ms === null) return '';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
}

export function ago(now: number, at: number | null): string {
  if (at === null) return '';
  return `${duration(Math.max(0, now - at))} ago`;
}

/** Word-wraps plain text to `width` columns (words longer than a line are cut). */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(10, width);
  const lines: string[] = [];
  let current = '';
  for (const word of clean(text).split(' ')) {
    for (let piece = word; piece.length > 0; piece = piece.slice(w)) {
      const chunk = piece.slice(0, w);
      if (current && current.length + 1 + chunk.length > w) {
        lines.push(current);
        current = chunk;
      } else current = current ? `${current} ${chunk}` : chunk;
    }
  }
  if (current) lines.push(current);
  return lines;
}
