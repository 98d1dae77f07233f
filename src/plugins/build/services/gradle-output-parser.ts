/*
 * Turns Gradle console output (`--console=plain`, stdout and stderr merged) into structured
 * diagnostics. It is fed line by line while the build runs, so memory is bounded by the number of
 * diagnostics kept and one failure block, not by the size of the log. Every line is cut to
 * MAX_LINE_CHARS before any pattern runs, and every pattern is anchored, so the work per line is bounded.
 *
 * The shapes come from real logs (test/fixtures/gradle-output/README.md lists where each was seen):
 * Kotlin K1/K2, javac in every JDK locale, kapt's `e: ` wrapping of javac, KSP, AAPT2, the manifest
 * merger, lint, R8/D8, unit and instrumented test failures, AGP's `AGPBI:` JSON, Gradle's failure blocks and
 * missing dependencies, the configuration cache's problem lists, clang/ninja/CMake/make/ndk-build and AGP's `[CXXnnnn]`
 * under externalNativeBuild, Android Studio's Messages view (`Error:(12, 5) …`), and logs as people paste them:
 * quoted in markdown (also around a CI runner's times), in code fences or inline code, behind Maven or CI prefixes.
 *
 * This file holds the reading: the state machine that decides which lines belong together and which tool's rule
 * applies. The tools' shapes live in gradle-output/, one module per tool (kotlin-patterns.ts, javac-patterns.ts,
 * aapt-patterns.ts, manifest-patterns.ts, failure-block-patterns.ts, …): a tool's new pattern goes there, with a
 * comment saying where the shape was seen. gradle-output/paste-frame.ts first takes off what a paste put around the
 * whole log (a quote, an indented block, a runner's time or tag on every line, padding, double spacing),
 * gradle-output/wrapper-prefixes.ts then removes what surrounds each line before any pattern runs, and
 * gradle-output/build-diagnostic.ts defines what is reported.
 */

import {
  AAPT1,
  AAPT1_INVALID_DIRECTORY,
  AAPT1_RELAYED_LINE,
  AAPT2_BARE,
  AAPT2_BARE_FAILED,
  AAPT2_MISSING_DIRECTORY,
  AAPT2_USAGE_ERROR,
  AAPT2_RESOURCE_FILE,
  AAPT2_COMPILE,
  AAPT2_COMPILE_CAUSED_BY,
  AAPT2_DAEMON_STRAY_OUTPUT,
  AAPT2_NUMBERED_SET,
  AAPT2_SET,
  AAPT2_XML,
  AAPT_COMPILER_LOCATED,
  MERGER_LOCATED,
  AAPT_COMPILER_DUPLICATE,
  AAPT_LOCATED,
  AAPT_MESSAGE,
  AAPT_UNLOCATED,
  AGPBI,
  BAZEL_RESOURCE_TOOL,
  CRUNCH_FAILED,
  STUDIO_CRUNCH_FAILED,
  CONSOLE_CUT_AAPT_PATH,
  DUPLICATE_RESOURCES_TAIL,
  type DuplicateResources,
  GLUED_TASK_NAME,
  WRAPPED_DUPLICATE_HEAD,
  parseDuplicateResources,
  NINE_PATCH_MALFORMED,
  XML_STREAM_POSITION,
} from './gradle-output/aapt-patterns.js';
import {
  AGP_CONTINUATION,
  AGP_ERROR,
  AGP_JDK_ADVICE,
  AGP_PLAIN_WARNING,
  BUILD_FILE_NAMED,
  EVAL_ISSUE,
  MERGER_FILE_NAME_CHECK,
  MERGER_LOCATED_CAUSE,
  NAMESPACE_ADVICE,
  NAMESPACE_BUILD_FILE,
  PM_INSTALL_FAILURE,
} from './gradle-output/agp-patterns.js';
import {
  type BuildDiagnostic,
  type DiagnosticSeverity,
  type DiagnosticSource,
  MAX_BLOCK_LINES,
  MAX_CONTINUATION_LINES,
  MAX_DIAGNOSTICS,
  MAX_INDENT_CHARS,
  MAX_RELAYED_BLANK_LINES,
  MAX_UNINDENTED_LINES,
  clip,
  normalizePath,
  severityOf,
} from './gradle-output/build-diagnostic.js';
import {
  AAR_HEADER,
  AAR_ITEM,
  AAR_MIN_COMPILE_SDK,
  AAR_MIN_COMPILE_SDK_DETAIL,
  AFTER_EVALUATE_NOTICE,
  BARE_CAUSE,
  BLOCK_START,
  BLOCK_START_GLUED,
  CC_BULLET,
  CC_HEADER,
  CHAINED_DEPENDENCY_NOT_FOUND,
  DAEMON_DISAPPEARED,
  DEPENDENCY_DETAIL,
  DEPENDENCY_NOT_FOUND,
  DEPRECATION_SUMMARY,
  DUPLICATE_CLASS,
  DUPLICATE_CLASS_WRAPPED,
  ESCAPED_LOG_BREAK,
  FETCH_FAILURE,
  GRADLE_FAILURE_EXCEPTION,
  GRADLE_FAILURE_WORDING,
  GRADLE_SECTION,
  HEADLINE_THEN_CAUSE,
  IMPLICIT_BLOCK,
  INDENTED_CAUSE,
  KNOWN_FAILURE,
  LOCATION_AWARE_EXCEPTION,
  NO_ERROR_MESSAGE_HEADLINE,
  NUMBERED_FAILURE,
  ONE_LINE_HEADLINE,
  PATH_OR_HOST_CAUSE,
  QUOTED_HEADLINE,
  REPOSITORIES_SEARCHED,
  RESOLUTION_ATTEMPT_WRAPPER,
  SQUASHED_REPORT,
  SQUASHED_SECTION_BREAK,
  STACK_UNRESOLVED,
  THROWN,
  WHERE_BUILD_FILE,
  WORKER_CAUSE_JOINED,
  WRAPPER_DOWNLOAD,
  WRAPPING_CAUSE,
} from './gradle-output/failure-block-patterns.js';
import {
  BAZEL_ACTION_HEADER,
  BAZEL_BUILD_FILE,
  BUILD_SERVER_LOG,
  CLI_REPORTS_COMMAND_FAILED,
  CONSOLE_STATUS,
  DEVICE_LINKER_WARNING,
  FLUTTER_GRADLE_STATUS,
  JVM_NOISE,
  MARKDOWN_QUOTED,
  NPM_SCRIPT_BANNER,
  SHELL_PROMPT_GRADLE_COMMAND,
  PASTE_MARKUP_LINE,
  PROGRESS_BAR,
  TABLE_RULE,
  VIEWER_LINE_NUMBER,
  VIEWER_TIME_LINE,
  WRAPPER_REPORTS_GRADLE_FAILED,
  XCODE_BUILD_SYSTEM_LINE,
} from './gradle-output/foreign-text-patterns.js';
import {
  CARET,
  COMPILING_TASK,
  DATA_BINDING_ERROR_END,
  DATA_BINDING_ENCODED,
  DATA_BINDING_ERROR_START_WORDS,
  DATA_BINDING_MESSAGE,
  DAGGER_TAGGED_ALONE,
  DATA_BINDING_SETTER_ALONE,
  DATA_BINDING_SUMMARY,
  JAVAC,
  JAVAC_CANNOT_FIND_SYMBOL_ALONE,
  JAVAC_BARE_ERROR,
  JAVAC_BARE_WARNING,
  JAVAC_OPTIONS_WARNING_TEXT,
  JAVAC_CRASH,
  JAVAC_CRASH_UNFORMATTED,
  JAVAC_CRASH_EXCEPTION,
  JAVAC_REASON_LINE,
  JAVAC_SQUASHED_SYMBOL,
  JAVAC_DETAIL,
  HILT_INCOMPLETE,
  JAVAC_FATAL,
  JAVAC_BAD_FILE,
  JAVAC_BAD_FILE_REASON,
  JAVAC_CANNOT_ACCESS,
  JAVA_SOURCE_ECHO,
  JAVAC_HINT,
  JAVAC_LEVEL_ONLY,
  JAVAC_LOCATION_ONLY,
  JAVAC_ONLY_WORDING,
  JAVAC_PLACE_ALONE,
  JAVAC_UNLEVELED,
  JAVAC_WHERE_CLAUSE,
  JVM_LAUNCHER_MAIN_CLASS,
  KAPT_SUMMARY,
  KAPT_EXCEPTION_UNTAGGED,
  KAPT_STUB_PATH,
  KAPT_TAGGED,
  PROCESSOR_NOTE,
  JAVAC_FILE_NOTE,
  RELAYED_JAVAC_LEVEL,
  KSP,
  JAVADOC_EXIT_CODE,
  MAVEN_LOCATED,
  MAX_DATA_BINDING_LINES,
  PATH_HEAD,
  RELATIVE_PATH_HEAD,
  ROOM_MESSAGE,
  TAG_ONLY,
  readDataBindingReport,
  readEncodedDataBindingReport,
  splitGluedLocation,
} from './gradle-output/javac-patterns.js';
import {
  COMPOSE_VERSION,
  EXCEPTION_HEADLINE,
  FILE_ANALYSIS_EXCEPTION,
  FILE_BEING_COMPILED,
  FRONTEND_EXPRESSION_EXCEPTION,
  JAVA_NULLABILITY_MISMATCH,
  KLIB_RESOLVER_TAG,
  KOTLINC_CLI,
  KOTLIN_BARE,
  KOTLIN_BINARY_LOCATION,
  KOTLIN_BINARY_LOCATION_ALONE,
  KOTLIN_DEPRECATED_RUNTIME,
  KOTLIN_K1,
  KOTLIN_K1_BARE,
  KOTLIN_K1_LOCATION_ALONE,
  KOTLIN_K2,
  KOTLIN_LOCATION_REJOINED,
  KOTLIN_METADATA_SENTENCE,
  KOTLIN_AMBIGUITY_HEADER,
  KOTLIN_K1_POSITION_CUT,
  KOTLIN_CANDIDATE_DECLARATION,
  KOTLIN_ONLY_WORDING,
  KOTLIN_RELATIVE_ONLY,
  KOTLIN_SENTENCES_ALONE,
  KOTLIN_TASK,
  KOTLIN_URL_ONLY,
  NATIVE_COMPILATION_FAILED,
  SCRIPT_COMPILATION_ERROR,
  STACK_KOTLIN_COMPILE_FAILED,
} from './gradle-output/kotlin-patterns.js';
import {
  LINT,
  LINT_ABORTED,
  LINT_ABORT_ADVICE,
  LINT_CUT_BEFORE_ID,
  LINT_IN_LINT_TASK,
  LINT_WITHOUT_LINE,
} from './gradle-output/lint-patterns.js';
import {
  BARE_RECORD_HEADER,
  MANIFEST_DETAIL,
  LEGACY_MERGER_ERROR,
  LEGACY_MERGER_PLACE,
  LEGACY_MERGER_RECORD,
  MANIFEST_FAILED,
  MANIFEST_HEAD_CUT,
  MANIFEST_HEAD_REST,
  MANIFEST_LOCATED,
  MANIFEST_MESSAGE,
  MANIFEST_TAGGED_UNUSED,
  MANIFEST_VALIDATION_STOPPED,
  MAX_PANE_RECORDS,
  MERGED_MANIFEST_PANE_NEXT,
  NAMESPACE_NOT_UNIQUE,
  PACKAGE_ATTRIBUTE,
  PACKAGE_ATTRIBUTE_CUT,
  PACKAGE_PATH,
  PACKAGE_ATTRIBUTE_REST,
  PACKAGE_RECOMMENDATION,
} from './gradle-output/manifest-patterns.js';
import {
  CLANG,
  CMAKE_ERROR,
  CXX_BUILD_FILE,
  EXTERNAL_NATIVE_BUILD_FAILED,
  CXX_ERROR,
  MAKE_FATAL,
  NDK_BUILD_LOCATED,
  NDK_BUILD_UNKNOWN_SCRIPT,
  NINJA_ERROR,
} from './gradle-output/native-build-patterns.js';
import {
  ARCHIVE_ENTRY_ORIGIN,
  D8_CAUSE,
  D8_COUNTS,
  D8_DEX_LIMIT,
  D8_MESSAGE,
  D8_ORIGIN,
  D8_ORIGIN_POSITIONED,
  D8_PROGRAM_TYPE_PRESENT,
  D8_WARNING_WORDING,
  DEX_TASK,
  DX_CRASH_BANNER,
  DX_CRASH_THROWABLE,
  R8_LIBRARY_CLASSES_MISSING,
  R8_MESSAGE_POSITION,
  R8_MISSING,
  R8_MISSING_CONTINUATION,
  R8_MISSING_SUMMARY,
  R8_UNREACHABLE_METHOD,
  R8_ORIGIN_HEADER,
} from './gradle-output/r8-patterns.js';
import {
  ANNOTATION_PROCESSOR_MESSAGE,
  BUILD_SCRIPT_FAILURE,
  STUDIO_EXCEPTION,
  STUDIO_FILE_LINE,
  studioFileRow,
  STUDIO_LOCALIZED_LEVEL,
  STUDIO_LOCATED,
  STUDIO_LOCATED_HEADLINE,
  STUDIO_LOCATION_ONLY,
  STUDIO_OPEN_FILE,
  STUDIO_SYNC_FAILED,
  STUDIO_UNLOCATED,
  STUDIO_UNRESOLVED,
  STUDIO_TREE_JAVAC_NOTE,
  STUDIO_TREE_KOTLIN_WARNING,
  STUDIO_TREE_LEVEL,
  STUDIO_TREE_SOURCE,
  studioSource,
  withoutWordsBeforeHeadline,
} from './gradle-output/studio-patterns.js';
import {
  CONFIGURE_LINE,
  EXECUTING_TASK,
  GLUED_TASK,
  OLD_TASK_LINE,
  TASK_GLUED_MESSAGE,
  TASK_LINE,
  TEAMCITY_TASK_PREFIX,
} from './gradle-output/task-line-patterns.js';
import {
  AM_STATUS_CODE,
  AM_STATUS_AFTER,
  AM_STATUS_PREFIX,
  CLASSLESS_TEST_FAILED,
  DEVICE_RUN_FAILED,
  FRAMEWORK_FRAME,
  FTL_OUTCOME_HEADER,
  FTL_OUTCOME_ROW,
  GCLOUD_TEST_ERROR,
  GRADLE_MANUAL_POINTER,
  INSTRUMENTATION_RESULT_MESSAGE,
  INSTRUMENTATION_RUN_FAILED,
  INSTRUMENTATION_START_ERROR,
  CLASS_LEVEL_TEST_NAME,
  INSTRUMENTATION_DID_NOT_COMPLETE,
  JAVA_EXCEPTION_LINE,
  LOGCAT_EXCEPTION_BEGIN,
  LOGCAT_TEST_FAILED,
  LOGCAT_TEST_RUNNER,
  LOGGED_SUITE,
  LOGGED_TEST,
  PLATFORM_FAILURE,
  PLATFORM_FAILURES,
  PLATFORM_FRAME,
  PLATFORM_SOURCE,
  PRINTED_EXCEPTION,
  SQUASHED_TEST_RUN,
  SQUASHED_TEST_RUN_BREAK,
  STACK_FRAME,
  STUDIO_TESTS_ENDED,
  STUDIO_TESTS_STARTED,
  TEST_FAILED,
  TEST_FAILED_CAUSE_JOINED,
  TEST_FAILED_DOTTED,
  TESTNG_DEFAULT_LEVELS,
  TEST_NAME_ONLY,
  TEST_OUTPUT_EVENT,
  TEST_RUN_LEVELS,
  TEST_SHORT_FRAME,
  TEST_SOURCE_FILE,
  TEXT_LISTENER_FAILURE,
  TEXT_LISTENER_FAILURES,
  WORKER_PROCESS_EXIT,
  XML_TEST_CASE,
  XML_TEST_FAILURE,
} from './gradle-output/test-patterns.js';
import {
  CUT_VERBOSE_COLUMN,
  AGENT_TIMESTAMP_GLUED,
  AGENT_TIMESTAMP_START,
  FLUTTER_PREFIX_GLUED,
  HTML_CODE_CLOSE,
  HTML_CODE_OPEN,
  HTML_LINE_BREAK,
  HTML_TAG,
  MARKDOWN_LINKED_LOCATION,
  LOG_LEVEL_PREFIX,
  RELAY_PREFIX_GLUED,
  WINDOWS_CONSOLE_WIDTH,
  fillsConsoleRow,
  decodeHtmlEntities,
  gluedPrefixAfterStart,
  stripWrapperPrefixes,
} from './gradle-output/wrapper-prefixes.js';
import { PasteFrameReader } from './gradle-output/paste-frame.js';

export interface GradleOutputParserOptions {
  /**
   * Absolute path of the project Gradle ran in. Paths inside it are reported relative to it, with `/`
   * separators, so diagnostics read the same on every machine; paths outside it are kept as printed.
   */
  readonly projectRoot?: string;
}

const ANY_TEXT = /\S/;
/** Lines that start something of their own, so they cannot continue the message before them. */
const NEW_ENTRY =
  /^\s*(?:[ewiv]: |\[ksp\] [ewiv]: |> |\* |FAILURE|BUILD |(?:ERROR|WARNING|INFO|Error|Warning):|Task :|:[\w-]+|\d+ (?:errors?|warnings?)\b|at |Caused by: )|\.(?:kts?|java|xml):\d+/;

/** AAPT 1 prints at most two detail lines under a message (a 9-patch's reason and the pixel where it found it). */
const MAX_RELAYED_DETAIL_LINES = 2;

/** The tools whose diagnostics a compile task prints. */
const COMPILER_SOURCES: ReadonlySet<DiagnosticSource> = new Set(['javac', 'kapt', 'kotlin', 'ksp']);

/** The pre-1.0 merger's place, `[<main>.xml:12, <lib>.xml:3]`, opens the line. */
function hasXmlPlace(trimmed: string): boolean {
  const close = trimmed.indexOf('] ');
  return close > 0 && trimmed.lastIndexOf('.xml', close) > 0;
}

/** The level the pre-1.0 merger gave a record whose copy lost its `Error:`/`Warning:`. */
function legacyMergerSeverity(message: string): DiagnosticSeverity {
  return LEGACY_MERGER_ERROR.test(message) ? 'error' : 'warning';
}

/** A sentence's last word with the next record glued after its period: `file./p/res/a.png: Original is here.` */
const GLUED_RECORD_AFTER_SENTENCE = /^([^\s:]*\.)((?:[A-Za-z]:)?[\\/][^\s:]+: \S.*)$/;

/**
 * Patterns start `^\s*(.+?)…`, so every character of indentation is one more place the path group can begin:
 * a line of thousands of spaces costs that squared. No real indentation is this deep except a caret under a
 * long source line, which keeps its column (only the pending javac message reads it, with linear patterns).
 */
function capIndent(line: string, caretExpected: boolean): string {
  if (line.length <= MAX_INDENT_CHARS) return line;
  const c = line.charCodeAt(0);
  if (c > 32 && c < 127) return line;
  const indent = line.length - line.trimStart().length;
  if (indent <= MAX_INDENT_CHARS || (caretExpected && CARET.test(line))) return line;
  return line.slice(indent - MAX_INDENT_CHARS);
}

/** A D8/R8 message printed with no level: its wording says when D8 reports it as a warning. */
/** The levels of a `--debug` / `--info` log line that report progress, not problems. */
const INFO_LOG_LEVEL = /^(?:INFO|DEBUG|info|debug)$/;

function d8Severity(message: string, otherwise: DiagnosticSeverity): DiagnosticSeverity {
  return D8_WARNING_WORDING.test(message) ? 'warning' : otherwise;
}

/**
 * One space for every run of blanks: the manifest merger puts a tab inside some of its lines (`at AndroidManifest.xml
 * \tand place it`), and a paste may turn its tabs into runs of spaces.
 */
function singleSpaced(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** More `[` than `]` (or the pair given) in a text: a bracketed list or aside left open. */
function opensBracket(text: string, open = '[', close = ']'): boolean {
  let depth = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === open) depth++;
    else if (c === close && depth > 0) depth--;
  }
  return depth > 0;
}

/**
 * A message copied out of a JSON record with its escapes left as text (`\u003cView attr\u003e …\n\nIf a binding …`):
 * read back, up to the blank line that starts its next paragraph. Text without escapes is returned as it is.
 */
function firstParagraphOfEscapedText(text: string): string {
  if (!text.includes('\\u00') && !text.includes('\\n')) return text;
  try {
    const decoded: unknown = JSON.parse(`"${text.replace(/"/g, '\\"')}"`);
    return typeof decoded === 'string' ? decoded.split(/\n\s*\n/)[0]!.trim() : text;
  } catch {
    return text;
  }
}

/**
 * A failure block printed (or pasted) with every line indented: its lines with the common indentation removed. A
 * markdown list item indents the headline and its causes but not the paragraphs after them: then the headline's.
 */
function dedent(lines: BlockLine[]): BlockLine[] {
  let common = Number.POSITIVE_INFINITY;
  for (const l of lines) if (l.text.trim() !== '') common = Math.min(common, l.text.length - l.text.trimStart().length);
  if (common === 0) {
    const headline = lines.find((l) => l.text.trim() !== '')!.text;
    common = headline.length - headline.trimStart().length;
  }
  if (common === 0 || common === Number.POSITIVE_INFINITY) return lines;
  return lines.map((l) => ({
    text: l.text.slice(Math.min(common, l.text.length - l.text.trimStart().length)),
    consumed: l.consumed,
  }));
}

/** A line that is no advice of `* Try:`: a sentence or a tool's `error: ` (the advice's own rest starts in lower case). */
const AFTER_TRY_ADVICE = /^(?:[A-Z](?!un with |et more help )|[a-z]\w*: )/;

/** `:feature:home:processDebugResources` → `feature/home` (the module's directory under the default layout). */
function moduleDirOf(task: string | null): string | null {
  if (!task) return null;
  const parts = task.split(':').filter((p) => p !== '');
  return parts.length >= 2 ? parts.slice(0, -1).join('/') : null;
}

/**
 * The width of an indentation as a reader sees it, tabs to the next stop of 4: an editor that turned a log's
 * indentation into tabs (or back) keeps the nesting it shows.
 */
function visualWidth(indent: string): number {
  let width = 0;
  for (let k = 0; k < indent.length; k++) width = indent.charCodeAt(k) === 9 ? width + 4 - (width % 4) : width + 1;
  return width;
}

function indentOf(line: string): number {
  const m = /^\s*/.exec(line)![0];
  return m.replace(/\t/g, ' ').length;
}

type Section = 'none' | 'what-went-wrong' | 'where' | 'other';
type Diagnostic = Omit<BuildDiagnostic, 'message'> & { message: string };

/** An AAPT line a console cut at its width: the rows read so far, and whether they already make `<path>: AAPT: …`. */
interface ConsoleCut {
  text: string;
  rows: number;
  /** The last row's length: a full row went on mid-word, one a column short lost a space at the break. */
  lastRow: number;
  aapt: boolean;
}

interface BlockLine {
  readonly text: string;
  consumed: boolean;
}

interface PendingJavac {
  readonly severity: DiagnosticSeverity;
  readonly source: DiagnosticSource;
  readonly file: string | null;
  readonly line: number | null;
  message: string;
  readonly task: string | null;
  readonly indent: number;
  /** The message line ended in a space: a terminal cut it at its width, the rest is on the next line. */
  cutAtWidth?: boolean;
  /** `e` or `w` when kapt put its prefix before javac's location line. */
  readonly kaptLetter: string | null;
  readonly details: string[];
  column: number | null;
  linesBeforeCaret: number;
  /** The line taken as javac's source echo. */
  echo?: string;
  /** Length of the location line as read: a console cuts its lines at its width (80 columns and more). */
  readonly headerLength?: number;
  /** The message's last line as read filled a console's row: the console may have cut it, its rest on the next line. */
  rowGoesOn?: boolean;
  blankLines: number;
  sawCaret: boolean;
  /** A blank line came after the caret: only a `symbol:`/`location:` line may still follow. */
  blankAfterCaret?: boolean;
  /** In such a spaced log, the blank line after a `symbol:` line, before its `location:`. */
  blankAfterDetail?: boolean;
  /** kapt wrapped the lines after the message (it may print the first one bare). */
  kaptWrapped: boolean;
  /** JDK 6's location line had no level word: only the caret javac prints under its echo shows it was javac's. */
  readonly needsCaret?: boolean;
  /** The lines read of `cannot access X`'s `bad source file:` (or class file) reason, which follow it deeper. */
  badFileLines?: number;
  /** The location line ended at its level word: the line after it was taken as the message. */
  messageOnNextLine?: boolean;
}

interface PendingMultiline {
  readonly base: Diagnostic;
  readonly lines: string[];
  /** Unindented lines that continue the message (the tool prints its message's line breaks raw). */
  readonly unindented?: RegExp;
  /** False when indented lines after it are something else (the stack of the exception AGP logged with it). */
  readonly indented?: boolean;
  /** A dependency Gradle could not find: of its detail lines only the `Required by:` list says something. */
  readonly dependency?: boolean;
  /** A blank line held back after the merger's `is also present at …`: its `Suggestion:` may follow it. */
  heldBlank?: boolean;
  /** An indented message whose own paragraphs are split by a blank line (AGP's namespace advice). */
  readonly paragraphs?: boolean;
  /** Read from a stack's exception chain: the failure report, when the log has it, says the same. */
  readonly fromStack?: boolean;
  /** The first line of a paragraph the tool prints after a blank line inside the same message. */
  readonly paragraphAfterBlank?: RegExp;
  /** Only lines indented deeper than this continue the message (a compiler's message wrapped under its `e: `). */
  readonly deeperThan?: number;
  /** The merger's located record (`<path> Error:`). */
  readonly mergerRecord?: boolean;
  /**
   * The message's detail lines come behind the prefix a relay put before each line of the tool's stderr (AAPT 1's
   * `AAPT: `): a line whose text after it is indented is one, and one blank line may come before the first.
   */
  readonly relayed?: RegExp;
  /** A blank line came right under the record's header: the console relaying it puts one after every line. */
  doubleSpaced?: boolean;
  /** Blank lines in a row held in a double-spaced record. */
  blankRun?: number;
  /** A blank line held back under a merger message: only the merger's own detail line goes on after it. */
  detailAfterBlank?: boolean;
}

/** R8's `Warning in <origin>[ at <position>]:` line, waiting for its message on the next line. */
interface R8OriginHeader {
  readonly severity: DiagnosticSeverity;
  readonly origin: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly task: string | null;
}

interface PendingTest {
  readonly className: string;
  readonly method: string;
  readonly task: string | null;
  readonly lines: string[];
  /** Gradle prints a blank line between the stack and its indented `Caused by:`. */
  blankLines: number;
  /** From a build's own logger: its stack is printed unindented. */
  readonly printedStack?: boolean;
  /** How the event path joins class and test: ` > `, or `.` for a test whose parent is not its class. */
  readonly joiner?: string;
  /** The failure's message when no exception line follows (a JUnit XML `message` attribute). */
  readonly fallback?: string;
}

export class GradleOutputParser {
  private readonly diagnostics: BuildDiagnostic[] = [];
  /** Dedup keys of the diagnostics kept, with each one's index. */
  private readonly seen = new Map<string, number>();
  private readonly seenLocated = new Set<string>();
  /** The dedup key of the last diagnostic kept. */
  private lastKey: string | null = null;
  private readonly projectRoot: string | null;
  private currentTask: string | null = null;
  /** The project a `> Configure project :x` line named, until a task's line: its warnings are that module's. */
  private configuringProject: string | null = null;
  /** How many diagnostics there were at the last task header. */
  private diagnosticsAtTaskLine = 0;
  private truncatedCount = 0;

  private section: Section = 'none';
  /** A failure block that began with `Execution failed for task` and no `* What went wrong:` header. */
  private implicitBlock = false;
  /** The task whose `FAILED` line a headline-less implicit block's first cause came right after. */
  private implicitBlockTask: string | null = null;
  private block: BlockLine[] = [];
  private where: { file: string | null; line: number | null } | null = null;
  /** AAR-metadata item being collected inside a failure block. */
  private aarItem: { lines: string[] } | null = null;
  private inAarList = false;

  /** The level a Maven or Gradle `--debug` log gave the current line (`ERROR`, `WARNING`), or null. */
  private lineLevel: string | null = null;
  /** The file Studio's Messages view named on its own line above the `Error:(l, c)` lines that follow. */
  private studioFile: string | null = null;
  /** The source file whose node Studio's Build window tree, copied as text, showed last (its messages follow). */
  private studioTreeFile: string | null = null;
  /** `task|message` of failure headlines reported with no cause under them (a headline pasted on its own). */
  private readonly causelessHeadlines = new Set<string>();
  /** Indexes of the diagnostics read from stack lines (addFromStack). */
  private readonly failureFromStack = new Set<number>();
  /** Tasks whose failure block listed its causes: a lone copy of the same headline is that failure again. */
  private readonly tasksWithCauses = new Set<string>();
  /** Tasks whose manifest merger errors were reported with their location: the failure block repeats them. */
  private readonly manifestLocatedTasks = new Set<string | null>();
  /** Inside a log quoted in markdown, every line of which starts with `> `. */
  private markdownQuote = false;
  /** Inside a log pasted as an HTML `<pre><code>` block. */
  private htmlCode = false;
  /** The line that opened the HTML block: its tags came off, so its wrapper prefix is read again. */
  private htmlFirstLine = false;
  /** Android Studio's `Error:(12, 0) msg`, waiting for the `<a href="openFile:…">` line that names its file. */
  private pendingStudio: Diagnostic | null = null;
  /** javac's `symbol:`/`location:` lines Studio copies under its message (unindented), read into it. */
  private studioDetails: string[] = [];
  /** The indented lines under a caret no javac message claimed (its location line lost in a paste); null when none. */
  // A paste can start under the caret, its location line and echo left out.
  private strayCaretLines: string[] | null = [];
  /** The stray lines were read from the paste's start, not from under a caret: what came first may be anything. */
  private strayFromPasteStart = true;
  /** After kapt relayed a javac message behind `e: `: its indented `e: ` lines that follow are the rest of it. */
  private kaptRelayOpen = false;
  /** True after a config-cache problem header until its bullet list ends. */
  private inCcList = false;
  /** Causes read so far whose `> ` markers were lost in pasting (their nesting, for the next such line). */
  private lostMarkerDepth = 0;
  /** The indent of a leaf cause whose `> ` was lost, for the unindented detail lines under it; null when none. */
  private lostMarkerDetails: string | null = null;
  /**
   * Gradle's `Configuration cache problems found in this build.` headline, or a numbered failure's `N: Task failed with an
   * exception.`, was read outside a failure block: a problem list right under it failed the build.
   */
  private ccFailureHeadline = false;
  /** The severity of the config-cache list being read when its headline decided it. */
  private ccListSeverity: DiagnosticSeverity | null = null;
  /** Where the config-cache problems listed outside a failure block are, while failure causes may still follow them. */
  private ccListedOutsideBlock: number[] = [];
  private pendingJavac: PendingJavac | null = null;
  private pendingMultiline: PendingMultiline | null = null;
  private pendingTest: PendingTest | null = null;
  /** A data binding error report read until its end marker: the text after its start marker, line by line. */
  private pendingDataBinding: { readonly parts: string[]; readonly task: string | null } | null = null;
  /** Severity of the last `ERROR: R8:` / `WARNING: R8:` line; the `Missing class` lines after it share it. */
  private r8Severity: DiagnosticSeverity = 'error';
  /** R8's `Warning in <origin>:` / `Error in <origin>:` line: its message is the next line. */
  private r8OriginHeader: R8OriginHeader | null = null;
  /** dx's crash banner was the last line: the task it ran in; the throwable it names comes next. */
  private dxCrashTask: string | null | undefined = undefined;
  /** Set once kapt reported a javac error: its `e: ` lines that follow are kapt's too. */
  private kaptContext = false;
  /** Kotlin/Native just reported a crash of its own (`Compilation failed: …`): the exception it rethrows comes next. */
  private nativeCrashReported = false;
  /** A javac location printed alone on its line (`<path>.java:3:`), waiting for the `error: …` line under it. */
  private javacLocationOnly: string | null = null;
  /** Set by `BUILD FAILED in 16s`: Gradle prints nothing after it, so an unlocated `ERROR:` is its wrapper's (JitPack). */
  private buildEnded = false;
  /** What followed a caret on its own line, to be read as the next line. */
  private carriedLine: string | null = null;
  /** The line before this one, for a path the terminal wrapped onto two lines. */
  private previousLine: string | null = null;
  /** The class a build's own test logger last named (`SUITE: …`). */
  private loggedSuite: string | null = null;
  /** `am instrument`'s short failure message, reported unless its long message is the next line. */
  private instrumentationShortMessage: { message: string; task: string | null } | null = null;
  /** gcloud's `ERROR: (gcloud.firebase.test.…)` with nothing after it: its message is the next line. */
  private gcloudTestError: { task: string | null } | null = null;
  /** Inside the outcome table `gcloud firebase test android run` prints at a matrix's end. */
  private inTestLabOutcomes = false;
  /** Inside what a test printed (the lines under a `STANDARD_OUT`/`STANDARD_ERROR` event). */
  private inTestOutput = false;
  /** A list of failed tests in another runner's words, read until it ends. */
  private testListing: 'none' | 'text-listener' | 'platform' | 'xml' | 'studio' | 'am-status' = 'none';
  /** `am instrument -r`'s status bundle being read: its keys, a value going on over the lines after its key's. */
  private amStatus: { readonly values: Map<string, string[]>; key: string | null } | null = null;
  /** The `<testcase>` a JUnit XML `<failure>` element belongs to. */
  private xmlTestCase: { readonly name: string; readonly className: string } | null = null;
  /** Tests already reported, by name and place: a test run twice in one log failed once as far as a fix goes. */
  private readonly reportedTests = new Set<string>();
  private currentLine: string | null = null;
  /** Lines read so far: tells a line right after another from one further down. */
  private lineCount = 0;
  /**
   * AAPT2's unlocated errors on consecutive lines (one per reference it could not resolve): the line the last was read
   * on, and where their run started in the list, so the same message again inside the run is another reference.
   */
  private aaptRun: { line: number; start: number } | null = null;
  /** The line that gave the last diagnostic, and where it is: a terminal may have wrapped its message. */
  private lastAdded: { line: string | null; index: number } | null = null;
  /** A lint line cut at the terminal's width before its `[IssueId]` ended, waiting for the rest on the next line. */
  private heldLintLine: string | null = null;
  /** A merger duplicate a console wrapped inside its second path: held until the next line ends the record. */
  private heldDuplicateHead: string | null = null;
  /**
   * javac's message read without its location line: the rows after it that may be its echo and caret, and a location
   * alone a reporter moved below them, which place it.
   */
  private unplacedJavac: { index: number; rows: number; column: number | null } | null = null;
  /** False after a task line that said its task did not run (`UP-TO-DATE`, `FROM-CACHE`, …). */
  private currentTaskRan = true;
  /** A data binding report squashed onto a failure's headline line, read after that failure. */
  private dataBindingAfterBlock: { text: string; task: string | null } | null = null;
  /** An AAPT line Windows' console cut at its width, waiting for its rows. */
  private heldConsoleCut: ConsoleCut | null = null;
  /**
   * A D8/R8 origin's path a console of any width cut at its edge (`…/BuildConfig.de` / `x: D8: Type … is defined …`):
   * the rows read so far, and the width of the first, which every row the message goes on over fills too.
   */
  private heldD8Cut: { text: string; width: number; rows: number } | null = null;
  /** A K1 location a terminal wrapped inside its parentheses (`…/A.kt: (95,` / `16): msg`): the row before the break. */
  private heldKotlinPositionCut: string | null = null;
  /** A merger record's header a console cut inside its position, waiting for the row with its severity. */
  private heldManifestHead: string | null = null;
  /**
   * AAPT 1's 9-patch report word-wrapped by where it was pasted, its stdout's progress glued before it: `… to cache:
   * <path>ERROR:`, then `9-patch image <path>`, then `malformed.`. The lines read so far and the report they make.
   */
  private heldNinePatch: { readonly lines: string[]; readonly report: string } | null = null;
  /** The pre-1.0 merger's `[<main>, <lib>:2]` alone on its line: its message is the next line. */
  private heldLegacyMergerPlace: { readonly file: string; readonly line: number | null } | null = null;
  /** The start of a `* Where:` location a terminal cut at its width, waiting for its rest on the next line. */
  private whereFragment: string | null = null;
  /** Set by Studio's bare `Build file '…' line: N`: the next line is a failure headline. */
  private headlineExpected = false;
  /** The task of the last failure block, for the bare `error:` lines printed after it. */
  private lastFailedTask: string | null = null;
  /** Set by the first line with text: only that one can start inside a wrapper's column an excerpt cut through. */
  private sawText = false;
  /** A Java exception's first line with no tool's prefix, until its frames say whether KSP reported it. */
  private exceptionWithoutTag: { message: string; task: string | null } | null = null;
  /** A failure report (its `* What went wrong:` or `* Try:`) was read: the exceptions in stacks only repeat it. */
  private failureReportRead = false;
  /** Diagnostics of failures named outside a report, dropped at the end when the log has the report. */
  private readonly namedOutsideReport = new Set<number>();
  /** Inside the stack of an exception that named a failure: its `Caused by:` chain is the same failure. */
  private inNamedStack = false;
  /** The `other` section is `* Try:`'s advice. */
  private tryAdvice = false;
  /** The line after `* Exception is:`, which is the exception Gradle wrapped the failure in. */
  private exceptionSectionStart = false;
  /** Diagnostics read from a stack's exception chain, with the sentence a report's diagnostic would repeat. */
  private readonly fromStack = new Map<number, string>();
  /** Below the rich console's progress bar: its `> …` lines are the workers' status. */
  private inProgressArea = false;
  /** Takes off what a paste put around every line of the log before any line is read. */
  private readonly frame = new PasteFrameReader((line) => this.pushUnframed(line));

  constructor(options: GradleOutputParserOptions = {}) {
    const root = options.projectRoot?.replace(/\\/g, '/').replace(/\/+$/, '');
    this.projectRoot = root ? root : null;
  }

  /** Reads one line of the log (without its line break). */
  push(rawLine: string): void {
    this.frame.push(rawLine);
  }

  /** A line with the paste's frame around the whole log taken off (paste-frame.ts). */
  private pushUnframed(rawLine: string): void {
    // An excerpt of a `flutter run -v` log can start inside the time column (` ] Execution failed …`).
    if (!this.sawText && rawLine.trim() !== '') {
      this.sawText = true;
      if (rawLine.includes('] ')) rawLine = rawLine.replace(CUT_VERBOSE_COLUMN, '');
    }
    // Flutter's verbose log starts every line with its `[  +21 ms] ` column: one found after other text begins a line
    // whose break was lost (`… line: 24[  +21 ms] * What went wrong:`).
    let rest = rawLine;
    for (let k = 0; k < 16 && gluedPrefixAfterStart(rest); k++) {
      const glued = FLUTTER_PREFIX_GLUED.exec(rest);
      if (!glued) break;
      this.pushUnglued(rest.slice(0, glued.index + 1));
      rest = rest.slice(glued.index + 1);
    }
    // The same for a timestamp the CI agent put before each line, found again after the line's text.
    if (rest.charCodeAt(0) <= 57 && rest.includes('Z: ', 20) && AGENT_TIMESTAMP_START.test(rest))
      for (let k = 0; k < 16; k++) {
        const glued = AGENT_TIMESTAMP_GLUED.exec(rest.slice(1));
        if (!glued) break;
        this.pushUnglued(rest.slice(0, glued.index + 1));
        rest = rest.slice(glued.index + 1);
      }
    // The same for the `exception: ` the Kotlin plugin puts before each line of a compiler run it relays.
    const relay = 'exception: '.length;
    for (let k = 0; k < 16 && rest.startsWith('exception: ') && rest.includes('exception: ', relay); k++) {
      const glued = RELAY_PREFIX_GLUED.exec(rest.slice(relay));
      if (!glued) break;
      this.pushUnglued(rest.slice(0, relay + glued.index));
      rest = rest.slice(relay + glued.index);
    }
    this.pushUnglued(rest);
  }

  private pushUnglued(rawLine: string): void {
    // A log carried inside a JSON string (a bot's or a CI tool's report) has its line breaks as literal `\n`: one
    // line per break, when a break is followed by a line only Gradle's failure report starts with.
    if (rawLine.length > 20 && rawLine.includes('\\n') && ESCAPED_LOG_BREAK.test(rawLine)) {
      for (const part of rawLine.replace(/^`+|`+$/g, '').split('\\n')) this.pushLine(part);
      return;
    }
    // A whole failure report pasted onto one line (a blog's or a phone's reflow): one line per `* …:` section.
    if (
      rawLine.length > 40 &&
      (rawLine.includes('What went wrong:') || rawLine.includes(' Try:')) &&
      SQUASHED_REPORT.test(rawLine)
    ) {
      for (const part of rawLine.split(SQUASHED_SECTION_BREAK)) {
        // A cause squashed with the causes nested under it (`> A failure occurred … > Compilation error …`).
        const causes = part.startsWith('> ') ? part.split(/\s+> (?=\S)/) : [part];
        for (let k = 0; k < causes.length && k < 16; k++)
          this.pushLine(k === 0 ? causes[0]! : `${'   '.repeat(k)}> ${causes[k]}`);
      }
      return;
    }
    // A failed test's line with the exception line Gradle prints under it joined on (an editor's reflow): two lines.
    const testWithCause =
      rawLine.includes(' FAILED ') && rawLine.includes(' at ') ? TEST_FAILED_CAUSE_JOINED.exec(rawLine) : null;
    if (testWithCause) {
      this.pushLine(testWithCause[1]!);
      this.pushLine(`    ${testWithCause[2]!}`);
      return;
    }
    if (rawLine.length > 40 && rawLine.includes('] FAILED ') && SQUASHED_TEST_RUN.test(rawLine)) {
      for (const part of rawLine.split(SQUASHED_TEST_RUN_BREAK)) this.pushLine(part);
      return;
    }
    this.pushLine(rawLine);
  }

  private pushLine(rawLine: string, mayHold = true): void {
    // A digit first: the cheap test before the pattern, on every line.
    if (rawLine.charCodeAt(0) <= 57 && (BUILD_SERVER_LOG.test(rawLine) || VIEWER_LINE_NUMBER.test(rawLine))) return;
    let line = capIndent(stripWrapperPrefixes(rawLine), this.pendingJavac !== null);
    // The test runner's own lines in a logcat copy are its report of the tests: read without logcat's columns (other
    // tags' lines are the app's and the system's, not the build's).
    if (line.includes('TestRunner') && (line.charCodeAt(0) <= 57 || line.charCodeAt(1) === 47)) {
      const runner = LOGCAT_TEST_RUNNER.exec(line);
      if (runner !== null) line = runner[1]!;
    }
    if (line.length < 40 && line.includes(' GMT') && VIEWER_TIME_LINE.test(line)) return;
    if (
      (line.includes(' failed with ') || line.includes('Run script build phase ')) &&
      XCODE_BUILD_SYSTEM_LINE.test(line)
    )
      return;
    // Copied out of an HTML table (Android Studio's build view pasted into an issue): each row ends in ` |` and the
    // rows are separated by `-- | --`.
    if (line.includes('|')) {
      if (TABLE_RULE.test(line)) return;
      line = line.replace(/\s+\|\s*$/, '');
    }
    if (line.charCodeAt(0) > 0x2000 && STUDIO_LOCALIZED_LEVEL.test(line))
      line = line.replace(STUDIO_LOCALIZED_LEVEL, (word) => (word === '错误:' ? 'Error:' : 'Warning:'));
    if (line.endsWith('>') && HTML_LINE_BREAK.test(line))
      line = xmlText(line.replace(HTML_LINE_BREAK, '').replace(HTML_TAG, ''));
    if (line.includes('](')) line = line.replace(MARKDOWN_LINKED_LOCATION, '$1$2');
    if (line.length <= 8 && PASTE_MARKUP_LINE.test(line)) line = '';
    // A log pasted as HTML: from its `<pre><code>` to its `</code></pre>`, the tags go and the text is unescaped.
    if (line.charCodeAt(0) === 60 && HTML_CODE_OPEN.test(line)) {
      this.htmlCode = true;
      this.htmlFirstLine = true;
      line = line.replace(HTML_CODE_OPEN, '');
    }
    if (this.htmlCode) {
      const tagged = line;
      if (line.includes('</pre>') && HTML_CODE_CLOSE.test(line)) {
        this.htmlCode = false;
        line = line.replace(HTML_CODE_CLOSE, '');
      }
      line = decodeHtmlEntities(line);
      // What the tags and escapes hid can be a wrapper's prefix; a line they did not touch was stripped already.
      if (line !== tagged || this.htmlFirstLine) line = stripWrapperPrefixes(line);
      this.htmlFirstLine = false;
    }
    // A log pasted into an issue as a markdown quote has `> ` on every line: from the first line that only a
    // quote explains (`> FAILURE:`, `> > Task :`), one level is removed until the quote ends.
    if (this.markdownQuote) {
      if (line.startsWith('>')) line = stripWrapperPrefixes(line.replace(/^> ?/, ''));
      else if (line.trim() !== '') this.markdownQuote = false;
    } else if (
      line.startsWith('> ') &&
      (MARKDOWN_QUOTED.test(line) || (this.section === 'none' && QUOTED_HEADLINE.test(line)))
    ) {
      this.markdownQuote = true;
      // A wrapper's prefix (a CI runner's time) inside the quote is the log's own.
      line = stripWrapperPrefixes(line.slice(2));
    }
    // Gradle puts a space after every `>` it prints: `>Execution failed …`, `>/p/A.kt: …` quote that line alone.
    if (line.charCodeAt(0) === 62 && /^>[A-Za-z/]/.test(line)) line = line.slice(1);
    // The Flutter tool's own status line, which a console can interleave with every line Gradle prints.
    if (line.includes('Running Gradle task ') && FLUTTER_GRADLE_STATUS.test(line)) return;
    if (this.inNamedStack && !/^\s*(?:at |\.\.\. \d+ more|Caused by: )/.test(line)) this.inNamedStack = false;
    if (line.charCodeAt(0) === 60 && PROGRESS_BAR.test(line)) {
      this.inProgressArea = true;
      return;
    }
    if (this.inProgressArea) {
      if (line.startsWith('> ')) return;
      this.inProgressArea = false;
    }
    // A lint line a terminal cut at its width before its `[IssueId]` ended: held until the next line says.
    if (this.heldLintLine !== null) {
      const held = this.heldLintLine;
      this.heldLintLine = null;
      const rest = line.trim();
      if (/^[\w[]*\]$/.test(rest))
        line = held.length >= WINDOWS_CONSOLE_WIDTH || !rest.startsWith('[') ? held + rest : `${held} ${rest}`;
      else this.pushLine(held, false);
    }
    if (this.heldDuplicateHead !== null) {
      const held = this.heldDuplicateHead;
      this.heldDuplicateHead = null;
      // The wrap falls at the console's width, inside a word: the rest joins without a space.
      if (!/^\s/.test(line) && DUPLICATE_RESOURCES_TAIL.test(line) && !line.includes('] ')) line = held + line;
      else this.pushLine(held, false);
    }
    if (this.heldManifestHead !== null) {
      const held = this.heldManifestHead;
      this.heldManifestHead = null;
      // The cut fell inside the position: the rest goes on without a space (`…:19:5-6` / `5 Error:`).
      if (MANIFEST_HEAD_REST.test(line) && MANIFEST_LOCATED.test(held + line)) line = held + line;
      else this.pushLine(held, false);
    }
    if (this.heldNinePatch !== null) {
      const held = this.heldNinePatch;
      this.heldNinePatch = null;
      const rest = line.trim();
      const fits = held.lines.length === 1 ? /^9-patch image \S+$/.test(rest) : rest === 'malformed.';
      if (!fits) for (const heldLine of held.lines) this.pushLine(heldLine, false);
      else if (held.lines.length === 1) {
        this.heldNinePatch = { lines: [...held.lines, line], report: `${held.report} ${rest}` };
        return;
      } else line = `${held.report} ${rest}`;
    }
    if (this.heldLegacyMergerPlace !== null) {
      const held = this.heldLegacyMergerPlace;
      this.heldLegacyMergerPlace = null;
      const message = line.trim();
      if (message !== '' && !message.startsWith('[')) {
        this.add({
          severity: legacyMergerSeverity(message),
          source: 'manifest',
          ...held,
          column: null,
          message,
          task: this.currentTask,
        });
        return;
      }
    }
    if (this.heldConsoleCut !== null) {
      const held = this.heldConsoleCut;
      this.heldConsoleCut = null;
      const joined = this.joinConsoleCut(held, line);
      if (joined === null) this.pushLine(held.text, false);
      else if (joined.rows < 6 && line.length >= WINDOWS_CONSOLE_WIDTH - 1 && !/[.)]$/.test(line)) {
        // The message ran to the console's edge too: its rest is on the next row.
        this.heldConsoleCut = joined;
        return;
      } else line = joined.text;
    }
    if (this.heldKotlinPositionCut !== null) {
      const held = this.heldKotlinPositionCut;
      this.heldKotlinPositionCut = null;
      if (/^\s*\d+\): /.test(line)) line = `${held} ${line.trimStart()}`;
      else this.pushLine(held, false);
    }
    if (this.heldD8Cut !== null) {
      const held = this.heldD8Cut;
      this.heldD8Cut = null;
      const text = held.text + line;
      if (held.rows === 1 ? D8_ORIGIN.test(text) : /^\S/.test(line)) {
        if (line.length === held.width && held.rows < 8) {
          this.heldD8Cut = { text, width: held.width, rows: held.rows + 1 };
          return;
        }
        line = text;
      } else this.pushLine(held.text, false);
    }
    if (mayHold && line.endsWith(',') && KOTLIN_K1_POSITION_CUT.test(line)) {
      this.heldKotlinPositionCut = line;
      return;
    }
    // A long path alone on its row, no space in it: a console may have cut it before its `: D8: ` message.
    if (mayHold && line.length >= 100 && line.charCodeAt(0) !== 32 && !line.includes(' ') && PATH_HEAD.test(line)) {
      this.heldD8Cut = { text: line, width: line.length, rows: 1 };
      return;
    }
    // An 80-column row is held for AAPT's rest first (its join takes the merger's rest too).
    if (
      mayHold &&
      line.length >= 60 &&
      line.length !== WINDOWS_CONSOLE_WIDTH &&
      line.includes('.xml:') &&
      MANIFEST_HEAD_CUT.test(line)
    ) {
      this.heldManifestHead = line;
      return;
    }
    if (
      mayHold &&
      line.length === WINDOWS_CONSOLE_WIDTH &&
      !line.includes(': AAPT: ') &&
      CONSOLE_CUT_AAPT_PATH.test(line)
    ) {
      // A task name glued before the path is the task's own line, printed without its break.
      const glued = GLUED_TASK_NAME.exec(line)?.[0];
      if (glued !== undefined) this.pushLine(glued, false);
      const text = glued === undefined ? line : line.slice(glued.length);
      this.heldConsoleCut = { text, rows: 1, lastRow: line.length, aapt: false };
      return;
    }
    if (mayHold && line.endsWith('ERROR:') && !/^\s*ERROR:$/.test(line)) {
      this.heldNinePatch = { lines: [line], report: 'ERROR:' };
      return;
    }
    let place: RegExpExecArray | null;
    if (mayHold && line.includes('.xml') && line.trimEnd().endsWith(']') && (place = LEGACY_MERGER_PLACE.exec(line))) {
      this.heldLegacyMergerPlace = { file: place[1]!, line: place[2] ? Number(place[2]) : null };
      return;
    }
    if (mayHold && line.length >= 60 && line.includes('] ') && WRAPPED_DUPLICATE_HEAD.test(line)) {
      this.heldDuplicateHead = line;
      return;
    }
    if (
      mayHold &&
      line.length >= 79 &&
      (line.includes(': Error: ') || line.includes(': Warning: ')) &&
      !line.endsWith(']') &&
      LINT_CUT_BEFORE_ID.test(line)
    ) {
      this.heldLintLine = line;
      return;
    }
    this.previousLine = this.currentLine;
    this.currentLine = line;
    this.lineCount++;
    if (this.lastAdded !== null && this.continuesWrappedMessage(line)) return;
    // Maven's `[ERROR] ` (the Android Maven plugin), sbt's `[warn] ` (sbt-android) and Gradle's `--debug`
    // `[ERROR] [org.gradle.…] ` before every line.
    const level = line.startsWith('[') ? LOG_LEVEL_PREFIX.exec(line) : null;
    this.lineLevel = level ? level[1]! : null;
    if (level) line = line.slice(level[0].length);
    if (line.startsWith('Exit code: ')) line = line.replace(JAVADOC_EXIT_CODE, '');
    const teamCityTask = line.startsWith('[:') ? TEAMCITY_TASK_PREFIX.exec(line) : null;
    if (teamCityTask) {
      this.currentTask = teamCityTask[1]!;
      line = line.slice(teamCityTask[0].length);
    }
    // What a test printed is the program's output, whatever it says (a stack, a `WARNING:`): indented under its event.
    if (this.inTestOutput) {
      if (line.trim() === '' || /^\s/.test(line)) return;
      this.inTestOutput = false;
    }
    if (line.includes('STANDARD_') && TEST_OUTPUT_EVENT.test(line)) {
      this.flushPending();
      this.inTestOutput = true;
      return;
    }
    if (
      this.testListing === 'none' &&
      line.startsWith(AM_STATUS_PREFIX) &&
      !line.startsWith(`${AM_STATUS_PREFIX}Error=`)
    ) {
      this.flushPending();
      this.testListing = 'am-status';
      this.amStatus = { values: new Map(), key: null };
    }
    if (this.testListing !== 'none') {
      const listed = this.readTestListing(line);
      if (listed === null) return;
      line = listed;
    }
    if (line.endsWith('\t') && this.section === 'none' && this.readStudioTreeRow(line.trim())) return;
    if (this.section === 'none' && !this.pendingJavac && !this.pendingMultiline) {
      // Also behind a reporter's markdown `> ` or list bullet, with the project's part of the path cut off.
      const path = studioFileRow(line);
      if (path !== null) {
        this.studioFile = path;
        return;
      }
    }
    // javac's `symbol:`/`location:` lines under a Studio message are its own (javac's other details after the caret are
    // not copied with it), and the file's group goes on after them.
    const studioDetail = this.pendingStudio?.source === 'javac' ? JAVAC_DETAIL.exec(line) : null;
    if (studioDetail) {
      this.studioDetails.push(`${studioDetail[1]}: ${studioDetail[2]!.trim()}`);
      return;
    }
    // javac's `where T is a type-variable:` clause under a message stays in the file's group; copied out of the
    // Messages tree, a file's messages may keep the indentation that nests them under it.
    if (this.studioFile !== null) {
      const unindented = line.trimStart();
      // The build view's rows keep javac's level word and drop the position (`error: cannot find symbol variable X`).
      const row = this.studioFile.endsWith('.java') ? STUDIO_TREE_LEVEL.exec(unindented) : null;
      if (row)
        return void this.add({
          severity: severityOf(row[1]!),
          source: 'javac',
          file: this.studioFile,
          line: null,
          column: null,
          message: row[2]!,
          task: this.currentTask,
        });
      if (
        !unindented.startsWith('Error:(') &&
        !unindented.startsWith('Warning:(') &&
        !JAVAC_WHERE_CLAUSE.test(line) &&
        !(unindented.startsWith('Error: ') && MERGER_FILE_NAME_CHECK.test(unindented.slice(7).trim()))
      )
        this.studioFile = null;
    }
    // A markdown bullet in front of a pasted diagnostic (`* res/values/values.xml:33:5-494: AAPT: error: …`).
    if (this.section === 'none' && line.startsWith('* ') && !GRADLE_SECTION.test(line)) line = line.slice(2);
    if (this.pendingStudio) {
      const link = STUDIO_OPEN_FILE.exec(line);
      const { studio, message } = this.takeStudio();
      if (!link && DEPENDENCY_NOT_FOUND.test(message)) this.pendingDependency({ ...studio, message });
      else this.add(link ? { ...studio, message, file: link[1]! } : { ...studio, message });
      if (link) return;
    } else if (line.startsWith('<a href="openFile:')) {
      // Studio's `Open File` link under an unlocated message (`Error:Failed to resolve: …`) names its file.
      const link = STUDIO_OPEN_FILE.exec(line);
      if (link && this.nameFileOfLast(link[1]!)) return;
    }
    if (this.continuePending(line)) {
      const carried = this.carriedLine;
      this.carriedLine = null;
      if (carried !== null) this.pushUnframed(carried);
      return;
    }

    if (this.javacLocationOnly !== null) {
      const location = this.javacLocationOnly;
      this.javacLocationOnly = null;
      if (JAVAC_LEVEL_ONLY.test(line)) {
        // The paste's own indentation is the lesser of the two rows' (the caret's column is counted from it).
        const indent = ' '.repeat(Math.min(indentOf(location), indentOf(line)));
        this.pushUnframed(`${indent}${location.trim()} ${line.trim()}`);
        return;
      }
    }
    // (javac's location line ends with a space after its colon when the message went to the next line.)
    if (line.trimEnd().endsWith(':') && line.includes('.java:') && JAVAC_LOCATION_ONLY.test(line)) {
      // A relative rest of the path under a row that ends in a directory (`… …\node_modules\lib\` / `android\src\…`):
      // a console wrapped the path at that separator.
      const head = /^[\w.-]/.test(line) ? /(?:^|\s)(\S*[\\/])$/.exec(this.previousLine ?? '')?.[1] : undefined;
      this.javacLocationOnly = (head ?? '') + line.trimEnd();
      return;
    }
    if (line.includes(' Error:')) line = withoutWordsBeforeHeadline(line);
    const trimmed = line.trim();
    if (line.includes('What went wrong:')) {
      if (BLOCK_START.test(line)) {
        this.closeBlock();
        this.section = 'what-went-wrong';
        // The failure's own text follows: a numbered failure's header no longer stands over a problem list.
        this.ccFailureHeadline = false;
        return;
      }
      const glued = BLOCK_START_GLUED.exec(line);
      if (glued) {
        this.closeBlock();
        this.section = 'what-went-wrong';
        // The whole block squashed onto the header's line (`What went wrong: <headline>.   > <cause>`): one line per cause.
        const squashed = glued[1]!.split(/\s+> (?=\S)/);
        this.pushBlockLine(squashed[0]!);
        for (let k = 1; k < squashed.length && k < 16; k++)
          this.pushBlockLine(`${'   '.repeat(k - 1)}> ${squashed[k]}`);
        return;
      }
    }
    // Config-cache problems listed outside a failure block, then failure causes (`> Invocation of …`) that repeat them: the
    // build failed on them (Gradle prints those causes only under a failure), so they were errors.
    if (this.ccListedOutsideBlock.length > 0 && !this.inCcList && this.section === 'none') {
      if (trimmed.startsWith('> ')) {
        for (const at of this.ccListedOutsideBlock)
          this.diagnostics[at] = { ...this.diagnostics[at]!, severity: 'error' };
        return;
      }
      if (trimmed !== '' && !trimmed.startsWith('See the complete report')) this.ccListedOutsideBlock = [];
    }
    // A numbered failure whose text is the problem list itself (its `* What went wrong:` left out of the paste).
    const leadChar = trimmed.charCodeAt(0);
    if (leadChar >= 49 && leadChar <= 57 && NUMBERED_FAILURE.test(trimmed)) this.ccFailureHeadline = true;
    if (this.section === 'none' && trimmed.startsWith('Configuration cache problems found in this build')) {
      this.ccFailureHeadline = true;
      return;
    }
    // `Where:` with its `* ` lost (a paste's markdown took it), as `What went wrong:` is read without it.
    if (trimmed.startsWith('* Where:') || trimmed === 'Where:' || trimmed === '- Where:') {
      this.closeBlock();
      this.section = 'where';
      // The location on the header's own line (`* Where: Build file '…' line: 1`), as one-line pastes print it.
      const glued = WHERE_BUILD_FILE.exec(trimmed.slice('* Where:'.length).trim());
      if (glued) this.where = { file: glued[1]!, line: glued[2] ? Number(glued[2]) : null };
      return;
    }
    // Every section end starts with `*`, `=`, `B`, `F` or a digit.
    const first = trimmed.charCodeAt(0);
    if (
      (first === 42 || first === 61 || first === 66 || first === 70 || (first >= 48 && first <= 57)) &&
      (/^\* (Try|Exception is|Get more help|Query|Suggestions?):?/.test(trimmed) ||
        /^={70,}$/.test(trimmed) ||
        /^BUILD (FAILED|SUCCESSFUL)/.test(trimmed) ||
        /^FAILURE: /.test(trimmed) ||
        /^\d+: Task failed/.test(trimmed))
    ) {
      this.closeBlock();
      this.section = /^(\* (Try|Exception|Get more|Query|Sugg)|=)/.test(trimmed) ? 'other' : 'none';
      this.exceptionSectionStart = trimmed.startsWith('* Exception is');
      this.tryAdvice = trimmed.startsWith('* Try');
      // `* Try:` follows a report's `* What went wrong:`, even when a paste left the report's top out.
      if (trimmed.startsWith('* Try')) this.failureReportRead = true;
      this.buildEnded = /^BUILD (FAILED|SUCCESSFUL) in /.test(trimmed);
      return;
    }
    if (trimmed.endsWith('failed!') && WRAPPER_REPORTS_GRADLE_FAILED.test(trimmed)) this.buildEnded = true;
    // Another build started in the same log.
    if (this.buildEnded && (trimmed.startsWith('> Task ') || trimmed.startsWith('> Configure ')))
      this.buildEnded = false;
    if (this.section === 'where') {
      // A terminal cut a long location at its width: its rest, from the next line on, is glued back.
      const location = this.whereFragment === null ? trimmed : this.whereFragment + trimmed;
      const m = WHERE_BUILD_FILE.exec(location);
      this.whereFragment = null;
      if (m) this.where = { file: m[1]!, line: m[2] ? Number(m[2]) : null };
      else if (/^(?:Build|Settings|Script|Init script) file '[^']*$/.test(location) && location.length < 2048)
        this.whereFragment = location;
      return;
    }
    if (this.section === 'what-went-wrong') {
      if (DEPRECATION_SUMMARY.test(trimmed)) return;
      // Studio's Messages view lists its next message under the failure's (`Error:(46, 13) Attribute …`): no line of
      // Gradle's report, it ends the block and is read as the message it is.
      if (
        (trimmed.startsWith('Error:(') || trimmed.startsWith('Warning:(')) &&
        STUDIO_LOCATED.test(trimmed) &&
        !STUDIO_LOCATED_HEADLINE.test(trimmed)
      ) {
        this.closeBlock();
        this.section = 'none';
      }
      // … and so does the file row it groups its next messages under (quoted with the failure's causes in a reporter's
      // markdown): Gradle prints no cause that is only a path.
      const fileRow = this.implicitBlock && trimmed.startsWith('> ') ? studioFileRow(trimmed) : null;
      if (fileRow !== null) {
        this.closeBlock();
        this.section = 'none';
        this.studioFile = fileRow;
        return;
      }
    }
    if (this.section === 'what-went-wrong') {
      // A terminal cut a report URL or path at its width: the rest starts the next line (`/tests/debug/index.html`).
      const previous = this.block.at(-1);
      if (
        previous !== undefined &&
        line.charCodeAt(0) === 47 &&
        /^\/\S+$/.test(trimmed) &&
        /(?:file:|https?:)\/\/\S+$/.test(previous.text)
      ) {
        this.block[this.block.length - 1] = { ...previous, text: previous.text + trimmed };
        return;
      }
      // A console cut a line of the cause tree at its width (80 columns, each piece filling it), mid-word: the rest
      // starts the next line in column 0, where Gradle puts no line of that tree.
      if (
        previous !== undefined &&
        previous.text.length % WINDOWS_CONSOLE_WIDTH === 0 &&
        /^[\s>]/.test(previous.text) &&
        trimmed !== '' &&
        !/^[\s>*]/.test(line) &&
        // nor a compiler's count of its errors under them (`2 errors` after Kotlin DSL's script errors).
        !/^(?:BUILD |FAILURE|Total time|Deprecated Gradle|\d+ actionable tasks?|\d+ (?:errors?|warnings?)$)/.test(line)
      ) {
        this.block[this.block.length - 1] = { ...previous, text: previous.text + line };
        return;
      }
      // The Tooling API's chain of messages, one a line, as an IDE's sync prints it: the project's headline, then
      // the location of the failure inside it and that failure, which Gradle's own report shows under `* Where:`.
      const where =
        this.implicitBlock && this.block.length === 1 && line.includes("' line: ") && !/^\s/.test(line)
          ? WHERE_BUILD_FILE.exec(trimmed)
          : null;
      if (where && ONE_LINE_HEADLINE.test(this.block[0]!.text.trim())) {
        this.block = [];
        this.closeBlock();
        this.section = 'none';
        this.where = { file: where[1]!, line: Number(where[2]) };
        this.headlineExpected = true;
        return;
      }
      // Also a task's in a report with its `* What went wrong:` (an agent that relayed the log line by line dropped
      // the `> `); a project's headline there goes on in sentences a paste joined to it.
      if (
        trimmed !== '' &&
        (this.implicitBlock || this.block[0]?.text.trimStart().startsWith('Execution failed for task ')) &&
        this.causeAfterOneLineHeadline(line)
      ) {
        this.pushBlockLine(`> ${trimmed}`);
        // A project's or a configuration's headline as that cause wraps one more, its marker lost the same way, and
        // so does a worker's failure, which Gradle prints only as a cause.
        if (ONE_LINE_HEADLINE.test(trimmed) || trimmed.startsWith('A failure occurred while executing '))
          this.lostMarkerDepth = 1;
        return;
      }
      if (this.implicitBlock && trimmed !== '' && this.causeLostItsMarker(line)) {
        // `Error:Execution failed for task …`, a blank line, then the cause pasted without its `> `.
        this.pushBlockLine(`> ${trimmed}`);
        return;
      }
      // Gradle prints `A failure occurred while executing …` only as a cause: a line with its `> ` lost.
      if (!/^\s/.test(line) && trimmed.startsWith('A failure occurred while executing ')) {
        this.pushBlockLine(`> ${trimmed}`);
        this.lostMarkerDepth = 1;
        return;
      }
      // The section headers with their `* ` lost end the block as theirs do.
      if (/^(?:- )?(?:Try|Exception is):$/.test(trimmed)) {
        this.lostMarkerDepth = 0;
        this.closeBlock();
        this.section = 'other';
        this.exceptionSectionStart = trimmed === 'Exception is:';
        return;
      }
      // After such a line, the next unindented line is the cause under it, its marker lost too.
      if (this.lostMarkerDepth > 0 && trimmed !== '' && !/^[\s>]/.test(line) && this.lostMarkerDepth < 8) {
        this.pushBlockLine(`${'   '.repeat(this.lostMarkerDepth)}> ${trimmed}`);
        // Only a wrapper has a cause under it: the lines after a leaf are its details.
        if (ONE_LINE_HEADLINE.test(trimmed) || WRAPPING_CAUSE.test(trimmed)) this.lostMarkerDepth++;
        else {
          this.lostMarkerDetails = `${'   '.repeat(this.lostMarkerDepth)}  `;
          this.lostMarkerDepth = 0;
        }
        return;
      }
      if (this.lostMarkerDetails !== null && trimmed !== '' && !/^[\s>*]/.test(line)) {
        this.pushBlockLine(`${this.lostMarkerDetails}${trimmed}`);
        return;
      }
      this.lostMarkerDetails = null;
      this.lostMarkerDepth = 0;
      if (this.implicitBlock && this.continuesDuplicateResources(trimmed)) {
        this.pushBlockLine(`  ${trimmed}`);
        return;
      }
      // Gradle puts no stack frames under a cause: a lone `> ` exception line with frames under it is a quoted stack
      // trace, which reports nothing the failure block does not.
      if (
        this.implicitBlock &&
        this.block.length === 1 &&
        this.block[0]!.text.startsWith('> ') &&
        /^\s+at [\w$.[\]]+\(/.test(line)
      ) {
        this.block = [];
        this.closeBlock();
        this.section = 'other';
        return;
      }
      // A cause whose parenthesis is still open goes on: the exception's message held a line break (AGP's `Resource
      // compilation failed (Failed to compile … values.xml.` / `Cause: …). Check logs …`).
      const lastCause = this.block.at(-1)?.text;
      if (
        this.implicitBlock &&
        trimmed !== '' &&
        !/^[\s>*]/.test(line) &&
        lastCause?.startsWith('> ') &&
        opensBracket(lastCause, '(', ')') &&
        !GRADLE_SECTION.test(line)
      ) {
        this.block[this.block.length - 1] = { ...this.block.at(-1)!, text: `${lastCause} ${trimmed}` };
        return;
      }
      if (this.implicitBlock && trimmed !== '' && !/^\s/.test(line) && !trimmed.startsWith('>')) {
        // One `> ` line with no headline, ordinary text right under it: a reporter's markdown quote of a single
        // line (`> Launching lib/main.dart …`), not a failure pasted from its cause (Gradle ends those with a section).
        // The same for quoted lines of the wrapper's download (`> Downloading https://…`, `> ……`): never a cause.
        if (
          this.block.every((b) => b.text.startsWith('> ')) &&
          (this.block.length === 1 || this.block.every((b) => WRAPPER_DOWNLOAD.test(b.text.slice(2).trim())))
        )
          this.block = [];
        this.closeBlock();
        this.section = 'none';
      } else {
        this.pushBlockLine(line);
        return;
      }
    }
    // The Kotlin DSL's compile errors as `--stacktrace` prints them (also all that is left when only the stack was
    // pasted): each error with its script and position, in `* Exception is:` or a `Caused by:` line.
    if (line.includes('ScriptCompilationException(') && this.addScriptCompilationErrors(line)) return;
    if (this.section === 'other') {
      const exceptionLine = this.exceptionSectionStart;
      this.exceptionSectionStart = false;
      // `* Try:` advice and `* Exception is:` stacks have no blank line inside; one ends them.
      if (trimmed === '') {
        this.section = 'none';
        return;
      }
      // Gradle's advice is its `> ` lines (`Run with …` alone before Gradle 5): any other line starts what follows
      // the report, when the paste lost the blank line between them.
      if (this.tryAdvice && AFTER_TRY_ADVICE.test(trimmed)) this.section = 'none';
      else {
        // A report pasted from its `* Exception is:` on: the exception's message is the failure's headline.
        const named =
          exceptionLine && !this.failureReportRead && line.includes('Exception: ')
            ? GRADLE_FAILURE_EXCEPTION.exec(line)
            : null;
        if (named) {
          this.addFailureNamedOutsideReport(named[1]!);
          return;
        }
        if (
          (line.includes("'") && IMPLICIT_BLOCK.test(line)) ||
          TASK_LINE.test(trimmed) ||
          (line.includes('Command failed with exit code ') && CLI_REPORTS_COMMAND_FAILED.test(line))
        )
          this.section = 'none';
        else return;
      }
    }
    // Android Studio prints the `* Where:` location without its marker, above the headline; a stack's
    // LocationAwareException carries it as its message.
    const lead = trimmed.charCodeAt(0);
    const location =
      ((lead >= 97 && lead <= 122) || lead === 67) && trimmed.includes(" file '") && trimmed.includes('Exception: ')
        ? (LOCATION_AWARE_EXCEPTION.exec(trimmed)?.[1] ?? trimmed)
        : trimmed;
    const initial = location.charCodeAt(0);
    // Only `Build file`, `Settings file`, `Script` and `Init script` lines (B, S, I) can name the location.
    if (
      (initial === 66 || initial === 83 || initial === 73) &&
      (location.endsWith("'") || location.includes("' line: "))
    ) {
      const where = /^(?:Build|Settings|Script|Init script) file '/.test(location)
        ? WHERE_BUILD_FILE.exec(location)
        : null;
      if (where) {
        this.where = { file: where[1]!, line: where[2] ? Number(where[2]) : null };
        this.headlineExpected = true;
        return;
      }
    }
    // After Studio's bare location line, the next line is the failure's headline, whatever its wording.
    if (this.headlineExpected && trimmed !== '') {
      this.headlineExpected = false;
      if (!/^[*>]/.test(trimmed) && !(line.includes("'") && IMPLICIT_BLOCK.test(line))) {
        this.closeBlock();
        this.section = 'what-went-wrong';
        this.implicitBlock = true;
        this.pushBlockLine(trimmed);
        return;
      }
    }
    if (
      line.startsWith('> ') &&
      (CONSOLE_STATUS.test(line) ||
        NPM_SCRIPT_BANNER.test(line) ||
        SHELL_PROMPT_GRADLE_COMMAND.test(line.trimEnd()) ||
        (this.previousLine?.startsWith('> ') && NPM_SCRIPT_BANNER.test(this.previousLine)))
    )
      return;
    // A quoted compiler line (`> e: [ksp] …` in a pasted log) is that diagnostic, not a failure cause.
    if (BARE_CAUSE.test(line) && this.scanLine(line.slice(2), false, true)) {
      // The lines after it are quoted too: a message's continuation lines lose their `> ` as the first did.
      this.markdownQuote = true;
      return;
    }
    // Every headline IMPLICIT_BLOCK knows quotes a task, project or configuration name.
    const cause = BARE_CAUSE.test(line) || (this.section === 'none' && INDENTED_CAUSE.test(line));
    const studioParen = line.indexOf(':(');
    const studioAt = studioParen >= 0 && studioParen <= 5 ? STUDIO_LOCATED_HEADLINE.exec(line) : null;
    const headlineLine = studioAt ? line.slice(studioAt[0].length) : line;
    const implicit = (line.includes("'") ? IMPLICIT_BLOCK.exec(headlineLine) : null) ?? (cause ? [line, line] : null);
    if (implicit) {
      // Gradle prints a failure's headline, then its causes: the line just before the first cause is the
      // headline when it is no diagnostic and no Gradle line of its own (`Failed to apply plugin '…'.`).
      const headline = cause ? this.headlineBefore() : null;
      this.closeBlock();
      this.section = 'what-went-wrong';
      this.implicitBlock = true;
      // A cause pasted right under its task's `FAILED` line, without the report's headline, is that task's failure.
      const failedTask =
        cause && headline === null && this.previousLine?.trimEnd().endsWith(' FAILED')
          ? TASK_LINE.exec(this.previousLine.trim())
          : null;
      this.implicitBlockTask = failedTask ? failedTask[1]! : null;
      if (studioAt) this.where = { file: null, line: Number(studioAt[1]) };
      if (headline !== null) this.pushBlockLine(headline);
      // The data binding compiler's report carried in the cause's exception message (`Found data binding errors.
      // ****/ data binding error ****msg:…`), squashed onto the headline's line with it: the report is its own error,
      // read once the failure is.
      const report = implicit[1]!.indexOf(DATA_BINDING_ERROR_START_WORDS);
      const failure = report < 0 ? implicit[1]! : implicit[1]!.slice(0, report).replace(/[\s*/]+$/, '');
      if (report >= 0)
        this.dataBindingAfterBlock = {
          text: implicit[1]!.slice(report + DATA_BINDING_ERROR_START_WORDS.length - 'msg:'.length),
          task: /task '([^']+)'/.exec(line)?.[1] ?? null,
        };
      // A block squashed onto one line (`Execution failed for task ':x'. > cause    > cause`): one line per cause.
      // (A cause's own leading marker is no squashing: its indentation is its depth among the causes after it.)
      let squashed = failure.split(/(?<=\S)\s+> (?=\S)/);
      // Studio's Messages view copied as one line loses the cause's `> ` too: text after the headline's `'.` is its cause.
      const joined = squashed.length === 1 ? HEADLINE_THEN_CAUSE.exec(squashed[0]!) : null;
      if (joined) squashed = [joined[1]!, joined[2]!];
      this.pushBlockLine(squashed[0]!);
      for (let k = 1; k < squashed.length && k < 16; k++) this.pushBlockLine(`${'   '.repeat(k - 1)}> ${squashed[k]}`);
      return;
    }
    this.scanLine(line, false);
  }

  /**
   * A terminal cuts a long line at its width, mid-word (`AAPT: error: resour` / `ce android:attr/… not found.`):
   * a line after one whose diagnostic message ran to its end, starting in column 0 with a lower-case letter and
   * not itself a tool's line (`error: …`, `w: …`), is the rest of that message.
   */
  private continuesWrappedMessage(line: string): boolean {
    const last = this.lastAdded!;
    const previous = this.previousLine;
    if (previous === null || last.line !== previous) return false;
    // A word-wrapping tool breaks at a space and may indent the rest; a console's cut at its width goes on in column 0.
    if (previous.length < WINDOWS_CONSOLE_WIDTH || /^\s/.test(line)) return this.endsWordWrappedAaptMessage(line);
    const first = line.charCodeAt(0);
    const d = this.diagnostics[last.index];
    // AAPT ends every message with a period: a colon-free rest that brings it (`Error not found.`, `/name not found.`)
    // finishes the message whatever its first character.
    const aaptRest =
      d?.source === 'aapt2' && !/[.:]$/.test(d.message) && /^[^\s:>*][^:]{0,200}\.$/.test(line.trimEnd());
    // Not a line of its own: no tool's `w: ` or `error: `, no `path:12: ` location.
    if (
      !((first >= 97 && first <= 122) || aaptRest) ||
      /^[\w-]+:(?:\s|$)|:\d+(?::\d+)?:? |: \(\d+, \d+\)|\b(?:error|warning|warn): /.test(line) ||
      // A test's `com.example.FooTest > bar FAILED` line starts with a lower-case package name too, as an exception does.
      /^[a-z][\w$]*(?:\.[\w$]+)+(?: > |(?:Exception|Error)\b)/.test(line)
    )
      return false;
    if (d === undefined || !previous.trimEnd().endsWith(d.message) || /\s$/.test(previous)) return false;
    // After a whole sentence javac echoes the source it is about (a processor's unlocated warning has its echo too).
    if ((d.source === 'javac' || d.source === 'kapt') && d.message.endsWith('.') && JAVA_SOURCE_ECHO.test(line))
      return false;
    // A console cuts inside a word, at a width no row gives away; AGP's crunch failure breaks before its ` into <path>`
    // only where a reporter's paste wrapped it, at the space.
    const gap = line.startsWith('into ') && CRUNCH_FAILED.test(d.message) && !d.message.includes(' into ') ? ' ' : '';
    // A paste that lost line breaks glues the next record (`<path>: …`) after the sentence's last word: that paste
    // broke the sentence where it had a space, and the record is a line of its own.
    const glued = GLUED_RECORD_AFTER_SENTENCE.exec(line);
    const rest = glued ? ` ${glued[1]}` : gap + line.trimEnd();
    this.diagnostics[last.index] = { ...d, message: clip(d.message + rest) };
    this.currentLine = previous + rest;
    this.lastAdded = { line: this.currentLine, index: last.index };
    if (glued) this.pushLine(glued[2]!, false);
    return true;
  }

  /**
   * The next row of an AAPT line Windows' console cut at its width: the row that completes `<path>: AAPT: …`, then
   * (once it is one) rows that go on with its message, when the last one reached the edge. A row of exactly the width
   * goes on mid-word; one a column short lost the space the break fell on. Null when the row is no such rest.
   */
  private joinConsoleCut(held: ConsoleCut, row: string): ConsoleCut | null {
    if (row.trim() === '' || /^\s{2}/.test(row)) return null;
    if (!held.aapt) {
      const text = held.text + row;
      if (MANIFEST_HEAD_REST.test(row) && MANIFEST_LOCATED.test(text))
        return { text, rows: held.rows + 1, lastRow: row.length, aapt: false };
      return AAPT_LOCATED.test(text) ? { text, rows: held.rows + 1, lastRow: row.length, aapt: true } : null;
    }
    // A row of its own (a new path, Gradle's report, a task's status) ends the message.
    if (/^(?:[A-Za-z]:\\|\/|:[A-Za-z]|\* |> |FAILURE|BUILD |Error)/.test(row)) return null;
    const gap = held.lastRow === WINDOWS_CONSOLE_WIDTH ? '' : ' ';
    return { text: held.text + gap + row, rows: held.rows + 1, lastRow: row.length, aapt: true };
  }

  /**
   * AAPT ends its messages with a period; a tool that word-wraps what it relays (Meteor indents and wraps Cordova's
   * output: `…(aka app:string/x) not` / `   found.`) leaves the last words on a short line of their own.
   */
  private endsWordWrappedAaptMessage(line: string): boolean {
    const last = this.lastAdded!;
    const d = this.diagnostics[last.index];
    const rest = line.trim();
    if (d === undefined || d.source !== 'aapt2' || /[.:]$/.test(d.message) || !/^[a-z][^:]{0,38}\.$/.test(rest))
      return false;
    if (!this.previousLine!.trimEnd().endsWith(d.message)) return false;
    this.diagnostics[last.index] = { ...d, message: clip(`${d.message} ${rest}`) };
    this.currentLine = `${this.previousLine!.trimEnd()} ${rest}`;
    this.lastAdded = { line: this.currentLine, index: last.index };
    return true;
  }

  /**
   * A row of Studio's Build window copied as a tree: each node's text then a tab, with no level and no position. A
   * source file's node (`org/x/A.kt`) is followed by its messages; the project's and source root's nodes before it.
   */
  private readStudioTreeRow(node: string): boolean {
    if (STUDIO_TREE_SOURCE.test(node)) {
      this.studioTreeFile = node;
      return true;
    }
    const file = this.studioTreeFile;
    if (file === null) return false;
    if (node === 'null' || node === '' || node.startsWith('/') || /^[A-Za-z]:[\\/]/.test(node) || !/\s/.test(node)) {
      this.studioTreeFile = null;
      return node !== '';
    }
    const java = file.endsWith('.java');
    // javac's notes (`uses unchecked or unsafe operations.`) are no problem of the build's.
    if (java && STUDIO_TREE_JAVAC_NOTE.test(node)) return true;
    this.add({
      severity: !java && STUDIO_TREE_KOTLIN_WARNING.test(node) ? 'warning' : 'error',
      source: java ? 'javac' : 'kotlin',
      file,
      line: null,
      column: null,
      message: node,
      task: this.currentTask,
    });
    return true;
  }

  /** The line before this one when it can be the headline of the failure whose first cause this line is. */
  private headlineBefore(): string | null {
    const previous = this.previousLine?.replace(/^`+/, '') ?? null;
    if (previous === null || this.lastAdded?.line === this.previousLine) return null;
    if (NO_ERROR_MESSAGE_HEADLINE.test(previous)) return previous;
    if (previous.length > 600 || !/^[A-Z][^:]*\S/.test(previous)) return null;
    // Gradle's own failures are sentences, though some end without a period (`Could not isolate parameters … of
    // artifact transform X`): their wording says so.
    if (!/[.'\])]$/.test(previous) && !GRADLE_FAILURE_WORDING.test(previous)) return null;
    return /^(?:FAILURE|BUILD |Run with|Total time|Note:|Try)\b/.test(previous) || TASK_LINE.test(previous)
      ? null
      : previous;
  }

  /** Studio prints the merger's duplicate as `> [res] <path>`, `[res] <path>: ` and `Error: Duplicate resources`. */
  private continuesDuplicateResources(trimmed: string): boolean {
    const previous = this.block[this.block.length - 1]?.text.trim() ?? '';
    if (!/^(?:> )?\[[^\]\s]+\] /.test(previous)) return false;
    return /^\[[^\]\s]+\] /.test(trimmed) || trimmed === 'Error: Duplicate resources';
  }

  /**
   * The line right after a one-line task or project headline (nothing else in the block yet) is its cause even
   * without its `> ` (lost in a paste or a markdown quote), unless it is a line of its own kind.
   */
  private causeAfterOneLineHeadline(line: string): boolean {
    if (this.block.length !== 1 || !ONE_LINE_HEADLINE.test(this.block[0]!.text.trim())) return false;
    // A class-level test's name under the headline is Studio's test tree, not a cause.
    if (CLASS_LEVEL_TEST_NAME.test(line)) return false;
    return (
      !/^(\s|>|\*|[.…]|Information:|BUILD |FAILURE|Task |Caused by: |Run with |Try:|Get more help|[ew]: |(?:error|warning): |:\w|\S+:\d+)/.test(
        line,
      ) && !/: (?:error|warning): /.test(line)
    );
  }

  /** An unindented line after a headline-only block and a blank line: the cause whose `> ` was lost in pasting. */
  private causeLostItsMarker(line: string): boolean {
    if (this.block.length < 2 || this.block.length > 8) return false;
    const texts = this.block.map((l) => l.text.trim());
    if (texts.length < 2 || texts[texts.length - 1] !== '' || texts.slice(1).some((t) => t !== '')) return false;
    // A class-level test's name (Studio's test tree copied under the task's headline) is not a cause.
    if (CLASS_LEVEL_TEST_NAME.test(line)) return false;
    // javac's notes that follow the headline in a console's order (`Note: Some input files use …`), also on one file
    // with their word in a locale the paste mis-decoded (`ע: C:\p\A.java…`).
    if (PROCESSOR_NOTE.test(line) || JAVAC_FILE_NOTE.test(line)) return false;
    return (
      !/^(\s|>|\*|Information:|BUILD |FAILURE|Task |[ew]: |:\w|\S+:\d+)/.test(line) &&
      !/: (?:error|warning): /.test(line)
    );
  }

  /**
   * A failure named outside Gradle's report (by the exception it was wrapped in, or by lint's own line before it):
   * the report, when the log has one, says more.
   */
  private addFailureNamedOutsideReport(headline: string): true {
    this.inNamedStack = true;
    const before = this.diagnostics.length;
    const task = /^Execution failed for task '([^']+)'/.exec(headline)?.[1] ?? null;
    this.addUnlocated('error', 'gradle', headline, task);
    if (this.diagnostics.length > before) this.namedOutsideReport.add(before);
    return true;
  }

  /** A missing dependency outside a failure block; the `Required by:` lines under it complete its message. */
  private pendingDependency(base: Diagnostic): true {
    this.pendingMultiline = { base, lines: [], unindented: DEPENDENCY_DETAIL, dependency: true };
    return true;
  }

  /** A failure read from a stack's exception line: kept (see finish) only when the log reports no error otherwise. */
  private addFromStack(message: string, task: string | null): true {
    const at = this.diagnostics.length;
    this.addUnlocated('error', 'gradle', message, task);
    if (this.diagnostics.length > at) this.failureFromStack.add(at);
    return true;
  }

  /** Studio's `Error:(l, c)` copied on the line after its message: the location of the diagnostic just reported. */
  /** The file of the diagnostic read from the line before, when that line named none. */
  private nameFileOfLast(file: string): boolean {
    const last = this.lastAdded;
    const d = last !== null && last.line === this.previousLine ? this.diagnostics[last.index] : undefined;
    if (d === undefined || d.file !== null) return false;
    this.diagnostics[last!.index] = { ...d, file };
    return true;
  }

  private locateLast(m: RegExpExecArray): boolean {
    const last = this.lastAdded;
    const d = last !== null && last.line === this.previousLine ? this.diagnostics[last.index] : undefined;
    if (d === undefined || d.line !== null) return false;
    this.diagnostics[last!.index] = { ...d, line: Number(m[1]), column: m[2] ? Number(m[2]) : null };
    return true;
  }

  /** Ends the stream; returns every diagnostic (deduplicated, in order of appearance). */
  finish(): BuildDiagnostic[] {
    this.frame.flush();
    if (this.heldNinePatch !== null) {
      const held = this.heldNinePatch;
      this.heldNinePatch = null;
      for (const line of held.lines) this.pushLine(line, false);
    }
    if (this.heldManifestHead !== null) {
      const held = this.heldManifestHead;
      this.heldManifestHead = null;
      this.pushLine(held, false);
    }
    if (this.heldConsoleCut !== null) {
      const held = this.heldConsoleCut;
      this.heldConsoleCut = null;
      this.pushLine(held.text, false);
    }
    if (this.heldDuplicateHead !== null) {
      const held = this.heldDuplicateHead;
      this.heldDuplicateHead = null;
      this.pushLine(held, false);
    }
    if (this.heldD8Cut !== null) {
      const held = this.heldD8Cut;
      this.heldD8Cut = null;
      this.pushLine(held.text, false);
    }
    if (this.heldKotlinPositionCut !== null) {
      const held = this.heldKotlinPositionCut;
      this.heldKotlinPositionCut = null;
      this.pushLine(held, false);
    }
    if (this.heldLintLine !== null) {
      const held = this.heldLintLine;
      this.heldLintLine = null;
      this.pushLine(held, false);
    }
    if (this.pendingStudio) {
      const { studio, message } = this.takeStudio();
      this.add({ ...studio, message });
    }
    if (this.instrumentationShortMessage !== null) {
      const { message, task } = this.instrumentationShortMessage;
      this.instrumentationShortMessage = null;
      this.addUnlocated('error', 'test', message, task);
    }
    this.flushPending();
    this.closeBlock();
    // A message printed once without a location (a summary line, Studio's one-line copy) and once with one is
    // one problem: the located copy says more.
    const located = new Set<string>();
    for (const d of this.diagnostics) if (d.file !== null) located.add(`${d.severity}|${d.message}`);
    // A task's failure headline pasted alone (before the full block, or Studio's copy) and the block with its causes
    // are one failure: the causes say what went wrong.
    const repeatedHeadline = (d: BuildDiagnostic): boolean =>
      d.source === 'gradle' &&
      d.file === null &&
      d.task !== null &&
      this.tasksWithCauses.has(d.task) &&
      this.causelessHeadlines.has(`${d.task}|${d.message}`);
    // The same report printed again and cut after its headline (a CLI echoing the build's output, a paste stopping
    // there) names the same place: the whole copy says what went wrong.
    const locatedFailures = this.diagnostics.filter((d) => d.source === 'gradle' && d.file !== null);
    const cutCopy = (d: BuildDiagnostic): boolean =>
      d.source === 'gradle' &&
      d.file !== null &&
      locatedFailures.some(
        (whole) => whole.file === d.file && whole.line === d.line && whole.message.startsWith(`${d.message}: `),
      );
    // A failure read from a stack (a missing dependency, the Kotlin plugin's compile failure) repeats what the failure
    // report above or below it says: it speaks only when nothing else does.
    const stackRepeats =
      this.failureFromStack.size > 0 &&
      this.diagnostics.some((d, k) => d.severity === 'error' && !this.failureFromStack.has(k));
    // A stack's exception repeats the failure the report names with its causes.
    const dropNamed = this.failureReportRead && this.namedOutsideReport.size > 0;
    const reportedElsewhere = (k: number): boolean => {
      const sentence = this.fromStack.get(k);
      return (
        sentence !== undefined &&
        this.diagnostics.some((o, j) => j !== k && !this.fromStack.has(j) && o.message.includes(sentence))
      );
    };
    if (
      located.size === 0 &&
      this.causelessHeadlines.size === 0 &&
      !dropNamed &&
      this.fromStack.size === 0 &&
      !stackRepeats
    )
      return [...this.diagnostics];
    return this.diagnostics.filter(
      (d, k) =>
        (d.file !== null || !located.has(`${d.severity}|${d.message}`)) &&
        !repeatedHeadline(d) &&
        !cutCopy(d) &&
        !(stackRepeats && this.failureFromStack.has(k)) &&
        !(dropNamed && this.namedOutsideReport.has(k)) &&
        !reportedElsewhere(k),
    );
  }

  /** Diagnostics dropped because MAX_DIAGNOSTICS was reached. */
  get dropped(): number {
    return this.truncatedCount;
  }

  /** A path as the report shows it: decoded from a file URL and, inside the project, relative to it. */
  private reportPath(path: string): string {
    // `^` glued from a caret line; AGP 3.2's `Output:  ` in front of AAPT2's first line.
    let normalized = normalizePath(path.trim().replace(/^(?:\^|Output:\s+)/, ''));
    // Text glued in front of a Windows path (a caret or another message without its line break).
    const drive =
      normalized.includes(':\\') || normalized.includes(':/') ? /^.*[^A-Za-z]([A-Za-z]:[\\/])/.exec(normalized) : null;
    if (drive) normalized = normalized.slice(drive[0].length - drive[1]!.length);
    if (!this.projectRoot) return normalized;
    const slashed = normalized.replace(/\\/g, '/');
    const root = this.projectRoot;
    if (slashed.startsWith(`${root}/`)) return slashed.slice(root.length + 1);
    // Windows drive letters are case-insensitive and tools print either case.
    if (/^[A-Za-z]:\//.test(root) && slashed.toLowerCase().startsWith(`${root.toLowerCase()}/`))
      return slashed.slice(root.length + 1);
    return normalized;
  }

  /** A diagnostic the log gives no file for (a Gradle failure cause, an unlocated compiler message). */
  private addUnlocated(
    severity: DiagnosticSeverity,
    source: DiagnosticSource,
    message: string,
    task: string | null,
  ): boolean {
    return this.add({ severity, source, file: null, line: null, column: null, message, task });
  }

  /** A diagnostic about a whole file (a resource, a manifest, a build script): the tool printed no line in it. */
  private addInFile(
    severity: DiagnosticSeverity,
    source: DiagnosticSource,
    file: string | null,
    message: string,
    task: string | null,
  ): boolean {
    return this.add({ severity, source, file, line: null, column: null, message, task });
  }

  /**
   * The rows under a javac message read without its location: its source echo and caret (the caret's column is the
   * message's), then a location alone, which is the message's place. Anything else ends the wait.
   */
  private placeUnplacedJavac(line: string): boolean {
    const pending = this.unplacedJavac!;
    const caret = CARET.exec(line);
    const place = caret ? null : JAVAC_PLACE_ALONE.exec(line);
    const echo = !caret && !place && pending.rows < 2 && /^\s+\S/.test(line) && JAVA_SOURCE_ECHO.test(line);
    if (!caret && !place && !echo) {
      this.unplacedJavac = null;
      return false;
    }
    pending.rows++;
    if (caret) pending.column = caret[1]!.replace(/\t/g, ' ').length + 1;
    if (place) {
      this.unplacedJavac = null;
      const message = this.diagnostics[pending.index];
      if (message !== undefined && message.file === null)
        this.diagnostics[pending.index] = {
          ...message,
          file: this.reportPath(place[1]!),
          line: Number(place[2]),
          column: pending.column,
        };
    }
    return true;
  }

  /** `File being compiled: <path>` under the internal error just reported gives that error its file. */
  private placeInternalError(line: string): boolean {
    const m = FILE_BEING_COMPILED.exec(line);
    const index = this.diagnostics.length - 1;
    const last = this.diagnostics[index];
    if (!m || last === undefined || last.source !== 'kotlin' || last.file !== null || this.lastAdded?.index !== index)
      return false;
    this.diagnostics[index] = {
      ...last,
      file: this.reportPath(m[3]!),
      line: m[1] ? Number(m[1]) : null,
      column: m[2] ? Number(m[2]) : null,
    };
    return true;
  }

  /** Takes the Studio message that waited for its next line, the javac details read under it folded into its message. */
  private takeStudio(): { studio: Diagnostic; message: string } {
    const studio = this.pendingStudio!;
    const details = this.studioDetails;
    this.pendingStudio = null;
    this.studioDetails = [];
    const message =
      studio.source === 'aapt2'
        ? studio.message.replace(/^error: /, '')
        : details.length > 0
          ? `${studio.message} (${details.join('; ')})`
          : studio.message;
    return { studio, message };
  }

  /** `again`: a record the tool printed twice in a row is two problems (see flushMultiline), not one printed twice. */
  private add(given: Diagnostic, again = false): boolean {
    const message = clip(given.message);
    // The native build's sync error names the build script whose command failed: the script is the error's file, and
    // the error AGP's whichever wrapper printed it.
    const nativeBuild =
      given.file === null && message.startsWith('executing external native build for ')
        ? EXTERNAL_NATIVE_BUILD_FAILED.exec(message)
        : null;
    const d: Diagnostic = nativeBuild ? { ...given, source: 'agp', file: nativeBuild[1]! } : given;
    // Later AGP 8 releases name the module's build file in `Namespace not specified`: that file is where the fix goes.
    const buildFile =
      d.file === null && d.source === 'gradle' && message.includes(BUILD_FILE_NAMED)
        ? NAMESPACE_BUILD_FILE.exec(message)
        : null;
    const file = buildFile ? this.reportPath(buildFile[1]!) : d.file !== null ? this.reportPath(d.file) : null;
    if (message === '') return false;
    // D8 and R8 run only in the dexing and shrinking tasks: their message under another task's header is a parallel
    // build's interleaving (the task that ran them prints its header later), so that task is not theirs.
    const task = d.source === 'r8' && d.task !== null && !DEX_TASK.test(d.task) ? null : d.task;
    // AAPT2's note on where a duplicated value was first defined belongs to the error just reported.
    const last = this.diagnostics[this.diagnostics.length - 1];
    if (d.source === 'aapt2' && last?.source === 'aapt2' && /^resource previously defined here\.?$/.test(message))
      return true;
    // One located problem reported by two tools (AGP and Gradle's failure block) is one diagnostic.
    const key =
      file !== null
        ? `${d.severity}|${file}|${d.line}|${d.column}|${message}`
        : // The same unlocated warning from several modules' tasks (javac's `[options]`) or from several projects'
          // configuration (AGP's `Using flatDir should be avoided …`) is one per module.
          `${d.severity}|${d.source}|${d.line}|${d.column}|${message}|${d.severity === 'warning' ? (task ?? this.configuringProject) : ''}`;
    const repeated = again && this.lastKey === key;
    const earlier = this.seen.get(key);
    // AAPT2 prints one unlocated line per reference it could not resolve (a theme named by several activities): the
    // same message again in its run of lines is another reference; printed again after the run, it is a copy.
    let inAaptRun = false;
    if (d.source === 'aapt2' && file === null) {
      const run =
        this.aaptRun !== null && this.aaptRun.line >= this.lineCount - 1
          ? this.aaptRun
          : { line: this.lineCount, start: this.diagnostics.length };
      inAaptRun = earlier !== undefined && earlier >= run.start;
      this.aaptRun = { line: this.lineCount, start: run.start };
    }
    if (earlier !== undefined && !repeated && !inAaptRun) {
      // Printed before the failure block with no task line above it, then repeated in the block: the block names
      // the task that failed with it.
      const first = this.diagnostics[earlier];
      if (first !== undefined && first.task === null && task !== null) this.diagnostics[earlier] = { ...first, task };
      return true;
    }
    // A copy printed without its caret (cut short) is the same error as the one with a column.
    const located = file !== null ? `${d.severity}|${file}|${d.line}|${message}` : null;
    if (located !== null && d.column === null && this.seenLocated.has(located) && !repeated) return true;
    this.lastKey = key;
    this.seen.set(key, this.diagnostics.length);
    if (located !== null) this.seenLocated.add(located);
    if (this.diagnostics.length >= MAX_DIAGNOSTICS) {
      this.truncatedCount++;
      return true;
    }
    this.diagnostics.push({ ...d, file, message, task });
    this.lastAdded = { line: this.currentLine, index: this.diagnostics.length - 1 };
    return true;
  }

  // ---------------------------------------------------------------- multi-line diagnostics

  /** Feeds a line to the diagnostic still collecting its continuation lines; true when it took the line. */
  private continuePending(line: string): boolean {
    if (this.pendingDataBinding) {
      // Gradle's report puts the exception's message under its cause: the report's lines, then its end marker.
      if (
        !line.includes(DATA_BINDING_ERROR_START_WORDS) &&
        (line.includes(DATA_BINDING_ERROR_END) ||
          (this.pendingDataBinding.parts.length < MAX_DATA_BINDING_LINES &&
            !/^\s*(?:\* [A-Z]|FAILURE:|BUILD |> Task )/.test(line)))
      )
        return this.readDataBinding(line, this.pendingDataBinding.task);
      this.flushDataBinding();
    }
    if (this.pendingJavac) {
      if (this.continueJavac(this.pendingJavac, line)) return true;
      this.flushJavac();
    }
    const relayed = this.pendingMultiline?.relayed;
    if (relayed !== undefined) {
      const pending = this.pendingMultiline!;
      const text = line.slice(relayed.exec(line)?.[0].length ?? 0);
      if (/^\s{2,}\S/.test(text) && pending.lines.length < MAX_RELAYED_DETAIL_LINES) {
        pending.lines.push(text.trim());
        pending.heldBlank = false;
        return true;
      }
      // A paste's blank line between the header and its first detail (one log line per markdown paragraph).
      if (line.trim() === '' && pending.lines.length === 0 && pending.heldBlank !== true) {
        pending.heldBlank = true;
        return true;
      }
      this.flushMultiline();
    }
    if (this.pendingMultiline) {
      // The merger's detail lines are tab-indented, but pasted logs often lose the tabs; a stack frame ends them.
      const pending = this.pendingMultiline;
      const manifest = pending.base.source === 'manifest';
      // Studio's `Error:` alone over an unindented Gradle `Could not …` (its sync failure dialog, copied): not the
      // merger's record, whose details are tab-indented or read as the merger's own sentences.
      if (
        manifest &&
        pending.base.file === null &&
        pending.base.message === '' &&
        pending.lines.length === 0 &&
        !pending.mergerRecord &&
        /^Could not \S/.test(line)
      ) {
        this.pendingMultiline = null;
        return this.scanLine(`Error:${line.trimEnd()}`, false);
      }
      // A paste that lost the tabs may also have split the merger's `is also present at …` from its suggestion, or a
      // located record's header from its message (a console that puts a blank line after every line it relays).
      if (line.trim() === '') {
        if (pending.mergerRecord === true && pending.base.message === '' && pending.lines.length === 0)
          pending.doubleSpaced = true;
        if (pending.doubleSpaced === true && (pending.blankRun ?? 0) < MAX_RELAYED_BLANK_LINES) {
          pending.blankRun = (pending.blankRun ?? 0) + 1;
          pending.heldBlank = true;
          return true;
        }
      }
      if (!pending.heldBlank && line.trim() === '') {
        if (
          (manifest && /^is also present at /.test(pending.lines.at(-1) ?? '')) ||
          (pending.paragraphs === true && pending.lines.length > 0) ||
          pending.paragraphAfterBlank !== undefined
        ) {
          pending.heldBlank = true;
          return true;
        }
        // The merger prints its details right under its message; a relay or a paste that spaced the lines (EAS Build)
        // put a blank line between them: the rest of the record is spaced the same way.
        if (manifest && pending.detailAfterBlank === undefined && !pending.lines.some((l) => /^Suggestion: /.test(l))) {
          pending.detailAfterBlank = true;
          return true;
        }
      }
      const afterBlank = pending.detailAfterBlank === true;
      if (afterBlank) {
        pending.detailAfterBlank = false;
        if (MANIFEST_DETAIL.test(line.trim())) pending.doubleSpaced = true;
      }
      // A console that cut a long line of a merger message at its width, mid-word: the rest starts the next line
      // (joined with a space like the other lines, as a reporter's rewrap at a space cannot be told from it).
      const cutAtWidth =
        manifest &&
        !pending.heldBlank &&
        (this.previousLine?.length ?? 0) >= WINDOWS_CONSOLE_WIDTH &&
        !/\s$/.test(this.previousLine ?? '') &&
        /^(?:[a-z]|[:-]\d)/.test(line) &&
        !/^[\w-]+:(?:\s|$)/.test(line) &&
        // The merger's next record, right under the last (the blank line between them lost): not a cut's rest.
        !MANIFEST_MESSAGE.test(line);
      const detail =
        (pending.indented !== false &&
          /^\s+\S/.test(line) &&
          (pending.deeperThan === undefined ||
            (line.length - line.trimStart().length > pending.deeperThan && !/^\s*[ewi]: /.test(line)))) ||
        (manifest && MANIFEST_DETAIL.test(line)) ||
        // The brace that closes the overlay record's `flavorName {` suggestion, however indented.
        (manifest && line.trim() === '}' && /\{[^}]*$/.test(pending.lines.slice(-3).join(' '))) ||
        (pending.heldBlank === true && pending.paragraphAfterBlank?.test(line) === true) ||
        // `<path>:29:9 Error:` says nothing after it: the untabbed line under it is the merger's message.
        (manifest &&
          !pending.heldBlank &&
          pending.base.message === '' &&
          pending.lines.length === 0 &&
          /^\S/.test(line) &&
          !MANIFEST_LOCATED.test(line) &&
          !/^(?:[ewiv]: |> |\* |FAILURE|BUILD |(?:ERROR|WARNING|INFO|Error|Warning):|Task :|Caused by: )/.test(line)) ||
        (pending.unindented !== undefined &&
          pending.lines.length < MAX_UNINDENTED_LINES &&
          pending.unindented.test(line) &&
          !NEW_ENTRY.test(line)) ||
        // A merger message broken after a space inside a sentence (a reporter's or a console's wrap): its rest
        // starts the next line. After a sentence's end, or before the merger's pointer to its manual, it does not.
        (manifest &&
          !pending.heldBlank &&
          /[^.\s]\s$/.test(this.previousLine ?? '') &&
          /^[^\s>*]/.test(line) &&
          !line.startsWith('See http://g.co/') &&
          !/^(?:[ewiv]: |(?:ERROR|WARNING|INFO|Error|Warning):|Task :|Caused by: |FAILURE|BUILD |Execution failed )/.test(
            line,
          ) &&
          !(/\s(?:Error|Warning):/.test(line) && MANIFEST_LOCATED.test(line))) ||
        cutAtWidth ||
        // A paragraph a reporter rewrapped (AGP's namespace advice): the rest of a sentence starts the next line,
        // however the paste indented it.
        ((pending.paragraphs === true || pending.paragraphAfterBlank !== undefined) &&
          !pending.heldBlank &&
          /^\s*[a-z]/.test(line) &&
          !/[.!?:]\s*$/.test(this.previousLine ?? '.') &&
          !/^\s*(?:[ewiv]: |at )/.test(line));
      if (
        (afterBlank ? MANIFEST_DETAIL.test(line.trim()) : detail) &&
        // A stack frame ends it; the merger's own `at AndroidManifest.xml:12:5 …` (its sentence rewrapped) does not.
        !(/^\s*(at |\.\.\. \d+ more)/.test(line) && !(manifest && /^\s*at \S*AndroidManifest\.xml/.test(line))) &&
        // The merger's next record, indented with the rest of a log pasted as a block (`\t<path>:37:5 Error:`), or
        // right after a record pasted without its header.
        !(manifest && /\s(?:Error|Warning):/.test(line) && MANIFEST_LOCATED.test(line)) &&
        !(pending.dependency && /^\s*> /.test(line)) &&
        this.pendingMultiline.lines.length < MAX_CONTINUATION_LINES
      ) {
        // A cut inside a position (`… at AndroidManifest.xml` / `:19:5-65 duplicated …`) goes on without a space.
        const lines = this.pendingMultiline.lines;
        if (cutAtWidth && /^[:-]\d/.test(line) && lines.length > 0) lines[lines.length - 1] += line.trim();
        else lines.push(line.trim());
        // A paragraph of the message after a blank line: the message may go on in another.
        if (pending.heldBlank === true && pending.paragraphAfterBlank?.test(line) === true) pending.heldBlank = false;
        // Its next blank lines are the console's spacing again.
        if (pending.doubleSpaced === true) {
          pending.heldBlank = false;
          pending.blankRun = 0;
        }
        return true;
      }
      this.flushMultiline();
    }
    if (this.pendingTest) {
      if (this.pendingTest.lines.length === 0 && line.trim() === LOGCAT_EXCEPTION_BEGIN) return true;
      // Also right under the `FAILED` line, where a markdown paste put one, or a blank line and the code fence the
      // reporter opened there (the header quoted as prose, the stack as code; the fence reads as a blank line).
      if (line.trim() === '' && this.pendingTest.blankLines < (this.pendingTest.lines.length === 0 ? 2 : 1)) {
        this.pendingTest.blankLines++;
        return true;
      }
      const logged = this.pendingTest.printedStack === true;
      if (/^\s+\S/.test(line) && !/^\s*> /.test(line) && !(logged && /^\s*(?:SUITE|TEST): /.test(line))) {
        if (this.pendingTest.lines.length < MAX_CONTINUATION_LINES) this.pendingTest.lines.push(line.trim());
        return true;
      }
      // A console that prints the stack unindented (Android Studio's) puts its frames in column 0 too.
      if (logged && this.pendingTest.lines.length > 0 && /^at \S.*\)\s*$/.test(line)) {
        if (this.pendingTest.lines.length < MAX_CONTINUATION_LINES) this.pendingTest.lines.push(line.trim());
        return true;
      }
      if (logged && this.pendingTest.lines.length === 0 && PRINTED_EXCEPTION.test(line)) {
        this.pendingTest.lines.push(line.trim());
        return true;
      }
      // The failure's message pasted without its indentation: the one sentence right under the `FAILED` line.
      if (
        this.pendingTest.lines.length === 0 &&
        /^[A-Z][^:]*\.(?:\s|$)/.test(line) &&
        !NEW_ENTRY.test(line) &&
        !TEST_FAILED.test(line.trim()) &&
        !OLD_TASK_LINE.test(line.trim()) &&
        // The device's summary of the run is AGP's line, not the test's message (ddmlib's `Test failed to run to
        // completion. …` is: the message of the test the run stopped in).
        !DEVICE_RUN_FAILED.test(line)
      ) {
        this.pendingTest.lines.push(line.trim());
        return true;
      }
      this.flushTest();
    }
    return false;
  }

  private flushPending(): void {
    this.flushDataBinding();
    this.flushJavac();
    this.flushMultiline();
    this.flushTest();
  }

  /** Text of a data binding report from where it starts (or goes on) on this line; a line may hold whole reports. */
  private readDataBinding(text: string, task: string | null): true {
    let rest = text;
    for (let k = 0; k < 64; k++) {
      const end = rest.indexOf(DATA_BINDING_ERROR_END);
      // A log pasted with each line in its own inline-code span.
      const part = (end < 0 ? rest : rest.slice(0, end)).trim().replace(/^`+|`+$/g, '');
      this.pendingDataBinding ??= { parts: [], task };
      this.pendingDataBinding.parts.push(part);
      if (end < 0) return true;
      this.flushDataBinding();
      rest = rest.slice(end + DATA_BINDING_ERROR_END.length);
      const next = rest.indexOf(DATA_BINDING_ERROR_START_WORDS);
      if (next < 0) return true;
      rest = rest.slice(next + DATA_BINDING_ERROR_START_WORDS.length - 'msg:'.length);
    }
    return true;
  }

  private flushDataBinding(): void {
    const pending = this.pendingDataBinding;
    if (!pending) return;
    this.pendingDataBinding = null;
    const report = readDataBindingReport(pending.parts.join('\n'));
    if (report.message === '') return;
    // The data binding compiler runs as an annotation processor: in javac's task, or in kapt's for Kotlin modules.
    const kapt = this.kaptContext || /kapt/i.test(pending.task ?? '');
    this.add({
      severity: 'error',
      source: kapt ? 'kapt' : 'javac',
      file: report.file,
      line: report.line,
      column: report.column,
      message: report.message,
      task: pending.task,
    });
  }

  /**
   * The start of a Maven location's path that a console cut at its row's end: the row before, behind its `[ERROR] `,
   * when this path has no root of its own.
   */
  private mavenPathHead(path: string): string {
    const previous = this.previousLine?.trimStart();
    if (previous === undefined || /^(?:[A-Za-z]:)?[\\/]/.test(path) || !fillsConsoleRow(previous)) return '';
    const level = previous.startsWith('[') ? LOG_LEVEL_PREFIX.exec(previous) : null;
    const head = level ? previous.slice(level[0].length) : previous;
    return PATH_HEAD.test(head) ? head : '';
  }

  private continueJavac(pending: PendingJavac, rawLine: string): boolean {
    const joined = pending.sawCaret ? null : CARET.exec(rawLine);
    if (joined?.[2]) {
      // `    ^C:\path\B.java:6: error: …`: the caret, then the next message.
      pending.sawCaret = true;
      const column = indentOf(joined[1]!) - pending.indent + 1;
      pending.column = column > 0 && pending.file !== null ? column : null;
      this.carriedLine = joined[2];
      return true;
    }
    const next = JAVAC_HINT.test(rawLine) ? JAVAC.exec(rawLine) : null;
    const glued = next ? splitGluedLocation(next[3]!) : null;
    if (next && glued) {
      // The next error's location glued to this one's last line: that line's detail is this error's.
      const detail = JAVAC_DETAIL.exec(glued.before);
      if (detail) pending.details.push(`${detail[1]}: ${detail[2]!.trim()}`);
      this.carriedLine = rawLine.slice(rawLine.indexOf(next[3]!) + glued.before.length);
      return true;
    }
    if (
      next !== null ||
      (pending.needsCaret === true && JAVAC_UNLEVELED.test(rawLine)) ||
      (rawLine.includes('[ksp') && KSP.test(rawLine)) ||
      (rawLine.includes('.kt') && (KOTLIN_K2.test(rawLine) || KOTLIN_K1.test(rawLine))) ||
      KAPT_SUMMARY.test(rawLine)
    )
      return false;
    let line = rawLine;
    // kapt repeats its `e: ` in front of every line javac printed, echo and caret included; newer kapt relays the
    // whole diagnostic as one message, so only its first line has the `e: ` and the echo and caret follow raw.
    const prefixed = /^\s*([ew]):(?: (.*))?$/.exec(line);
    if (prefixed) {
      line = prefixed[2] ?? '';
      pending.kaptWrapped = true;
    } else if (pending.kaptWrapped && line.trim() !== '') return false;
    if (pending.cutAtWidth) {
      pending.cutAtWidth = false;
      if (!pending.sawCaret && /^\S+$/.test(line)) {
        pending.message = `${pending.message} ${line}`;
        return true;
      }
    }
    const detail = JAVAC_DETAIL.exec(line);
    if (detail) {
      pending.details.push(`${detail[1]}: ${detail[2]!.trim()}`);
      pending.blankAfterDetail = false;
      // javac's own line: the blank lines before it were a relay's spacing, not the end of the message.
      pending.blankLines = 0;
      return true;
    }
    // `cannot access X`'s reason (or a raw type's, or a conditional's operand type), which javac indents as it does
    // `symbol:` (a wrapper may have taken the indent).
    if (
      (line.includes('class file for ') ||
        line.includes('missing type ') ||
        line.includes(' cannot be converted to ')) &&
      JAVAC_REASON_LINE.test(line)
    ) {
      pending.details.push(line.trim());
      return true;
    }
    const caret = CARET.exec(line);
    if (caret && !pending.sawCaret) {
      if (pending.messageOnNextLine && pending.linesBeforeCaret === 0) {
        // No echo came between the line taken as the message and the caret: it was the echo, the message's first
        // line empty (a processor's message that starts with a line break; its rest follows the caret).
        pending.echo = pending.message;
        pending.message = '';
      }
      pending.sawCaret = true;
      const column = indentOf(caret[1]!) - pending.indent + 1;
      pending.column = column > 0 && pending.file !== null ? column : null;
      return true;
    }
    if (line.trim() === '') {
      // kapt prints an empty `e: ` and a blank line between javac's message and its echo.
      // A relay that puts a blank line after each of javac's lines (React Native's CLI on Windows) has `symbol:` after one.
      if (pending.sawCaret && !pending.blankAfterCaret && pending.details.length === 0) {
        pending.blankAfterCaret = true;
        return true;
      }
      // The same relay spaces `symbol:` from `location:`.
      if (pending.blankAfterCaret && pending.details.length > 0 && !pending.blankAfterDetail) {
        pending.blankAfterDetail = true;
        return true;
      }
      if (pending.sawCaret || pending.blankLines >= 2) return false;
      pending.blankLines++;
      return true;
    }
    // `cannot access X`'s bad file under an echo whose caret a paste lost.
    if (!pending.sawCaret && pending.linesBeforeCaret > 0 && this.readsBadFileLine(pending, line)) {
      pending.sawCaret = true;
      return true;
    }
    // A row of dashes right under the message: markdown's underline of a pasted line (javac prints none).
    if (
      !pending.sawCaret &&
      pending.linesBeforeCaret === 0 &&
      pending.details.length === 0 &&
      /^\s*-{2,}\s*$/.test(line)
    )
      return true;
    if (!pending.sawCaret) {
      // javac prints no empty message: a location line that ends at `error:` had the message moved to the next line
      // (a tool's log wrapped it there), the source echo after it.
      if (
        pending.message === '' &&
        pending.file !== null &&
        pending.linesBeforeCaret === 0 &&
        !pending.messageOnNextLine &&
        pending.details.length === 0
      ) {
        pending.message = line.trim();
        pending.messageOnNextLine = true;
        return true;
      }
      // javac prints no Gradle headline: an unlocated `error: …` right over one is a tool relaying that failure (an
      // IDE's sync prints the Tooling API's `The supplied … action failed`), and the failure block says what failed.
      if (pending.file === null && pending.linesBeforeCaret === 0 && ONE_LINE_HEADLINE.test(line.trim())) {
        this.pendingJavac = null;
        return false;
      }
      // A located `error: [Hilt]` whose next line is a sentence, not source (a Java line ends in none of `.`): the
      // paste left the echo and caret out and kept what the processor says.
      if (
        pending.file !== null &&
        pending.linesBeforeCaret === 0 &&
        pending.message !== '' &&
        TAG_ONLY.test(pending.message) &&
        line.trimEnd().endsWith('.')
      ) {
        pending.message = `${pending.message} ${line.trim()}`;
        return true;
      }
      // An unlocated `error: [Hilt]`: the processor's message starts with a line break, so what it says is on the
      // next line (javac indents a message's later lines); a located one echoes its source there instead.
      if (
        pending.file === null &&
        pending.linesBeforeCaret === 0 &&
        pending.message !== '' &&
        TAG_ONLY.test(pending.message) &&
        /^\s+\S/.test(line) &&
        !/^\s*at /.test(line)
      ) {
        pending.message = `${pending.message} ${line.trim()}`;
        return true;
      }
      // A location line that filled a console's row was cut there, inside a word or at the space it kept (`…: error:
      // ca` / `nnot find symbol`, `…: error:` / ` cannot find symbol`): the line taken as the echo was the message's
      // rest when another line comes before the caret (an echo that happened to follow a full row has its caret next).
      if (
        pending.linesBeforeCaret === 1 &&
        pending.rowGoesOn &&
        pending.echo !== undefined &&
        /^ ?\S/.test(pending.echo)
      ) {
        pending.message = `${pending.message}${pending.echo}`.trim();
        pending.rowGoesOn = fillsConsoleRow(pending.echo);
        pending.echo = line;
        return true;
      }
      // A message wrapped onto the next line (`… implement a method` / `from a supertype`), its echo after it: the
      // line taken as the echo was only words, and this one is indented source (or any source after a message that
      // announced its rest with a colon: `@JsonClass can't be applied to X:` / `must be a Kotlin class`).
      if (
        pending.linesBeforeCaret === 1 &&
        pending.echo !== undefined &&
        /^[a-z]+(?: [\w'-]+)+$/.test(pending.echo) &&
        (/^\s+\S/.test(line) || pending.message.endsWith(':'))
      ) {
        // A console cuts at its width inside a word as often as not (`does not overr` / `ide or …`): a location line as
        // long as a console's was cut there; a shorter one was wrapped at a word by whoever pasted it.
        const cutInWord =
          (pending.headerLength ?? 0) >= WINDOWS_CONSOLE_WIDTH &&
          /\w$/.test(pending.message) &&
          /^\w/.test(pending.echo);
        pending.message = cutInWord ? pending.message + pending.echo : `${pending.message} ${pending.echo}`;
        pending.echo = line;
        return true;
      }
      // The source line javac echoes before its caret.
      if (
        pending.linesBeforeCaret >= 1 ||
        /^(Note:|注:|\d+ |FAILURE|BUILD |\* |> |:\w|\s*(?:error|warning|错误|警告|エラー|Fehler|Warnung|\uFFFD{2,}): )/.test(
          line,
        )
      )
        return false;
      pending.linesBeforeCaret++;
      pending.echo = line;
      return true;
    }
    if (this.readsBadFileLine(pending, line)) return true;
    // Annotation processors (Dagger's binding trace) indent what follows the caret deeper than the message.
    if (indentOf(line) <= pending.indent || /^\s*(Note|注|注意|Hinweis):/.test(line)) return false;
    if (pending.badFileLines !== undefined) {
      // The reason's lines under it; one that starts in lower case after one with no full stop goes on its sentence.
      const text = line.trim();
      const last = pending.details.length - 1;
      if (pending.badFileLines > 0 && /^[a-z]/.test(text) && !/[.:]$/.test(pending.details[last]!))
        pending.details[last] = `${pending.details[last]} ${text}`;
      else pending.details.push(text);
      pending.badFileLines++;
      return true;
    }
    // javac prints a message's first line on the location line and its other lines under the caret: when the first
    // line is only the processor's tag (Hilt's `error: [Hilt]`), the next one is what it says.
    if (TAG_ONLY.test(pending.message)) pending.message = `${pending.message} ${line.trim()}`.trim();
    return true;
  }

  /**
   * `cannot access X`'s bad file and the reasons under it, also where a paste took the indentation that nests them (the
   * header is known by its words, its reasons by javac's).
   */
  private readsBadFileLine(pending: PendingJavac, line: string): boolean {
    if (pending.badFileLines === undefined) {
      if (!JAVAC_CANNOT_ACCESS.test(pending.message) || !JAVAC_BAD_FILE.test(line)) return false;
      pending.details.push(line.trim());
      pending.badFileLines = 0;
      return true;
    }
    if (indentOf(line) > pending.indent || !JAVAC_BAD_FILE_REASON.test(line)) return false;
    pending.details.push(line.trim());
    pending.badFileLines++;
    return true;
  }

  private flushJavac(): void {
    const p = this.pendingJavac;
    if (!p) return;
    this.pendingJavac = null;
    if (p.needsCaret && !p.sawCaret) return;
    if (p.kaptWrapped) this.kaptContext = true;
    this.add({
      severity: p.severity,
      source: p.kaptWrapped ? 'kapt' : p.source,
      file: p.file,
      line: p.line,
      column: p.column,
      message: p.details.length > 0 ? `${p.message} (${p.details.join('; ')})` : p.message,
      task: p.task,
    });
    // Read from the lines before this one (the line that ends it is the next error's, which can say the same): a
    // console's wrap of this line is no part of it.
    this.lastAdded = null;
  }

  private flushMultiline(): void {
    const p = this.pendingMultiline;
    if (!p) return;
    this.pendingMultiline = null;
    const requiredAt = p.dependency ? p.lines.findIndex((l) => /^Required by:/.test(l)) : -1;
    let message = p.dependency
      ? [p.base.message, ...(requiredAt < 0 ? [] : p.lines.slice(requiredAt, requiredAt + 6))].join(' ')
      : [p.base.message.trimEnd(), ...p.lines].filter((s) => s !== '').join(' ');
    if (p.base.source === 'manifest') message = singleSpaced(message);
    // kotlinc's location wrapped after its path's colon (`e: /p/A.kt:` / `(3, 12): msg`): one location once joined.
    const rejoined =
      p.base.file === null && p.lines.length > 0 && /\.kts?:$/.test(p.base.message)
        ? KOTLIN_LOCATION_REJOINED.exec(message)
        : null;
    if (rejoined) {
      this.add({
        ...p.base,
        file: rejoined[1]!,
        line: Number(rejoined[2] ?? rejoined[4]),
        column: Number(rejoined[3] ?? rejoined[5]),
        message: rejoined[6]!,
      });
      return;
    }
    const located = p.base.source === 'manifest' && p.base.file === null ? this.manifestLocation(message) : {};
    // A package-attribute message whose path came on a line of its own names its manifest once joined.
    const packageFile =
      p.base.source === 'manifest' && p.base.file === null && message.includes('found in source AndroidManifest.xml: ')
        ? PACKAGE_PATH.exec(message)?.[1]
        : undefined;
    if (packageFile !== undefined) Object.assign(located, { file: packageFile });
    // `Validation failed, exiting` says nothing of its own: the block's `… see logs` still points at the errors.
    if (p.base.source === 'manifest' && MANIFEST_VALIDATION_STOPPED.test(message)) return;
    if (p.base.source === 'manifest' && p.base.file !== null) this.manifestLocatedTasks.add(p.base.task);
    // The merger reports each element once: the same record right after itself, in a file it names no line of, is
    // another element its message does not name (`… for <activity>.` for each activity of a test manifest).
    const again = p.mergerRecord === true && p.base.line === null;
    const before = this.diagnostics.length;
    this.add({ ...p.base, ...located, message }, again);
    if (p.fromStack && this.diagnostics.length > before) this.fromStack.set(before, p.base.message);
  }

  /**
   * The block's `Manifest merger failed : <message>` after the merger printed the same message on its own (no location
   * before it): one problem, with the block's task. The block's copy is kept unless it was cut short.
   */
  private mergerMessageRepeated(text: string, task: string | null): boolean {
    const body = singleSpaced(text.replace(/^Manifest merger failed\s*:\s*/, ''));
    if (body === '' || body === text) return false;
    // The merger's own print comes shortly before the block that repeats it: a long log is not searched back to its start.
    const oldest = Math.max(0, this.diagnostics.length - 64);
    for (let k = this.diagnostics.length - 1; k >= oldest; k--) {
      const earlier = this.diagnostics[k]!;
      if (earlier.source !== 'manifest' || earlier.severity !== 'error') continue;
      const printed = singleSpaced(earlier.message);
      if (!printed.startsWith(body) && !body.startsWith(printed)) continue;
      this.diagnostics[k] =
        printed.length > body.length
          ? { ...earlier, task: earlier.task ?? task }
          : { ...earlier, ...this.manifestLocation(text), message: clip(text), task: task ?? earlier.task };
      return true;
    }
    return false;
  }

  /** The first position in a merger message that is the project's own manifest, for a message without a file. */
  private manifestLocation(message: string): Pick<BuildDiagnostic, 'file' | 'line' | 'column'> {
    // Plain index scans: the message can be many joined lines, and a library's `[lib] AndroidManifest.xml` is skipped,
    // as is the conflict's other side (`… is also present at AndroidManifest.xml:14:13-64`, a library's manifest even
    // where Studio's pane leaves out its `[lib]`).
    const name = 'AndroidManifest.xml:';
    const otherSide = 'is also present at ';
    for (let at = message.indexOf(name); at >= 0 && at < 8192; at = message.indexOf(name, at + name.length)) {
      const start = message.lastIndexOf(' ', at) + 1;
      if (message.slice(Math.max(0, start - 2), start) === '] ') continue;
      if (message.slice(Math.max(0, start - otherSide.length), start) === otherSide) continue;
      const position = /^(\d+):(\d+)/.exec(message.slice(at + name.length, at + name.length + 24));
      if (!position) continue;
      return {
        file: message.slice(start, at + name.length - 1),
        line: Number(position[1]),
        column: Number(position[2]),
      };
    }
    return { file: null, line: null, column: null };
  }

  /**
   * Failed tests as other runners list them: JUnit's text listener, the JUnit Platform's summary, a JUnit XML report
   * and Android Studio's test console. True when the line starts a listing or one of its tests.
   */
  private startsTestListing(line: string, trimmed: string): boolean {
    const first = trimmed.charCodeAt(0);
    let m: RegExpExecArray | null;
    if (first === 60) {
      // `<`: a JUnit XML report's test case, then its failure with the exception's text after the tag.
      if (trimmed.startsWith('<testcase') && (m = XML_TEST_CASE.exec(trimmed))) {
        this.xmlTestCase = m[3] === '/' ? null : { name: xmlText(m[1]!), className: xmlText(m[2]!) };
        return true;
      }
      if (this.xmlTestCase !== null && (m = XML_TEST_FAILURE.exec(trimmed))) {
        // The element's text, also as a CDATA section (Maven Surefire's reports): the stack's first line.
        const text = xmlText(m[4]!.replace(/<\/(?:failure|error)>.*$/, '').replace(/^<!\[CDATA\[|\]\]>$/g, '')).trim();
        this.flushPending();
        this.pendingTest = {
          className: this.xmlTestCase.className,
          method: this.xmlTestCase.name,
          task: this.currentTask,
          lines: text === '' ? [] : [text],
          blankLines: 0,
          printedStack: true,
          fallback: xmlText(m[1] ?? m[2] ?? ''),
        };
        if (m[3] === '/' || m[4]!.includes('</')) this.flushTest();
        else this.testListing = 'xml';
        return true;
      }
      return false;
    }
    if (first === 84 || first === 83 || first === 70) {
      // `There was 1 failure:`, `Started running tests`, `Failures (1):`.
      if (TEXT_LISTENER_FAILURES.test(trimmed)) this.testListing = 'text-listener';
      else if (trimmed === STUDIO_TESTS_STARTED) this.testListing = 'studio';
      else if (PLATFORM_FAILURES.test(trimmed)) this.testListing = 'platform';
      else return false;
      return true;
    }
    if (
      this.testListing === 'text-listener' &&
      first >= 49 &&
      first <= 57 &&
      (m = TEXT_LISTENER_FAILURE.exec(trimmed))
    ) {
      this.pendingTest = {
        className: m[2] ?? '',
        method: m[1] ?? m[3]!,
        task: this.currentTask,
        lines: [],
        blankLines: 0,
        printedStack: true,
      };
      return true;
    }
    // The console prints a failed test's stack from column 0; the test it ran is on the `am instrument` line above.
    if (this.testListing === 'studio' && /^\S/.test(line) && JAVA_EXCEPTION_LINE.test(trimmed)) {
      this.pendingTest = {
        className: '',
        method: '',
        task: this.currentTask,
        lines: [trimmed],
        blankLines: 0,
        printedStack: true,
      };
      return true;
    }
    return false;
  }

  /** A line inside a listing `startsTestListing` opened, rewritten into Gradle's indented details; null when consumed. */
  private readTestListing(line: string): string | null {
    const trimmed = line.trim();
    switch (this.testListing) {
      case 'platform': {
        // Entries are indented under `Failures (N):`; the summary's counts after them end the list.
        if (trimmed !== '' && !line.startsWith('  ') && !line.startsWith('\t')) {
          this.testListing = 'none';
          return line;
        }
        const entry = PLATFORM_FAILURE.exec(line);
        if (entry) {
          this.flushPending();
          const name = entry[1]!.split(':').join(' > ');
          this.pendingTest = { className: '', method: name, task: this.currentTask, lines: [], blankLines: 0 };
          return null;
        }
        if (PLATFORM_SOURCE.test(line) || trimmed === '[...]') return null;
        if (trimmed.startsWith('=> ')) return `    ${trimmed.slice(3)}`;
        const frame = PLATFORM_FRAME.exec(line);
        return frame ? `        at ${frame[1]}` : line;
      }
      case 'xml':
        if (/^(?:\]\]>)?<\/(?:failure|error)>/.test(trimmed)) {
          this.flushTest();
          this.testListing = 'none';
          return null;
        }
        return line;
      case 'text-listener':
        if (/^(?:FAILURES!!!|OK \(|Tests run: |INSTRUMENTATION_)/.test(trimmed)) this.testListing = 'none';
        return line;
      case 'studio':
        if (STUDIO_TESTS_ENDED.test(trimmed)) this.testListing = 'none';
        return line;
      case 'am-status':
        return this.readAmStatus(line);
      default:
        return line;
    }
  }

  /**
   * A line of `am instrument -r`'s status bundles: `INSTRUMENTATION_STATUS: key=value` (a value such as the `stack`
   * going on over the next lines), each bundle closed by its `INSTRUMENTATION_STATUS_CODE:`. A test's failure (-2) or
   * error (-1) bundle names its class and test and holds its stack; null when the line is consumed.
   */
  private readAmStatus(line: string): string | null {
    const bundle = this.amStatus!;
    // The system refused to start the instrumentation: no test ran, the refusal is the run's failure.
    if (line.startsWith(`${AM_STATUS_PREFIX}Error=`)) {
      this.testListing = 'none';
      this.amStatus = null;
      return line;
    }
    if (line.startsWith(AM_STATUS_PREFIX)) {
      const pair = line.slice(AM_STATUS_PREFIX.length);
      const equals = pair.indexOf('=');
      bundle.key = equals > 0 ? pair.slice(0, equals) : null;
      if (bundle.key !== null) bundle.values.set(bundle.key, [pair.slice(equals + 1)]);
      return null;
    }
    const code = AM_STATUS_CODE.exec(line);
    if (code) {
      const stack = (bundle.values.get('stack') ?? []).filter((text) => text.trim() !== '');
      if ((code[1] === '-2' || code[1] === '-1') && stack.length > 0) {
        this.pendingTest = {
          className: bundle.values.get('class')?.[0] ?? '',
          method: bundle.values.get('test')?.[0] ?? '',
          task: this.currentTask,
          lines: stack,
          blankLines: 0,
          printedStack: true,
        };
        this.flushTest();
      }
      this.amStatus = { values: new Map(), key: null };
      return null;
    }
    if (line.startsWith('INSTRUMENTATION_')) {
      // The run's result (`INSTRUMENTATION_RESULT: …`, `INSTRUMENTATION_CODE: …`) ends the test bundles.
      this.testListing = 'none';
      this.amStatus = null;
      return line;
    }
    // Only a value's own lines (a `stack=`, a `stream=`) go on between `INSTRUMENTATION_` lines: a line outside a value,
    // Gradle's own report, or a value past its bound ends the bundles, so the rest of the log is read as usual.
    const value = bundle.key === null ? undefined : bundle.values.get(bundle.key);
    if (value === undefined || value.length >= MAX_CONTINUATION_LINES || AM_STATUS_AFTER.test(line)) {
      this.testListing = 'none';
      this.amStatus = null;
      return line;
    }
    value.push(line);
    return null;
  }

  private flushTest(): void {
    const p = this.pendingTest;
    if (!p) return;
    this.pendingTest = null;
    let exception = '';
    let file: string | null = null;
    let line: number | null = null;
    // Gradle's short format names the test class's own frame when the class is on the stack, else the top frame
    // (a framework's, as for `initializationError`): only a frame in the test class's file is the project's place.
    const testClass = p.className.replace(/\[[^\]]*\]$/, '');
    const testFile = testClass.slice(testClass.lastIndexOf('.') + 1).split('$')[0]!;
    // A class Kotlin names in backticks (`class `Level 0` : FreeSpec(…)`) lives in a file named otherwise: the
    // frame Gradle chose for it cannot be checked against its name, and is the class's own when it is on the stack.
    const wordsClass = testClass.includes(' ') && !testClass.includes('(');
    // The project's code shares the test class's package root (`com.example`): a frame outside it is a library's
    // (Hilt's checks, a mocking library), whatever the framework list knows.
    const segments = testClass.split('.');
    const root = segments.length > 2 ? `${segments[0]}.${segments[1]}.` : null;
    // AGP's device runner reports a device's failure (an install that failed) as a test of its own class
    // (`ConnectedDevice > runTests[…]`): its frames are AGP's, no place in the project.
    const placeless = testClass.startsWith('com.android.build.gradle.internal.');
    for (const text of p.lines) {
      const frame = placeless ? null : STACK_FRAME.exec(text);
      if (frame) {
        // The first frame past the test frameworks' own is where the project's code failed; the test class's own
        // frames are the project's even where its package is a framework's (the framework's own tests).
        const own = frame[1] === testClass || frame[1]!.startsWith(`${testClass}$`);
        if (
          file === null &&
          (own || (!FRAMEWORK_FRAME.test(frame[1]!) && (root === null || frame[1]!.startsWith(root))))
        ) {
          file = frame[3]!;
          line = Number(frame[4]);
        }
        continue;
      }
      const short = TEST_SHORT_FRAME.exec(text);
      if (short) {
        const cause = short[1]!.startsWith('Caused by:');
        if (exception === '' && !cause) exception = short[1]!.trim();
        // A negative line is no place in the file (a native method, or a class compiled without line numbers).
        if (
          file === null &&
          !placeless &&
          Number(short[3]) > 0 &&
          (short[2]!.slice(0, short[2]!.lastIndexOf('.')) === testFile ||
            (!/[/\\]/.test(short[2]!) && (wordsClass || TEST_SOURCE_FILE.test(short[2]!))))
        ) {
          file = short[2]!;
          line = Number(short[3]);
        }
        continue;
      }
      // kotlinx.coroutines' stack recovery marks where a coroutine resumed with a frame of its own, not a message line.
      if (/^\s*(at |\.\.\. \d+ more|Caused by:|\(Coroutine boundary\))/.test(text)) continue;
      if (exception === '') exception = text.trim();
      else if (exception.length < 400 && file === null) exception = `${exception} ${text.trim()}`;
    }
    if (exception === '' && p.fallback) exception = p.fallback;
    const name =
      p.className === '' || p.method === '' ? p.className + p.method : `${p.className}${p.joiner ?? ' > '}${p.method}`;
    if (name === '' && exception === '') return;
    // A test printed again is one failure (a retried connected test, whose message may name a new object); a test that
    // failed at no place the report names is told apart by its message (JUnit 4 reports each of a class's
    // validation errors as one more `initializationError`).
    const key = file === null ? `${name}\n${exception}` : `${name}\n${file}:${line}`;
    if (this.reportedTests.has(key)) return;
    if (this.reportedTests.size < MAX_DIAGNOSTICS) this.reportedTests.add(key);
    this.add({
      severity: 'error',
      source: 'test',
      file,
      line,
      column: null,
      message: name === '' ? exception : `${name}${exception ? `: ${exception}` : ' failed'}`,
      task: p.task,
    });
  }

  // ---------------------------------------------------------------- single lines

  /** Tries every line rule; true when the line produced (or belongs to) a diagnostic. */
  private scanLine(line: string, inBlock: boolean, quotedCause = false): boolean {
    const trimmed = line.trim();
    if (this.unplacedJavac !== null && !inBlock && this.placeUnplacedJavac(line)) return true;
    const shortMessage = this.instrumentationShortMessage;
    if (shortMessage !== null) {
      this.instrumentationShortMessage = null;
      if (!trimmed.startsWith('INSTRUMENTATION_RESULT: longMsg='))
        this.addUnlocated('error', 'test', shortMessage.message, shortMessage.task);
    }
    const r8Header = this.r8OriginHeader;
    if (r8Header !== null) {
      this.r8OriginHeader = null;
      if (trimmed !== '' && !inBlock) return this.addR8Origined(r8Header, trimmed);
    }
    // AGP relays dx's lines one `AGPBI:` record each: the record's own line is not dx's next line.
    const dxCrashTask = this.dxCrashTask;
    if (dxCrashTask !== undefined && !trimmed.startsWith('AGPBI:')) {
      this.dxCrashTask = undefined;
      const throwable = DX_CRASH_THROWABLE.exec(trimmed);
      if (throwable) return this.addUnlocated('error', 'r8', throwable[1]!, dxCrashTask);
    }
    if (trimmed.includes('UNEXPECTED TOP-LEVEL ') && DX_CRASH_BANNER.test(trimmed)) {
      this.dxCrashTask = this.currentTask;
      return true;
    }
    // A stack frame (`at com.x.Foo.bar(Foo.kt:12)`) is never a diagnostic of its own, and stacks are long. One of KSP's
    // processing (not its Gradle plugin's) under an exception pasted without `e: [ksp] ` shows KSP caught and reported it.
    if (trimmed.startsWith('at ') && trimmed.endsWith(')')) {
      const caught = this.exceptionWithoutTag;
      if (
        caught !== null &&
        trimmed.startsWith('at com.google.devtools.ksp.') &&
        !trimmed.startsWith('at com.google.devtools.ksp.gradle.')
      ) {
        this.exceptionWithoutTag = null;
        this.addUnlocated('error', 'ksp', caught.message, caught.task);
      }
      return false;
    }
    this.exceptionWithoutTag =
      !inBlock && trimmed.includes('.') && JAVA_EXCEPTION_LINE.test(trimmed)
        ? { message: trimmed, task: this.currentTask }
        : null;
    const gcloudError = this.gcloudTestError;
    if (gcloudError !== null) {
      this.gcloudTestError = null;
      if (trimmed !== '') return this.addUnlocated('error', 'test', trimmed, gcloudError.task);
    }
    if (this.inTestLabOutcomes && trimmed.charCodeAt(0) !== 124 && trimmed.charCodeAt(0) !== 43)
      this.inTestLabOutcomes = false;
    if (trimmed === '') return false;
    if (trimmed.charCodeAt(0) === 124) {
      if (FTL_OUTCOME_HEADER.test(trimmed)) return (this.inTestLabOutcomes = true);
      const row = this.inTestLabOutcomes ? FTL_OUTCOME_ROW.exec(trimmed) : null;
      // A device whose run failed or could not finish; the row's details are Test Lab's reason.
      if (row !== null)
        return (
          (row[1] !== 'Failed' && row[1] !== 'Inconclusive') ||
          this.addUnlocated('error', 'test', `${row[2]}: ${row[3]}`, this.currentTask)
        );
    }
    if (trimmed.startsWith('ERROR: (gcloud')) {
      const gcloud = GCLOUD_TEST_ERROR.exec(trimmed);
      if (gcloud !== null) {
        if (gcloud[1] !== '') return this.addUnlocated('error', 'test', gcloud[1]!, this.currentTask);
        this.gcloudTestError = { task: this.currentTask };
        return true;
      }
    }
    if (trimmed.startsWith('INSTRUMENTATION_RESULT: ')) {
      const result = INSTRUMENTATION_RESULT_MESSAGE.exec(trimmed);
      if (result === null) return false;
      if (result[1] === 'long') return this.addUnlocated('error', 'test', result[2]!, this.currentTask);
      this.instrumentationShortMessage = { message: result[2]!, task: this.currentTask };
      return true;
    }
    if (trimmed.startsWith('INSTRUMENTATION_STATUS: Error=')) {
      const refused = INSTRUMENTATION_START_ERROR.exec(trimmed);
      return refused !== null && this.addUnlocated('error', 'test', refused[1]!, this.currentTask);
    }
    if (!inBlock && this.startsTestListing(line, trimmed)) return true;

    if (!inBlock) {
      // Task lines start `> Task :`, `:` (Gradle before 5) or `Task :`.
      const first = trimmed.charCodeAt(0);
      const task =
        first === 62 || first === 58 || first === 84
          ? (TASK_LINE.exec(trimmed) ??
            OLD_TASK_LINE.exec(trimmed) ??
            /^Task (:\S+)(?: (?:FAILED|UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE))?\s*$/.exec(trimmed))
          : // `--info` names the task it starts: `Executing task ':app:compileDebugKotlin' (up-to-date check …) due to:`.
            first === 69
            ? EXECUTING_TASK.exec(trimmed)
            : null;
      if (task) {
        // A compiler writes its errors to stderr and Gradle its task header to stdout: a log that merged the two can
        // print the header's `FAILED` after the errors. Those errors, read under no task, are that task's.
        // So are errors read under a task whose line said it did not run (`:x UP-TO-DATE`): it printed nothing.
        const before = this.currentTaskRan ? null : this.currentTask;
        if (trimmed.endsWith(' FAILED') && (this.currentTask === null || before !== null))
          for (let k = this.diagnosticsAtTaskLine; k < this.diagnostics.length; k++) {
            const d = this.diagnostics[k]!;
            if ((d.task === null || d.task === before) && COMPILER_SOURCES.has(d.source))
              this.diagnostics[k] = { ...d, task: task[1]! };
          }
        this.diagnosticsAtTaskLine = this.diagnostics.length;
        this.currentTask = task[1]!;
        this.currentTaskRan = !/ (?:UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE)$/.test(trimmed);
        this.configuringProject = null;
        this.inCcList = false;
        this.r8Severity = 'error';
        this.kaptContext = false;
        return false;
      }
      // Gradle before 5 printed the task name with no line break before the task's first output line:
      // `:app:lintVitalRelease/home/p/app/src/main/res/values/array.xml:3: Error: …`.
      // Android Studio glues a compiler's first line to the task line: `> Task :app:kspDebugKotline: [ksp] …`.
      const glued =
        first === 58 && (trimmed.includes('/') || trimmed.includes(':\\'))
          ? GLUED_TASK.exec(trimmed)
          : first === 62 && trimmed.includes(': ')
            ? TASK_GLUED_MESSAGE.exec(trimmed)
            : null;
      if (glued) {
        this.currentTask = glued[1]!;
        return this.scanLine(glued[2]!, false, quotedCause);
      }
      if (CONFIGURE_LINE.test(trimmed)) {
        this.currentTask = null;
        this.configuringProject = trimmed.slice('> Configure project '.length);
        return false;
      }
      if (this.scanConfigCache(line, 'warning')) return true;
    }
    const task = inBlock ? (this.blockTask() ?? this.currentTask) : this.currentTask;
    if (!inBlock && this.readHeaderlessHilt(line, task)) return true;

    let m: RegExpExecArray | null;
    if (line.includes(DATA_BINDING_ERROR_START_WORDS)) {
      this.flushPending();
      const from = line.indexOf(DATA_BINDING_ERROR_START_WORDS) + DATA_BINDING_ERROR_START_WORDS.length - 'msg:'.length;
      return this.readDataBinding(line.slice(from), task ?? this.lastFailedTask);
    }
    if (line.includes('[databinding] {') && (m = DATA_BINDING_ENCODED.exec(line))) {
      const report = readEncodedDataBindingReport(m[1]!);
      if (report) {
        this.flushPending();
        const reportTask = task ?? this.lastFailedTask;
        // The data binding compiler runs as an annotation processor: in javac's task, or in kapt's for Kotlin modules.
        const kapt = this.kaptContext || /kapt/i.test(reportTask ?? '');
        return this.add({
          severity: 'error',
          source: kapt ? 'kapt' : 'javac',
          file: report.file,
          line: report.line,
          column: report.column,
          message: report.message,
          task: reportTask,
        });
      }
    }
    if (!inBlock && trimmed.includes('Cannot find ') && trimmed.includes(' setter for ')) {
      const setter = DATA_BINDING_SETTER_ALONE.exec(firstParagraphOfEscapedText(trimmed));
      if (setter) {
        const kapt = this.kaptContext || /kapt/i.test(task ?? '');
        return this.addUnlocated('error', kapt ? 'kapt' : 'javac', setter[1]!, task);
      }
    }
    const crash = trimmed.startsWith('An exception has occurred in the compiler') ? JAVAC_CRASH.exec(line) : null;
    const unformattedCrash = trimmed.startsWith('compiler message file broken: ')
      ? JAVAC_CRASH_UNFORMATTED.exec(line)
      : null;
    if (crash || unformattedCrash) {
      const kapt = this.kaptContext || /kapt/i.test(task ?? '');
      this.pendingMultiline = {
        base: {
          severity: 'error',
          source: kapt ? 'kapt' : 'javac',
          file: null,
          line: null,
          column: null,
          message: crash ? `${crash[1]}.` : unformattedCrash![1]!,
          task: task ?? this.lastFailedTask,
        },
        lines: [],
        indented: false,
        unindented: JAVAC_CRASH_EXCEPTION,
      };
      return true;
    }
    if (
      (trimmed.startsWith('Error: [') ||
        trimmed.startsWith('Warning: [') ||
        trimmed.startsWith('std') ||
        (trimmed.startsWith('[') && hasXmlPlace(trimmed))) &&
      (m = LEGACY_MERGER_RECORD.exec(line))
    )
      return this.add({
        severity: m[2] ? severityOf(m[2]) : legacyMergerSeverity(m[5]!),
        source: 'manifest',
        file: m[3]!,
        line: m[4] ? Number(m[4]) : null,
        column: null,
        // The stream's closing bracket, when Unity glued it to the one line.
        message: m[1] && m[5]!.endsWith(']') ? m[5]!.slice(0, -1) : m[5]!,
        task,
      });
    if (!inBlock && (trimmed.startsWith('Error:') || trimmed.startsWith('Warning:'))) {
      if (trimmed.endsWith(')') && (m = STUDIO_LOCATION_ONLY.exec(trimmed))) return this.locateLast(m);
      if (trimmed.includes('Failed to crunch file ') && (m = STUDIO_CRUNCH_FAILED.exec(trimmed)))
        return this.addInFile('error', 'aapt2', CRUNCH_FAILED.exec(m[1]!)![1]!, m[1]!, task);
      // The merger's own `Error: ` (with its space) before a file-name check: the file is the Studio group's, if any.
      // AAPT's own sentence behind a relaying tool's `Error: ` (Unreal's packager), which has no location to give.
      if (trimmed.startsWith('Error: ') && AAPT_MESSAGE.test(trimmed.slice(7)))
        return this.addUnlocated('error', 'aapt2', trimmed.slice(7), task);
      if (trimmed.startsWith('Error: ') && MERGER_FILE_NAME_CHECK.test(trimmed.slice(7)))
        return this.addInFile('error', 'agp', this.studioFile, trimmed.slice(7), task);
      if ((m = STUDIO_LOCATED.exec(trimmed))) {
        const message = m[5]!;
        const source = studioSource(m[4] ?? '', this.studioFile, message);
        // A merger record names its manifest in its message (`… from AndroidManifest.xml:46:13`).
        const file =
          source === 'manifest' && this.studioFile === null ? this.manifestLocation(message).file : this.studioFile;
        // javac's own level after Studio's (`Error:(31, 17) 警告: …`, a localized javac's warning that Studio filed as an
        // error) is the message's level.
        const javacWarning = m[4] !== undefined && m[4] !== 'Kotlin' && severityOf(m[4]) === 'warning';
        this.pendingStudio = {
          severity: javacWarning ? 'warning' : severityOf(m[1]!),
          source,
          file,
          line: Number(m[2]),
          // Studio prints column 0 when the tool gave none.
          column: m[3] && m[3] !== '0' ? Number(m[3]) : null,
          message,
          task,
        };
        return true;
      }
      if (/^Error:\s*$/.test(line)) {
        // The merger's located error with no file to name: `Error:` and its tab-indented details.
        this.pendingMultiline = {
          base: { severity: 'error', source: 'manifest', file: null, line: null, column: null, message: '', task },
          lines: [],
        };
        return true;
      }
      if (
        line === trimmed &&
        (m = STUDIO_UNLOCATED.exec(trimmed)) &&
        !/^Warning:\s*$/.test(trimmed) &&
        !STUDIO_EXCEPTION.test(m[2]!)
      ) {
        const known = KNOWN_FAILURE.exec(m[2]!);
        // `Error:Could not find g:a:v.` with its `Required by:` lines under it, as Studio copies a sync failure.
        if (m[1] === 'Error' && DEPENDENCY_NOT_FOUND.test(m[2]!))
          return this.pendingDependency({
            severity: 'error',
            source: 'gradle',
            file: null,
            line: null,
            column: null,
            message: m[2]!,
            task,
          });
        const crunch = m[1] === 'Error' ? CRUNCH_FAILED.exec(m[2]!) : null;
        if (crunch) return this.addInFile('error', 'aapt2', crunch[1]!, m[2]!, task);
        const processor = ANNOTATION_PROCESSOR_MESSAGE.test(m[2]!);
        if (m[1] === 'Error' || known || processor)
          return this.addUnlocated(
            severityOf(m[1]!),
            AAPT_MESSAGE.test(m[2]!)
              ? 'aapt2'
              : DATA_BINDING_MESSAGE.test(m[2]!) || ROOM_MESSAGE.test(m[2]!) || processor
                ? 'javac'
                : 'gradle',
            m[2]!,
            task,
          );
      }
    }
    if (trimmed.includes('.java:[') && (m = MAVEN_LOCATED.exec(line))) {
      const severity = m[4] ? severityOf(m[4]) : this.lineLevel?.startsWith('WARN') ? 'warning' : 'error';
      this.pendingJavac = {
        severity,
        source: 'javac',
        file: this.mavenPathHead(m[1]!) + m[1]!,
        line: Number(m[2]),
        message: m[5]!.trim(),
        task,
        indent: indentOf(line),
        kaptLetter: null,
        details: [],
        column: Number(m[3]),
        linesBeforeCaret: 0,
        blankLines: 0,
        // Maven gives the column itself and prints no source echo or caret.
        sawCaret: true,
        kaptWrapped: false,
      };
      return true;
    }
    const duplicate = trimmed.endsWith('Duplicate resources') ? parseDuplicateResources(trimmed) : null;
    if (duplicate) return this.addDuplicate(duplicate, 'error', 'agp', task);
    if (line.includes('Duplicate value for resource') && (m = AAPT_COMPILER_DUPLICATE.exec(line)))
      return this.addUnlocated('error', 'aapt2', m[1]!, task);
    if (line.includes('This version (') && (m = COMPOSE_VERSION.exec(line)))
      return this.addUnlocated('error', 'kotlin', m[1]!, task);
    for (const sentence of KOTLIN_SENTENCES_ALONE) {
      if (!line.includes(sentence.hint) || !(m = sentence.pattern.exec(line))) continue;
      const diagnostic: Diagnostic = {
        severity: sentence.severity,
        source: 'kotlin',
        file: null,
        line: null,
        column: null,
        message: m[1]!,
        task,
      };
      if (!inBlock && m[1]!.endsWith(':')) {
        this.pendingMultiline = { base: diagnostic, lines: [], unindented: ANY_TEXT };
        return true;
      }
      return this.add(diagnostic);
    }
    if (!inBlock && trimmed.startsWith('File being compiled') && this.placeInternalError(trimmed)) return true;
    if ((line.includes('error: ') || line.includes('warning: ')) && (m = CLANG.exec(line))) {
      return this.add({
        severity: m[4] === 'warning' ? 'warning' : 'error',
        source: 'agp',
        file: m[1]!,
        line: Number(m[2]),
        column: Number(m[3]),
        message: m[5]!,
        task,
      });
    }
    if (line.includes(' *** ') && (m = MAKE_FATAL.exec(line)))
      return this.add({
        severity: 'error',
        source: 'agp',
        file: m[1]!,
        line: Number(m[2]),
        column: null,
        message: m[3]!.trim(),
        task,
      });
    if (trimmed.startsWith('[CXX') && (m = CXX_ERROR.exec(line)))
      return this.addInFile(severityOf(m[1]!), 'agp', CXX_BUILD_FILE.exec(m[2]!)?.[1] ?? null, trimmed, task);
    if (trimmed.startsWith('Android NDK: ')) {
      if ((m = NDK_BUILD_LOCATED.exec(line)))
        return this.addInFile(severityOf(m[1]!), 'agp', m[2]!, `${m[3]}: ${m[4]}`, task);
      if ((m = NDK_BUILD_UNKNOWN_SCRIPT.exec(line))) return this.addUnlocated('error', 'agp', m[1]!, task);
    }
    if ((line.includes('ninja: error: ') || line.includes('FAILED: ')) && (m = NINJA_ERROR.exec(line)))
      return this.add({ severity: 'error', source: 'agp', file: null, line: null, column: null, message: m[1]!, task });
    if (line.includes('CMake ') && (m = CMAKE_ERROR.exec(line))) {
      this.pendingMultiline = {
        base: {
          severity: severityOf(m[1]!),
          source: 'agp',
          file: m[2]!,
          line: Number(m[3]),
          column: null,
          message: `${m[4]}:`,
          task,
        },
        lines: [],
      };
      return true;
    }
    if (trimmed.startsWith('AGPBI:') && (m = AGPBI.exec(line))) return this.addAgpbi(m[1]!, task);
    if (trimmed.startsWith('invalid resource directory name: ') && (m = AAPT1_INVALID_DIRECTORY.exec(line)))
      return this.addUnlocated('error', 'aapt2', m[1]!, task);
    if (line.includes('9-patch image ') && (m = NINE_PATCH_MALFORMED.exec(line))) {
      this.pendingMultiline = {
        base: {
          severity: 'error',
          source: 'aapt2',
          file: m[2]!.replace(/^\\\\\?\\/, ''),
          line: null,
          column: null,
          message: m[1]!,
          task,
        },
        lines: [],
        relayed: AAPT1_RELAYED_LINE,
      };
      return true;
    }
    if (trimmed.startsWith('AAPT err(') && (m = AAPT1.exec(line))) {
      const rest = m[1]!.trim();
      const at = rest.indexOf(' ERROR: ');
      return this.add({
        severity: 'error',
        source: 'aapt2',
        // Windows' long-path prefix `\\?\` before the drive.
        file: at > 0 ? rest.slice(0, at).replace(/^\\\\\?\\/, '') : null,
        line: null,
        column: null,
        message: at > 0 ? rest.slice(at + 8) : rest,
        task,
      });
    }

    // A console cut the path inside its file name, at the extension's dot (`…\util\Utils.` / `java:31: 错误: …`): the
    // line before holds the path, the location reads once the two are one line.
    const previousRow = this.previousLine;
    if (
      (trimmed.startsWith('java:') || trimmed.startsWith('kt:')) &&
      previousRow !== null &&
      previousRow.endsWith('.') &&
      previousRow.length >= 60 &&
      (PATH_HEAD.test(previousRow) || RELATIVE_PATH_HEAD.test(previousRow)) &&
      JAVAC.test(previousRow + trimmed)
    )
      return this.scanLine(previousRow + trimmed, inBlock);
    if (
      (trimmed.includes('.java:') || trimmed.includes('.kt:')) &&
      JAVAC_HINT.test(line) &&
      (m = JAVAC.exec(line)) &&
      // A capitalised `Error:` (a log run through a translator) is javac's only without lint's closing `[IssueId]`.
      (m[5] !== 'Error' || !(trimmed.endsWith(']') || /:lint\w*$/i.test(task ?? '')))
    ) {
      const glued = splitGluedLocation(m[3]!);
      // A console cut the path at its row's end: the line before holds its start (a path line of a Studio group is whole).
      const previous = this.previousLine;
      const pathHead =
        !glued &&
        m[1] === '' &&
        previous !== null &&
        ((fillsConsoleRow(previous) && PATH_HEAD.test(previous)) ||
          // A path's head on a long row of its own, its rest (no root) starting the location line: a console cut
          // it at a width that is not a standard row's (the Flutter tool wraps at the terminal's, behind its indent).
          (previous.length >= 60 &&
            (RELATIVE_PATH_HEAD.test(previous) || PATH_HEAD.test(previous)) &&
            !/^[\\/]/.test(m[3]!))) &&
        !STUDIO_FILE_LINE.test(previous) &&
        !/^[A-Za-z]:/.test(m[3]!)
          ? previous
          : '';
      const file = glued?.path ?? pathHead + m[3]!;
      const kaptLetter = m[2] ?? null;
      const kapt = kaptLetter !== null || /kapt/i.test(task ?? '') || KAPT_STUB_PATH.test(file) || file.endsWith('.kt');
      if (kapt) this.kaptContext = true;
      // The lines read since the paste's start were not a headless message: a location line came before any closing line.
      this.strayCaretLines = null;
      const squashed = m[6]!.includes(' ^ ') ? JAVAC_SQUASHED_SYMBOL.exec(m[6]!.trim()) : null;
      this.pendingJavac = {
        severity: severityOf(m[5]!),
        source: kapt ? 'kapt' : 'javac',
        file,
        line: Number(m[4]),
        message: squashed ? squashed[1]! : m[6]!.trim(),
        task,
        // A glued location's indent was the line's it was glued to.
        indent: glued ? 0 : indentOf(m[1]!),
        // javac ends no message with a space: the line was cut there (`cannot find ` / `symbol`). A run of spaces is a
        // paste's padding, not a cut.
        cutAtWidth: /\S $/.test(m[6]!),
        headerLength: line.length,
        rowGoesOn: fillsConsoleRow(line),
        kaptLetter,
        details: squashed ? [squashed[2], squashed[3]].filter((t) => t !== undefined).map(singleSpaced) : [],
        column: null,
        linesBeforeCaret: 0,
        blankLines: 0,
        sawCaret: false,
        kaptWrapped: false,
      };
      return true;
    }
    if (trimmed.includes('.java:') && JAVAC_HINT.test(line) && (m = JAVAC_UNLEVELED.exec(line))) {
      this.pendingJavac = {
        severity: 'error',
        source: 'javac',
        file: m[2]!,
        line: Number(m[3]),
        message: m[4]!.trim(),
        task,
        indent: indentOf(m[1]!),
        kaptLetter: null,
        details: [],
        column: null,
        linesBeforeCaret: 0,
        blankLines: 0,
        sawCaret: false,
        kaptWrapped: false,
        needsCaret: true,
      };
      return true;
    }
    if (line.includes('[ksp') && (m = KSP.exec(line))) {
      const level = m[1] ?? m[2];
      // KSP's own line on every run; it is an info whether or not its `i: ` was pasted with it.
      if (level === 'i' || level === 'v' || (level === undefined && m[6]!.startsWith('loaded provider(s): ')))
        return true;
      // A processor's message keeps its own line breaks (Room's constructor candidates, Hilt's advice lines).
      this.pendingMultiline = {
        base: {
          severity: severityOf(level ?? 'e'),
          source: 'ksp',
          file: m[3] ?? null,
          line: m[4] ? Number(m[4]) : null,
          column: m[5] ? Number(m[5]) : null,
          message: m[6]!,
          task,
        },
        lines: [],
        unindented: ANY_TEXT,
        indented: false,
      };
      return true;
    }
    if (trimmed.includes('[kapt]') && (m = KAPT_TAGGED.exec(line))) {
      if (DATA_BINDING_SUMMARY.test(m[2]!)) {
        // The reports that follow are kapt's: the data binding compiler ran in it.
        this.kaptContext = true;
        return true;
      }
      return this.addUnlocated(m[1] === 'w' ? 'warning' : 'error', 'kapt', m[2]!, task);
    }
    // Before the located forms below: the position is inside the exception's message, after its class name.
    if (line.includes('FileAnalysisException: ') && (m = FILE_ANALYSIS_EXCEPTION.exec(line)))
      return this.add({
        severity: 'error',
        source: 'kotlin',
        file: m[2] ?? m[5]!,
        line: m[3] ? Number(m[3]) : null,
        column: m[4] ? Number(m[4]) : null,
        message: m[1]!.trimEnd(),
        task,
      });
    if (line.includes('KotlinFrontEndException: ') && (m = FRONTEND_EXPRESSION_EXCEPTION.exec(line)))
      return this.add({
        severity: 'error',
        source: 'kotlin',
        file: m[4]!,
        line: Number(m[2]),
        column: Number(m[3]),
        message: m[1]!,
        task,
      });
    // Every Kotlin location names a `.kt` or `.kts` file.
    const hasKt = line.includes('.kt');
    const alone = hasKt && trimmed.endsWith('):') ? KOTLIN_K1_LOCATION_ALONE.exec(line) : null;
    if (alone) {
      // The path's head on a long row of its own when the wrap fell inside the path (`…/flutter_email_sender-` /
      // `1.0.0/android/…/Plugin.kt: (60, 66):`).
      const previous = this.previousLine;
      const head =
        previous !== null &&
        previous.length >= 60 &&
        !/^(?:[A-Za-z]:)?[\\/]/.test(alone[2]!) &&
        (PATH_HEAD.test(previous) || RELATIVE_PATH_HEAD.test(previous))
          ? previous.trim()
          : '';
      this.pendingMultiline = {
        base: {
          severity: severityOf(alone[1] ?? 'e'),
          source: /\.gradle\.kts$/.test(alone[2]!) ? 'script' : this.kotlinSource(task),
          file: head + alone[2]!,
          line: Number(alone[3]),
          column: Number(alone[4]),
          message: '',
          task,
        },
        lines: [],
        unindented: ANY_TEXT,
      };
      return true;
    }
    const cli = hasKt && (line.includes(': error: ') || line.includes(': warning: ')) ? KOTLINC_CLI.exec(line) : null;
    const kotlin = hasKt
      ? (KOTLIN_K2.exec(line) ??
        KOTLIN_K1.exec(line) ??
        (cli ? [cli[0], cli[4] === 'warning' ? 'w' : 'e', cli[1]!, cli[2]!, cli[3]!, cli[5]!] : null))
      : null;
    const urlOnly =
      kotlin || !hasKt
        ? null
        : (KOTLIN_URL_ONLY.exec(line) ??
          (line.includes(': (') || line.includes('.kt:(') || line.includes('.kts:(')
            ? KOTLIN_K1_BARE.exec(line)
            : null) ??
          (inBlock ? null : KOTLIN_RELATIVE_ONLY.exec(line)));
    if (kotlin || urlOnly) {
      const [letter, file, lineNo, column, message] = kotlin
        ? [kotlin[1]!, kotlin[2]!, kotlin[3]!, kotlin[4]!, kotlin[5]!]
        : [
            this.lineLevel?.startsWith('WARN') || JAVA_NULLABILITY_MISMATCH.test(urlOnly![4]!) ? 'w' : 'e',
            urlOnly![1]!,
            urlOnly![2]!,
            urlOnly![3]!,
            urlOnly![4]!,
          ];
      if (letter === 'i') return true;
      const diagnostic: Diagnostic = {
        severity: severityOf(letter),
        source: /\.gradle\.kts$/.test(file) ? 'script' : this.kotlinSource(task),
        file,
        line: Number(lineNo),
        column: Number(column),
        message,
        task,
      };
      // kotlinc prints a multi-line message (`None of the following candidates is applicable:`) with raw line breaks,
      // K1's `Overload resolution ambiguity: ` with a space after its colon.
      if (message.trimEnd().endsWith(':')) {
        this.pendingMultiline = { base: diagnostic, lines: [], unindented: ANY_TEXT };
        return true;
      }
      return this.add(diagnostic);
    }
    if (!inBlock && trimmed.endsWith(':') && (m = KOTLIN_BINARY_LOCATION_ALONE.exec(trimmed))) {
      // Held with no message: only the metadata sentence, on the next line or after one blank line, makes it one.
      this.pendingMultiline = {
        base: { severity: 'error', source: 'kotlin', file: m[1]!, line: null, column: null, message: '', task },
        lines: [],
        unindented: KOTLIN_METADATA_SENTENCE,
        paragraphAfterBlank: KOTLIN_METADATA_SENTENCE,
      };
      return true;
    }
    // kotlinc names a binary without a position: `e: /p/x.jar!/META-INF/x.kotlin_module: Module was compiled …`,
    // also pasted without its `e: ` (then only with the compiler's metadata wording).
    const kotlinBare = KOTLIN_BARE.exec(line);
    const bareJar = kotlinBare ? null : line.includes('.jar: kotlin-') ? KOTLIN_BINARY_LOCATION.exec(trimmed) : null;
    const runtimeNotice = bareJar !== null && KOTLIN_DEPRECATED_RUNTIME.test(bareJar[2]!);
    const binary = kotlinBare
      ? KOTLIN_BINARY_LOCATION.exec(kotlinBare[2]!)
      : line.includes('.kotlin_module')
        ? KOTLIN_BINARY_LOCATION.exec(trimmed)
        : runtimeNotice
          ? bareJar
          : null;
    if (kotlinBare || binary) {
      // kapt relays javac's message line by line, each behind its own `e: `: an indented one is the rest of the
      // relayed message above (Room's constructor candidates), which kotlinc never starts a message with.
      if (kotlinBare && this.kaptRelayOpen && /^\s/.test(kotlinBare[2]!)) return true;
      // An annotation processor's note (Glide's `Wrote GeneratedAppGlideModule …`) that kapt relays as a warning.
      if (kotlinBare && kotlinBare[1] === 'w' && PROCESSOR_NOTE.test(kotlinBare[2]!)) return true;
      // `e: error: msg` is javac's unlocated diagnostic (its own `error: `, in the JDK's locale) relayed by kapt:
      // kotlinc says no `error: `.
      const relayed = kotlinBare ? RELAYED_JAVAC_LEVEL.exec(kotlinBare[2]!) : null;
      this.kaptRelayOpen = relayed !== null;
      const message = relayed ? relayed[2]! : kotlinBare ? kotlinBare[2]! : trimmed;
      if (KAPT_SUMMARY.test(message)) return true;
      const diagnostic: Diagnostic = {
        severity: severityOf(kotlinBare ? kotlinBare[1]! : runtimeNotice ? 'w' : 'e'),
        source: relayed ? 'kapt' : this.kotlinSource(task, message),
        file: binary ? binary[1]! : null,
        line: null,
        column: null,
        message: binary ? binary[2]! : message,
        task,
      };
      // kotlinc's unlocated messages run on too (`… incompatible with language version 2.0:`, the plugins under it).
      if (!binary && message.endsWith(':') && !inBlock) {
        this.pendingMultiline = { base: diagnostic, lines: [], unindented: ANY_TEXT };
        return true;
      }
      // An internal error's message wrapped onto a deeper-indented line (`e: java.lang.NullPointerException: Cannot
      // invoke` / `   "…" because "$this" is null`) is the rest of it.
      if (!binary && !inBlock) {
        this.pendingMultiline = { base: diagnostic, lines: [], deeperThan: line.length - line.trimStart().length };
        return true;
      }
      return this.add(diagnostic);
    }
    const hasXml = line.includes('.xml');
    if (trimmed.includes('AAPT')) {
      // Before the located form, which would take `ERROR` in `ERROR: AAPT: error: …` for a path.
      if ((m = AAPT_UNLOCATED.exec(line))) return this.addUnlocated(severityOf(m[1]!), 'aapt2', m[2]!, task);
      if (line.startsWith('AAPT2 ') && AAPT2_DAEMON_STRAY_OUTPUT.test(line))
        return this.addUnlocated('error', 'aapt2', line.trimEnd(), task);
      if ((m = AAPT_LOCATED.exec(line)))
        return this.add({
          severity: m[6] ? severityOf(m[6]) : 'error',
          source: 'aapt2',
          file: m[1]!,
          line: m[2] ? Number(m[2]) : null,
          column: m[3] ? Number(m[3]) : null,
          message: m[7]!,
          task,
        });
    }
    // The merger's record with no known source: its `Warning:` (or `Error:`) alone, the message on the tabbed line
    // (a tab an editor may have turned into spaces).
    if (
      (line.charCodeAt(0) === 9 || line.startsWith('    ')) &&
      (m = BARE_RECORD_HEADER.exec(this.previousLine ?? '')) &&
      (MANIFEST_TAGGED_UNUSED.test(trimmed) || MANIFEST_MESSAGE.test(trimmed))
    ) {
      this.pendingMultiline = {
        base: {
          severity: severityOf(m[1]!),
          source: 'manifest',
          file: null,
          line: null,
          column: null,
          message: trimmed,
          task,
        },
        lines: [],
        mergerRecord: true,
      };
      return true;
    }
    if (
      hasXml &&
      (line.includes(' Error:') || line.includes(' Warning:')) &&
      (m = MANIFEST_LOCATED.exec(line)) &&
      !/\.xml:\d+: /.test(trimmed) &&
      // On one line with its message, only a manifest's record is the merger's: the resource merger prints
      // `<res>/values.xml:4:7: Error: …` in the same shape.
      (m[5] === undefined || /manifest[^\\/]*\.xml$/i.test(m[1]!))
    ) {
      this.pendingMultiline = {
        base: {
          severity: severityOf(m[4]!),
          source: 'manifest',
          file: m[1]!,
          line: m[2] ? Number(m[2]) : null,
          column: m[3] ? Number(m[3]) : null,
          message: m[5] ?? '',
          task,
        },
        lines: [],
        mergerRecord: true,
      };
      return true;
    }
    // Inside a lint task, `<path>:12: Error: …` is lint's even when its `[IssueId]` was cut or masked.
    if (
      (trimmed.endsWith(']') && (m = LINT.exec(line))) ||
      (line.includes(': Error: ') && task !== null && /:lint\w*$/i.test(task) && (m = LINT_IN_LINT_TASK.exec(line)))
    ) {
      return this.add({
        severity: severityOf(m[3]!),
        source: 'lint',
        file: this.unwrapPath(m[1]!),
        line: m[2] ? Number(m[2]) : null,
        column: null,
        message: m[4]!,
        task,
      });
    }
    if (line.includes(':/') && (m = AAPT2_SET.exec(line)) && (m[3] !== undefined || AAPT2_NUMBERED_SET.test(m[1]!))) {
      return this.add({
        severity: severityOf(m[4]!),
        source: 'aapt2',
        file: this.mergedResourcePath(m[1]!, m[2]!, task),
        line: m[3] ? Number(m[3]) : null,
        column: null,
        message: m[5]!,
        task,
      });
    }
    if (hasXml && (line.includes(': error: ') || line.includes(': warn')) && (m = AAPT2_XML.exec(line))) {
      return this.add({
        severity: severityOf(m[4]!),
        source: 'aapt2',
        file: this.unwrapPath(m[1]!),
        line: m[2] ? Number(m[2]) : null,
        column: m[3] ? Number(m[3]) : null,
        message: m[5]!,
        task,
      });
    }
    // A resource file's `<file>:<line>:<col>: ` line: the merger's (`Error: …`) is AGP's, the compiler's sentence AAPT2's.
    const merger =
      !inBlock && hasXml && line.includes(': Error: ') && !trimmed.endsWith(']') ? MERGER_LOCATED.exec(line) : null;
    const resource = merger ?? (hasXml && line.includes('.xml:') ? AAPT_COMPILER_LOCATED.exec(line) : null);
    if (resource)
      return this.add({
        severity: 'error',
        source: merger ? 'agp' : 'aapt2',
        file: resource[1]!,
        line: Number(resource[2]),
        column: Number(resource[3]),
        message: resource[4]!,
        task,
      });
    if (!hasXml && (line.includes(': error: ') || line.includes(': warn')) && (m = AAPT2_RESOURCE_FILE.exec(line))) {
      return this.add({
        severity: severityOf(m[3]!),
        source: 'aapt2',
        file: this.unwrapPath(m[1]!),
        // AAPT 1's line 0 is no line.
        line: m[2] && m[2] !== '0' ? Number(m[2]) : null,
        column: null,
        message: m[4]!,
        task,
      });
    }
    // The in-process compiler's failure pasted alone, without the failure block it was the cause in, or as the cause
    // line of a stack trace (a copy of the block's, which the same file and message make one).
    const compileFailure =
      trimmed.startsWith('Resource compilation failed (') ||
      (trimmed.startsWith('Caused by: ') && AAPT2_COMPILE_CAUSED_BY.test(trimmed));
    if (!inBlock && compileFailure && (m = AAPT2_COMPILE.exec(trimmed)))
      return this.addInFile('error', 'aapt2', m[1]!, m[2]!, task);
    // AAPT2 told to compile a resource directory that is not there names the directory as its source.
    if (line.includes(': error: directory does not exist') && (m = AAPT2_MISSING_DIRECTORY.exec(trimmed)))
      return this.addInFile('error', 'aapt2', m[1]!, m[2]!, task);
    if (
      (line.includes('unknown option ') || line.includes('missing required flag ')) &&
      (m = AAPT2_USAGE_ERROR.exec(line))
    )
      return this.addUnlocated('error', 'aapt2', m[1]!, task);
    if (
      (line.includes('error: failed ') && (m = AAPT2_BARE_FAILED.exec(line))) ||
      (inBlock && /^\s/.test(line) && (m = AAPT2_BARE.exec(line))) ||
      // AGP 3.2 relays AAPT2's output behind `Output:  ` under `Android resource linking failed` (indented with the
      // cause's lines in Gradle's report).
      (trimmed.startsWith('Output: ') && (m = AAPT2_BARE.exec(trimmed.slice('Output:'.length))))
    ) {
      if (JAVAC_BARE_WARNING.test(line)) return this.addJavacBareWarning(line, task);
      const failed = m.length === 2;
      return this.addUnlocated(failed ? 'error' : severityOf(m[1]!), 'aapt2', failed ? m[1]! : m[2]!, task);
    }
    if (
      !inBlock &&
      (line.includes('warning: ') || line.includes('警告: ') || line.includes('Warnung: ')) &&
      JAVAC_BARE_WARNING.test(line) &&
      (task === null || COMPILING_TASK.test(task))
    )
      return this.addJavacBareWarning(line, task);
    if (this.lineLevel?.startsWith('WARN') && JAVAC_OPTIONS_WARNING_TEXT.test(trimmed))
      return this.addUnlocated('warning', 'javac', trimmed, task);
    if (!inBlock && trimmed.startsWith('Fatal Error: ') && (m = JAVAC_FATAL.exec(line)))
      return this.addUnlocated('error', 'javac', m[1]!, task);
    // A javac message pasted without its location line, also cut mid-word by a console (its rest starts this line).
    const initial = trimmed.charCodeAt(0);
    if (!inBlock && line === trimmed && initial >= 97 && initial <= 122 && trimmed.length > 12) {
      const previous = this.previousLine?.trim() ?? '';
      const message = JAVAC_ONLY_WORDING.test(trimmed)
        ? trimmed
        : previous !== '' && JAVAC_ONLY_WORDING.test(previous + trimmed)
          ? previous + trimmed
          : null;
      if (message !== null) {
        const before = this.diagnostics.length;
        this.addUnlocated('error', task !== null && /kapt/i.test(task) ? 'kapt' : 'javac', message, task);
        this.unplacedJavac = this.diagnostics.length > before ? { index: before, rows: 0, column: null } : null;
        return true;
      }
    }
    // A kotlinc message pasted without its `e: <path>:` (Studio's problem view copies only the text).
    if (!inBlock && line === trimmed && (trimmed.startsWith('Type mismatch: ') || trimmed.startsWith('Unresolved ')))
      if (KOTLIN_ONLY_WORDING.test(trimmed)) return this.addUnlocated('error', 'kotlin', trimmed, task);
    // Its overload ambiguity copied the same way: the candidate declarations follow on lines of their own.
    if (!inBlock && line.trimEnd() === trimmed && trimmed.startsWith('Overload resolution ambiguity')) {
      if (KOTLIN_AMBIGUITY_HEADER.test(trimmed)) {
        this.pendingMultiline = {
          base: { severity: 'error', source: 'kotlin', file: null, line: null, column: null, message: trimmed, task },
          lines: [],
          unindented: KOTLIN_CANDIDATE_DECLARATION,
        };
        return true;
      }
    }
    if (
      !inBlock &&
      (line.includes(': Error: ') || line.includes(': Warning: ')) &&
      (m = LINT_WITHOUT_LINE.exec(line))
    ) {
      this.pendingMultiline = {
        base: {
          severity: severityOf(m[2]!),
          source: 'lint',
          file: m[1]!,
          line: null,
          column: null,
          message: m[3]!,
          task,
        },
        lines: [],
        unindented: ANY_TEXT,
      };
      return true;
    }
    if (
      !inBlock &&
      trimmed.includes('Manifest merger failed') &&
      (m =
        /^(?:error:|Error:)?\s*(?:(?:Caused by: )?java\.lang\.RuntimeException:\s*)?(Manifest merger failed\b.*)$/.exec(
          trimmed,
        ))
    ) {
      this.pendingMultiline = {
        base: { severity: 'error', source: 'manifest', file: null, line: null, column: null, message: m[1]!, task },
        lines: [],
      };
      return true;
    }
    // AGP 3.2 prints its Message{…} record after the tool's own text: the record says where.
    if (trimmed.endsWith(')}') && line.includes(' Message{kind='))
      return this.addToolMessage(trimmed.slice(trimmed.indexOf('Message{kind=')), task);
    if (!inBlock && (m = JAVAC_BARE_ERROR.exec(line)) && !JVM_LAUNCHER_MAIN_CLASS.test(m[1]!))
      return this.addBareError(m[1]!, task);
    if (!inBlock && trimmed.length < 40 && JAVAC_CANNOT_FIND_SYMBOL_ALONE.test(line))
      return this.addBareError(trimmed, task);
    if (!inBlock && trimmed.startsWith('[Dagger/') && DAGGER_TAGGED_ALONE.test(line))
      return this.addBareError(trimmed, task);
    if (!inBlock && trimmed.startsWith('An exception occurred: ') && (m = KAPT_EXCEPTION_UNTAGGED.exec(line)))
      return this.addUnlocated('error', 'kapt', m[1]!.trimEnd(), task);
    // Kotlin/Native's library resolver tags its messages with its name; pasted without the compiler's `e: `/`w: `,
    // the missing library is still the build's error and the rest (a skipped klib, a duplicate name) are warnings.
    if (!inBlock && trimmed.startsWith(KLIB_RESOLVER_TAG) && trimmed.length > KLIB_RESOLVER_TAG.length)
      return this.addUnlocated(
        trimmed.startsWith('Could not find ', KLIB_RESOLVER_TAG.length) ? 'error' : 'warning',
        'kotlin',
        trimmed,
        task,
      );
    if (!inBlock && !quotedCause && trimmed.startsWith('Failed to resolve: ') && (m = STUDIO_UNRESOLVED.exec(line)))
      return this.addUnlocated('error', 'gradle', m[1]!, task);
    if (!inBlock && trimmed.startsWith('Gradle ') && (m = STUDIO_SYNC_FAILED.exec(line)))
      return this.addUnlocated('error', 'gradle', m[1]!.trim(), task);
    if (!inBlock && trimmed.includes('Exception: ') && (m = STACK_UNRESOLVED.exec(line)))
      return this.addFromStack(m[1]!, task);
    if (!inBlock && trimmed.includes('FailedCompilationException: ') && (m = STACK_KOTLIN_COMPILE_FAILED.exec(line)))
      return this.addFromStack(m[1]!, task);
    if (!inBlock && !quotedCause && trimmed.startsWith('Could not find ') && DEPENDENCY_NOT_FOUND.test(trimmed))
      return this.pendingDependency({
        severity: 'error',
        source: 'gradle',
        file: null,
        line: null,
        column: null,
        message: trimmed,
        task,
      });
    if (
      !inBlock &&
      trimmed.startsWith('Cause') &&
      (m = CHAINED_DEPENDENCY_NOT_FOUND.exec(trimmed)) &&
      DEPENDENCY_NOT_FOUND.test(m[1]!)
    ) {
      this.pendingMultiline = {
        base: { severity: 'error', source: 'gradle', file: null, line: null, column: null, message: m[1]!, task },
        lines: [],
        unindented: DEPENDENCY_DETAIL,
        dependency: true,
        fromStack: true,
      };
      return true;
    }
    if (line.includes('Duplicate class ') && (m = DUPLICATE_CLASS.exec(line))) {
      const message = `Duplicate class ${m[1]} found in modules${m[2] === undefined ? '' : ` ${m[2]}`}`;
      // Each module ends with its coordinates in parentheses: a list that does not was wrapped.
      if (!message.endsWith(')')) {
        this.pendingMultiline = {
          base: { severity: 'error', source: 'agp', file: null, line: null, column: null, message, task },
          lines: [],
          unindented: DUPLICATE_CLASS_WRAPPED,
          indented: false,
        };
        return true;
      }
      return this.addUnlocated('error', 'agp', message, task);
    }
    if (
      (trimmed.startsWith('ERROR:') || trimmed.startsWith('WARNING:') || trimmed.startsWith('INFO:')) &&
      (m = AGP_ERROR.exec(line)) &&
      !JVM_NOISE.test(line) &&
      !DEVICE_LINKER_WARNING.test(line) &&
      !BAZEL_ACTION_HEADER.test(trimmed) &&
      !(this.buildEnded && m[2] === undefined)
    )
      return this.addAgpLine(m, task);
    // AGP 3.1-3.x printed D8's errors with the tool's name alone in front (`D8: Program type already present: …`).
    // It logs the tool's info messages the same way: a `--debug` log's level says which a line is.
    if (
      (trimmed.startsWith('D8: ') || trimmed.startsWith('R8: ')) &&
      trimmed.length > 4 &&
      !trimmed.includes('Cannot fit requested classes')
    ) {
      if (this.lineLevel !== null && INFO_LOG_LEVEL.test(this.lineLevel)) return true;
      return this.addUnlocated(d8Severity(trimmed.slice(4), 'error'), 'r8', trimmed.slice(4), task);
    }
    if (!inBlock && trimmed.startsWith('Program type already present: ') && (m = D8_PROGRAM_TYPE_PRESENT.exec(line)))
      return this.addUnlocated('error', 'r8', m[1]!, task);
    // D8/R8's message after the file it is about, its `ERROR:` / `WARNING:` not printed (AGP 3.x, a console's copy).
    if (
      !inBlock &&
      (line.includes(': D8: ') || line.includes(': R8: ')) &&
      (m = D8_ORIGIN.exec(trimmed) ?? D8_ORIGIN_POSITIONED.exec(trimmed))
    ) {
      const positioned = m.length > 3;
      const message = m[positioned ? 4 : 2]!;
      return this.add({
        severity: d8Severity(message, 'error'),
        source: 'r8',
        file: m[1]!,
        line: positioned ? Number(m[2]) : null,
        column: positioned ? Number(m[3]) : null,
        message,
        task,
      });
    }
    if (
      !inBlock &&
      trimmed.endsWith(':') &&
      (trimmed.startsWith('Warning in ') || trimmed.startsWith('Error in ')) &&
      (m = R8_ORIGIN_HEADER.exec(trimmed))
    ) {
      this.r8OriginHeader = {
        severity: m[1] === 'Warning' ? 'warning' : 'error',
        origin: m[2]!,
        line: m[3] === undefined ? null : Number(m[3]),
        column: m[4] === undefined ? null : Number(m[4]),
        task,
      };
      return true;
    }
    if (line.includes(' library classes are missing') && (m = R8_LIBRARY_CLASSES_MISSING.exec(line)))
      return this.addUnlocated('error', 'r8', m[1]!, task);
    if (line.includes('Cannot fit requested classes') && (m = D8_DEX_LIMIT.exec(line))) {
      this.pendingMultiline = {
        base: { severity: 'error', source: 'r8', file: null, line: null, column: null, message: m[1]!, task },
        lines: [],
        unindented: D8_COUNTS,
        indented: false,
      };
      return true;
    }
    if (
      !inBlock &&
      (line.includes('minSdkVersion') ||
        line.includes('android:exported') ||
        line.includes(' is also present at ') ||
        // The conflict's first line alone, its `is also present at …` on the next (indented) line; the record
        // tab-indented as the merger prints its records under Gradle's report.
        trimmed.startsWith('Attribute ') ||
        line.includes('Missing one of the key attributes') ||
        line.includes(' as the library might be using APIs ') ||
        line.includes(' duplicated with element declared at ') ||
        line.includes('Overlay manifest:') ||
        line.includes(' requires a placeholder substitution ') ||
        line.includes(' key attribute on element ') ||
        line.includes("Invalid instruction '") ||
        line.includes(' specified at line:') ||
        line.includes(' cannot be present in more than one input file') ||
        line.includes("Missing 'package' declaration") ||
        line.includes('manifest:package attribute is not declared') ||
        line.includes(' has an illegal value=(')) &&
      (m = MANIFEST_MESSAGE.exec(line))
    ) {
      // Studio's pane copied as one line: its records one after another (`Error: Validation failed, exiting …` says
      // nothing of its own).
      let record: string | undefined = m[1]!;
      for (let k = 0; record !== undefined && k < MAX_PANE_RECORDS; k++) {
        const next = MERGED_MANIFEST_PANE_NEXT.exec(record);
        const message = next ? record.slice(0, next.index + next[0].length).trimEnd() : record;
        this.pendingMultiline = {
          base: { severity: 'error', source: 'manifest', file: null, line: null, column: null, message, task },
          lines: [],
        };
        if (!next) break;
        this.flushMultiline();
        record = MANIFEST_MESSAGE.exec(record.slice(next.index + next[0].length))?.[1];
      }
      return true;
    }
    if (trimmed.startsWith("Namespace '") && (m = NAMESPACE_NOT_UNIQUE.exec(line)))
      return this.addUnlocated('warning', 'manifest', m[1]!, task);
    if (
      trimmed.includes('found in source AndroidManifest.xml') &&
      (m = PACKAGE_ATTRIBUTE.exec(line) ?? PACKAGE_ATTRIBUTE_CUT.exec(line))
    ) {
      this.pendingMultiline = {
        base: {
          severity: m[2] ? 'error' : 'warning',
          source: 'manifest',
          file: m[3] ?? null,
          line: null,
          column: null,
          message: m[1]!,
          task,
        },
        lines: [],
        unindented: PACKAGE_ATTRIBUTE_REST,
        // A console that relays it with a blank line after every line (EAS Build) splits it into paragraphs.
        paragraphAfterBlank: PACKAGE_ATTRIBUTE_REST,
        indented: false,
      };
      return true;
    }
    if (!inBlock && trimmed.startsWith('Recommendation: remove package=') && (m = PACKAGE_RECOMMENDATION.exec(line)))
      return this.addInFile('error', 'manifest', m[2]!, m[1]!, task);
    if (line.includes(' only supported starting with Android ') && (m = D8_MESSAGE.exec(line)))
      return this.add({ severity: 'error', source: 'r8', file: null, line: null, column: null, message: m[1]!, task });
    if (line.includes(' does not type check ') && (m = R8_UNREACHABLE_METHOD.exec(line)))
      return this.addUnlocated('warning', 'r8', m[1]!, task);
    if (trimmed.startsWith('Message{kind=')) return this.addToolMessage(trimmed, task);
    if (/^(?:Caused by: )?com\.android\.tools\.r8\./.test(trimmed) && (m = D8_CAUSE.exec(line)))
      // R8's reporter puts its own `Error: ` before the message of an AbortException, and its origin (`null, ` when
      // it has none).
      return this.addUnlocated('error', 'r8', m[1]!.replace(/^Error: (?:null, )?/, ''), task);
    if (line.includes('Missing class') && (m = R8_MISSING.exec(line) ?? R8_MISSING_SUMMARY.exec(line))) {
      // R8's own command line puts its level before each missing class.
      const level = m.length > 2 ? m[1] : undefined;
      const severity = level === undefined ? this.r8Severity : level === 'Warning' ? 'warning' : 'error';
      const message = level === undefined ? trimmed : m[2]!;
      this.pendingMultiline = {
        base: { severity, source: 'r8', file: null, line: null, column: null, message, task },
        lines: [],
        unindented: R8_MISSING_CONTINUATION,
        indented: false,
      };
      return true;
    }
    // Behind `> ` the sentence is a failure cause, and the block it starts reports it. AGP indents the advice that
    // follows it (`You can try some of the following options:`), which belongs to the message.
    if (
      !inBlock &&
      !quotedCause &&
      ((line.includes('EvalIssueException') && (m = EVAL_ISSUE.exec(line))) || (m = KNOWN_FAILURE.exec(line)))
    ) {
      this.pendingMultiline = {
        base: { severity: 'error', source: 'gradle', file: null, line: null, column: null, message: m[1]!, task },
        lines: [],
        // A message indented as a whole (a paste inside a list) may go on in a paragraph of its own.
        paragraphs: /^\s/.test(line),
        // AGP's advice after the namespace message also comes right under it, when a paste dropped the blank line.
        ...(m[1]!.startsWith('Namespace not specified')
          ? { unindented: NAMESPACE_ADVICE, paragraphAfterBlank: NAMESPACE_ADVICE }
          : { unindented: AGP_JDK_ADVICE }),
      };
      return true;
    }
    // An exception starts with its package (or `Caused by: `), lint's line with `Lint`, AGP's with `The`.
    const lead = trimmed.charCodeAt(0);
    if (
      !inBlock &&
      !quotedCause &&
      !this.inNamedStack &&
      ((lead >= 97 && lead <= 122) || lead === 67) &&
      line.includes('Exception: ') &&
      (m = GRADLE_FAILURE_EXCEPTION.exec(line))
    )
      return this.addFailureNamedOutsideReport(m[1]!);
    // A stack's exception whose message is a failure AGP words as a sentence of its own (`java.lang.IllegalStateException:
    // compileSdkVersion is not specified.`): that failure, as the report would name it.
    if (
      !inBlock &&
      !quotedCause &&
      !this.inNamedStack &&
      lead >= 97 &&
      lead <= 122 &&
      line.includes('Exception: ') &&
      (m = THROWN.exec(line)) &&
      (KNOWN_FAILURE.test(m[1]!) ||
        // Under Gradle's notice that the afterEvaluate listener failed, the exception is that failure, whatever it says.
        AFTER_EVALUATE_NOTICE.test(this.previousLine?.trim() ?? ''))
    )
      return this.addFailureNamedOutsideReport(m[1]!.trim());
    if (!inBlock && !quotedCause && (lead === 84 || lead === 71) && line.includes(' daemon ')) {
      m = DAEMON_DISAPPEARED.exec(line);
      if (m) return this.addFailureNamedOutsideReport(m[1]!);
    }
    if (
      !inBlock &&
      !quotedCause &&
      (lead === 80 || lead === 67 || lead === 83 || lead === 73) &&
      (m = FETCH_FAILURE.exec(line))
    )
      return this.addUnlocated('error', 'gradle', m[1]!.trim(), task);
    if (
      !inBlock &&
      (lead === 70 || lead === 97) &&
      line.includes('Failure [INSTALL_') &&
      (m = PM_INSTALL_FAILURE.exec(line))
    )
      return this.addUnlocated('error', 'agp', m[1]!, task);
    if (!inBlock && !quotedCause && lead === 76 && (m = LINT_ABORTED.exec(line)))
      return this.addFailureNamedOutsideReport(m[1]!);
    if (!inBlock && !quotedCause && lead === 84 && (m = AAR_MIN_COMPILE_SDK.exec(line))) {
      this.pendingMultiline = {
        base: { severity: 'error', source: 'gradle', file: null, line: null, column: null, message: m[1]!, task },
        lines: [],
        unindented: AAR_MIN_COMPILE_SDK_DETAIL,
      };
      return true;
    }
    if (
      (line.includes('Java compiler version') || line.includes(' is deprecated')) &&
      (m = AGP_PLAIN_WARNING.exec(line))
    )
      return this.addUnlocated('warning', 'agp', m[1]!, task);
    if (!inBlock && trimmed.endsWith('FAILED') && !trimmed.startsWith('>')) {
      // A display granularity under 2 starts the path with the run (which names its task) and the worker.
      const run = trimmed.startsWith('Gradle Test ') ? TEST_RUN_LEVELS.exec(trimmed) : null;
      if ((m = TEST_FAILED.exec(run ? trimmed.slice(run[0].length) : trimmed))) {
        this.pendingTest = { className: m[1]!, method: m[2]!, task: run?.[1] ?? task, lines: [], blankLines: 0 };
        return true;
      }
    }
    if (
      !inBlock &&
      trimmed.endsWith('FAILED') &&
      (m = TEST_FAILED_DOTTED.exec(
        trimmed.startsWith('Gradle ') ? trimmed.replace(TESTNG_DEFAULT_LEVELS, '') : trimmed,
      )) &&
      !m[0].includes(' > ')
    ) {
      this.pendingTest = { className: m[1]!, method: m[2]!, task, lines: [], blankLines: 0, joiner: '.' };
      return true;
    }
    // Gradle logs a worker JVM's failure over its `ExecException`; the failure report, when there is one, repeats it.
    if (!inBlock && trimmed.startsWith("Process '") && WORKER_PROCESS_EXIT.test(trimmed)) {
      const at = this.diagnostics.length;
      this.addUnlocated('error', 'gradle', trimmed, task);
      if (this.diagnostics.length > at) this.fromStack.set(at, trimmed);
      return true;
    }
    if (!inBlock && trimmed === 'FAILED' && (m = TEST_NAME_ONLY.exec(this.previousLine?.trim() ?? ''))) {
      this.pendingTest = { className: m[1]!, method: m[2]!, task, lines: [], blankLines: 0 };
      return true;
    }
    if (!inBlock && trimmed.startsWith('SUITE: ') && (m = LOGGED_SUITE.exec(trimmed))) this.loggedSuite = m[1]!;
    // The logger's `TEST:` line and its `FAILURE` result are its record of a failed test on their own; a paste that
    // starts below the `SUITE:` line only loses the class name.
    if (!inBlock && trimmed === 'FAILURE' && (m = LOGGED_TEST.exec(this.previousLine?.trim() ?? ''))) {
      this.pendingTest = {
        className: this.loggedSuite ?? '',
        method: m[1]!,
        task,
        lines: [],
        blankLines: 0,
        printedStack: true,
      };
      return true;
    }
    // androidx.test's runner reporting a failure to logcat (its columns taken off): the trace follows, unindented.
    if (!inBlock && trimmed.startsWith('failed: ') && (m = LOGCAT_TEST_FAILED.exec(trimmed))) {
      this.pendingTest = { className: m[2]!, method: m[1]!, task, lines: [], blankLines: 0, printedStack: true };
      return true;
    }
    // A class-level failure's name alone, as Android Studio's test tree is copied: the printed exception follows.
    if (!inBlock && CLASS_LEVEL_TEST_NAME.test(trimmed) && line === trimmed) {
      this.pendingTest = { className: '', method: trimmed, task, lines: [], blankLines: 0, printedStack: true };
      return true;
    }
    if (!inBlock && trimmed === INSTRUMENTATION_DID_NOT_COMPLETE)
      return this.addUnlocated('error', 'test', trimmed.slice(0, -1), task);
    if (!inBlock && trimmed.startsWith('> : ') && (m = CLASSLESS_TEST_FAILED.exec(trimmed))) {
      this.pendingTest = { className: '', method: m[1]!, task, lines: [], blankLines: 0 };
      return true;
    }
    // The instrumentation run itself failed (the app process crashed, fewer tests reported than started): the
    // device's summary and the runner's reason name no test the lines above failed, so they are failures of their own.
    if (!inBlock && (trimmed.startsWith('Test') || trimmed.startsWith('Error'))) {
      const reason = INSTRUMENTATION_RUN_FAILED.exec(trimmed);
      if (reason !== null) return this.addUnlocated('error', 'test', reason[1]!, task);
      if (DEVICE_RUN_FAILED.test(trimmed)) return this.addUnlocated('error', 'test', trimmed, task);
    }
    return false;
  }

  /**
   * A file name with no directory, right after a line that is only a directory path without its last name's end:
   * the terminal wrapped the path (`…\\permissionhandler\\ServiceMana` / `ger.java:153: Error: …`).
   */
  private unwrapPath(file: string): string {
    if (this.previousLine === null) return file;
    const previous = this.previousLine.trim();
    if (!file.includes('/') && !file.includes('\\'))
      return /^(?:[A-Za-z]:)?[\\/]?[^\s:]*[\\/][^\\/\s:.]+$/.test(previous) ? previous + file : file;
    // A reporter's markdown quote rewrapped at its own width: the path's head alone behind `> `, cut inside a
    // directory's name (`> PROJECT_PATH/android/app/build/intermedia` / `tes/res/merged/…/a.png: error: …`).
    const quotedHead = previous.startsWith('> ') ? /^> ([\w$~.-]*(?:[\\/][\w$~-]+)+)$/.exec(previous) : null;
    if (quotedHead && /^[a-z]+[\\/]/.test(file)) return quotedHead[1]! + file;
    // Cut inside a directory's name (`…\res\v` / `alues\strings.xml:216: …`): an absolute path alone on a full-width
    // line, and a relative one after it.
    return previous.length >= 79 &&
      !/^(?:[A-Za-z]:)?[\\/]/.test(file) &&
      /^(?:[A-Za-z]:)?[\\/][^\s:]*[\\/][^\\/\s:]*$/.test(previous)
      ? previous + file
      : file;
  }

  private kotlinSource(task: string | null, message = ''): DiagnosticSource {
    if ((task && /:ksp\w*$/.test(task)) || /\bKSP\b/.test(message)) return 'ksp';
    if ((task && /:kapt\w*$/.test(task)) || this.kaptContext) return 'kapt';
    return 'kotlin';
  }

  /**
   * Hilt's error copied without its `<path>:12: error: [Hilt]` line: the source echo, the caret, what Hilt says under
   * it (javac indents it; a paste may not), then Hilt's own closing line (`[Hilt] Processing did not complete. See error
   * above for details.`), which is what tells the lines apart from those under any other caret.
   */
  private readHeaderlessHilt(line: string, task: string | null): boolean {
    const caret = line.includes('^') ? CARET.exec(line) : null;
    if (caret && !caret[2]) {
      this.strayCaretLines = [];
      this.strayFromPasteStart = false;
      return false;
    }
    const lines = this.strayCaretLines;
    if (lines === null) return false;
    // Once anything was reported, Hilt's closing line belongs to it (its message under a header that was read).
    if (this.strayFromPasteStart && this.diagnostics.length > 0) {
      this.strayCaretLines = null;
      return false;
    }
    if (line.trim() === '' || lines.length >= MAX_UNINDENTED_LINES) {
      this.strayCaretLines = null;
      return false;
    }
    if (!HILT_INCOMPLETE.test(line)) {
      lines.push(line.trim());
      return false;
    }
    this.strayCaretLines = null;
    if (lines.length === 0) return false;
    const kapt = this.kaptContext || /kapt/i.test(task ?? '');
    this.add({
      severity: 'error',
      source: kapt ? 'kapt' : 'javac',
      file: null,
      line: null,
      column: null,
      // From the paste's start only the line over Hilt's closing one is surely its message (Hilt says it on one line).
      message: this.strayFromPasteStart ? lines[lines.length - 1]! : lines.join(' '),
      task,
    });
    // The next error's location glued after Hilt's closing sentence is read on as its own line.
    return line.trimEnd().endsWith('.');
  }

  /**
   * `error: msg` with no location, outside a failure block: AAPT2's when it is about resources, else
   * javac's (a compiler message whose path line was not printed or not pasted), kapt's after a kapt task.
   */
  private addBareError(message: string, task: string | null): boolean {
    if (/^(resource |failed |attribute |style attribute |duplicate value |file failed )/.test(message))
      return this.add({ severity: 'error', source: 'aapt2', file: null, line: null, column: null, message, task });
    const kapt = this.kaptContext || /kapt/i.test(task ?? this.lastFailedTask ?? '');
    // Kotlin/Native prints its own unlocated errors so (a klib not found), then this summary of them; its crash report,
    // the exception it rethrows after it and its klib resolver's tagged messages are its own wherever the task line is.
    const nativeCrash = NATIVE_COMPILATION_FAILED.test(message);
    const rethrown = this.nativeCrashReported && EXCEPTION_HEADLINE.test(message);
    this.nativeCrashReported = nativeCrash;
    if (rethrown) return true;
    if (!kapt && (nativeCrash || message.startsWith(KLIB_RESOLVER_TAG) || KOTLIN_TASK.test(task ?? ''))) {
      if (message === 'Compilation finished with errors') return true;
      return this.add({ severity: 'error', source: 'kotlin', file: null, line: null, column: null, message, task });
    }
    this.pendingJavac = {
      severity: 'error',
      source: kapt ? 'kapt' : 'javac',
      file: null,
      line: null,
      message: message.trim(),
      task: task ?? this.lastFailedTask,
      indent: 0,
      kaptLetter: null,
      details: [],
      column: null,
      linesBeforeCaret: 0,
      blankLines: 0,
      sawCaret: false,
      kaptWrapped: false,
    };
    return true;
  }

  private addDuplicate(
    d: DuplicateResources,
    severity: DiagnosticSeverity,
    source: DiagnosticSource,
    task: string | null,
  ): boolean {
    return this.add({
      severity,
      source,
      file: d.first,
      line: null,
      column: null,
      message: `Duplicate resources (${d.resource}): ${d.first} and ${d.other}`,
      task,
    });
  }

  /** AGP 3's `Message{kind=ERROR, text=…, sources=[…], tool name=Optional.of(D8)}`, read with index scans. */
  private addToolMessage(trimmed: string, task: string | null): boolean {
    const kind = /^Message\{kind=(\w+), text=/.exec(trimmed);
    const end = trimmed.lastIndexOf(', sources=[');
    if (!kind || end < 0) return false;
    const tool = /tool name=Optional\.of\((\w+)\)\}$/.exec(trimmed.slice(-64))?.[1] ?? '';
    // `sources=[C:\…\values-v28.xml:9:5-12:13]`: the first source's file and position.
    const close = trimmed.indexOf(']', end);
    const where =
      close > end
        ? /^(.+?):(\d+)(?::(\d+))?(?:-\d+(?::\d+)?)?$/.exec(trimmed.slice(end + 11, close).split(', ')[0]!)
        : null;
    return this.add({
      severity: severityOf(kind[1]!),
      source: /^(D8|R8)$/.test(tool) ? 'r8' : /aapt/i.test(tool) ? 'aapt2' : 'agp',
      file: where ? where[1]! : null,
      line: where ? Number(where[2]) : null,
      column: where?.[3] ? Number(where[3]) : null,
      message: trimmed.slice(kind[0].length, end).replace(/^(?:error|warning): /, ''),
      task,
    });
  }

  private addJavacBareWarning(line: string, task: string | null): boolean {
    const m = JAVAC_BARE_WARNING.exec(line)!;
    // javac has no unused-declaration warnings: `warning: variable 'x' is never used` is kotlinc's, its path lost.
    // Kotlin/Native prints its own warnings with the same `warning: `; its klib resolver tags them with its name.
    const kotlin = KOTLIN_ONLY_WORDING.test(m[1]!) || m[1]!.startsWith(KLIB_RESOLVER_TAG);
    return this.addUnlocated(
      'warning',
      kotlin ? 'kotlin' : /kapt/i.test(task ?? '') || this.kaptContext ? 'kapt' : 'javac',
      m[1]!,
      task,
    );
  }

  /** The message line under R8's `Warning in <origin>:`; a keep-rule error ends it with its position in the file. */
  private addR8Origined(header: R8OriginHeader, message: string): boolean {
    const position = header.line === null ? R8_MESSAGE_POSITION.exec(message) : null;
    return this.add({
      severity: header.severity,
      source: 'r8',
      file: ARCHIVE_ENTRY_ORIGIN.exec(header.origin)?.[1] ?? header.origin,
      line: position ? Number(position[1]) : header.line,
      column: position ? Number(position[2]) : header.column,
      message,
      task: header.task,
    });
  }

  private addAgpLine(m: RegExpExecArray, task: string | null): boolean {
    const severity = severityOf(m[1]!);
    let message = m[5]!.trim();
    let source: DiagnosticSource = 'agp';
    // D8/R8 name the file a message is about, with no position, before their tag: `ERROR:<path>.dex: D8: Type …`; a
    // rule file's position may be a range (`<proguard.txt>:2:1-65: R8: …`), which AGP's own location form does not take.
    const origin = m[2] === undefined ? D8_ORIGIN.exec(message) : null;
    const positioned = m[2] === undefined && origin === null ? D8_ORIGIN_POSITIONED.exec(message) : null;
    if (origin || positioned) {
      this.r8Severity = severity;
      return this.add({
        severity,
        source: 'r8',
        file: (origin ?? positioned)![1]!,
        line: positioned ? Number(positioned[2]) : null,
        column: positioned ? Number(positioned[3]) : null,
        message: origin ? origin[2]! : positioned![4]!,
        task,
      });
    }
    if (/^[RD]8: /.test(message)) {
      source = 'r8';
      message = message.slice(4);
      this.r8Severity = severity;
    } else if (/\bR8\b/.test(message)) {
      source = 'r8';
      this.r8Severity = severity;
    } else if (m[2] !== undefined && BAZEL_BUILD_FILE.test(m[2]) && BAZEL_RESOURCE_TOOL.test(message)) {
      // Bazel's failed action under the target's `BUILD` file: its Android resource actions run AAPT2.
      source = 'aapt2';
    }
    message = message.replace(/^Resource and asset merger: /, '');
    if (message === '') return false;
    if (STUDIO_UNRESOLVED.test(message)) return this.addUnlocated(severity, 'gradle', message, task);
    if (m[2] === undefined && BUILD_SCRIPT_FAILURE.test(message))
      return this.addUnlocated(severity, 'gradle', message, task);
    if (DEPENDENCY_NOT_FOUND.test(message))
      return this.pendingDependency({
        severity,
        source: 'gradle',
        file: null,
        line: null,
        column: null,
        message,
        task,
      });
    if (/^(?:AAPT: )?(?:error|warn(?:ing)?): /.test(message)) {
      // `ERROR: AAPT: error: …` or `ERROR:<xml>:1: error:` — let the AAPT rules read it.
      return this.scanLine(message, false);
    }
    // `[raw/x] <path> [raw/x] <path>: Resource and asset merger: Duplicate resources`
    const duplicate = parseDuplicateResources(message);
    if (duplicate) return this.addDuplicate(duplicate, severity, source, task);
    const base: Diagnostic = {
      severity,
      source,
      file: m[2] ?? null,
      line: m[3] ? Number(m[3]) : null,
      column: m[4] ? Number(m[4]) : null,
      message,
      task,
    };
    if (MANIFEST_FAILED.test(message)) {
      // The merger's reason continues on indented lines: `is also present at …`, `Suggestion: …`.
      this.pendingMultiline = { base: { ...base, source: 'manifest' }, lines: [] };
      return true;
    }
    // `WARNING: The following problems were found when resolving the SDK location:` and the problems under it;
    // AGP's deprecation notices go on over lines of their own (`It will be removed …`, `For more information, see …`).
    this.pendingMultiline = {
      base,
      lines: [],
      // A missing class's `(referenced from: …)` that a terminal or a reporter put on a line of its own.
      unindented: message.endsWith(':')
        ? ANY_TEXT
        : source === 'r8' && message.startsWith('Missing class')
          ? R8_MISSING_CONTINUATION
          : AGP_CONTINUATION,
      indented: message.endsWith(':'),
    };
    return true;
  }

  /** `AGPBI: {json}`: AGP's machine-readable message; its `original` is the tool's own line. */
  private addAgpbi(json: string, task: string | null): boolean {
    let record: {
      kind?: unknown;
      text?: unknown;
      original?: unknown;
      tool?: unknown;
      sources?: { file?: unknown; position?: { startLine?: unknown; startColumn?: unknown } }[];
    };
    try {
      record = JSON.parse(json);
    } catch {
      return false;
    }
    // A SIMPLE record is a tool's plain output relayed a line at a time (dx's crash report, its stack): not a message
    // of its own, so its lines go through the rules as if the tool had printed them.
    if (record.kind === 'SIMPLE') {
      const relayed = typeof record.original === 'string' ? record.original : record.text;
      if (typeof relayed === 'string')
        for (const relayedLine of relayed.split('\n')) if (relayedLine.trim() !== '') this.scanLine(relayedLine, false);
      return true;
    }
    const severity = severityOf(typeof record.kind === 'string' ? record.kind : '');
    const tool = typeof record.tool === 'string' ? record.tool : '';
    // R8's missing-class report can come without its tool named: its wording says whose it is.
    const r8Wording =
      typeof record.text === 'string' && /^Missing class(?:es detected while running R8\b| )/.test(record.text);
    const source: DiagnosticSource = /aapt/i.test(tool)
      ? 'aapt2'
      : /^(R8|D8)$/i.test(tool) || (tool === '' && r8Wording)
        ? 'r8'
        : 'agp';
    if (source === 'r8') this.r8Severity = severity;
    // Several missing classes in one record, one per line: one diagnostic each, as R8 prints them.
    if (source === 'r8' && typeof record.text === 'string' && /\r?\nMissing class /.test(record.text)) {
      for (const one of record.text.split(/\r?\n/))
        if (one.trim() !== '') this.addUnlocated(severity, 'r8', one.trim(), task);
      return true;
    }
    if (typeof record.original === 'string') {
      const first = record.original.split('\n').find((l) => l.trim() !== '');
      if (first && this.scanLine(first, true)) return true;
    }
    // AAPT2's text keeps its own `error: ` when AGP had no `original` line to give.
    let text = typeof record.text === 'string' ? record.text.replace(/^(?:error|warning): /, '') : '';
    // R8's keep-rule errors end with the rule echoed and a caret under it: the position is in `sources`.
    if (/\n\s*\^\s*$/.test(text)) text = text.slice(0, text.indexOf('\n'));
    const where = Array.isArray(record.sources) ? record.sources[0] : undefined;
    const named = where?.file as unknown;
    const described = named && typeof named === 'object' ? (named as { path?: unknown; description?: unknown }) : null;
    const file = typeof named === 'string' ? named : typeof described?.path === 'string' ? described.path : null;
    const startLine = where?.position?.startLine;
    const startColumn = where?.position?.startColumn;
    return this.add({
      severity,
      source,
      file,
      line: typeof startLine === 'number' ? startLine + 1 : null,
      column: typeof startColumn === 'number' ? startColumn + 1 : null,
      message: typeof described?.description === 'string' ? `${text} (${described.description})` : text,
      task,
    });
  }

  /**
   * AAPT2 names a merged resource by its resource set, `com.example.app-main-7:/layout/a.xml`: the
   * source set (`main`) of the module whose task failed, so the file is that module's `src/main/res/…`.
   */
  private mergedResourcePath(set: string, relative: string, task: string | null): string {
    const sourceSet = /-([A-Za-z][A-Za-z0-9]*)-\d+$/.exec(set)?.[1];
    const module = moduleDirOf(task);
    // `app-mergeDebugResources-41` names the merge task's output, not a source set: the source file is not named; nor
    // does `app-res-30`, a generated resource directory a plugin added (React Native's bundle task's `generated/res/…`).
    if (!sourceSet || !module || sourceSet === 'res' || /^merge[A-Z]\w*Resources$/.test(sourceSet)) return relative;
    return `${module}/src/${sourceSet}/res/${relative}`;
  }

  /** Handles the config-cache problem list; returns true when the line belonged to it. */
  private scanConfigCache(line: string, severity: DiagnosticSeverity): boolean {
    if (line.includes('the configuration cache') && CC_HEADER.test(line.trim())) {
      this.inCcList = true;
      this.ccListedOutsideBlock = [];
      // After Gradle's failure headline (its `* What went wrong:` lost), the problems listed failed the build.
      this.ccListSeverity = this.ccFailureHeadline ? 'error' : null;
      this.ccFailureHeadline = false;
      return true;
    }
    if (!this.inCcList) return false;
    if (this.ccListSeverity !== null) severity = this.ccListSeverity;
    const bullet = CC_BULLET.exec(line.trim());
    if (bullet && !line.startsWith('  ')) {
      // The documentation link glued on when the line break before it was lost.
      const text = bullet[1]!.replace(/\s+See https?:\/\/\S+$/, '');
      const before = this.diagnostics.length;
      const buildFile = /^(?:Build|Settings|Script|Init script) file '([^']+)': (.*)$/.exec(text);
      const task = /^Task `([^`]+)` of type `[^`]+`: (.*)$/.exec(text);
      if (buildFile)
        this.add({
          severity,
          source: 'config-cache',
          file: buildFile[1]!,
          line: null,
          column: null,
          message: buildFile[2]!,
          task: null,
        });
      else if (task)
        this.add({
          severity,
          source: 'config-cache',
          file: null,
          line: null,
          column: null,
          message: `${task[1]}: ${task[2]}`,
          task: task[1]!,
        });
      else
        this.add({ severity, source: 'config-cache', file: null, line: null, column: null, message: text, task: null });
      // Listed outside a failure block: the `> ` causes that may follow repeat these problems (and make them errors).
      if (this.section !== 'what-went-wrong' && this.diagnostics.length > before)
        this.ccListedOutsideBlock.push(before);
      return true;
    }
    if (/^\s+See https?:/.test(line)) return true;
    this.inCcList = false;
    return false;
  }

  // ---------------------------------------------------------------- Gradle's failure block

  private blockTask(lines: readonly BlockLine[] = this.block): string | null {
    const header = lines.find((l) => l.text.trim() !== '');
    // A copy can lose the opening quote (`Execution failed for task :app:connectedDebugAndroidTest'.`); the path's
    // leading colon still marks the task.
    const m = header
      ? /^(?:Execution failed for task|A problem was found with the configuration of task) (?:'([^']+)'|(:[\w:.-]+)'?\.?$)/.exec(
          header.text.trim(),
        )
      : null;
    return m ? (m[1] ?? m[2]!) : null;
  }

  private pushBlockLine(line: string): void {
    if (this.block.length >= MAX_BLOCK_LINES) return;
    const entry: BlockLine = { text: line, consumed: false };
    this.block.push(entry);
    entry.consumed = this.scanInsideBlock(line);
  }

  /** Lines inside the block that are diagnostics of their own; true when the line was used. */
  private scanInsideBlock(line: string): boolean {
    if (this.scanConfigCache(line, 'error')) return true;
    const trimmed = line.trim();
    if (/^\s*> /.test(line) || trimmed === '>') {
      this.closeAarItem();
      this.inAarList = AAR_HEADER.test(trimmed);
      // Reported where it appears, ahead of the duplicates indented under it (the block's close finds it known).
      if (line.includes('Duplicate class ')) this.scanLine(trimmed.slice(2), true);
      // AAPT's line under `Android resource linking failed`, marked as a cause where a markdown quote flattened the
      // nesting (`> > Android resource linking failed` / `> > ERROR: <path>:11: AAPT: error: …`): AAPT's diagnostic.
      return line.includes(': AAPT: ') && this.scanLine(trimmed.slice(2), true);
    }
    if (this.inAarList) {
      const item = AAR_ITEM.exec(line);
      if (item) {
        this.closeAarItem();
        this.aarItem = { lines: [item[2]!.trim()] };
        return true;
      }
      if (this.aarItem) {
        if (trimmed !== '' && this.aarItem.lines.length < MAX_CONTINUATION_LINES) this.aarItem.lines.push(trimmed);
        return true;
      }
    }
    if (this.block.length <= 1) return false;
    return this.scanLine(line, true);
  }

  private closeAarItem(): void {
    const item = this.aarItem;
    if (!item) return;
    this.aarItem = null;
    // The advice that follows is the same for every item; the first paragraphs say what is wrong.
    const noteAt = item.lines.findIndex((l) => /^Note that /.test(l));
    const lines = noteAt > 0 ? item.lines.slice(0, noteAt) : item.lines;
    this.add({
      severity: 'error',
      source: 'agp',
      file: null,
      line: null,
      column: null,
      message: lines.join(' '),
      task: this.blockTask() ?? this.currentTask,
    });
  }

  private closeBlock(): void {
    const report = this.dataBindingAfterBlock;
    this.dataBindingAfterBlock = null;
    try {
      this.closeBlockReport();
    } finally {
      if (report !== null) {
        this.readDataBinding(report.text, report.task);
        this.flushDataBinding();
      }
    }
  }

  private closeBlockReport(): void {
    this.lostMarkerDetails = null;
    // A bare location's headline is the line after it; a block started or ended in between had its own.
    this.headlineExpected = false;
    this.flushPending();
    this.closeAarItem();
    this.inAarList = false;
    this.inCcList = false;
    const implicit = this.implicitBlock;
    this.implicitBlock = false;
    const implicitTask = this.implicitBlockTask;
    this.implicitBlockTask = null;
    if (this.section !== 'what-went-wrong' || this.block.length === 0) {
      this.block = [];
      return;
    }
    const lines = dedent(this.block);
    this.block = [];
    const first = lines.findIndex((l) => l.text.trim() !== '');
    if (first < 0) return;
    // Gradle's task and project headlines are one line, always followed by their causes: one unmarked line right
    // after one (a paragraph of its own) is its cause with the `> ` lost in pasting.
    const next = lines[first + 1];
    if (
      next !== undefined &&
      (lines[first + 2]?.text.trim() ?? '') === '' &&
      ONE_LINE_HEADLINE.test(lines[first]!.text) &&
      /^[^\s>*-]/.test(next.text) &&
      !GRADLE_SECTION.test(next.text)
    )
      lines[first + 1] = { text: `> ${next.text.trim()}`, consumed: next.consumed };
    // The header runs to the first cause, indented line or blank line.
    const headerParts: string[] = [];
    let i = first;
    for (; i < lines.length; i++) {
      const text = lines[i]!.text;
      // A `- …` list under the headline (the plugin sources searched) is detail, not more headline.
      if (text.trim() === '' || /^\s/.test(text) || text.startsWith('>') || text.startsWith('- ')) break;
      if (!implicit && headerParts.length >= 3) break;
      headerParts.push(text.trim());
    }
    const header = headerParts.join(' ');
    if (header === '' && !lines.some((l) => /^\s*>/.test(l.text))) return;
    if (header.startsWith('Script compilation error')) {
      this.scriptErrors(lines.map((l) => l.text));
      return;
    }
    if (/^Configuration cache problems found/.test(header)) return;
    // A headline cut off by the start of another report (`A problem occurFAILURE: Build failed …`) is two pastes
    // spliced together: the copy that follows reports the failure whole.
    if (header.includes('FAILURE: Build failed')) return;
    const task = this.blockTask(lines) ?? (implicit ? implicitTask : null);
    this.lastFailedTask = task;
    this.failureReportRead = true;
    let headline = header.replace(/\.$/, '');

    interface Cause {
      depth: number;
      text: string;
      details: BlockLine[];
    }
    const causes: Cause[] = [];
    let previousRow = '';
    for (const entry of lines) {
      const row = previousRow;
      previousRow = entry.text;
      // A cause Windows' console cut at its full width goes on mid-word on the next row, in column 0.
      if (row.length === WINDOWS_CONSOLE_WIDTH && causes.length > 0 && /^[^\s>*]/.test(entry.text) && !entry.consumed) {
        const last = causes[causes.length - 1]!;
        const detail = last.details[last.details.length - 1];
        if (detail === undefined) last.text += entry.text;
        else last.details[last.details.length - 1] = { ...detail, text: detail.text + entry.text };
        continue;
      }
      // A console of any width that cut a cause's path mid-word: the rest of the merger's `<path>: Error: …` starts the
      // next row in column 0.
      const cutPath = causes.at(-1);
      if (
        cutPath !== undefined &&
        cutPath.details.length === 0 &&
        /^[^\s>*]/.test(entry.text) &&
        !entry.consumed &&
        PATH_OR_HOST_CAUSE.test(cutPath.text) &&
        MERGER_LOCATED_CAUSE.test(cutPath.text + entry.text)
      ) {
        cutPath.text += entry.text;
        continue;
      }
      // A nested cause inside a markdown quote (`>    > cause`): the quote's marker goes, the cause's stays.
      const cause = /^(\s*)>(?: (.*))?$/.exec(/^> +>/.test(entry.text) ? entry.text.slice(1) : entry.text);
      const text = (cause?.[2] ?? '').trim();
      // `> Suggestion: …` pasted with its own marker is the merger's detail line, not a cause of its own. The merger's
      // failure has no cause under it: any `> ` line after it is its message, quoted line by line or rewrapped.
      if (
        cause &&
        causes.length > 0 &&
        (/^(?:Suggestion: |is also present at )/.test(text) || MANIFEST_FAILED.test(causes[causes.length - 1]!.text))
      )
        causes[causes.length - 1]!.details.push({ text, consumed: false });
      // Gradle writes a cause's text right after `> ` and its further lines indented without one: a `> ` with more
      // blanks after it is such a line, quoted by a markdown quote like every other line of the paste (a nested
      // cause quoted so keeps its own `> ` after the blanks).
      else if (cause && causes.length > 0 && /^\s+[^\s>]/.test(cause[2] ?? ''))
        causes[causes.length - 1]!.details.push({ text, consumed: false });
      // A cause a terminal cut at its width inside `[…]`, its rest quoted again as a cause of its own: one cause.
      else if (cause && causes.length > 0 && opensBracket(causes[causes.length - 1]!.text) && /^\S+\]/.test(text))
        causes[causes.length - 1]!.text += text;
      // A tool's diagnostic read where it was quoted as a cause: the detail of the cause above it.
      else if (cause && causes.length > 0 && entry.consumed) causes[causes.length - 1]!.details.push(entry);
      else if (cause) {
        const joined = WORKER_CAUSE_JOINED.exec(text);
        const depth = visualWidth(cause[1]!);
        if (joined) causes.push({ depth, text: joined[1]!, details: [] });
        causes.push({ depth: depth + (joined ? 1 : 0), text: joined ? joined[2]! : text, details: [] });
      } else if (
        causes.length > 0 &&
        causes.at(-1)!.details.length === 0 &&
        WRAPPING_CAUSE.test(causes.at(-1)!.text) &&
        !entry.consumed &&
        visualWidth(/^\s*/.exec(entry.text)![0]) > causes.at(-1)!.depth &&
        /^\s+[^\s>]/.test(entry.text)
      )
        // A wrapper always has a cause under it: the line indented under it is that cause, its `> ` lost (a markdown
        // quote that took Gradle's own markers for its own).
        causes.push({ depth: visualWidth(/^\s*/.exec(entry.text)![0]), text: entry.text.trim(), details: [] });
      else if (causes.length > 0) {
        const last = causes[causes.length - 1]!;
        // A relay that broke the line after the marker (EAS Build's `>` alone, the cause on the next line): its text.
        if (last.text === '' && last.details.length === 0 && entry.text.trim() !== '') last.text = entry.text.trim();
        else last.details.push(entry);
      }
    }
    // A paste with a blank line after every line: no two lines of the report follow each other.
    const doubleSpaced = !lines.some((l, k) => k > 0 && l.text.trim() !== '' && lines[k - 1]!.text.trim() !== '');
    // A worker's `A failure occurred while executing …` and a configuration's `Could not resolve all …` always wrap
    // the causes after them, even when a paste lost the nesting.
    const leaves = causes.filter(
      (c, k) => k === causes.length - 1 || (causes[k + 1]!.depth <= c.depth && !WRAPPING_CAUSE.test(c.text)),
    );
    // A block pasted from its first cause: the outermost cause says what failed (a worker wrapper says nothing).
    const outer = causes[0];
    if (
      headline === '' &&
      outer !== undefined &&
      !leaves.includes(outer) &&
      !/^A failure occurred while executing /.test(outer.text)
    )
      headline = outer.text.replace(/\.$/, '');
    if (leaves.length === 0) {
      // Causes pasted with their `> ` lost are the indented lines under the headline; under a wrapping cause
      // (`Could not resolve all files for configuration …`) that a markdown quote set apart as a paragraph of its own,
      // the lines indented under it.
      let from = i;
      while (from < lines.length && lines[from]!.text.trim() === '') from++;
      const apart = lines[from];
      from = from > i && apart !== undefined && !apart.consumed && WRAPPING_CAUSE.test(apart.text) ? from + 1 : i;
      const indented: string[] = [];
      for (const l of lines.slice(from)) {
        const t = l.text.trim();
        if (t === '') continue;
        if (!/^\s/.test(l.text) || l.consumed || /^(at |\.\.\. \d+ more)/.test(t) || indented.length >= 6) break;
        // The repositories a dependency was looked for in say where, not why: never the failure's reason.
        if (REPOSITORIES_SEARCHED.test(t)) break;
        indented.push(t);
      }
      this.add({
        severity: 'error',
        source: 'gradle',
        file: this.where?.file ?? null,
        line: this.where?.line ?? null,
        column: null,
        message: indented.length > 0 ? `${headline}: ${indented.join(' ')}` : headline,
        task,
      });
      if (indented.length === 0 && task !== null) this.causelessHeadlines.add(`${task}|${clip(headline)}`);
    } else if (task !== null) this.tasksWithCauses.add(task);
    // A dependency failing in several repositories ends in one `Could not get resource` / `Could not GET` per
    // attempt at the same URL: one problem.
    const urls = new Set<string>();
    // Gradle prints these only over the cause under them: one that ends the block is another repository's attempt,
    // cut where the paste ended, at the same dependency another leaf already says why it could not resolve.
    const cutAttempt = (c: Cause) => RESOLUTION_ATTEMPT_WRAPPER.test(c.text);
    const resolvedElsewhere = leaves.some((l) => !cutAttempt(l));
    for (const leaf of leaves) {
      if (resolvedElsewhere && cutAttempt(leaf)) continue;
      const url = /^Could not (?:get resource|GET|HEAD) '([^']+)'/.exec(leaf.text)?.[1];
      if (url !== undefined) {
        if (urls.has(url)) continue;
        urls.add(url);
      }
      // An exception whose message is only the path or host it failed on: the cause above it says what failed.
      const parent = PATH_OR_HOST_CAUSE.test(leaf.text) ? causes[causes.indexOf(leaf) - 1] : undefined;
      const text = parent !== undefined && parent.depth < leaf.depth ? `${parent.text} ${leaf.text}` : leaf.text;
      this.addCause(headline, text, leaf.details, task, doubleSpaced);
    }
    this.where = null;
  }

  private addCause(
    headline: string,
    wrapped: string,
    allDetails: readonly BlockLine[],
    task: string | null,
    doubleSpaced = false,
  ): void {
    // Gradle indents a cause's further lines under its text: after a blank line, a line back at the margin is what
    // the console printed next (another tool's output after the report), not more of the cause; unless the paste put
    // a blank line after every line, when a blank line says nothing.
    const end = doubleSpaced
      ? -1
      : allDetails.findIndex((d, k) => k > 0 && allDetails[k - 1]!.text.trim() === '' && /^\S/.test(d.text));
    const details = end < 0 ? allDetails : allDetails.slice(0, end);
    // `> java.lang.RuntimeException: Manifest merger failed : …`: the merger's failure, named by the exception AGP threw.
    const unwrapped = wrapped.replace(/^(?:[a-z][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error): /, '');
    const cause = MANIFEST_FAILED.test(unwrapped) ? unwrapped : wrapped;
    // AGP's `AAPT:` alone is its prefix for AAPT2's output when that output was empty: it adds nothing.
    const free = details
      .map((d) => d.text.trim())
      .filter((t) => t !== '' && !/^(?:ERROR:\s*)?AAPT:$/.test(t) && !GRADLE_MANUAL_POINTER.test(t));
    // Lint's advice under its abort (how to let the build go on) is the same for every build: the message ends before it.
    const adviceAt = free.findIndex((t) => LINT_ABORT_ADVICE.test(t));
    if (adviceAt >= 0) free.length = adviceAt;
    // A reporter's `...` after the last detail (lines left out) is no part of the message.
    while (free[free.length - 1] === '...') free.pop();
    // A tool that prints its exception's stack under its message (lint's `Lint infrastructure error`, then `Caused by:`
    // and frames): the stack is no part of the message.
    const stackAt = free.findIndex((t) => /^(?:Caused by: |at [\w$.<>]+\(|\.\.\. \d+ more)/.test(t));
    const freeText = stackAt >= 0 ? free.slice(0, stackAt) : free;
    const anyConsumed = details.some((d) => d.consumed);
    let text = cause;
    if (/^Could not (find|resolve) /.test(cause)) {
      const requiredAt = free.findIndex((t) => /^Required by:/.test(t));
      if (requiredAt >= 0) text = `${cause} ${free.slice(requiredAt, requiredAt + 6).join(' ')}`;
      // Only `- ` items under it (variant matching's reasons, their `Unable to find …` line lost in a paste): the why.
      else if (free.length > 0 && free.length <= 6 && free.every((t) => t.startsWith('- ')))
        text = `${cause} ${free.join(' ')}`;
    } else if (
      MANIFEST_FAILED.test(cause) ||
      (!anyConsumed && free.length > 0 && free.length <= 6 && !stackAfterBlank(details))
    ) {
      // Gradle's problem reports print a problem's title, then its label, which can be the same words: said once.
      text = [cause, ...freeText].filter((t, k, all) => t !== '' && t !== all[k - 1]).join(' ');
    } else if (!anyConsumed && cause.endsWith(':')) {
      // `> startup failed:` then the compiler's message, a blank line and the exception's stack (however short a
      // paste left it): the first paragraph.
      const paragraph: string[] = [];
      for (const d of details) {
        const t = d.text.trim();
        if (t === '' || /^(at |\.\.\. \d+ more)/.test(t) || paragraph.length >= 6) break;
        paragraph.push(t);
      }
      text = [cause, ...paragraph].join(' ');
    }
    if (text === '') return;

    // Studio's form of the merger's error: the two resources and `Error: Duplicate resources` on three lines. A cause
    // that is a whole record is one alone: the lines under it are the merger's other records.
    const duplicate = parseDuplicateResources(cause) ?? parseDuplicateResources([cause, ...free].join(' '));
    if (duplicate) {
      this.addDuplicate(duplicate, 'error', 'agp', task);
      return;
    }
    // `> Duplicate class …` as the leaf cause: the duplicate itself (its siblings are the indented lines under it).
    const duplicateClass = cause.includes('Duplicate class ') ? DUPLICATE_CLASS.exec(cause) : null;
    if (duplicateClass) {
      this.addUnlocated(
        'error',
        'agp',
        `Duplicate class ${duplicateClass[1]} found in modules ${duplicateClass[2]}`,
        task,
      );
      return;
    }
    const located = MERGER_LOCATED_CAUSE.exec(cause);
    // R8 names the position at the end of its cause: `…, position: offset: 96, line: 3, column: 19, origin: /p/rules.pro`.
    const position = cause.includes(', origin: ') ? /\bline: (\d+), column: (\d+), origin: (\S+)$/.exec(cause) : null;
    const packageAttribute = cause.includes('found in source AndroidManifest.xml')
      ? PACKAGE_ATTRIBUTE.exec(cause)
      : null;
    // AAPT2's own `<res>.xml:12: error: …` quoted as a cause (a markdown quote marks every line with `> `).
    const aapt = located === null && cause.includes(': error: ') ? AAPT2_XML.exec(cause) : null;
    if (aapt) {
      this.add({
        severity: severityOf(aapt[4]!),
        source: 'aapt2',
        file: aapt[1]!,
        line: aapt[2] ? Number(aapt[2]) : null,
        column: aapt[3] ? Number(aapt[3]) : null,
        message: aapt[5]!,
        task,
      });
    } else if (located) {
      this.add({
        severity: 'error',
        source: 'agp',
        file: located[1]!,
        line: located[2] ? Number(located[2]) : null,
        column: located[3] ? Number(located[3]) : null,
        message: located[4]!,
        task,
      });
    } else if (position) {
      this.add({
        severity: 'error',
        source: 'gradle',
        file: position[3]!,
        line: Number(position[1]),
        column: Number(position[2]),
        message: headline ? `${headline}: ${text}` : text,
        task,
      });
    } else if (packageAttribute) {
      // AGP printed it before the block too: the same file and words are one diagnostic.
      this.addInFile('error', 'manifest', packageAttribute[3] ?? null, text, task);
    } else if (MANIFEST_FAILED.test(cause)) {
      // The located errors printed before the block already say this, with file and line; so do located errors whose
      // task the log did not show (no `> Task` line before them).
      if (this.manifestLocatedTasks.has(task) || this.manifestLocatedTasks.has(null)) return;
      // `… with multiple errors, see logs` only points at the merger's errors: when they were read, it adds nothing.
      if (
        /^Manifest merger failed with multiple errors/.test(cause) &&
        this.diagnostics.some((d) => d.source === 'manifest')
      )
        return;
      const message = singleSpaced(text);
      if (this.mergerMessageRepeated(message, task)) return;
      this.add({ severity: 'error', source: 'manifest', ...this.manifestLocation(message), message, task });
    } else {
      this.add({
        severity: 'error',
        source: 'gradle',
        file: this.where?.file ?? null,
        line: this.where?.line ?? null,
        column: null,
        // A headline that is an exception's message ends with its cause's (`BUG! … major version 66` / `> … version 66`).
        message: !headline ? text : headline.endsWith(text) ? headline : `${headline}: ${text}`,
        task,
      });
    }
    // The cause's exception message can go on over lines of its own (a StAX error's `Message: …`): the joined text.
    const compile = cause.includes('Resource compilation failed') ? AAPT2_COMPILE.exec(text) : null;
    if (compile) {
      const position = XML_STREAM_POSITION.exec(compile[2]!);
      this.add({
        severity: 'error',
        source: 'aapt2',
        file: compile[1]!,
        line: position ? Number(position[1]) : null,
        column: position ? Number(position[2]) : null,
        message: compile[2]!,
        task,
      });
    }
  }

  /** `ScriptCompilationException(…[ScriptCompilationError(message=…, location=<script> (12:5)), …])`. */
  private addScriptCompilationErrors(line: string): boolean {
    let found = false;
    for (const m of line.matchAll(SCRIPT_COMPILATION_ERROR)) {
      found = true;
      const [lineNo, column, message] = [Number(m[3]), Number(m[4]), m[1]!];
      // The same error printed before as kotlinc's `e: <script>:12:5 …` names the script itself, not Gradle's copy.
      if (
        this.diagnostics.some(
          (d) => d.source === 'script' && d.line === lineNo && d.column === column && d.message === message,
        )
      )
        continue;
      this.add({ severity: 'error', source: 'script', file: m[2]!, line: lineNo, column, message, task: null });
    }
    return found;
  }

  /** `Line 23: <code>` followed by a caret line `   ^ message`, located by the `* Where:` section. */
  private scriptErrors(lines: string[]): void {
    // kotlinc's `e: <script>:83:41: …` lines before the report said these already, with the column from the source
    // (a caret's column is lost where a paste turned its spaces into tabs).
    const before = this.diagnostics.length;
    for (let i = 0; i < lines.length; i++) {
      const code = /^(\s*Line (\d+): )(.*)$/.exec(lines[i]!);
      if (!code) continue;
      const caret = lines[i + 1] !== undefined ? /^(\s*)\^ (.*)$/.exec(lines[i + 1]!) : null;
      if (!caret) continue;
      const column = caret[1]!.length - code[1]!.length + 1;
      // kotlinc's message goes on under the caret, indented past it (the candidates of an unresolved call).
      const message = [caret[2]!.trimEnd()];
      let next = i + 2;
      for (; next < lines.length && message.length <= MAX_UNINDENTED_LINES; next++) {
        const rest = lines[next]!;
        if (rest.trim() === '' || rest.length - rest.trimStart().length <= caret[1]!.length) break;
        message.push(rest.trim());
      }
      const file = this.where?.file ?? null;
      const text = message.join(' ');
      i = next - 1;
      const reported = file !== null ? this.reportPath(file) : null;
      const said = this.diagnostics.some(
        (d, k) =>
          k < before &&
          d.source === 'script' &&
          d.line === Number(code[2]) &&
          d.message === text &&
          d.file === reported,
      );
      if (said) continue;
      this.add({
        severity: 'error',
        source: 'script',
        file,
        line: Number(code[2]),
        column: column > 0 ? column : null,
        message: text,
        task: null,
      });
    }
    this.where = null;
  }
}

/** Text of an XML attribute or element as a report wrote it, its entities decoded. */
function xmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:(lt|gt|quot|apos|amp)|#(\d{1,7})|#x([\da-fA-F]{1,6}));/g, (all, named, dec, hex) => {
    if (named) return { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' }[named as 'lt'];
    const code = dec ? Number(dec) : Number.parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

/** A blank line, then an exception's first line: a stack trace follows the message, as Groovy's startup failure prints it. */
function stackAfterBlank(details: readonly { text: string }[]): boolean {
  return details.some((d, k) => k > 0 && details[k - 1]!.text.trim() === '' && THROWN.test(d.text));
}

/** Parses a whole output at once (tests, and re-reading a stored log). */
export function parseGradleOutput(text: string, options: GradleOutputParserOptions = {}): BuildDiagnostic[] {
  const parser = new GradleOutputParser(options);
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    if (end < 0) {
      parser.push(text.slice(start));
      break;
    }
    parser.push(text.slice(start, end));
    start = end + 1;
  }
  return parser.finish();
}
