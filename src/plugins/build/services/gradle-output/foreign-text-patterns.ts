/*
 * Text in a build log that is not Gradle's or a compiler's: npm banners, the rich console's progress and status lines,
 * a CI viewer's line numbers, a build server's own log, the JVM's warnings, Bazel's and wrappers' lines, markdown quoting.
 */

/** Bazel locates a failed action at its target in a `BUILD` file; AGP never names one. */
export const BAZEL_BUILD_FILE = /(?:^|[\\/])BUILD(?:\.bazel)?$/;
/** Bazel's line before an action's output (`INFO: From KotlinCompile //pkg:target …:`): the tool's lines follow it. */
export const BAZEL_ACTION_HEADER = /^INFO: From \S+ .*:$/;
/** The JVM's own warnings on stderr (Unsafe, native access) are not build diagnostics. */
export const JVM_NOISE =
  /^\s*WARNING: (A terminally deprecated method|sun\.misc\.Unsafe|A restricted method|Use --enable-native-access|Restricted methods will be blocked|Please consider reporting|An illegal reflective access|Illegal reflective access|Use --illegal-access=|All illegal access operations)/;
/**
 * Android's dynamic linker warns on the stderr of any program it loads on the device (bionic's `DL_WARN`): a command
 * run over adb (`am instrument`) starts with it. A device's warning, not the build's.
 */
export const DEVICE_LINKER_WARNING = /^\s*WARNING: linker: /;
/** The rule row (`-- | --`) of a table copied out of Android Studio's build view. */
export const TABLE_RULE = /^\s*-{2,}(?:\s*\|\s*-{2,})+\s*\|?\s*$/;
/**
 * A wrapper's own report that the Gradle wrapper it ran failed (buildozer's `…/gradlew failed!`): Gradle's output is
 * over, and an unlocated `WARNING:` after it is the wrapper's or its toolchain's.
 */
export const WRAPPER_REPORTS_GRADLE_FAILED = /[\\/]gradlew(?:\.bat)? failed!$/;
/**
 * A JavaScript CLI's report that the command it spawned failed (execa's `Command failed with exit code 1: <command>`
 * in the React Native CLI, Cordova's `Error: cmd: Command failed with exit code 1 Error output:`): Gradle's report
 * ended before it, and what follows is the CLI's copy of the command's output.
 */
export const CLI_REPORTS_COMMAND_FAILED = /\bCommand failed with exit code \d+\b/;
/**
 * A line that is only a paste's markup: markdown emphasis markers opening or closing a bold log (`**`), or the
 * reporter's bracketed mark for lines left out (`[...]`). No tool prints such a line (lint does print a bare `...`
 * around its build-script snippet); it separates like an empty line.
 */
export const PASTE_MARKUP_LINE = /^\s*(?:\*{2,3}|_{2,3}|\[(?:\.{3}|…)\])\s*$/;
/** Gradle's rich console: the progress bar, then one `> IDLE` / `> :app:task` line per worker (no failure causes). */
export const PROGRESS_BAR = /^<[-=]*> \d+% (?:INITIALIZING|CONFIGURING|EXECUTING|WAITING)\b/;
/**
 * npm and pnpm announce a package script as `> name@1.2.3 script [dir]`, its command on the next `> ` line (a React
 * Native or Expo build run through `npm run`): neither is a failure cause.
 */
export const NPM_SCRIPT_BANNER = /^> (?:@[\w.-]+\/)?[\w.-]+@\d+\.\d+\.\d+\S* [\w:.-]+(?: \S.*)?$/;
/** A shell's prompt before the command that ran the build (`> ./gradlew assembleDebug`, `> gradlew.bat build`). */
export const SHELL_PROMPT_GRADLE_COMMAND = /^> (?:\.{1,2}[\\/])?(?:[\w.-]+[\\/])*gradlew?(?:\.bat)?(?: \S.*)?$/;
/**
 * Gradle's rich console: a work-in-progress line (`> IDLE`, `> Evaluating settings`) over the status line it
 * overwrote (`<===> 0% INITIALIZING [79ms]`), copied from a terminal: progress, not a failure cause.
 */
export const CONSOLE_STATUS = /^> (?:IDLE|.*[A-Z]{4,} \[(?:\d+h )?(?:\d+m )?\d+(?:\.\d+)?m?s\])\s*$/;
/**
 * A line that is only a number: a CI web viewer's line numbers, copied with the log, land on lines of their own between
 * the log's lines. Gradle, AGP and the compilers print no bare number on a line.
 */
export const VIEWER_LINE_NUMBER = /^\s*\d{1,7}\s*$/;
/**
 * A line that is only an HTTP date (`Fri, 12 Mar 2021 04:58:43 GMT`): a build service's web log (Expo's) shows each
 * line's time in a column of its own, which a copy puts on a line of its own after the log's line. It is no log line.
 */
export const VIEWER_TIME_LINE =
  /^\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\s*$/;
/**
 * Python's logging in the form `2021-10-10 17:05:33,488 ERROR: …` (the comma before the milliseconds is Python's
 * asctime): a build server's own log around the build (F-Droid's fdroidserver), never Gradle's or AGP's.
 */
export const BUILD_SERVER_LOG = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} (?:DEBUG|INFO|WARNING|ERROR|CRITICAL): /;
/** `Running Gradle task 'assembleDebug'...` with its time when done (`… 359.5s`, `… Done 362.1s (!)`). */
export const FLUTTER_GRADLE_STATUS =
  /^\s*(?:> )?Running Gradle task '[^']*'\.\.\.(?:\s+(?:Done\s+)?[\d.,]+m?s(?:\s+\(!\))?)?\s*$/;
/**
 * Lines that start with `> ` only because the log was quoted in markdown: Gradle prints none of these after `> `,
 * among them a test's event (`Class > test FAILED`), the test count, a connected run's `Starting 1 tests on …`, the
 * Flutter tool's `Launching lib/main.dart on … in debug mode...` and a manifest merger record's header.
 */
export const MARKDOWN_QUOTED =
  /^> ?(?:> |\d{2}:\d{2}:\d{2}\b|Caused by: |\s*at [\w$.]+[\w$<>]*\(|\*? ?What went wrong:|\* (?:Where|Try|Exception is|Get more help)|FAILURE: |BUILD (?:FAILED|SUCCESSFUL)|Error:(?!\s)|:[\w.-]+(?::[\w.-]+)* (?:FAILED|UP-TO-DATE)\s*$|\s*[A-Za-z_$][^>]*? > .+ (?:FAILED|PASSED|SKIPPED)\s*$|\d+ tests? completed, \d+ failed|Starting \d+ tests? on \S|`?Launching \S+ on .+ in (?:debug|profile|release) mode|(?:[A-Za-z]:)?[^\s:][^:]*\.xml(?::\d+(?::\d+)?(?:-\d+(?::\d+)?)?)? (?:Error|Warning):\s*$)/;
/**
 * Xcode's build system around a Kotlin Multiplatform framework built by Gradle from a run-script phase: its own
 * `error: Command PhaseScriptExecution failed with a nonzero exit code` (the phase's exit status, Gradle's failure
 * already reported) and `warning: Run script build phase '…' will be run during every build …` (the phase's setup).
 */
export const XCODE_BUILD_SYSTEM_LINE =
  /^\s*(?:(?:error|warning|note): )?(?:Command \S+ failed with (?:a nonzero )?exit code\b|Run script build phase '[^']*' will be run during every build\b)/;
