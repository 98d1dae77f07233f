/*
 * What a paste puts around a whole log rather than around one line: a prefix on every line (a markdown quote, list or
 * indented code block, a runner's time or tag: `[0] `, `[android] `, `[stderr] `), padding after every line, a blank
 * line after every line (a terminal that double-spaces what it copies). Seen on one line, none of these says anything:
 * Gradle indents its own lines, prints `> ` before its causes, and a line of its may end in a space where a console
 * wrapped it. Seen on every line of the log's first lines, each is the paste's, and is undone on every line after,
 * until a line with text lacks it. The frame is taken off before any other rule runs, since the paste put it on last.
 *
 * Also normalised here, on every line: a CRLF log's returns (`\r\r` when it went through a text-mode write twice), ANSI
 * colours, and the non-breaking spaces a copy from a rendered page puts in indentation.
 */

import { ANSI } from './wrapper-prefixes.js';
import { MARKDOWN_QUOTED } from './foreign-text-patterns.js';

/** The log's first lines with text that decide its frame; fewer when the log is shorter. */
const FRAME_WINDOW = 8;
/** Lines held at most while deciding: a double-spaced window, or blank lines before it. */
const MAX_HELD_LINES = 4 * FRAME_WINDOW;

/** A CI runner's time before every line: GitHub Actions' `2024-05-01T10:00:00.1234567Z `, Gradle's `--debug` ISO time. */
const LINE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?(?: |$)/;
/** A runner's tag before every line: npm `concurrently`'s `[0] ` or `[android] `, a stream's `[stderr] `. */
const LINE_TAG = /^\[([\w-]{1,24})\](?: |$)/;
/**
 * Tags that carry meaning the parser reads per line: log levels (Maven, sbt, `--debug`), a tool's codes (`[CXX1405]`),
 * the tags annotation processors and Gradle put before their own messages (`[ksp] `, `[Hilt]`, `[Incubating]`).
 */
const MEANINGFUL_TAG =
  /^(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL|LIFECYCLE|QUIET|error|warn(?:ing)?|info|debug|trace|[A-Z]+\d+|ksp|kapt|Hilt|Dagger|Incubating)$/;
/** Gradle's own progress lines that start with `> `, one after another in any log. */
const GRADLE_PROGRESS_LINE = /^> (?:Task :|Configure project |Transform |IDLE\b)/;
/** What Gradle puts after a `> ` at a line's start: a progress line, or a failure's cause (a sentence). */
const GRADLE_ARROW_LINE = /^> [A-Z]/;
/**
 * Causes Gradle prints at a line's start one after another: a failure's few top-level causes. More, and the `> ` is
 * a quote's.
 */
const MAX_TOP_LEVEL_CAUSES = 2;

/** One prefix a paste put on every line; a paste may put several (a quote around a runner's times, a tag's column). */
type Layer =
  | { kind: 'time' | 'tag' | 'bullet' }
  /** `spaced`: every quoted line has `> `; a quote typed as a bare `>` keeps the space after it as the line's own. */
  | { kind: 'quote'; spaced: boolean }
  | { kind: 'indent'; indent: string };

/** A quote in a quote in an indented block is as deep as pastes go. */
const MAX_LAYERS = 4;

export class PasteFrameReader {
  private held: string[] | null = [];
  private heldWithText = 0;
  /** The prefixes, outermost first; the ones a line with text lacks are dropped from it inwards. */
  private layers: Layer[] = [];
  /** What the paste put after every line (markdown's two spaces), or ''. */
  private padding = '';
  /** The blank lines the paste put after every line: 1 when double-spaced, 3 when a double-spaced log was again. */
  private spacing = 0;
  /** In a double-spaced log, the blank lines the paste put after the last line still to come. */
  private blanksOwed = 0;

  constructor(private readonly emit: (line: string) => void) {}

  push(rawLine: string): void {
    const line = normalizeLine(rawLine);
    if (this.held === null) {
      this.pass(line);
      return;
    }
    this.held.push(line);
    if (line.trim() !== '') this.heldWithText++;
    // Lines that are only the frame (a quote's `>` on a blank line) count once the frame is known.
    if (
      this.held.length >= MAX_HELD_LINES ||
      (this.heldWithText >= FRAME_WINDOW && textsWithin(this.held, layersOf(this.held)) >= FRAME_WINDOW)
    )
      this.release(false);
  }

  /** The input ended: lines still held while deciding go out. */
  flush(): void {
    if (this.held !== null) this.release(true);
  }

  /** Decides the frame on the lines held (the whole log when it ended first) and lets them through. */
  private release(whole: boolean): void {
    const held = this.held!;
    this.held = null;
    this.layers = layersOf(held);
    const unframed = held.map((l) => this.unframe(l, false));
    const unframedTexts = unframed.filter((l) => l.trim() !== '');
    // Three lines each followed by a blank one are no report's paragraphs; in a log of two lines, a blank line after
    // the last as after the first says the same.
    this.spacing = pasteSpacing(unframed, whole ? 2 : 3);
    // Padding on a log's last line wraps nothing: on every line of a short log, and on all of a longer window, it is
    // the paste's. Only what every line has goes: one space more at a line's end may be where a console or a
    // reporter broke a message.
    if (unframedTexts.length >= 3 || (whole && unframedTexts.length > 0))
      this.padding = commonTrailingSpace(unframedTexts);
    for (const line of held) this.pass(line);
  }

  private pass(rawLine: string): void {
    // Most logs have no frame: nothing to look at.
    if (this.layers.length === 0 && this.spacing === 0 && this.padding === '') {
      this.emit(rawLine);
      return;
    }
    let line = this.layers.length > 0 ? this.unframe(rawLine, true) : rawLine;
    const blank = line.trim() === '';
    if (this.spacing > 0) {
      if (this.blanksOwed > 0) {
        this.blanksOwed--;
        if (blank) return;
        // A line with text where the paste's blank line should be: the log is not double-spaced (any more).
        this.spacing = 0;
        this.blanksOwed = 0;
      } else this.blanksOwed = this.spacing;
    }
    if (this.padding !== '' && !blank && line.endsWith(this.padding)) line = line.slice(0, -this.padding.length);
    this.emit(line);
  }

  /** The line without the frame's layers; a line with text that lacks one ends it and the layers inside it. */
  private unframe(line: string, mayEnd: boolean): string {
    const { rest, matched } = unframed(this.layers, line);
    if (mayEnd && matched < this.layers.length) this.layers.length = matched;
    return rest;
  }
}

/** The line without the layers, and how many of them it had (all when it has no text left before the next). */
function unframed(layers: readonly Layer[], line: string): { rest: string; matched: number } {
  let rest = line;
  for (let k = 0; k < layers.length; k++) {
    if (rest.trim() === '') return { rest, matched: layers.length };
    const inner = withoutLayer(layers[k]!, rest);
    if (inner === null) return { rest, matched: k };
    rest = inner;
  }
  return { rest, matched: layers.length };
}

/** The layers every one of the lines with text carries, outermost first. */
function layersOf(lines: readonly string[]): Layer[] {
  const layers: Layer[] = [];
  let texts = lines.filter((l) => l.trim() !== '');
  for (let k = 0; k < MAX_LAYERS && texts.length > 0; k++) {
    const layer = layerOf(texts);
    if (layer === null) break;
    layers.push(layer);
    texts = texts.map((l) => withoutLayer(layer, l)!).filter((l) => l.trim() !== '');
  }
  return layers;
}

/** How many of the lines have text inside the layers. */
function textsWithin(lines: readonly string[], layers: readonly Layer[]): number {
  let n = 0;
  for (const l of lines) if (unframed(layers, l).rest.trim() !== '') n++;
  return n;
}

/** The prefix every one of the lines starts with, when it is one a paste puts there. */
function layerOf(texts: readonly string[]): Layer | null {
  // A prefix seen on one line only is no more the paste's than the line's (wrapper-prefixes.ts reads those).
  if (texts.length === 1) {
    const indent = commonIndent(texts);
    return indent === '' ? null : { kind: 'indent', indent };
  }
  if (texts.every((l) => LINE_TIME.test(l))) return { kind: 'time' };
  if (texts.every((l) => LINE_TAG.test(l) && !MEANINGFUL_TAG.test(LINE_TAG.exec(l)![1]!))) return { kind: 'tag' };
  if (
    texts.every((l) => l.startsWith('>')) &&
    (texts.some((l) => l.trimEnd() === '>' || MARKDOWN_QUOTED.test(l) || !GRADLE_ARROW_LINE.test(l)) ||
      texts.filter((l) => !GRADLE_PROGRESS_LINE.test(l)).length > MAX_TOP_LEVEL_CAUSES)
  )
    return { kind: 'quote', spaced: texts.every((l) => l.charCodeAt(1) === 32 || l.trimEnd() === '>') };
  // Gradle indents the lists it prints; a `- ` at the start of every line is a markdown list's, one item a line.
  if (texts.every((l) => l.startsWith('- ') || l.trimEnd() === '-')) return { kind: 'bullet' };
  const indent = commonIndent(texts);
  return indent === '' ? null : { kind: 'indent', indent };
}

/** The line without the layer's prefix, or null when it lacks it. */
function withoutLayer(layer: Layer, line: string): string | null {
  switch (layer.kind) {
    case 'time': {
      const m = line.charCodeAt(0) <= 57 ? LINE_TIME.exec(line) : null;
      return m ? line.slice(m[0].length) : null;
    }
    case 'tag': {
      const m = line.charCodeAt(0) === 91 ? LINE_TAG.exec(line) : null;
      return m ? line.slice(m[0].length) : null;
    }
    case 'bullet':
      return line.charCodeAt(0) === 45 ? line.slice(line.charCodeAt(1) === 32 ? 2 : 1) : null;
    case 'quote':
      if (line.charCodeAt(0) !== 62) return null;
      return layer.spaced && line.charCodeAt(1) === 32 ? line.slice(2) : line.slice(1);
    case 'indent':
      return line.startsWith(layer.indent) ? line.slice(layer.indent.length) : null;
  }
}

/** A task, project or configuration name in typographic quotes: `task ‘:app:lintVitalRelease’`. */
const SMART_QUOTED_GRADLE_NAME = /\b(task|project|configuration) \u2018([^\u2018\u2019\s]+)\u2019/g;

/** A line's trailing returns, colours, non-breaking spaces and smart quotes, each behind a cheap check. */
function normalizeLine(rawLine: string): string {
  let line = rawLine;
  while (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
  if (line.includes('\u001b')) line = line.replace(ANSI, '');
  if (line.includes('\u00a0')) line = line.replaceAll('\u00a0', ' ');
  // Gradle quotes a task, project or configuration with ASCII quotes: typographic ones around it are an editor's
  // (smart quotes), and the rules that read the name expect Gradle's.
  if (line.includes('\u2018')) line = line.replace(SMART_QUOTED_GRADLE_NAME, "$1 '$2'");
  return line;
}

/**
 * The blank lines a paste put after every line: 1 when every line with text is followed by a blank one (over at least
 * `minPairs` lines with text), 3 when each is followed by 3 (a double-spaced paste of a log double-spaced already, whose
 * own blank lines became runs of 7), else 0.
 */
function pasteSpacing(lines: readonly string[], minPairs: number): number {
  if (!isDoubleSpaced(lines, minPairs)) return 0;
  let run = -1;
  for (const line of lines) {
    if (line.trim() !== '') {
      if (run >= 0 && run % 4 !== 3) return 1;
      run = 0;
    } else if (run >= 0) run++;
  }
  return 3;
}

/** Every line with text followed by a blank one, over at least `minPairs` lines with text. */
function isDoubleSpaced(lines: readonly string[], minPairs: number): boolean {
  let start = 0;
  while (start < lines.length && lines[start]!.trim() === '') start++;
  let pairs = 0;
  for (let k = start; k + 1 < lines.length; k += 2) {
    if (lines[k + 1]!.trim() !== '') return false;
    if (lines[k]!.trim() !== '') pairs++;
  }
  return pairs >= minPairs;
}

/** The blanks every line ends with. */
function commonTrailingSpace(texts: readonly string[]): string {
  const first = texts[0]!;
  let padding = first.slice(first.trimEnd().length);
  for (const t of texts) {
    let k = 0;
    while (k < padding.length && t.charCodeAt(t.length - 1 - k) === padding.charCodeAt(padding.length - 1 - k)) k++;
    padding = padding.slice(padding.length - k);
    if (padding === '') break;
  }
  return padding;
}

/** The indentation every line starts with, spaces and tabs alike (a paste's, or an editor's tabs for it). */
function commonIndent(texts: readonly string[]): string {
  let indent = texts[0]!.slice(0, texts[0]!.length - texts[0]!.trimStart().length);
  for (const t of texts) {
    let k = 0;
    while (k < indent.length && t.charCodeAt(k) === indent.charCodeAt(k)) k++;
    indent = indent.slice(0, k);
    if (indent === '') break;
  }
  return indent;
}
