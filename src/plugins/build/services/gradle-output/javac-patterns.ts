/*
 * javac's diagnostics (location line, message, source echo, caret, `symbol:`/`location:` details) in the JDK's
 * locales, and the annotation processors around it: kapt's wrapping of them, KSP's `[ksp]` messages, javac through Maven.
 */

/**
 * `e: [ksp] <path>:12: msg`; Room puts a long message on the lines after `<path>:130:`. The `[ksp] ` is KSP's own
 * prefix inside the message, so it also starts a line where the Kotlin plugin's severity letter was left out (Android
 * Studio's build tree shows the message alone, and that is what gets pasted): an error there, as the tree lists errors.
 * A build tool that runs KSP2 as a process of its own puts `[ksp] ` before each line KSP's logger prints, its level
 * after it (`[ksp] e: msg`).
 */
export const KSP = /^\s*(?:([ewi]): )?\[ksp(?:\]|\*\*\*) (?:([ewiv]): )?(?:(.+?):(\d+)(?::(\d+))?:(?: |$))?(.*)$/;
export const KAPT_TAGGED = /^\s*(?:([ew]): )?\[kapt\] (.*)$/;
/** The summary kapt prints after the processor's own errors; it names no problem of its own. */
export const KAPT_SUMMARY = /failed to analyze: org\.jetbrains\.kotlin\.kapt3\.diagnostic\.KaptError/;
/** javac's `error:` / `warning:` in the JDK's locales: English (`Error:` as a translated log has it), Chinese, Japanese, German. */
export const JAVAC_LEVEL = '(error|warning|Error|错误|警告|エラー|Fehler|Warnung)';
/**
 * Also on a `.kt` file: kapt maps the processors' diagnostics on its stubs back to the Kotlin source. A build tool that
 * relays javac's output tags each of its lines with its own `error: ` (Bazel's Kotlin rules), before the path.
 */
export const JAVAC = new RegExp(
  `^(\\s*)(?:([ew]): |error: (?=(?:[A-Za-z]:)?[\\\\/]))?(.+?\\.(?:java|kt)):(\\d+): ${JAVAC_LEVEL}: ?(.*)$`,
);
/** javac's `cannot find symbol` alone on its line: the location line above it lost (its `symbol:` lines follow). */
export const JAVAC_CANNOT_FIND_SYMBOL_ALONE = /^\s*(?:cannot find symbol|找不到符号|シンボルを見つけられません。?)\s*$/;
/** javac's level opening a message kapt relays behind its `e: `/`w: ` (`e: エラー: …`); kotlinc's own say none. */
export const RELAYED_JAVAC_LEVEL = /^(error|warning|错误|警告|エラー|Fehler|Warnung): (\S.*)$/;
/** An annotation processor's note, in the JDK's locales (`Note: [1] Wrote GeneratedAppGlideModule …`). */
export const PROCESSOR_NOTE = /^(?:Note|注|注意|Hinweis): /;
/** javac's note on one source file (`Note: /p/A.java uses or overrides a deprecated API.`), its word in any locale. */
export const JAVAC_FILE_NOTE = /^\S{1,8}: (?:[A-Za-z]:)?[\\/]\S*?\.java(?:\s|\P{ASCII}|$)/u;
/**
 * Dagger's message pasted from its tag on (`[Dagger/MissingBinding] X cannot be provided …`): the location line's
 * `…java:N: error: ` left out; its echo, caret and binding trace follow as under a located one.
 */
export const DAGGER_TAGGED_ALONE = /^\s*\[Dagger\/\w+\] \S/;
/**
 * kapt's report of a processor that threw (`[kapt] An exception occurred: <exception>: msg`) pasted without its
 * `e: [kapt] `: the exception's qualified class name right after the colon tells it from other tools' sentences.
 */
export const KAPT_EXCEPTION_UNTAGGED = /^\s*(An exception occurred: (?:[a-z]\w*\.)+[A-Z]\w*(?:Exception|Error)\b.*)$/;
/** kapt's stubs: its own folder, or a `stubs` folder in the working directory Bazel's Kotlin rules give kotlinc. */
export const KAPT_STUB_PATH = /[\\/](?:kapt3?|tmp[\\/]kapt3)[\\/]|[\\/]_kotlinc[\\/]\S*[\\/]stubs[\\/]/;
/** An unanchored, linear pre-check for JAVAC: its `(.+?\.java)` (or `.kt`) retries at every `.java:` of a line that has many. */
export const JAVAC_HINT = /\.(?:java|kt):\d+: /;
/**
 * javac's unlocated warnings: `warning: [options] …`, `warning: The following options were not recognized …`, and a
 * processor's (Room's query verification), also in the JDK's Chinese/Japanese (`警告`) and German (`Warnung`) locales.
 */
export const JAVAC_BARE_WARNING = /^\s*(?:warning|警告|Warnung): (\S.*)$/;
/**
 * javac's warnings about obsolete `-source`/`-target` values (compiler.properties `warn.option.obsolete.*`) as Maven
 * prints them, behind its `[WARNING] ` with javac's `warning: [options] ` left out, in the JDK's English and Chinese.
 */
export const JAVAC_OPTIONS_WARNING_TEXT =
  /^(?:(?:source|target) value \d+ is obsolete and will be removed in a future release|To suppress warnings about obsolete options, use -Xlint:-options\.|(?:源值|目标值) ?\d+ ?已过时[，,] ?将在未来(?:所有)?发行版中删除|要隐藏有关已过时选项的警告, ?请使用 -Xlint:-options。)$/;
/**
 * The tasks that run javac (or kapt, KSP, kotlinc, whose path-lost warnings read the same): Gradle's console prints a
 * task's output under its `> Task` header, so a bare `warning:` under any other task is that task's own tool's (the
 * Metro bundler a React Native `bundle…JsAndAssets` task runs, a script's `exec`).
 */
export const COMPILING_TASK = /(?:^|:)(?:compile|kapt|ksp)\w*$/i;
/**
 * javac's fatal errors (compiler.properties `compiler.misc.fatal.err.*`), printed with no location and no `error:`:
 * `Fatal Error: Unable to find package java.lang in classpath or bootclasspath`, `Fatal Error: Unable to find method …`.
 */
export const JAVAC_FATAL = /^\s*Fatal Error: (Unable to (?:find|locate) \S.*)$/;
export const JAVAC_DETAIL =
  /^\s*(symbol|location|required|found|reason|符号|位置|需要|找到|シンボル|場所|期待値|検出値|Symbol|Ort|Erforderlich|Ermittelt)\s*:\s*(.*)$/;

/**
 * javac's `cannot find symbol` with its echo, caret and detail lines squashed onto the location's line (a paste that
 * joined the lines with spaces): `cannot find symbol import p.X; ^ symbol: class X location: package p`.
 */
export const JAVAC_SQUASHED_SYMBOL =
  /^(cannot find symbol) .*? \^\s+(symbol\s*:\s*.+?)(?:\s+(location\s*:\s*.+?))?\s*$/;

/**
 * A javac location glued to the end of the line printed before it (a paste lost the line break): to the previous
 * error's detail line (`symbol: class X/app/A.java`, `location: package p.qC:\\p\\A.java`: a detail's value has no
 * slash) or to a Dagger binding trace line ending in its component path (`… [p.AppComponent → p.Sub]/app/A.kt`).
 */
export function splitGluedLocation(file: string): { before: string; path: string } | null {
  let at = -1;
  if (JAVAC_DETAIL.test(file)) at = file.search(/[A-Za-z]:[\\/]|[\\/]/);
  else if (file.includes(' [')) {
    const trace = / \[[^\]]*\](?=(?:[A-Za-z]:)?[\\/])/.exec(file);
    if (trace) at = trace.index + trace[0].length;
  }
  if (at < 0 && file.includes('.')) {
    // Or to a sentence (Hilt's `… See error above for details.`): a word's closing period with a root right after it,
    // spaces before it; a path's own segments do not end in a period.
    const sentenceEnd = /[a-z]\.(?=(?:[A-Za-z]:)?[\\/])/.exec(file);
    if (sentenceEnd && /\s/.test(file.slice(0, sentenceEnd.index))) at = sentenceEnd.index + 2;
  }
  return at > 0 ? { before: file.slice(0, at), path: file.slice(at) } : null;
}

/** The line Hilt closes each of its errors with, under the message (Hilt's ProcessorErrorHandler FAILURE_SUFFIX). */
export const HILT_INCOMPLETE =
  /^\s*\[Hilt\] Processing did not complete\. See error above for details\.(?=\s*$|(?:[A-Za-z]:)?[\\/])/;
/** A javac message whose first line is only an annotation processor's tag (`[Hilt]`), or empty. */
export const TAG_ONLY = /^(?:\[[\w/ :-]+\])?$/;
/**
 * A reason javac prints on a line of its own under the caret (compiler.properties): `cannot access X`'s `class file for
 * X not found`, `found raw type: X`'s `missing type arguments for generic class X<T>`, and a conditional's operand
 * under `bad type in conditional expression` (`Integer cannot be converted to String`).
 */
export const JAVAC_REASON_LINE =
  /^\s*(?:class file for \S+ not found|missing type arguments for generic class \S+|\S+ cannot be converted to \S+)$/;
/**
 * `cannot access X`'s other reason (compiler.properties `compiler.misc.bad.source.file.header`, `…bad.class.file.header`):
 * the file, then why, over lines indented under it; in the JDK's Chinese too (`错误的类文件: …`).
 */
export const JAVAC_BAD_FILE = /^\s*(?:bad (?:source|class) file|错误的(?:源|类)文件): \S/;
/**
 * The lines javac prints under that header (compiler.properties `compiler.misc.class.file.wrong.version`,
 * `…class.file.wrong.class`, `…file.doesnt.contain.class`, and the header's closing advice), also in the JDK's Chinese:
 * known by their words where a paste took the indentation that nests them under the header.
 */
export const JAVAC_BAD_FILE_REASON =
  /^\s*(?:class file has wrong version \d+\.\d+, should be \d+\.\d+|class file contains wrong class: \S|file does not contain class \S|Please remove or make sure it appears in the correct subdirectory of the (?:classpath|sourcepath)\.|类文件具有错误的版本 \d+\.\d+, 应为 \d+\.\d+|请删除该文件或确保该文件位于正确的类路径子目录中。)/;
/** javac's `cannot access X` (compiler.properties `compiler.err.cant.access`), in English and the JDK's Chinese. */
export const JAVAC_CANNOT_ACCESS = /^(?:cannot access |无法访问)/;
/**
 * JDK 6's javac printed an error's location line with no level word (`Main.java:5: cannot find symbol`), its
 * `symbol  :` / `location:` lines before the source echo and caret; only that caret tells it from another tool's line.
 */
export const JAVAC_UNLEVELED =
  /^(\s*)(.+?\.java):(\d+): (?!(?:error|warning|Error|Warning|Information|Hint|Note)\b)(\S.*)$/;
/**
 * The start of a path alone on a line (a drive or a root, no colon after it): on a line that filled a console's row, the
 * rest of the path begins the next line (`D:\\app\\src\\main\\java\\com\\sample` / `\\MainApplication.java:19: error: …`).
 */
export const PATH_HEAD = /^(?:[A-Za-z]:)?[\\/][^:*?"<>|]*$/;
/** A relative path's start alone on a line (`app/node_modules/x/android/src/main/java/com/ex`): no space, no colon. */
export const RELATIVE_PATH_HEAD = /^[\w.-]+(?:[\\/][\w.-]*)+$/;
/** javac's location alone on a line, its `error: …` on the next (a JS CLI's log wraps it there). */
export const JAVAC_LOCATION_ONLY = /^(\s*)(\S.*?\.java):(\d+):\s*$/;
export const JAVAC_LEVEL_ONLY = new RegExp(`^\\s*${JAVAC_LEVEL}: \\S`);
/** A line of Java source as javac echoes it under a message: a declaration's start, or a statement's or block's end. */
export const JAVA_SOURCE_ECHO =
  /^\s*(?:(?:public|protected|private|abstract|final|static|class|interface|enum|import|package)\s|@[A-Z])|[;{]\s*$/;
/**
 * Sentences only javac prints (compiler.properties; kotlinc words these problems otherwise: `'x' overrides nothing`):
 * its message pasted without the location line above it is still javac's.
 */
export const JAVAC_ONLY_WORDING =
  /^(?:method does not override or implement a method from a supertype|non-static (?:variable|method) \S+ cannot be referenced from a static context|unreported exception \S+; must be caught or declared to be thrown|class \S+ is public, should be declared in a file named \S+\.java)$/;
/** A javac location alone on its line with neither level nor message (`<path>.java:19`), as a reporter moved it. */
export const JAVAC_PLACE_ALONE = /^\s*((?:[A-Za-z]:)?[^\s:][^:]*?\.java):(\d+)\s*$/;
/** javac's caret; on Windows consoles the next message sometimes follows it on the same line. */
export const CARET = /^(\s*)\^(?:\s*$|(\S.*)$)/;
/** javac's `where` clause (compiler.properties `where.description.*`) and the declarations listed under it. */
export const JAVAC_WHERE_CLAUSE =
  /^\s*(?:where \S.* (?:is an?|are) [\w -]+:|\S+ extends \S.* (?:declared in|from capture of) \S.*)$/;
/** javac through Maven: `/p/A.java:[160,40] cannot find symbol` (older plugins keep javac's `error: `). */
export const MAVEN_LOCATED = /^\s*(.+?\.java):\[(\d+),(\d+)\] (?:(error|warning): )?(.*)$/;
/**
 * maven-javadoc-plugin reports a failed javadoc run as `Exit code: 1 - ` and the tool's output, its first line glued
 * after it (`[ERROR] Exit code: 1 - /p/A.java:24: error: unknown tag: ThreadSafe`).
 */
export const JAVADOC_EXIT_CODE = /^Exit code: -?\d+ - (?=\S)/;

/**
 * javac's message with no location in front of it (a CLI or a paste dropped it), also in the JDK's locales and with the
 * level word mis-decoded (a GBK console's `错误` read as UTF-8 is `����`). A `12: ` (or `.java:12: `) before it is what is
 * left of the `<path>:12: ` header when a paste cut the path away: without the file the line number locates nothing.
 * A cut right after the header's last colon leaves the space that followed it (` error: …`), one before it the colon
 * too (`: error: …`).
 */
export const JAVAC_BARE_ERROR = /^\s*(?:(?:\.(?:java|kt):)?\d+: |: )?(?:error|错误|エラー|Fehler|\uFFFD{2,}): (.+)$/;
/**
 * The java launcher says it could not start a JVM (a test worker whose classpath lost Gradle's worker class) with the
 * same localized `Error:` word as javac; its messages name the main class, which no javac message does.
 */
export const JVM_LAUNCHER_MAIN_CLASS = /主类|メイン・クラス|Hauptklasse|main class/;

/**
 * javac's own crash (compiler.properties `compiler.misc.msg.bug`): `An exception has occurred in the compiler (<version>).
 * Please file a bug …`, then the exception that stopped it on the next line, then its stack.
 */
export const JAVAC_CRASH = /^\s*(An exception has occurred in the compiler \([^)]*\))\./;
/**
 * The same crash when javac could not format that message (JavacMessages' fallback for a key it cannot render): the
 * key and its arguments as they are, the version first (`compiler message file broken: key=compiler.misc.msg.bug
 * arguments=11.0.2, {1}, {2}, …`).
 */
export const JAVAC_CRASH_UNFORMATTED =
  /^\s*(compiler message file broken: key=compiler\.misc\.msg\.bug arguments=.*?)\s*$/;
/** The exception javac names under its crash message (`java.lang.AssertionError: …`). */
export const JAVAC_CRASH_EXCEPTION = /^\s*[\w$]+(?:\.[\w$]+)+(?:Exception|Error)(?::.*)?$/;

/**
 * The data binding compiler's error report (android.databinding.tool.processing.ScopedException): between its start and
 * end markers `msg:<message>`, `file:<path>` and one `loc:<line>:<column> - <line>:<column>` per place, the positions
 * counted from 0 (android.databinding.tool.store.Location). Printed on one line (the keys joined by spaces) or, as
 * Gradle's failure report shows the exception's message, with each key on a line of its own.
 */
/**
 * The start marker's words with the message key after them (`data binding error ****msg:`), found also where a paste
 * (a reporter's numbered list) lost the marker's leading stars and slash.
 */
export const DATA_BINDING_ERROR_START_WORDS = 'data binding error ****msg:';
/**
 * The data binding compiler's messages (android.databinding.tool.processing.ErrorMessages and its setter lookup), which
 * Android Studio lists without their report: `Error:(55, 45) Cannot find the setter for attribute …`.
 */
export const DATA_BINDING_MESSAGE =
  /^(?:Cannot find (?:the|a) setter for |Identifiers must have user defined types from the XML file|Cannot resolve type for |cannot find method \S+ in class |Could not find accessor )/;
/**
 * Room's compiler messages (androidx.room.processor.ProcessorErrors), which Android Studio also lists alone
 * (`Error:Not sure how to convert a Cursor to this method's return type`): an annotation processor's, so javac's.
 */
export const ROOM_MESSAGE =
  /^(?:Not sure how to convert a Cursor to this method's return type|Cannot figure out how to (?:save this field into database|read this field from a cursor)|There is a problem with the query: |Entities and POJOs must have a usable public constructor|Cannot find (?:getter|setter) for field|An entity must have at least 1 field annotated with @PrimaryKey)/;
/**
 * The same report encoded for Android Studio (ScopedException's encoded message): `[databinding] {"msg":"…","file":"…",
 * "pos":[{"line0":36,"col0":28,"line1":…,"col1":…}]}`, JSON with the message's own line breaks escaped in it.
 */
export const DATA_BINDING_ENCODED = /\[databinding\] (\{.*\})\s*$/;

/** An encoded data binding report read back: the message on one line, its first place made 1-based. */
export function readEncodedDataBindingReport(
  json: string,
): { message: string; file: string | null; line: number | null; column: number | null } | null {
  let record: { msg?: unknown; file?: unknown; pos?: unknown };
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null) return null;
    record = value;
  } catch {
    return null;
  }
  if (typeof record.msg !== 'string') return null;
  const message = record.msg.replace(/\s+/g, ' ').trim();
  if (message === '') return null;
  const first: unknown = Array.isArray(record.pos) ? record.pos[0] : undefined;
  const place = typeof first === 'object' && first !== null ? (first as { line0?: unknown; col0?: unknown }) : null;
  return {
    message,
    file: typeof record.file === 'string' && record.file !== '' ? record.file : null,
    line: typeof place?.line0 === 'number' ? place.line0 + 1 : null,
    column: typeof place?.col0 === 'number' ? place.col0 + 1 : null,
  };
}
/**
 * The data binding compiler's setter message alone on its line, as Android Studio's build window shows a report (the
 * message, a blank line, the adapter advice, `Open File`) or as copied out of its encoded record: the newer
 * `Cannot find a setter for <View attr> that accepts parameter type 'T'` and the older `Cannot find the setter for
 * attribute 'attr' with parameter type T on View.`, behind a level word at most.
 */
export const DATA_BINDING_SETTER_ALONE =
  /^(?:[Ee]rror:\s*)?(Cannot find (?:a setter for <[^<>]+> that accepts parameter type '[^']+'|the setter for attribute '[^']+' with parameter type \S.*? on [\w$.]+\.))\s*$/;
/** kapt's or Gradle's summary of the data binding reports printed with it: it names no problem of its own. */
export const DATA_BINDING_SUMMARY = /LoggedErrorException: Found data binding errors\.?$/;
export const DATA_BINDING_ERROR_END = '****\\ data binding error ****';
/** A report's lines are few (message, file, a location or two); more means its end marker was lost. */
export const MAX_DATA_BINDING_LINES = 12;

/**
 * A data binding report's text between its markers, read as the compiler reads it back (ScopedException.createFromOutput):
 * the message up to `file:`, the file up to the first `loc:`; the first place, made 1-based, is where it points.
 */
export function readDataBindingReport(text: string): {
  message: string;
  file: string | null;
  line: number | null;
  column: number | null;
} {
  const msgAt = text.indexOf('msg:');
  const body = msgAt < 0 ? text : text.slice(msgAt + 'msg:'.length);
  const fileAt = body.indexOf('file:');
  const message = (fileAt < 0 ? body : body.slice(0, fileAt)).replace(/\s+/g, ' ').trim();
  if (fileAt < 0) return { message, file: null, line: null, column: null };
  const rest = body.slice(fileAt + 'file:'.length);
  const locAt = rest.indexOf('loc:');
  // Older compilers wrote the file as `file:in file <name>`.
  const file = (locAt < 0 ? rest : rest.slice(0, locAt)).trim().replace(/^in file\s+/, '');
  const place = locAt < 0 ? null : /^\s*(\d+):(\d+)\s*-/.exec(rest.slice(locAt + 'loc:'.length));
  return {
    message,
    file: file === '' ? null : file,
    line: place ? Number(place[1]) + 1 : null,
    column: place ? Number(place[2]) + 1 : null,
  };
}
