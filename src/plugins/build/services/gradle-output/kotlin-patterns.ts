/*
 * kotlinc's diagnostics through the Kotlin Gradle plugin (K1 and K2 locations, `e: ` / `w: ` letters), its
 * command-line form, its sentences that name no position, internal errors, and Gradle's Kotlin DSL script errors.
 */

import type { DiagnosticSeverity } from './build-diagnostic.js';

/** Kotlin K2 `e: file:///p/A.kt:4:54 msg` (and `:23:23: msg` in scripts), K1 `e: /p/A.kt: (12, 5): msg`. */
export const KOTLIN_K2 = /^\s*([ewi]): (.+?\.kts?):(\d+):(\d+):? (.*)$/;
/** K1's location as pastes also show it, the spaces after its colons lost (`A.kt:(4, 12): msg`). */
export const KOTLIN_K1 = /^\s*([ewi]): (.+?\.kts?): ?\((\d+), ?(\d+)\): (.*)$/;
/** A Kotlin location whose position a paste wrapped onto the next line, as the two lines read once joined with a space. */
export const KOTLIN_LOCATION_REJOINED = /^(.+?\.kts?): ?(?:\((\d+), ?(\d+)\):?|(\d+):(\d+):?) (\S.*)$/;
/** kotlinc's own command-line form, `<path>.kt:37:69: error: msg`, as a compiler run outside the daemon relays it. */
export const KOTLINC_CLI = /^\s*((?:[A-Za-z]:)?[^\s:][^:]*?\.kts?):(\d+):(\d+): (error|warning): (\S.*)$/;
export const KOTLIN_BARE = /^\s*([ew]): (.+)$/;
/**
 * A Kotlin location whose `e: ` was lost in copying (Flutter and Android Studio print it so, reporters elide the
 * path as `.../A.kt`): only the compiler prints `<path>.kt:line:col message` at the start of a line.
 */
export const KOTLIN_URL_ONLY =
  /^\s*(file:\/\/\S+?\.kts?|(?:\.{2,3}\/?|~?\/)[^\s:]*?\.kts?|[A-Za-z]:[\\/][^:]*?\.kts?):(\d+):(\d+):? (\S.*)$/;
/**
 * The same with a relative path (`module/src/A.kt:9:8 msg`): only K2's own `line:col message`, no colon after the
 * column, which linters (`A.kt:9:8: msg (rule)`) print.
 */
export const KOTLIN_RELATIVE_ONLY = /^((?:[\w.+-]+\/)*[\w.-]+\.kts?):(\d+):(\d+) (\S.*)$/;
/**
 * K2 words its mismatches against Java nullability annotations `Java type mismatch: …`; they are warnings unless the
 * annotations are made strict, so without its letter such a line is taken as a warning.
 */
export const JAVA_NULLABILITY_MISMATCH = /^Java type mismatch\b/;
/**
 * K1's `<path>.kt: (12, 5): msg` with its `e: ` lost: the `: (line, column): ` form is only the compiler's (also copied
 * by hand as `(12,5)`).
 */
export const KOTLIN_K1_BARE = /^\s*((?:[A-Za-z]:)?[^\s:][^:]*?\.kts?): ?\((\d+), ?(\d+)\):? (\S.*)$/;
/**
 * kotlinc's K1 location with its message not on the line (`<path>.kt: (75, 46): `, the message on the lines under it):
 * a paste, or a tool that wraps what it relays at the terminal's width (the Flutter tool), broke the line after it.
 */
export const KOTLIN_K1_LOCATION_ALONE = /^\s*(?:([ew]): )?((?:[A-Za-z]:)?[^\s:][^:]*?\.kts?): ?\((\d+), ?(\d+)\):\s*$/;
export const KOTLIN_BINARY_LOCATION =
  /^((?:[A-Za-z]:)?[^\s:]*?\.(?:kotlin_module|jar|klib|class)(?:!\/[^\s:]*)?): (\S.*)$/;
/**
 * The binary alone on its line, nothing after its `:`: a paste wrapped kotlinc's message about it (the metadata
 * version, the only message kotlinc gives a binary) onto the next line or paragraph.
 */
export const KOTLIN_BINARY_LOCATION_ALONE =
  /^((?:[A-Za-z]:)?[^\s:]*?\.(?:kotlin_module|jar|klib|class)(?:!\/[^\s:]*)?):$/;
/** kotlinc's metadata-version message on a binary (a module's or a class's), the words such a location goes on with. */
export const KOTLIN_METADATA_SENTENCE =
  /^\s*(?:Module|Class '[^']+') was compiled with an incompatible version of Kotlin\b/;
/** kotlinc's notice on a runtime jar of an old name (`<jar>: kotlin-stdlib-jre7 is deprecated. Please use … instead`): a warning. */
export const KOTLIN_DEPRECATED_RUNTIME = /^kotlin-[\w-]+ is deprecated\. Please use kotlin-[\w-]+ instead\s*$/;
/** Sentences only kotlinc prints (javac reports no unused declarations and words type errors otherwise). */
export const KOTLIN_ONLY_WORDING =
  /^(?:(?:variable|parameter|property|value) '[^']+' is never used\b|Type mismatch: inferred type is .+ but .+ was expected$|Unresolved reference: \S+$)/i;
/** A K1 location cut after its line number's comma by a terminal's wrap (`e: /p/A.kt: (95,`), its column on the next row. */
export const KOTLIN_K1_POSITION_CUT = /\.kts?: \(\d+,$/;
/** kotlinc's ambiguity header (K1 `Overload resolution ambiguity:`, K2 `… between candidates:`), its candidates below. */
export const KOTLIN_AMBIGUITY_HEADER = /^Overload resolution ambiguity(?: between candidates)?:\s*$/;
/** A candidate as kotlinc lists it under such a header: a declaration, modifiers first. */
export const KOTLIN_CANDIDATE_DECLARATION =
  /^\s*(?:(?:public|internal|private|protected|open|final|abstract|override|inline|suspend|operator|infix|external|expect|actual)\s+)*(?:fun|val|var|constructor)\b/;
/** Tasks that run kotlinc or Kotlin/Native (`compileKotlinIosArm64`, `compileIosMainKotlinMetadata`, `linkDebugFrameworkIos`). */
export const KOTLIN_TASK = /:(?:compile\w*Kotlin\w*|link\w*(?:Framework|Executable|Test)\w*)$/;
export const SCRIPT_COMPILATION_ERROR = /ScriptCompilationError\(message=(.+?), location=(.+?) \((\d+):(\d+)\)\)/g;
/**
 * The Kotlin Gradle plugin's compile failure as a stack prints it (`Caused by: …FailedCompilationException: Internal
 * compiler error. See log for more details`): the failure, when only the stack was pasted.
 */
export const STACK_KOTLIN_COMPILE_FAILED =
  /^\s*(?:Caused by: )?org\.jetbrains\.kotlin\.gradle\.tasks\.FailedCompilationException: (\S.*?)\s*$/;
/**
 * Kotlin/Native's report of a crash inside the compiler (K2Native: `Compilation failed: <exception message>`, then
 * ` * Source files:` … ` * Output kind:`); it then rethrows the exception, which is reported as the next error.
 */
export const NATIVE_COMPILATION_FAILED = /^Compilation failed: /;
/** An exception's own headline, `java.lang.NullPointerException` or `p.q.SomeError: message`. */
export const EXCEPTION_HEADLINE = /^(?:[a-z_][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)(?::|$)/;
/** The tag Kotlin/Native's klib resolver puts in front of what it logs. */
export const KLIB_RESOLVER_TAG = 'KLIB resolver: ';
/** The Compose compiler plugin's version check, also seen pasted without Kotlin's `e: `. */
export const COMPOSE_VERSION = /^\s*(This version \(\S+\) of the Compose Compiler requires Kotlin version .*)$/;

/**
 * kotlinc's messages that name no source position, pasted without the `e: ` / `w: ` the Kotlin plugin puts before
 * them, or in the `error: ` / `warning: ` form of Android Studio's build view and of kotlinc's own command line (there
 * lower-cased): the sentence is the compiler's, and so is its severity. `hint` is a cheap test before the pattern;
 * a message ending in `:` goes on with the lines under it (the classes, the jars).
 */
export const KOTLIN_SENTENCES_ALONE: readonly { hint: string; pattern: RegExp; severity: DiagnosticSeverity }[] = [
  {
    // The metadata-version error without the binary it names.
    hint: ' was compiled with an incompatible version of Kotlin',
    pattern:
      /^\s*((?:Module|Class '[^']+') was compiled with an incompatible version of Kotlin\. The binary version of its metadata is \S+, expected version is \S+)$/,
    severity: 'error',
  },
  {
    hint: 'upertypes of the following classes',
    pattern:
      /^\s*(?:error: )?([Ss]upertypes of the following classes cannot be resolved\. Please make sure you have the required dependencies in the classpath\b.*)$/,
    severity: 'error',
  },
  {
    hint: 'untime JAR files in the classpath',
    pattern: /^\s*(?:warning: )?([Rr]untime JAR files in the classpath should have the same version\b.*)$/,
    severity: 'warning',
  },
  {
    hint: ' have the same JVM signature',
    pattern:
      /^\s*((?:Inherited platform declarations clash|Platform declaration clash|Accidental override): The following declarations have the same JVM signature\b.*)$/,
    severity: 'error',
  },
  {
    // An internal error (CodegenUtil.reportBackendException, K1's KotlinFrontEndException) pasted without the `e: `
    // before it, with the exception class or as a summary shows it without; `File being compiled:` follows it.
    hint: ' Internal error: ',
    pattern:
      /^\s*((?:(?:[a-z_][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error): )?(?:Backend|Back-end \(JVM\)|Front-end) Internal error: .*)$/,
    severity: 'error',
  },
];

/**
 * K2's crash while analysing a file (FileAnalysisException): `While analysing <path>:<line>:<col>: <cause>`, or
 * `Somewhere in file <path>: <cause>` when the element has no position; with or without the `e: ` before it, and as
 * a stack's `Caused by: ` names it when only the stack was pasted (the same words, so the same diagnostic).
 */
export const FILE_ANALYSIS_EXCEPTION =
  /^\s*(?:e: |Caused by: )?((?:[a-z_][\w$]*\.)*FileAnalysisException: (?:While analysing (.+?\.kts?):(\d+):(\d+)|Somewhere in file (.+?\.kts?)): \S.*)$/;
/**
 * K1's crash inside an expression (KotlinFrontEndException): `Exception while analyzing expression in (l,c) in <path>`
 * (`at (l,c) in` before 1.4), with or without the `e: ` before it; the position is inside the exception's message.
 */
export const FRONTEND_EXPRESSION_EXCEPTION =
  /^\s*(?:e: |Caused by: )?((?:[a-z_][\w$]*\.)*KotlinFrontEndException: Exception while analyzing expression (?:in|at) \((\d+),(\d+)\) in (.+?\.kts?)(?: \.)?)\s*$/;
/**
 * The file an internal compiler error names on the line after it: kotlinc's attachment `File being compiled: (l,c) in
 * <path>`, before 1.3 `File being compiled and position: …` (K1 put the position before the path).
 */
export const FILE_BEING_COMPILED = /^File being compiled(?: and position)?: (?:\((\d+),(\d+)\) in )?(\S.*?)\s*$/;
