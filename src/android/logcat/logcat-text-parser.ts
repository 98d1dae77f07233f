import type { LogcatEntry, LogLevel } from './logcat-entry.js';

/**
 * The text shapes a log reaches us in: `adb logcat -v threadtime` (also with `year`, `uid`, `epoch`, `monotonic`,
 * `usec`/`nsec` and `zone` modifiers), `brief`, `time`, `long`, Android Studio's Logcat copy format (Electric Eel and
 * later) and the legacy Studio format (`2019-10-12 03:23:19.356 21356-21356/pkg E/Tag: message`).
 */
export type LogcatTextFormat = 'threadtime' | 'brief' | 'time' | 'long' | 'studio' | 'studio-legacy';

export const LOGCAT_TEXT_FORMATS: readonly LogcatTextFormat[] = [
  'threadtime',
  'studio',
  'studio-legacy',
  'time',
  'brief',
  'long',
];

export interface LogcatTextParserOptions {
  /** `auto` (the default) picks the format from the first line that any format reads. */
  readonly format?: LogcatTextFormat | 'auto';
  /** Year for formats that print none (`MM-DD …`); defaults to the current UTC year. */
  readonly year?: number;
}

export interface LogcatTextParserStats {
  readonly lines: number;
  readonly entries: number;
  /** Lines no format read (garbage, truncated writes, a different tool's output); never silently turned into entries. */
  readonly unparsed: number;
  readonly markers: number;
}

const LEVEL = '([VDIWEFA])';
/** `MM-DD` or `YYYY-MM-DD`, then `HH:MM:SS.fraction` (3, 6 or 9 digits), then an optional zone (`+0000`, `UTC`). */
const WALL_TIME = '((?:\\d{4}-)?\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3,9})(?: (?:[+-]\\d{4}|[A-Za-z]{3,5}))?';
/** `-v epoch` (seconds since 1970) or `-v monotonic` (seconds since boot), right-aligned. */
const SECONDS_TIME = '\\s*(\\d+\\.\\d{3,9})(?: (?:[+-]\\d{4}|[A-Za-z]{3,5}))?';
const ANY_TIME = `(?:${WALL_TIME}|${SECONDS_TIME})`;

// The tag ends at the first colon followed by a space or the end of the line: tags may hold colons (`vendor:hal`),
// and an empty message is printed without the trailing space.
const THREADTIME = new RegExp(`^${ANY_TIME}\\s+(?:(\\S+)\\s+)?(\\d+)\\s+(\\d+) ${LEVEL} (.*?)\\s*:(?: (.*))?$`);
const TIME = new RegExp(`^${ANY_TIME}\\s+${LEVEL}/(.*?)\\s*\\(\\s*(?:(\\S+?):\\s*)?(\\d+)\\):(?: (.*))?$`);
const BRIEF = new RegExp(`^${LEVEL}/(.*?)\\s*\\(\\s*(?:(\\S+?):\\s*)?(\\d+)\\):(?: (.*))?$`);
const LONG_HEADER = new RegExp(`^\\[ ${ANY_TIME}\\s+(?:(\\S+):\\s*)?(\\d+):\\s*(\\d+) ${LEVEL}/(.*?)\\s*\\]$`);
const STUDIO = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(\d+)-(\d+)\s+(\S.*?)\s+(\S+)\s+([VDIWEFA]) {2}(.*)$/;
// Studio 1.x printed no year and a fullwidth colon (U+FE55) after the tag.
const STUDIO_LEGACY =
  /^((?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(\d+)-(\d+)\/(\S+) ([VDIWEFA])\/(.*?)(?::|\uFE55)(?: (.*))?$/;
/** `--------- beginning of crash`, `--------- switch to main`, `--------- tail end of log main (…)`. */
const MARKER = /^-{9} (?:beginning of|switch to|tail end of log) (\S+)/;
/** Studio indents the continuation lines of a multi-line message (usually under the message column). */
const STUDIO_CONTINUATION = /^\s+(\S.*)$/;

/** Reads a printed timestamp as milliseconds (see {@link LogcatEntry.timeMs}). */
export function timestampToMs(time: string, year: number): number | null {
  const wall = /^(?:(\d{4})-)?(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d+)$/.exec(time);
  if (wall) {
    const ms = Number(wall[7]!.slice(0, 3).padEnd(3, '0'));
    const y = wall[1] === undefined ? year : Number(wall[1]);
    return Date.UTC(y, Number(wall[2]) - 1, Number(wall[3]), Number(wall[4]), Number(wall[5]), Number(wall[6]), ms);
  }
  const seconds = /^(\d+)\.(\d+)$/.exec(time);
  // Below 2001-09-09 a seconds count is `-v monotonic` (time since boot), not a date.
  if (seconds && seconds[1]!.length >= 10) {
    return Number(seconds[1]) * 1000 + Number(seconds[2]!.slice(0, 3).padEnd(3, '0'));
  }
  return null;
}

function entry(
  time: string,
  year: number,
  pid: string,
  tid: string | undefined,
  uid: string | undefined,
  level: string,
  tag: string,
  message: string | undefined,
  buffer: string | undefined,
  pkg?: string,
): LogcatEntry {
  const e: {
    time: string;
    timeMs: number | null;
    pid: number;
    tid: number | null;
    level: LogLevel;
    tag: string;
    message: string;
    uid?: string;
    buffer?: string;
    package?: string;
  } = {
    time,
    timeMs: timestampToMs(time, year),
    pid: Number(pid),
    tid: tid === undefined ? null : Number(tid),
    level: level as LogLevel,
    tag,
    message: message ?? '',
  };
  if (uid !== undefined) e.uid = uid;
  if (buffer !== undefined) e.buffer = buffer;
  if (pkg !== undefined) e.package = pkg;
  return e;
}

const LEVEL_CODES = new Set([86, 68, 73, 87, 69, 70, 65]); // V D I W E F A
let cachedDayKey = -1;
let cachedDayMs = 0;

function digits(line: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = line.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * The common `-v threadtime` shape (`MM-DD HH:MM:SS.mmm  pid  tid L tag: message`) read without a regular
 * expression: the streaming worker reads 100,000 lines a second. Anything else returns null and goes to the regex.
 */
function fastThreadtime(line: string, year: number, buffer: string | undefined): LogcatEntry | null {
  if (line.length < 24 || line.charCodeAt(2) !== 45 || line.charCodeAt(5) !== 32 || line.charCodeAt(14) !== 46) {
    return null;
  }
  const month = digits(line, 0, 2);
  const day = digits(line, 3, 2);
  const hour = digits(line, 6, 2);
  const minute = digits(line, 9, 2);
  const second = digits(line, 12, 2);
  const millis = digits(line, 15, 3);
  if (month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || millis < 0 || line.charCodeAt(18) !== 32) {
    return null;
  }
  let i = 18;
  while (line.charCodeAt(i) === 32) i++;
  let pid = 0;
  const pidStart = i;
  for (let c = line.charCodeAt(i); c >= 48 && c <= 57; c = line.charCodeAt(++i)) pid = pid * 10 + c - 48;
  if (i === pidStart || line.charCodeAt(i) !== 32) return null;
  while (line.charCodeAt(i) === 32) i++;
  let tid = 0;
  const tidStart = i;
  for (let c = line.charCodeAt(i); c >= 48 && c <= 57; c = line.charCodeAt(++i)) tid = tid * 10 + c - 48;
  if (i === tidStart || line.charCodeAt(i) !== 32) return null;
  const level = line.charCodeAt(i + 1);
  if (!LEVEL_CODES.has(level) || line.charCodeAt(i + 2) !== 32) return null;
  const tagStart = i + 3;
  let colon = line.indexOf(': ', tagStart);
  let message: string;
  if (colon === -1) {
    if (line.charCodeAt(line.length - 1) !== 58) return null;
    colon = line.length - 1;
    message = '';
  } else {
    message = line.slice(colon + 2);
  }
  let tagEnd = colon;
  while (tagEnd > tagStart && line.charCodeAt(tagEnd - 1) === 32) tagEnd--;
  const dayKey = year * 10000 + month * 100 + day;
  if (dayKey !== cachedDayKey) {
    cachedDayKey = dayKey;
    cachedDayMs = Date.UTC(year, month - 1, day);
  }
  const e: { -readonly [K in keyof LogcatEntry]: LogcatEntry[K] } = {
    time: line.slice(0, 18),
    timeMs: cachedDayMs + ((hour * 60 + minute) * 60 + second) * 1000 + millis,
    pid,
    tid,
    level: String.fromCharCode(level) as LogLevel,
    tag: line.slice(tagStart, tagEnd),
    message,
  };
  if (buffer !== undefined) e.buffer = buffer;
  return e;
}

/**
 * Reads one line of a single-line format (every format but `long`, whose records span lines: use
 * {@link LogcatTextParser}). Returns null for a line the format does not read.
 */
export function parseLogcatLine(
  line: string,
  format: Exclude<LogcatTextFormat, 'long'>,
  options: { readonly year?: number; readonly buffer?: string } = {},
): LogcatEntry | null {
  const year = options.year ?? new Date().getUTCFullYear();
  const buffer = options.buffer;
  let m: RegExpExecArray | null;
  switch (format) {
    case 'threadtime':
      if (line.charCodeAt(18) === 32) {
        const fast = fastThreadtime(line, year, buffer);
        if (fast) return fast;
      }
      m = THREADTIME.exec(line);
      return m ? entry(m[1] ?? m[2]!, year, m[4]!, m[5], m[3], m[6]!, m[7]!, m[8], buffer) : null;
    case 'time':
      m = TIME.exec(line);
      return m ? entry(m[1] ?? m[2]!, year, m[6]!, undefined, m[5], m[3]!, m[4]!, m[7], buffer) : null;
    case 'brief':
      m = BRIEF.exec(line);
      return m ? entry('', year, m[4]!, undefined, m[3], m[1]!, m[2]!, m[5], buffer) : null;
    case 'studio':
      m = STUDIO.exec(line);
      return m ? entry(m[1]!, year, m[2]!, m[3], undefined, m[6]!, m[4]!, m[7], buffer, m[5]) : null;
    case 'studio-legacy':
      m = STUDIO_LEGACY.exec(line);
      // `?` is what Studio shows when it could not name the process.
      return m
        ? entry(m[1]!, year, m[2]!, m[3], undefined, m[5]!, m[6]!, m[7], buffer, m[4] === '?' ? undefined : m[4])
        : null;
  }
}

/** The buffer a `--------- beginning of <buffer>` style marker names, or null when the line is no marker. */
export function parseBufferMarker(line: string): string | null {
  return MARKER.exec(line)?.[1] ?? null;
}

function lineMatches(line: string, format: LogcatTextFormat): boolean {
  if (format === 'long') return LONG_HEADER.test(line);
  return parseLogcatLine(line, format, { year: 2000 }) !== null;
}

/**
 * Picks the format that reads the most of the first `sampleLines` non-blank, non-marker lines; ties go to the
 * format listed first in {@link LOGCAT_TEXT_FORMATS}. Null when no format reads any line.
 */
export function detectLogcatFormat(text: string | readonly string[], sampleLines = 200): LogcatTextFormat | null {
  const lines = typeof text === 'string' ? text.split(/\r?\n/) : text;
  const counts = new Map<LogcatTextFormat, number>();
  let sampled = 0;
  for (const raw of lines) {
    if (sampled >= sampleLines) break;
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || MARKER.test(line)) continue;
    sampled++;
    for (const format of LOGCAT_TEXT_FORMATS) {
      if (lineMatches(line, format)) counts.set(format, (counts.get(format) ?? 0) + 1);
    }
  }
  let best: LogcatTextFormat | null = null;
  let bestCount = 0;
  for (const format of LOGCAT_TEXT_FORMATS) {
    const n = counts.get(format) ?? 0;
    if (n > bestCount) {
      best = format;
      bestCount = n;
    }
  }
  return best;
}

/**
 * Streaming text reader: feed chunks (split anywhere, `\n` or `\r\n`) or whole lines; it tracks the buffer named by
 * the last marker, joins `long` records and Studio continuation lines, and counts what it could not read.
 */
export class LogcatTextParser {
  private format: LogcatTextFormat | null;
  private readonly year: number;
  private buffer: string | undefined;
  private partial = '';
  private lines = 0;
  private entries = 0;
  private unparsed = 0;
  private markers = 0;
  /** `long`: the header of the record being read and its message lines. */
  private longHeader: RegExpExecArray | null = null;
  private longLines: string[] = [];
  /** Studio formats: the last entry, whose header continuation lines reuse. */
  private lastStudio: LogcatEntry | null = null;

  constructor(options: LogcatTextParserOptions = {}) {
    this.format = options.format === undefined || options.format === 'auto' ? null : options.format;
    this.year = options.year ?? new Date().getUTCFullYear();
  }

  /** The format in use: the one given, or the detected one (null until a line was read under `auto`). */
  get detectedFormat(): LogcatTextFormat | null {
    return this.format;
  }

  get stats(): LogcatTextParserStats {
    return { lines: this.lines, entries: this.entries, unparsed: this.unparsed, markers: this.markers };
  }

  /** Feeds raw text; a line cut at the end of a chunk waits for the next chunk (or {@link end}). */
  push(chunk: string): LogcatEntry[] {
    const out: LogcatEntry[] = [];
    const text = this.partial + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.readLine(text.slice(start, end), out);
      start = nl + 1;
    }
    this.partial = text.slice(start);
    return out;
  }

  /** Feeds one complete line (without its line break). */
  pushLine(line: string): LogcatEntry[] {
    const out: LogcatEntry[] = [];
    this.readLine(line.endsWith('\r') ? line.slice(0, -1) : line, out);
    return out;
  }

  /** Flushes the last unterminated line and any open `long` record. */
  end(): LogcatEntry[] {
    const out: LogcatEntry[] = [];
    if (this.partial !== '') {
      const line = this.partial.endsWith('\r') ? this.partial.slice(0, -1) : this.partial;
      this.partial = '';
      this.readLine(line, out);
    }
    this.flushLong(out);
    return out;
  }

  private readLine(line: string, out: LogcatEntry[]): void {
    this.lines++;
    const marker = MARKER.exec(line);
    if (marker) {
      this.flushLong(out);
      this.markers++;
      this.buffer = marker[1];
      return;
    }
    if (this.format === null) {
      if (line.trim() === '') return;
      this.format = LOGCAT_TEXT_FORMATS.find((f) => lineMatches(line, f)) ?? null;
      if (this.format === null) {
        this.unparsed++;
        return;
      }
    }
    if (this.format === 'long') {
      this.readLongLine(line, out);
      return;
    }
    const parsed = parseLogcatLine(line, this.format, { year: this.year, buffer: this.buffer });
    if (parsed) {
      if (this.format === 'studio' || this.format === 'studio-legacy') this.lastStudio = parsed;
      this.emit(parsed, out);
      return;
    }
    if ((this.format === 'studio' || this.format === 'studio-legacy') && this.lastStudio) {
      const continuation = STUDIO_CONTINUATION.exec(line);
      if (continuation) {
        this.emit({ ...this.lastStudio, message: continuation[1]! }, out);
        return;
      }
    }
    if (line.trim() !== '') this.unparsed++;
  }

  private readLongLine(line: string, out: LogcatEntry[]): void {
    const header = LONG_HEADER.exec(line);
    if (header) {
      this.flushLong(out);
      this.longHeader = header;
      return;
    }
    if (this.longHeader) this.longLines.push(line);
    else if (line.trim() !== '') this.unparsed++;
  }

  private flushLong(out: LogcatEntry[]): void {
    const h = this.longHeader;
    if (!h) return;
    // Each record is followed by one blank separator line.
    while (this.longLines.length > 0 && this.longLines[this.longLines.length - 1] === '') this.longLines.pop();
    this.emit(
      entry(h[1] ?? h[2]!, this.year, h[4]!, h[5], h[3], h[6]!, h[7]!, this.longLines.join('\n'), this.buffer),
      out,
    );
    this.longHeader = null;
    this.longLines = [];
  }

  private emit(e: LogcatEntry, out: LogcatEntry[]): void {
    this.entries++;
    out.push(e);
  }
}

/** Parses a whole capture (a file or a paste), detecting its format unless one is given. */
export function parseLogcatText(
  text: string,
  options: LogcatTextParserOptions = {},
): {
  readonly format: LogcatTextFormat | null;
  readonly entries: LogcatEntry[];
  readonly stats: LogcatTextParserStats;
} {
  const format = options.format === undefined || options.format === 'auto' ? detectLogcatFormat(text) : options.format;
  if (format === null) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    return {
      format: null,
      entries: [],
      stats: { lines: lines.length, entries: 0, unparsed: lines.filter((l) => !MARKER.test(l)).length, markers: 0 },
    };
  }
  const parser = new LogcatTextParser({ ...options, format });
  const entries = parser.push(text);
  entries.push(...parser.end());
  return { format, entries, stats: parser.stats };
}

/**
 * Prints an entry as `logcat -v threadtime` does (`MM-DD HH:MM:SS.mmm  pid  tid L tag     : message`), one line
 * per message line, from `timeMs` read as UTC. Entries without a calendar time print `00-00 00:00:00.000`.
 */
export function formatThreadtime(entry: LogcatEntry): string {
  let time = '00-00 00:00:00.000';
  if (entry.timeMs !== null) {
    const iso = new Date(entry.timeMs).toISOString();
    time = `${iso.slice(5, 10)} ${iso.slice(11, 23)}`;
  }
  const head = `${time} ${String(entry.pid).padStart(5)} ${String(entry.tid ?? entry.pid).padStart(5)} ${entry.level} ${entry.tag.padEnd(8)}:`;
  return entry.message
    .split('\n')
    .map((line) => (line === '' ? head : `${head} ${line}`))
    .join('\n');
}
