/*
 * What CI runners, wrappers and markdown pastes put around each line of Gradle's output (timestamps, `[stderr] `,
 * Flutter's verbose column, ANSI colours, code fences, emphasis, quotes), removed before any tool's pattern runs.
 */

import { MAX_LINE_CHARS } from './build-diagnostic.js';

/* Wrappers that prefix every line: ISO timestamps (GitHub Actions raw logs) or a time of day (Jenkins), `[stderr] `, Actions
 * workflow commands, Flutter's verbose `[  +12 ms] ` column, the Titanium CLI's `[ERROR] [GRADLE] `, AGP's `C/C++: ` before
 * a native build's output, fastlane's `[23:49:00]: ▸ `, a JS CLI's tool tag and indentation (`[capacitor]         `; the
 * Ionic CLI's `[cordova] ` is one space, the Cordova build's own indentation after it; sbt's level tags, `[error] `, are
 * one space wide and what follows them is the line's own indentation, a caret's), an EAS build phase's name
 * (`[RUN_GRADLEW] `), Docker BuildKit's step and seconds (`#15 117.4 `), the `[ant:javac] ` Gradle's Ant bridge puts
 * before what an Ant task it runs logs (AntLoggingAdapter),
 * the `error: ` Android Studio puts before a compiler's own `e: `, the `exception: ` before each line of a compiler run
 * whose output the Kotlin plugin relays, a markdown code fence glued to the first line of a log pasted into an
 * issue, and MSBuild's canonical `Origin : subcategory error : ` (with a parallel build's `1>` node) that Visual
 * Studio's Cordova tools put before every line of the build they ran, its origin also the `.targets` file and position
 * of the task that relayed the line (`…\Xamarin.Android.Common.targets(2049,3): error AMM0000: `, the manifest merger
 * Xamarin.Android and .NET for Android run), and the `2015-12-10T06:14:19.408Z: ` an early cross-platform Azure Pipelines
 * agent put before each line of a step's log, and the glog-style `I0906 16:31:58.081] ` (level letter, month and day,
 * time) of Kubernetes' test-infra jobs (Prow), and a script logger's level after its time (Python's `%(asctime)s
 * %(levelname)-7s`: `2023-05-16 10:55:27 INFO    `). Stripped repeatedly, in any order. */
export const WRAPPER_PREFIX =
  /^(?:\uFEFF|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z: |[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{3,6}\] |(?:\d{4}-\d{2}-\d{2}[T ])?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?(?: (?:WARNING|CRITICAL|ERROR {0,2}|DEBUG {0,2}|INFO {0,3})(?: |$)| ?)|\[(?:stderr|stdout|STDERR|STDOUT)\] ?|\[(?:\w+ )?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\] ?|##\[(?:error|warning|notice|debug|info|group|endgroup|section|command)\] ?|#\d+ \d+\.\d+(?: |$)|::(?:error|warning|notice|debug)(?: [^:]*)?::|\[ *(?:\+ *\d+ m?s)? *\] |\[\d{2}:\d{2}:\d{2}\]: (?:▸ )?|\[(?:cordova\] |(?!(?:error|warn|info|debug|success)\])[a-z][a-z-]*\](?: {2,}|$))|\[ant:[a-z][\w-]*\](?: |$)|\[[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\] ?|\[(?:ERROR|WARN|WARNING|INFO|DEBUG|TRACE)\] +\[GRADLE\] ?|C\/C\+\+: |(?:[Ee]rror|[Ww]arning): (?=[ew]: )|```(?:[\w-]+(?= |$))? ?|exception: (?=\S)|(?:\d{1,3}>)?(?:MSBUILD|[A-Za-z]:\\[^:]*?\.targets\(\d+,\d+\)) ?: (?:[\w-]+ )?(?:error|warning)(?: [A-Z]+\d+)? ?: |\d{1,6}\.(?:\t|\s(?=[ew]: )))/;
/**
 * Windows' console breaks every line at its width, 80 columns unless changed, and a copy of it keeps those breaks,
 * less the space a break fell on: a row of exactly this width goes on mid-word on the next row.
 */
export const WINDOWS_CONSOLE_WIDTH = 80;
/** The width Windows 10 gives a new console window, the other width its copies are cut at. */
export const WIDE_CONSOLE_WIDTH = 120;
/** A line exactly as long as a console's row (or rows): the console cut it there and it goes on on the next line. */
export function fillsConsoleRow(line: string): boolean {
  return line.length > 0 && (line.length % WINDOWS_CONSOLE_WIDTH === 0 || line.length % WIDE_CONSOLE_WIDTH === 0);
}
export const RELAYED_LINE_PREFIX = /^(?:\t{1,2}| {8}): /;
export const P4A_RELAYED_LINE = /^\[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\]: {0,8}\t/;
/**
 * Ant relays what a task's command prints (an `<exec>` of gradlew) behind the task's name, right-aligned in a margin of
 * 12 columns: `     [exec] `. A paste's indentation can take some of the margin's spaces, not all of them, and an
 * editor can turn four of them into a tab.
 */
export const ANT_TASK_PREFIX = /^[ \t]{1,11}\[[a-z][\w-]*\](?: |$)/;
/** The end of Flutter's verbose `[  +12 ms] ` column, all that is left of it on a log's first line cut inside it. */
export const CUT_VERBOSE_COLUMN = /^ *(?:\+ *\d+ m?s)? *\] (?=\S)/;
/** A module's coordinates in parentheses, as AGP prints them after a module's file name: `(group:name:1.0)`. */
export const MODULE_COORDINATES = /^\([\w.-]+:[\w.-]+:[\w.+-]+\)$/;
/** A markdown link, `[text](target)`: an issue's editor makes one of a pasted path. */
export const MARKDOWN_LINK = /\[([^\s[\]()]+)\]\([^\s()]*\)/g;
/** A link's text that is a file path: a directory separator and a file extension. */
export const LINKED_PATH = /[\\/][^\\/]*\.\w+$/;
/**
 * A link GitHub's Actions log view leaves in a copy of its lines: characters of the line (digits it took for a line
 * number) linked to a line of a job's step, `[96](https://github.com/o/r/actions/runs/1/job/2#step:8:97)`.
 */
export const ACTIONS_LOG_LINE_LINK = /\/actions\/runs\/\d+\/job\/\d+#step:\d+:\d+\)$/;
/** Flutter's verbose `[  +21 ms] ` column after other text: the line break before it was lost. */
export const FLUTTER_PREFIX_GLUED = /\S\[ *\+ *\d+ m?s\] /;
/** A markdown bold span inside a line: `**` on both sides of text that neither starts nor ends with space, `*` or `/`. */
export const INLINE_BOLD = /(?<![\w*/])\*\*([^\s*/](?:[^*\n]{0,200}?[^\s*/])?)\*\*(?![\w*/])/g;
/** Markdown bold, alone or inside italics, opened at a line's start with no space after it. */
const MULTILINE_BOLD_OPENER = /^_?\*\*(?=[^*\s_])/;
/** Its close at a line's end, right after the text. */
const MULTILINE_BOLD_CLOSER = /(?<=[^*\s_])\*\*_?$/;
/** A whole line set in markdown emphasis by a reporter (`_Missing classes detected …_`, `**…**`). */
export const EMPHASIZED_LINE = /^(\*\*|__|\*|_)([^\s*_](?:.*\S)?)\1\s*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC.
export const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
/**
 * `--debug` and `--info` logs put the level and the logger's category before each message: a class name, a class as
 * `Class.toString()` prints it (`[class org.gradle…TaskExecutionLogger]`), or a plain name (`[TestEventLogger]`). A
 * server's log4j console (a program compiling Java at run time) puts the time before the level: `[10:25:13 WARN]: `.
 */
export const LOG_LEVEL_PREFIX =
  /^\[(?:\d{1,2}:\d{2}:\d{2} (?=\w+\]:))?(ERROR|WARNING|WARN|INFO|DEBUG|LIFECYCLE|QUIET|error|warn|info|debug)\]:? (?:\[(?:class )?[\w$]+(?:\.[\w$]+)*\](?: |$))?/;

/** False when the line's first character cannot begin any WRAPPER_PREFIX alternative (most lines): skips the regex. */
export function mayStartWrapperPrefix(line: string): boolean {
  const c = line.charCodeAt(0);
  // BOM, a digit (timestamps, MSBuild's node), `[`, `#`, `:`, `e`/`w`/`E`/`W` (`error: `/`Error: `), a backtick (code
  // fence), `C` (`C/C++: `), `M` (`MSBUILD : `), a drive letter (an MSBuild `.targets` file as the origin), a glog
  // level letter before its date.
  return (
    c === 0xfeff ||
    (c >= 48 && c <= 57) ||
    c === 91 ||
    c === 35 ||
    c === 58 ||
    c === 101 ||
    c === 119 ||
    c === 96 ||
    ((c === 69 || c === 87) && /^(?:Error|Warning): [ew]: /.test(line)) ||
    ((c === 73 || c === 87 || c === 69 || c === 70) && /^[IWEF]\d{4} \d/.test(line)) ||
    (c === 67 && line.startsWith('C/C++: ')) ||
    (c === 77 && line.startsWith('MSBUILD : ')) ||
    (c >= 65 && c <= 90 && line.charCodeAt(1) === 58 && line.includes('.targets('))
  );
}

/**
 * The `exception: ` the Kotlin plugin puts before each line it relays from a compiler run, found glued to the end of
 * other text in a line that starts with it (`…of type WifiInfoexception:     val x = …`): the line break was lost.
 */
export const RELAY_PREFIX_GLUED = /(?<=\S)exception: /;
/** The same agent's timestamp after other text: a line whose break was lost (`…/index.htm2015-12-10T06:14:20.922Z: * Try:`). */
export const AGENT_TIMESTAMP_START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z: /;
export const AGENT_TIMESTAMP_GLUED = /(?<=\S)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z: /;
/** A cheap pre-check for FLUTTER_PREFIX_GLUED: an `s] ` past the line's own leading `[  +12 ms] ` column. */
export function gluedPrefixAfterStart(line: string): boolean {
  let at = line.indexOf('s] ');
  if (at >= 0 && at < 12 && line.charCodeAt(0) === 91) at = line.indexOf('s] ', at + 3);
  return at > 0;
}

/** The wrappers' prefixes at the line's start, in any order. */
function withoutLeadingWrappers(text: string): string {
  let line = text;
  for (let i = 0; i < 4 && mayStartWrapperPrefix(line); i++) {
    const m = WRAPPER_PREFIX.exec(line);
    if (!m || m[0].length === 0) break;
    line = line.slice(m[0].length);
  }
  return line;
}

/** Unreal's `Category: ` before a relayed line's `Error: `/`Warning: ` (a word, not a tool's upper-case name). */
const UNREAL_LOG_CATEGORY = /^[A-Z][a-z]\w*: (?=(?:Error|Warning): )/;

/** Removes what CI runners and wrappers put in front of every line, and colour codes. */
export function stripWrapperPrefixes(rawLine: string): string {
  let line = rawLine.length > MAX_LINE_CHARS ? rawLine.slice(0, MAX_LINE_CHARS) : rawLine;
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.includes('\u001b')) line = line.replace(ANSI, '');
  // An opening fence glued to the start of a log line (```Execution failed …).
  if (line.startsWith('```') && line.length > 3 && line.charCodeAt(3) !== 96) line = line.slice(3);
  // python-for-android (buildozer) logs each line of a command's output as `[DEBUG]:   ` and a tab before the line.
  if (line.charCodeAt(0) === 91 && P4A_RELAYED_LINE.test(line)) line = line.slice(line.indexOf('\t') + 1);
  // A test runner relaying Gradle's output (Patrol's CLI) puts `        : ` or `\t: ` before each line (its eight
  // spaces turned into tabs by an editor too).
  if ((line.charCodeAt(0) === 9 || line.startsWith('        :')) && RELAYED_LINE_PREFIX.test(line))
    line = line.slice(line.indexOf(':') + 2);
  line = withoutLeadingWrappers(line);
  // Inside a CI runner's prefix, when Ant ran the build.
  if ((line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9) && line.includes(']') && ANT_TASK_PREFIX.test(line))
    line = line.slice(line.indexOf(']') + 2);
  // A quote marker the reporter escaped so markdown would not quote the line (` \> Manifest merger failed : …`).
  if (line.includes('\\>') && /^\s*\\>/.test(line)) line = line.replace('\\>', '>');
  // A reporter's rule of dashes around a pasted span (`---- Manifest merger failed : …`, `… to override. ----`):
  // Gradle's own rules of dashes stand alone on their lines.
  if (line.charCodeAt(0) === 45 && /^-{3,} +\S/.test(line)) line = line.replace(/^-+ +/, '');
  if (line.endsWith('---') && /[.!?)] +-{3,}$/.test(line)) line = line.replace(/ +-+$/, '');
  // Unreal's log category before the level of a line its packager relays (`PackagingResults: Error: …`).
  if (line.includes(': Error: ') || line.includes(': Warning: ')) line = line.replace(UNREAL_LOG_CATEGORY, '');
  // IntelliJ's Gradle tool window puts `Gradle: ` before the failure's headline it relays (its Messages view shows the
  // same behind `Error:Gradle: `).
  if (line.startsWith('Gradle: ') && /^Gradle: (?:Execution failed for task |A problem occurred )/.test(line))
    line = line.slice(8);
  // A markdown task list's box before each line a reporter made an item to tick off (`- [ ] A > t() FAILED`): Gradle
  // starts no line with one.
  if ((line.startsWith('- [') || line.startsWith('* [')) && /^[-*] \[[ xX]\] /.test(line)) line = line.slice(6);
  // A markdown list item's `- ` before a line the reporter set in bold (`- **Execution failed for task …**`): Gradle
  // prints no `**`, so the dash is the list's.
  if (line.startsWith('- **')) line = line.slice(2);
  // The same list's dash before Studio's Messages lines pasted as items (`- Error:(48, 17) No resource found …`).
  else if (line.startsWith('- ') && /^- (?:Error|Warning):/.test(line)) line = line.slice(2);
  // A log pasted in markdown italics: `_> cause` at its start, `…found._` at its end; a line in emphasis whole.
  const head = line.charCodeAt(0);
  const emphasized = head === 95 || head === 42 ? EMPHASIZED_LINE.exec(line) : null;
  if (emphasized) line = emphasized[2]!;
  else if ((head === 95 || head === 32) && /^ *_> /.test(line)) line = line.slice(line.indexOf('_') + 1);
  // A log pasted in markdown bold (or bold italics, `_**…**_`) over several lines: the markers glued to the first
  // line's start, to the last line's end (a span that closes on the same line, `**Execution failed for task '…'**.`, is
  // read as one inside the line below).
  else if ((head === 42 || head === 95) && MULTILINE_BOLD_OPENER.test(line)) {
    const opener = line.indexOf('**') + 2;
    if (line.indexOf('**', opener) < 0) line = line.slice(opener);
  } else if (line.endsWith('*') || line.endsWith('_')) {
    const closer = MULTILINE_BOLD_CLOSER.exec(line);
    if (closer && line.indexOf('**') === closer.index) line = line.slice(0, closer.index);
  }
  // Words a reporter set in bold inside a pasted line (`Duplicate class **a.B** found in …`); a glob's `**/` is not one.
  if (line.includes('**')) line = line.replace(INLINE_BOLD, '$1');
  // The italics' closing `_` after the sentence's or the quoted name's end (`…found._`, `… name 'a.b.c'_`).
  if (line.endsWith('_') && /[.'")\]]_$/.test(line)) line = line.slice(0, -1);
  // A whole line in italics: `_Error:Execution failed for task … see logs_`.
  else if (head === 95 && line.endsWith('_') && line.includes(' ') && /^_[^\s_]/.test(line) && /[^\s_]_$/.test(line))
    line = line.slice(1, -1);
  // A closing fence glued to the end of a log line (```e: …```).
  if (line.length > 3 && line.endsWith('```')) line = line.slice(0, -3);
  // A single log line pasted as markdown inline code: `` `Caused by: …` `` (indented too: `` ` Apps targeting …` ``).
  // The blanks inside the span are the copy's (Studio's Messages tree indents a file's messages under it), not Gradle's.
  const code = line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9 ? line.trimStart() : line;
  if (code.length > 2 && code.startsWith('`') && code.endsWith('`') && !code.startsWith('``'))
    line = withoutLeadingWrappers(code.slice(1, -1).trimStart());
  else if (line.includes('`') && !line.includes('``') && line.split('`').length % 2 === 0) {
    // An inline-code span opened on this line and closed on another: its one unmatched backtick (the markdown's
    // indentation before an opening one goes with it), and the wrapper's prefix the span opened before.
    if (line.trimStart().startsWith('`')) line = withoutLeadingWrappers(line.slice(line.indexOf('`') + 1));
    else if (line.endsWith('`')) line = line.slice(0, -1);
  }
  // A path the editor turned into a link with no target: `e: [/p/A.kt](): (326, 50): …`; the line links an
  // Actions log view leaves inside a copied line.
  if (line.includes(']('))
    line = line.replace(MARKDOWN_LINK, (link, text: string) =>
      LINKED_PATH.test(text) || ACTIONS_LOG_LINE_LINK.test(link) ? text : link,
    );
  // A log line quoted in a sentence: `"MainActivity.kt:8:22 Unresolved reference: X"`.
  if (line.length > 2 && line.startsWith('"') && line.endsWith('"') && line.indexOf('"', 1) === line.length - 1)
    line = line.slice(1, -1);
  // … and inside a markdown quote: `> "Manifest merger failed : …"`.
  else if (line.length > 4 && line.startsWith('> "') && line.endsWith('"') && line.indexOf('"', 3) === line.length - 1)
    line = `> ${line.slice(3, -1)}`;
  // The same quotes around a pasted block: the opening one alone on its first line, the closing one on its last.
  else if (
    line.length > 1 &&
    (line.startsWith('"') || line.endsWith('"')) &&
    line.indexOf('"') === line.lastIndexOf('"')
  )
    line = line.startsWith('"') ? line.slice(1) : line.slice(0, -1);
  // A log line quoted in parentheses: `( AAPT: error: resource android:attr/lStar not found.)`. A module's coordinates
  // alone in them (`(group:name:1.0)`) are the rest of a wrapped line instead.
  else if (
    line.length > 2 &&
    line.charCodeAt(0) === 40 &&
    line.endsWith(')') &&
    !MODULE_COORDINATES.test(line) &&
    wrapsWhole(line)
  )
    line = line.slice(1, -1).trim();
  return line;
}

/** A log pasted into an issue as HTML (an issue form's `<pre><code>` block): its opening tags, on the first line. */
export const HTML_CODE_OPEN = /^<pre>(?:<code\b[^>]*>)?/;
/** … and its closing tags at the end of the last line. */
export const HTML_CODE_CLOSE = /(?:<\/code>)?<\/pre>\s*$/;
const HTML_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' };

/** The characters HTML escapes inside such a block (`&gt; Task :app:…`, `&#39;…&#39;`). */
export function decodeHtmlEntities(line: string): string {
  return line.includes('&') ? line.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => HTML_ENTITIES[name]!) : line;
}

/**
 * A log an issue tracker's import rendered as HTML, line by line: `…<br/>` ends each, markup and numeric escapes inside
 * it (`<span class="error">&#91;ERROR&#93;</span> …`).
 */
export const HTML_LINE_BREAK = /<br\s*\/?>\s*$/;
export const HTML_TAG = /<\/?[A-Za-z][^<>]*>/g;
/**
 * A location a console links (MCreator's, an IDE's export), pasted as a markdown link: `[C:\\p\\A.java:26](file:///…:26)`.
 */
export const MARKDOWN_LINKED_LOCATION = /^(\s*)\[([^\]]+?:\d+(?::\d+)?)\]\([^()\s]+\)/;

/** The opening parenthesis at the line's start closes only at its end (not `(a) … (b)`). */
export function wrapsWhole(line: string): boolean {
  let depth = 0;
  for (let i = 0; i < line.length - 1; i++) {
    const c = line.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return false;
  }
  return true;
}
