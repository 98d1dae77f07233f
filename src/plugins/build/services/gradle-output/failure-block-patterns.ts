/*
 * Gradle's failure report (`* What went wrong:`, `* Where:`, the `> ` causes), what it says in it (missing
 * dependencies, duplicate classes, AAR metadata checks, configuration cache problems), and the same failures as a stack
 * trace or a lone sentence prints them when only that was pasted.
 */

/** AGP 7's AAR-metadata check before it numbered its issues: the message's own line breaks, then the dependency. */
export const AAR_MIN_COMPILE_SDK = /^\s*(The minCompileSdk \(\d+\) specified in a\b.*)$/;
export const AAR_MIN_COMPILE_SDK_DETAIL =
  /^(?:dependency's AAR metadata|is greater than this module's compileSdk|Dependency: |AAR metadata file: )/;
export const DUPLICATE_CLASS = /Duplicate class (\S+) found in modules?(?: (.+?))?\s*$/;
/**
 * A console narrower than AGP's line wraps a duplicate's module list: the next lines go on with a module
 * (`jetified-x-1.0 (g:a:v) and …`, `x.jar -> jetified-x (…)`) or its coordinates (`(g:a:v)`).
 */
export const DUPLICATE_CLASS_WRAPPED = /^\s*(?:\([\w.:-]+\)|[\w.-]+(?:\.jar -> [\w.-]+)? \()/;
export const AAR_HEADER = /issues? (?:was|were) found when checking AAR metadata/;
export const AAR_ITEM = /^\s*(\d+)\.\s+(\S.*)$/;
// Also after the headline on the same line, when an IDE squashed the block onto one line; its count can be cut off.
export const CC_HEADER =
  /(?:^|\. )(?:\d+ )?problems? (?:was|were) found (?:storing|reusing|loading|updating)?\s*the configuration cache/;
export const CC_BULLET = /^- (.*)$/;
/** How Gradle words a failure it reports (`Could not …`, `Cannot …`, `Failed to …`, `Unable to …`). */
export const GRADLE_FAILURE_WORDING = /^(?:Could not|Cannot|Failed to|Unable to) /;
/** Gradle's list of where it looked for a dependency or plugin, under the failure that names it. */
export const REPOSITORIES_SEARCHED = /^Searched in the following (?:locations|repositories):$/;
/** The header of one failure of several (`FAILURE: Build completed with 2 failures.`): `1: Task failed with an exception.` */
export const NUMBERED_FAILURE = /^\d+: Task failed with an exception\.$/;
/** `Build file '/p/build.gradle' line: 12`, `Script '/p/x.gradle' line: 51`, or a file without a line (Groovy's startup failures). */
export const WHERE_BUILD_FILE =
  /^(?:(?:Build|Settings|Script|Init script) file|Script|Init script|Initialization script) '(.+?)'(?: line: (\d+))?$/;
export const GRADLE_SECTION = /^\* (?:What went wrong|Where|Try|Exception is|Get more help|Query|Suggestions?)\b/;
/** Also as `- What went wrong:` when a markdown renderer turned the report's `* ` sections into a list. */
export const BLOCK_START = /^\s*[*-]?\s*What went wrong:\s*$/;
/** The header with the headline glued after it, as IDEs and one-line pastes print it. */
export const BLOCK_START_GLUED = /^\s*\*?\s*What went wrong:\s+(\S.*)$/;
/**
 * `* What went wrong:` (or `* Try:` after the last cause) after other text on its line: sections squashed onto one line.
 * A paste that reflowed the report may leave more than one space after the `*`.
 */
export const SQUASHED_REPORT = /\S\s+\*\s+(?:What went wrong|Try):/;
export const SQUASHED_SECTION_BREAK =
  /\s+(?=\*\s+(?:Where|What went wrong|Try|Exception is|Get more help):|BUILD FAILED\b|FAILURE: Build failed)/;
/** A literal `\n` followed by a line that starts Gradle's failure report: a log escaped into one JSON string. */
export const ESCAPED_LOG_BREAK = /\\n(?:\* What went wrong:|FAILURE: |\d+: Task failed|BUILD FAILED)/;
/** A wrapper's summary that quotes Gradle's headline after words of its own (EAS Build's `Run gradlew failed with: `). */
const WRAPPER_SUMMARY = String.raw`[A-Z]\w*(?: \w+){0,3} failed with: `;
/**
 * Failure headlines that start a block even when the `* What went wrong:` line was not printed or pasted. A reporter's
 * stray closing bracket, quote or backtick may be glued before it (markup left over from the text they pasted from).
 */
export const IMPLICIT_BLOCK = new RegExp(
  String.raw`^\s*(?:Error:\s*(?:Gradle:\s*)?|${WRAPPER_SUMMARY}|[\])"'\x60]+)?` +
    /((?:Execution failed for task|A problem occurred (?:configuring|evaluating) (?:root )?project|Could not resolve all (?:files|dependencies|artifacts|task dependencies) for configuration|Could not determine the dependencies of task) '[^']+'\.?.*)$/
      .source,
);
/** Headlines Gradle prints on one line of their own, the causes following on the next (a paste may drop the period). */
export const ONE_LINE_HEADLINE =
  /^(?:Execution failed for task|A problem occurred (?:configuring|evaluating) (?:root )?project|Could not resolve all (?:files|dependencies|artifacts|task dependencies) for configuration|Could not determine the dependencies of task) '[^']+'\.?$/;
export const HEADLINE_THEN_CAUSE =
  /^((?:Execution failed for task|A problem occurred (?:configuring|evaluating) (?:root )?project) '[^']+'\.)\s+(\S.*)$/;
/**
 * Gradle's exception for a dependency no repository had, as a stack prints it (`Caused by: ` when nested): the missing
 * dependency, when only the stack was pasted. (A stack headed by a task's or project's failure alone names no cause.)
 */
export const STACK_UNRESOLVED =
  /^\s*(?:Caused by: )?org\.gradle\.internal\.resolve\.ModuleVersion(?:Resolve|NotFound)Exception: (Could not (?:resolve|find) \S+?\.?)\s*$/;
/**
 * Gradle's missing dependency, also printed (or pasted) outside a failure block: Studio's sync, `ERROR: `, `Error:(62, 0) `;
 * a module's artifact names its file, then the module (`Could not find aapt2-proto.jar (com.android.tools.build:…).`).
 */
export const DEPENDENCY_NOT_FOUND =
  /^Could not find (?:\S+(?: \([^()\s]+\))?|any matches for \S+ as no versions of \S+ are available|any version that matches \S+)\.$/;
/** The same failure as a stack prints it: `Caused by: ` or a multi-cause exception's `Cause 2: `, then the exception. */
export const CHAINED_DEPENDENCY_NOT_FOUND =
  /^(?:Caused by|Cause \d+): (?:[a-z][\w$]*\.)+[A-Z][\w$]*Exception: (Could not find .*)$/;
/** The unindented lines of its detail (the locations and the requirers are indented under them). */
export const DEPENDENCY_DETAIL = /^(?:Searched in the following locations:|Required by:)\s*$/;
/**
 * Causes Gradle prints only around the causes under them (a worker's failure, a configuration's resolution, the
 * several failed actions of one task).
 */
export const WRAPPING_CAUSE =
  /^(?:A failure occurred while executing |[Cc]ould not resolve all [\w ]+ for configuration |Multiple task action failures occurred:)/;
/** A dependency resolution's steps that Gradle prints only over their cause (a resource, a metadata file, a version list). */
export const RESOLUTION_ATTEMPT_WRAPPER =
  /^(?:Could not get resource '|Unable to load Maven meta-data from |Failed to list versions for )/;
/** A cause that is only what an exception failed on: an absolute path (file not found) or a host name (unknown host). */
export const PATH_OR_HOST_CAUSE = /^(?:(?:[A-Za-z]:)?[\\/][^\s:]*|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$/;
/**
 * Gradle's words for a failure whose exception has no message (BuildExceptionReporter: `<class> (no error message)`),
 * a headline even though it starts with a package name.
 */
export const NO_ERROR_MESSAGE_HEADLINE = /^(?:[a-z_][\w$]*\.)+[A-Z][\w$]* \(no error message\)$/;
/**
 * A worker's wrapper with its cause joined onto the same line (`> A failure occurred while executing <WorkAction> >
 * Compilation error.`): the worker is named by its class, no spaces, so the ` > ` after the name starts the cause.
 */
export const WORKER_CAUSE_JOINED = /^(A failure occurred while executing \S+) > (\S.*)$/;
/**
 * A cause line (`> …`) with no headline before it. None are: the advice Gradle lists under `* Try:` (`> Run with
 * --stacktrace …`, `> Get more help at …`), cut off its header by a relay that puts a blank line after every line, and the build's result quoted with it;
 * VS Code's `> Executing task: <command> <` echo; a `> :` line: a cause is an exception's message, which never starts
 * with a colon, while the rich console's worker lines start with the path they run (`> :app:compileDebugKotlin > 2 of
 * 5`), as build scripts' own progress lines do.
 */
export const BARE_CAUSE =
  /^> (?!Task (?:(?:\*\*)?:|[A-Za-z][\w-]*(?: [A-Z-]+)?\s*$)|Configure project |Transform |Executing task: |:|Run with --|Get more help at |Run \S*gradlew? tasks |BUILD (?:FAILED|SUCCESSFUL)\b)\S/;
/** A nested cause (`   > …`) with nothing above it: a failure pasted from its second line (an editor's tabs too). */
export const INDENTED_CAUSE = /^(?: {2,12}|\t[ \t]{0,11})> (?!Task (?:\*\*)?:|Configure project |Transform )[A-Za-z]/;
/**
 * A failure headline behind `> ` where no failure block is open: Gradle never prints one as a cause, a markdown quote
 * does (also with the reporter's opening `"` around the message they quote).
 */
export const QUOTED_HEADLINE = new RegExp(
  `^> "?(?:${WRAPPER_SUMMARY})?` +
    /(?:Execution failed for task|A problem occurred (?:configuring|evaluating) (?:root )?project) '[^']+'\.\s*$/
      .source,
);
/**
 * Failures Gradle and AGP (and the Google Services plugin every Firebase app applies) print as one sentence, seen
 * pasted on their own without the failure block around them.
 */
export const KNOWN_FAILURE =
  /^\s*(?:Caused by: [\w.$]+(?:Exception|Error): )?((?:SDK location not found|Unsupported class file major version|General error during (?:conversion|semantic analysis): |Could not find method \S+ for arguments|No such property: \S+ for class: \S|Keystore file .* not found for signing config|Failed to find (?:target with hash string|Build Tools revision)|No toolchains found in the NDK|NDK (?:not configured|is not installed)|Minimum supported Gradle version is|The project is using an incompatible version|Android Gradle plugin requires Java \d+ to run\.|Namespace not specified\. |Task (?:with name )?'[^']*' not found in (?:root )?project '[^']+'(?:\.|\s*$)|Plugin is too old, please update to a more recent version|Gradle build daemon disappeared unexpectedly\b|File google-services\.json is missing\b|compileSdkVersion is not specified\b|There were failing tests\. See the report at: |More than one file was found with OS independent path '|\d+ files found with path ').*)$/;
/**
 * The Gradle client's own words when its daemon died under a build (DaemonClient's notice before the daemon log's
 * tail, then the DaemonDisappearedException the report names): printed outside a report, the failure all the same.
 */
export const DAEMON_DISAPPEARED =
  /^\s*(The message received from the daemon indicates that the daemon has disappeared\.|Gradle build daemon disappeared unexpectedly \(it may have been killed or may have crashed\))\s*$/;
/** Gradle's notice that a project's afterEvaluate listener failed too: the exception on the next line is what failed. */
export const AFTER_EVALUATE_NOTICE =
  /^Failed to notify ProjectEvaluationListener\.afterEvaluate\(\), but primary configuration failure takes precedence\.$/;
/** The wrapper's download of a distribution: `Downloading https://…/gradle-4.1-all.zip`, its dots and percentages. */
export const WRAPPER_DOWNLOAD = /^(?:Downloading https?:\/\/\S+|[.\d%]{3,}|Unzipping \S.* to \S.*)$/;
/** An exception's class before its message (a stack pasted without the report): the message may be a known failure. */
export const THROWN = /^\s*(?:(?:[a-z][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error): )+(\S.*)$/;
/**
 * An exception that carries a failure of its own as its message, all that names it when only the stack trace was
 * pasted: an unknown task (`TaskSelectionException: Task 'x' not found …`), lint's abort. The exceptions that only wrap
 * a failure (`Execution failed for task`, `A problem occurred configuring project`, `Could not resolve all files`)
 * name where it failed, not what: a stack of those alone reports nothing.
 */
export const GRADLE_FAILURE_EXCEPTION =
  /^\s*(?:Caused by: )?(?:(?:[a-z][\w$]*\.)+[A-Z][\w$]*Exception: )+(Task '[^']*' not found in (?:root )?project '[^']+'.*?|Lint found (?:fatal )?errors\b[^.]*\.?|Gradle build daemon disappeared unexpectedly \([^)]*\))\.?\s*$/;
/**
 * Gradle's failures to fetch what the build needs, as Studio's sync shows them alone: a plugin no repository has, a
 * repository refusing a file (its URL sometimes cut out by the reporter), the wrapper's distribution refused, a variant built for a newer JVM (the reason Gradle
 * gives under `No matching variant`, as a sentence of its own rather than a `- ` item of that list).
 */
export const FETCH_FAILURE =
  /^\s*(?:Caused by: [\w.$]+(?:Exception|Error): )?((?:Plugin \[id: '[^']+'[^\]]*\] was not found in any of the following sources:|Could not (?:GET|HEAD) (?:'[^']+'\. )?Received status code \d+ from server: |Server returned HTTP response code: \d+ for URL: \S|Incompatible because this component declares \S.* and the consumer needed \S).*)$/;
/** LocationAwareException's message: the location, then the failure's headline on the next line. */
export const LOCATION_AWARE_EXCEPTION =
  /^(?:Caused by: )?(?:(?:[a-z][\w$]*\.)+[A-Z][\w$]*Exception: )+((?:Build|Settings|Script|Init script) file '.+)$/;
/**
 * Gradle's deprecation summary at the end of a build (`Deprecated Gradle features were used in this build, making it
 * incompatible with Gradle 9.0.`, the `--warning-mode all` advice, the link to its documentation). Printed to stdout, it
 * lands inside the failure report (stderr) when a CI log merges the two: it is never part of the report.
 */
export const DEPRECATION_SUMMARY =
  /^(?:Deprecated Gradle features were used in this build, making it incompatible with Gradle [\d.]+\.|(?:You can use|Use) '--warning-mode all' to show the individual deprecation warnings\b.*|For more on this, please refer to https:\/\/docs\.gradle\.org\/\S+ in the Gradle documentation\.|See https:\/\/docs\.gradle\.org\/\S+#sec:command_line_warnings)$/;
