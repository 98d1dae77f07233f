/*
 * javac's diagnostics (location line, message, source echo, caret, `symbol:`/`location:` details) in the JDK's
 * locales, and the annotation processors around it: kapt's wrapping of them, KSP's `[ksp]` messages, javac through Maven.
 */

/**
 * `e: [ksp] <path>:12: msg`; Room puts a long message on the lines after `<path>:130:`. The `[ksp] ` is KSP's own
 * prefix inside the message, so it also starts a line where the Kotlin plugin's severity letter was left out (Android
 * Studio's build tree shows the message alone, and that is what gets pasted): an error there, as the tree lists errors.
 */
export const KSP = /^\s*(?:([ewi]): )?\[ksp(?:\]|\*\*\*) (?:(.+?):(\d+)(?::(\d+))?:(?: |$))?(.*)$/;
export const KAPT_TAGGED = /^\s*(?:([ew]): )?\[kapt\] (.*)$/;
/** The summary kapt prints after the processor's own errors; it names no problem of its own. */
export const KAPT_SUMMARY = /failed to analyze: org\.jetbrains\.kotlin\.kapt3\.diagnostic\.KaptError/;
/** javac's `error:` / `warning:` in the JDK's locales: English (`Error:` as a translated log has it), Chinese, Japanese, German. */
export const JAVAC_LEVEL = '(error|warning|Error|错误|警告|エラー|Fehler|Warnung)';
/** Also on a `.kt` file: kapt maps the processors' diagnostics on its stubs back to the Kotlin source. */
export const JAVAC = new RegExp(`^(\\s*)(?:([ew]): )?(.+?\\.(?:java|kt)):(\\d+): ${JAVAC_LEVEL}: ?(.*)$`);
/** An unanchored, linear pre-check for JAVAC: its `(.+?\.java)` (or `.kt`) retries at every `.java:` of a line that has many. */
export const JAVAC_HINT = /\.(?:java|kt):\d+: /;
/**
 * javac's unlocated warnings: `warning: [options] …`, `warning: The following options were not recognized …`, and a
 * processor's (Room's query verification), also in the JDK's Chinese/Japanese (`警告`) and German (`Warnung`) locales.
 */
export const JAVAC_BARE_WARNING = /^\s*(?:warning|警告|Warnung): (\S.*)$/;
export const JAVAC_DETAIL =
  /^\s*(symbol|location|required|found|reason|符号|位置|需要|找到|シンボル|場所|期待値|検出値|Symbol|Ort|Erforderlich|Ermittelt)\s*:\s*(.*)$/;

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
  return at > 0 ? { before: file.slice(0, at), path: file.slice(at) } : null;
}

/** A javac message whose first line is only an annotation processor's tag (`[Hilt]`), or empty. */
export const TAG_ONLY = /^(?:\[[\w/ :-]+\])?$/;
export const JAVAC_CLASS_FILE = /^\s*class file for \S+ not found$/;
/** javac's location alone on a line, its `error: …` on the next (a JS CLI's log wraps it there). */
export const JAVAC_LOCATION_ONLY = /^(\s*)(\S.*?\.java):(\d+):\s*$/;
export const JAVAC_LEVEL_ONLY = new RegExp(`^\\s*${JAVAC_LEVEL}: \\S`);
/** javac's caret; on Windows consoles the next message sometimes follows it on the same line. */
export const CARET = /^(\s*)\^(?:\s*$|(\S.*)$)/;
/** javac's `where` clause (compiler.properties `where.description.*`) and the declarations listed under it. */
export const JAVAC_WHERE_CLAUSE =
  /^\s*(?:where \S.* (?:is an?|are) [\w -]+:|\S+ extends \S.* (?:declared in|from capture of) \S.*)$/;
/** javac through Maven: `/p/A.java:[160,40] cannot find symbol` (older plugins keep javac's `error: `). */
export const MAVEN_LOCATED = /^\s*(.+?\.java):\[(\d+),(\d+)\] (?:(error|warning): )?(.*)$/;
