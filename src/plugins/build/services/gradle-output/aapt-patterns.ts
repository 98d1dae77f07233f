/*
 * AAPT2 and AAPT 1 as AGP relays them (`AAPT: error:`, merged resource sets, compile failures), AGP's `AGPBI:` JSON,
 * and the resource merger's duplicate-resource records.
 */

/** The tools Bazel's Android rules run AAPT2 through (`ResourceProcessorBusyBox --tool LINK_STATIC_LIBRARY -- --aapt2 …`). */
export const BAZEL_RESOURCE_TOOL = /\b(?:ResourceProcessorBusyBox|aapt2)\b/;
/**
 * AAPT2 through AGP: `<path>:12: AAPT: error: msg`, also `ERROR:<path>:105:5-114:25: AAPT: error:`; AAPT 1 through
 * AGP 2 gave no level (`<path>:104: AAPT: Error parsing XML: …`), only errors, and a PhoneGap build's copy a space
 * before the colon (`AndroidManifest.xml:36:23-37 : AAPT: …`).
 */
export const AAPT_LOCATED =
  /^\s*(?:ERROR:\s*)?(?!ERROR: AAPT: )(.+?)(?::(\d+)(?::(\d+)(?:-(\d+)(?::(\d+))?)?)?)? ?: AAPT: (?:(error|warn|warning): |(?=[A-Z][a-z]))(.*)$/;
/**
 * A line of Windows' console width (WINDOWS_CONSOLE_WIDTH) ending inside a Windows path (`…\res\xml\aut`, or the
 * path and its `:6:24-36`) before any `AAPT:`: an AAPT line the console cut in two. A Gradle 2-4 task name can be
 * glued before it.
 */
export const CONSOLE_CUT_AAPT_PATH = /^(?::[A-Za-z][\w:-]*?)?[A-Za-z]:\\[^:]*(?::\d+(?::\d+(?:-\d+)?)?)?$/;
/** `:processDebugResources` glued before the tool's first line: Gradle 2-4 printed no break after a task's name. */
export const GLUED_TASK_NAME = /^:[A-Za-z][\w:-]*?(?=[A-Za-z]:\\)/;
/** Also behind a label of the reporter's or an IDE's (`Build Failed : AAPT: error:`): no path ends in a space. */
export const AAPT_UNLOCATED = /^\s*(?:ERROR:\s*|.*\s:\s+)?AAPT: (error|warn|warning): (.+)$/;
/**
 * AGP logs at error level what its AAPT2 daemon (`AAPT2 <version> Daemon #N`) prints outside a request: a broken
 * aapt2 binary shows only here, before the task fails. Its failure to start is the same exception's message, which a
 * reporter can paste alone.
 */
export const AAPT2_DAEMON_STRAY_OUTPUT =
  /^AAPT2 \S+ Daemon #\d+: (?:Unexpected (?:error|standard) output: |Idle daemon unexpectedly exit\.|Daemon startup failed\s*$)/;
/**
 * AAPT2's own form: `com.example.app-main-7:/layout/a.xml:11: error: msg` (merged resource set), or a path; a file it
 * compiles whole (a PNG) has no line: `ERROR:AAPT: com.example.app-main-36:/drawable/a.png: error: file not found.`
 * Without a line the set's name must end in its `-<number>` (AAPT2_NUMBERED_SET): tested after the match, because a
 * look-behind over the path made a long line cost its length squared.
 */
export const AAPT2_SET =
  /^\s*(?:ERROR:\s*)?(?:AAPT:\s*)?([A-Za-z0-9_.-]+):\/(\S+?)(?::(\d+))?: (error|warn|warning): (.*)$/;
export const AAPT2_NUMBERED_SET = /-\d+$/;
/**
 * `<res>.xml:12: error: msg`; a page translator's copy has a space after every colon (`values.xml: 6203: error:`), and
 * apktool relays the aapt it runs behind its level's letter (`W: <res>.xml:4: error: …`).
 */
export const AAPT2_XML =
  /^\s*(?:ERROR:\s*|W: )?(?:AAPT:\s*)?(.+?\.xml)(?::\s?(\d+)(?::(\d+))?)?: (error|warn|warning): (.*)$/;
/**
 * AAPT2 names a resource file it compiles as itself (an image, a font) as the source of its error, with no line:
 * `<res>/drawable-hdpi-v4/a.9.png: error: file not found.`, `…/icon.png: error: failed to read PNG signature: …`.
 * AAPT 1 gave such a file the line 0 (`res\drawable-hdpi-v4\a.png:0: error: Resource entry a is already defined.`).
 */
export const AAPT2_RESOURCE_FILE =
  /^\s*(?:ERROR:\s*)?(.+?\.(?:png|jpe?g|gif|webp)|.+?[\\/](?:font|raw)(?:-[\w-]+)?[\\/][^\\/:]+\.(?:ttf|otf|ttc))(?::(\d+))?: (error|warn|warning): (.*)$/;
export const AAPT2_BARE = /^\s*(error|warning): (.*)$/;
/**
 * AAPT2's own command line refused (its Command.cpp, before the usage it prints): `unknown option '--x'.`,
 * `missing required flag -o`; AGP relays it behind `AAPT: ` when its aapt2 is older than the flags it passes.
 */
export const AAPT2_USAGE_ERROR = /^\s*(?:AAPT:\s*)?(unknown option '[^']*'\.|missing required flag \S+)\s*$/;
export const AAPT2_BARE_FAILED = /^\s*error: (failed (?:linking|processing|compiling) .*)$/;
/**
 * AGP's in-process resource compiler: `Failed to compile values resource file <path>. Cause: …` for values files, and
 * for other XML files `Failed to compile resource file: <path>: . Cause: …` (the file's blame source, which ends in
 * `: `, after a colon). The path is the project's, spaces and all (`C:\Users\Jane Doe\…`).
 */
export const AAPT2_COMPILE =
  /Resource compilation failed \(Failed to compile (?:\S+ )?resource file:? (\S.*?):? ?\. Cause: (?:[\w.$]+(?:Exception|Error): )?(.*)\)\.(?: Check logs for more details\.?)?$/;
/** The same failure as a stack trace's cause line: `Caused by: com.android.aaptcompiler.ResourceCompilationException: …`. */
export const AAPT2_COMPILE_CAUSED_BY =
  /^Caused by: [\w.$]+\.ResourceCompilationException: (?=Resource compilation failed \()/;
/**
 * The same compiler's errors as it logs them before the task fails (its BlameLogger: the source file's absolute path,
 * line and column, then the message, no level word): `…/res/values/values.xml:223:4: Invalid <color> for given resource
 * value.` The message is a sentence; the merger's and lint's lines put a level's word (`Error:`) in front of theirs.
 */
export const AAPT_COMPILER_LOCATED =
  /^\s*((?:[A-Za-z]:)?[\\/][^:]*?[\\/](?:res|merged\.dir)[\\/][a-z]+(?:-[\w+-]+)?[\\/][^\\/:]+\.xml):(\d+):(\d+): (?![A-Za-z]+:)([A-Z]\S*(?: \S+)+)\s*$/;
/** The StAX parser's position in the file it could not parse, first in its message: `ParseError at [row,col]:[11,69]`. */
export const XML_STREAM_POSITION = /^ParseError at \[row,col\]:\[(\d+),(\d+)\]/;
/** AAPT 1 through AGP: `AAPT err(Facade for 123) : No Delegate set : lost message:<path> ERROR: msg`, or a bare message. */
export const AAPT1 = /^\s*AAPT err\(Facade for \d+\)\s*: (?:No Delegate set : lost message:)?(.*)$/;
/**
 * What AGP put before each line of AAPT 1's stderr it relayed: `AAPT: `, or its process facade's
 * `AAPT err(Facade for 123) : ` with `No Delegate set : lost message:` when no logger took the line.
 */
const AAPT1_RELAY = String.raw`\s*AAPT(?: err\(Facade for \d+\))?\s*:(?: No Delegate set : lost message:)?`;
/**
 * AAPT 1's cruncher on a 9-patch image whose frame does not parse (Images.cpp): `ERROR: 9-patch image <path> malformed.`,
 * then the reason and the pixel on lines of their own, indented (`       Found at pixel #11 along top edge.`).
 */
export const NINE_PATCH_MALFORMED = new RegExp(
  String.raw`^(?:${AAPT1_RELAY})?\s*ERROR: (9-patch image (.+?) malformed\.)\s*$`,
);
/** A line of AAPT 1's stderr as AGP relayed it (or bare): what is left after the prefix is the tool's own text. */
export const AAPT1_RELAYED_LINE = new RegExp(`^(?:${AAPT1_RELAY})?`);
/**
 * AAPT 1's own unlocated error, printed alone on the task's output when a resource directory's qualifiers do not parse
 * (`invalid resource directory name: <res>/<dir>`, AaptAssets.cpp).
 */
export const AAPT1_INVALID_DIRECTORY = /^\s*(invalid resource directory name: \S.*)$/;
export const AGPBI = /^\s*AGPBI: (\{.*\})\s*$/;

/**
 * The resource merger's failure as its exception prints it, `<file>:<line>:<col>: Error: <message>` (AGP 2-3 printed it
 * on its own line before the failure block); lint's lines end with their `[IssueId]` and give no column.
 */
export const MERGER_LOCATED = /^\s*((?:[A-Za-z]:)?[\\/][^:]*?\.xml):(\d+):(\d+): Error: (\S.*?)\s*$/;
/** The end of a merger duplicate record (`…: Resource and asset merger: Duplicate resources`). */
export const DUPLICATE_RESOURCES_TAIL = /:\s*(?:Resource and asset merger: |Error: )?Duplicate resources\s*$/;
/**
 * The resource merger: `[raw/x] <path> [raw/x] <path>: Resource and asset merger: Duplicate resources` (tab or
 * space between, `Caused by: ` or `Error: ` around it). Read with index scans: the paths are free text.
 */
export interface DuplicateResources {
  readonly resource: string;
  readonly first: string;
  readonly other: string;
}

export function parseDuplicateResources(text: string): DuplicateResources | null {
  const body = text.startsWith('Caused by: ') ? text.slice(11) : text;
  if (!body.startsWith('[')) return null;
  const cut = Math.max(0, body.length - 80);
  const tail = DUPLICATE_RESOURCES_TAIL.exec(body.slice(cut));
  if (!tail) return null;
  const close = body.indexOf('] ');
  if (close < 2) return null;
  const resource = body.slice(1, close);
  const second = body.indexOf(`[${resource}] `, close + 2);
  if (second < 0) return null;
  const first = body.slice(close + 2, second).trim();
  const other = body.slice(second + resource.length + 3, cut + tail.index).trim();
  if (first === '' || other === '') return null;
  return { resource, first, other };
}

/** A merger duplicate's start, both `[type/name] <path>` parts there but not its end: a console wrapped it. */
export const WRAPPED_DUPLICATE_HEAD = /^(?:\s*(?:ERROR|Caused by):\s*)?(\[[^\]\s]+\]) \S.* \1 \S+$/;
/** AGP 7+'s in-process resource compiler. */
export const AAPT_COMPILER_DUPLICATE = /^\s*(Duplicate value for resource '[^']+' with config '[^']*'.*)$/;
/**
 * AAPT2's own messages, recognisable without a path; among them its 9-patch checks (NinePatch.cpp), which Studio's
 * Messages view shows apart from the image they name (`Error:top-left corner pixel must be either opaque white or …`),
 * and AAPT 1's unresolved reference (`Error:(48, 17) No resource found that matches the given name (at 'text' …`).
 */
export const AAPT_MESSAGE =
  /^(?:error: )?(?:No resource found that matches the given name|Error retrieving parent for item: |resource \S+ (?:\(aka \S+\) )?not found|style attribute '[^']*' not found|attribute \S+ (?:\(aka \S+\) )?not found|failed linking (?:references|file resources)|failed processing manifest|duplicate value for resource|file failed to compile|top-left corner pixel must be either opaque white or transparent|found an invalid color|found unexpected optical bounds \(red pixel\)|too many (?:padding sections|layout bounds sections) on \w+ border|layout bounds on \w+ border must start at edge|too many regions in 9-patch|image must be at least 3x3)/;
/**
 * AGP's failure when AAPT 1's cruncher could not process an image (AaptException): the image it read, then where the
 * crunched copy was to go (a reporter's paste can put the `into …` part on a line of its own).
 */
export const CRUNCH_FAILED = /^Failed to crunch file (.+?)(?: into .+)?$/;
/**
 * Studio's line for the same failure, the exception's class left in when its message was copied:
 * `Error:com.android.builder.internal.aapt.AaptException: Failed to crunch file …`.
 */
export const STUDIO_CRUNCH_FAILED = /^Error:\s*(?:[\w$]+(?:\.[\w$]+)+Exception: )?(Failed to crunch file .+)$/;
/** AAPT2's error on a resource directory it was given that is missing: `<dir>: error: directory does not exist.` */
export const AAPT2_MISSING_DIRECTORY = /^((?:[A-Za-z]:)?[\\/][^:*?"<>|]*): error: (directory does not exist\.?)$/;
