/*
 * Test failures as Gradle's test logging, AGP's connected tests and a build's own test logger print them, and the
 * stack frames read to locate a failure in the project's own code.
 */

/** The first line of a Java exception as `printStackTrace` writes it: `java.lang.IllegalStateException: msg`. */
export const JAVA_EXCEPTION_LINE = /^(?:[a-z][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)(?:: .*)?$/;
/**
 * Gradle's advice under a worker's failure (a test executor's exit value): a possible cause in general terms and where
 * its user manual explains it, the same words for every build (`user guide` before Gradle 5).
 */
export const GRADLE_MANUAL_POINTER =
  /^(?:This problem might be caused by incorrect test process configuration\.|Please refer to the [\w ]+ in the (?:User Manual|user guide) at https:\/\/docs\.gradle\.org\/\S+)$/;
/** `com.x.FooTest > bar FAILED`; nested classes stay in the method part (`Outer > Inner > test()`). */
// A CI that masks secrets prints `***` for a package segment equal to one (`***.github.app.FooTest > bar FAILED`);
// Kotlin Multiplatform names the target after the class (`FooTest[jvm] > bar[jvm] FAILED`). Gradle prints display
// names, and a runner may name a class with words (`no tests found > [emulator(AVD) - 4.3.1] FAILED`).
export const TEST_FAILED = /^((?:[A-Za-z_$]|\*{3})[^>]*?(?:\[[^\]]+\])?) > (.+) FAILED\s*$/;
/** The run's and the worker's levels of an event path (`Gradle Test Run :core:test > Gradle Test Executor 76 > `). */
export const TEST_RUN_LEVELS = /^(?:Gradle Test Run (:\S+) > )?(?:Gradle Test Executor \d+ > )?/;
/**
 * A test whose parent is not its class (TestNG's methods, Kotlin/Native's tests): Gradle joins class and name with a
 * dot, `HelloWorldTest.should be able to do arithmetic FAILED`. The class is the path up to its capitalised segment.
 */
export const TEST_FAILED_DOTTED = /^((?:[a-z_$][\w$]*\.)*[A-Z][\w$]*)\.([^\s.>][^>]*?) FAILED\s*$/;
/**
 * TestNG's default suite and test names (`Gradle suite`, `Gradle test`, what Gradle gives a run without a testng.xml)
 * can lead a dotted test's event path: `Gradle test com.x.FooTest.bar FAILED`.
 */
export const TESTNG_DEFAULT_LEVELS = /^(?:Gradle suite(?: > | ))?Gradle test(?: > | )(?=[a-zA-Z_$][\w$]*\.)/;
/**
 * A test event whose details are what the test printed (`Class > test STANDARD_OUT`, also an executor's own,
 * `Gradle Test Executor 2 STANDARD_ERROR`): the indented lines under it are the program's output, not a report.
 */
export const TEST_OUTPUT_EVENT = /^(?:> )?\S.*? (?:STANDARD_OUT|STANDARD_ERROR)\s*$/;
/**
 * Gradle's short format names a frame of the test class (Gradle's own filter) when one is on the stack; Kotlin lets a
 * class live in a file named otherwise, but a file named like a test source is still the project's test code (the
 * names test runners look for by default: `*Test`, `*Tests`, `*TestCase`, `*Spec`, `*IT` and `Test*`).
 */
export const TEST_SOURCE_FILE = /(?:^Test[A-Z]\w*|(?:Tests?|Spec|IT|TestCase))\.(?:kt|java|groovy|scala)$/;
/** JUnit's text listener (`am instrument` without `-r`, JUnitCore): `There was 1 failure:`, then `1) name(Class)`. */
export const TEXT_LISTENER_FAILURES = /^There (?:was \d+ failure|were \d+ failures):\s*$/;
export const TEXT_LISTENER_FAILURE = /^\d+\) (?:(\S+)\(([\w$.]+)\)|(\S.*?))\s*$/;
/**
 * The JUnit Platform console launcher's summary (the `junitPlatformTest` plugin): `Failures (1):`, then per test
 * `  <engine>:<class>:<name>`, its `    MethodSource [...]`, `    => <exception>` and frames without `at `.
 */
export const PLATFORM_FAILURES = /^Failures \(\d+\):\s*$/;
export const PLATFORM_FAILURE = /^ {2}[^\s:][^:]*:(\S.*?)\s*$/;
/** Four spaces, or the tab an editor made of them. */
export const PLATFORM_SOURCE = /^(?: {4}|\t)\w+Source \[/;
export const PLATFORM_FRAME = /^\s+([\w$.]+\.[\w$<>]+\([^()]*\))\s*$/;
/** A JUnit XML report pasted as text: `<testcase name=… classname=…>` and its `<failure …>`/`<error …>` element. */
export const XML_TEST_CASE = /^<testcase\s(?=[^>]*\bname="([^"]*)")(?=[^>]*\bclassname="([^"]*)")[^>]*?(\/?)>/;
export const XML_TEST_FAILURE =
  /^<(?:failure|error)\b(?=(?:[^>]*?\bmessage="([^"]*)")?)(?=(?:[^>]*?\btype="([^"]*)")?)[^>]*?(\/?)>(.*)$/;
/**
 * Android Studio's test console: after `Started running tests`, a test's failure is printed from column 0, until the
 * run's end (or a Gradle build's output, when Studio ran the tests through Gradle).
 */
export const STUDIO_TESTS_STARTED = 'Started running tests';
export const STUDIO_TESTS_ENDED =
  /^(?:Tests ran to completion\.|Test running failed: |Empty test suite\.|Testing started at |> Task |FAILURE: |BUILD )/;
/** Gradle logs a worker JVM that failed (a test executor) with this line over its `ExecException`. */
export const WORKER_PROCESS_EXIT = /^Process '[^']+' finished with non-zero exit value -?\d+$/;
/**
 * A failed test's line and the exception line Gradle's short format prints under it (`    java.lang.X at FooTest.kt:66`)
 * joined with a space: the two lines.
 */
export const TEST_FAILED_CAUSE_JOINED =
  /^(.*? > .+? FAILED) +((?:[a-z_$][\w$]*\.)+[A-Z][\w$]* at [\w$-]+\.(?:kt|java|groovy|scala):\d+)\s*$/;
/** The test's name alone, its ` FAILED` wrapped onto the next line by the terminal. */
export const TEST_NAME_ONLY = /^((?:[A-Za-z_$]|\*{3})[\w$.*]*) > (.+?)\s*$/;
/** A build's own test logger (an `afterTest` hook) prints `SUITE: <class>`, `  TEST: <name>`, the result, then the stack. */
export const LOGGED_SUITE = /^SUITE: ([\w$.]+)\s*$/;
export const LOGGED_TEST = /^TEST: (\S.*?)\s*$/;
/** The first line `printStackTrace()` prints: the exception's class, then its message. */
export const PRINTED_EXCEPTION = /^[a-z][\w$]*(?:\.[\w$]+)+(?::\s|\s*$)/;
/** AGP's stand-in test for a run with no device, its class empty: ` > : No compatible devices connected.[TestRunner] FAILED`. */
export const CLASSLESS_TEST_FAILED = /^> : (\S.*\]) FAILED\s*$/;
/** A connected-test run that did not complete, per device (`There was N failure(s).` only counts the failures listed). */
export const DEVICE_RUN_FAILED = /^Tests on .+? failed: (?!There (?:was|were) \d+ failures?)\S.*$/;
/**
 * The runner's reason a run stopped early: wrapped by AGP before UTP, on its own line since (`Test run failed to complete. …`),
 * and as Android Studio's test console prints a run that failed (`Test running failed: ` and ddmlib's reason).
 */
// ddmlib's listener hands the same reason to ADT's console and Robotium's runner as `Test run failed: `; a tool that
// relays it may set its own severity word before it (`Error : Test failed to run to completion. …`).
export const INSTRUMENTATION_RUN_FAILED =
  /^(?:Error ?: )?((?:Test failed to run to completion\. Reason: |Test run failed to complete\. |Test run(?:ning)? failed: )\S.*)$/;
/**
 * `gcloud firebase test android run` (Firebase Test Lab): the outcome table it prints when the matrix is done, a row
 * per device (`| Failed  | flame-29-en-portrait | Test failed to run |`); Gradle's table cleanup has taken its last `|`.
 * `Inconclusive` is a run the infrastructure could not finish, also no result to trust.
 */
export const FTL_OUTCOME_HEADER = /^\|\s*OUTCOME\s*\|\s*TEST_AXIS_VALUE\s*\|\s*TEST_DETAILS\b/;
export const FTL_OUTCOME_ROW = /^\|\s*(Failed|Inconclusive|Passed|Flaky|Skipped)\s*\|\s*(\S+)\s*\|\s*(.*?)[\s|]*$/;
/** gcloud's error line for a Test Lab command; its message is on the same line or, for a matrix's end, on the next. */
export const GCLOUD_TEST_ERROR = /^ERROR: \(gcloud(?:\.\w+)*\.firebase\.test\.[\w.]+\)\s*(.*)$/;
/**
 * `adb shell am instrument -r` prints the run's result bundle; when the instrumentation itself failed it holds the
 * failure as `shortMsg=` and, when there is more to say, `longMsg=` on the next line.
 */
export const INSTRUMENTATION_RESULT_MESSAGE = /^INSTRUMENTATION_RESULT: (short|long)Msg=(\S.*)$/;
/** `am instrument -r`'s status bundle lines and the code that closes each bundle (1 start, 0 pass, -2 failure, …). */
export const AM_STATUS_PREFIX = 'INSTRUMENTATION_STATUS: ';
export const AM_STATUS_CODE = /^INSTRUMENTATION_STATUS_CODE: (-?\d+)\s*$/;
/** `am instrument` when the system would not start the instrumentation at all (no such runner or target package). */
export const INSTRUMENTATION_START_ERROR = /^INSTRUMENTATION_STATUS: Error=(\S.*)$/;
/**
 * Gradle's short exception format: the exception (newer Gradle versions add its message's first line), then ` at ` and
 * the first frame's file and line. The line is `StackTraceElement`'s: -2 for a native method, -1 when unknown.
 */
export const TEST_SHORT_FRAME = /^(.*?)\s+at (\S+?\.(?:kt|java|groovy|scala)):(-?\d+)\s*$/;
/** Frames of test frameworks and the platform, skipped when looking for the project's frame. */
export const FRAMEWORK_FRAME =
  /^(?:org\.junit\.|junit\.|java\.|javax\.|jdk\.|sun\.|com\.sun\.|kotlin\.|kotlinx\.coroutines\.|org\.gradle\.|com\.android\.|android\.|androidx\.test\.|dalvik\.|org\.robolectric\.|org\.mockito\.|io\.mockk\.|org\.hamcrest\.|org\.assertj\.|com\.google\.common\.truth\.|org\.opentest4j\.)/;
/**
 * `at com.x.FooTest.bar(FooTest.kt:26)`, also with a module prefix (`app//…`, `java.base/…`) and spaced names: a Kotlin
 * function named in backticks names its lambdas' classes after it (`FooTest$given a user, when …$1.invokeSuspend(…)`);
 * such a name has no dot (Kotlin forbids one on the JVM), which keeps the match linear.
 */
export const STACK_FRAME = /^\s*at (?:[\w.-]+(?:@[\w.-]+)?\/\/?)*([\w$.*]+?(?:\$[^.(]*)?)\.([^.(]+)\(([^:()]+):(\d+)\)/;
/** A connected test's `FAILED` line with more after it: AGP ends the line there, so the text after is lines reflowed onto it. */
export const SQUASHED_TEST_RUN = /\] FAILED \S/;
export const SQUASHED_TEST_RUN_BREAK = /(?<=\] FAILED) | (?=Tests on \S.{0,200}? failed: |> Task :)/;
/** Gradle's own lines, which end a run of `am instrument` status bundles pasted into a build's log. */
export const AM_STATUS_AFTER = /^(?:> Task |FAILURE: |BUILD (?:FAILED|SUCCESSFUL)|\* What went wrong:|:[\w-]+:\w)/;
/**
 * androidx.test's runner logs each test's result to logcat under the tag `TestRunner` (`failed: name(Class)`, then the
 * trace between `----- begin exception -----` and `----- end exception -----`); a logcat copy puts its own columns
 * before each line: `threadtime`'s date, pids and level (`08-17 11:29:55.960 18338 18359 E TestRunner: `), or
 * `brief`'s `E/TestRunner( 1234): `.
 */
export const LOGCAT_TEST_RUNNER =
  /^(?:\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\s+)?(?:\d+\s+\d+\s+[VDIWEF]\s+TestRunner\s*: |[VDIWEF]\/TestRunner\(\s*\d+\): )(.*)$/;
export const LOGCAT_TEST_FAILED = /^failed: ([^\s()]+)\(([\w$.]+)\)\s*$/;
export const LOGCAT_EXCEPTION_BEGIN = '----- begin exception -----';
/**
 * The name JUnit 4 (and Gradle, for a class whose setup failed) gives a failure of the whole class, alone on its line as
 * Android Studio's test tree shows it, the exception under it.
 */
export const CLASS_LEVEL_TEST_NAME = /^(?:initializationError|classMethod)$/;
/** AGP's connected-test runner when `am instrument` ended without a result (its code and result bundle follow). */
export const INSTRUMENTATION_DID_NOT_COMPLETE = 'Instrumentation did not complete:';
