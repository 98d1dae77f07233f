/*
 * Gradle's task headers (`> Task :app:compileDebugKotlin FAILED`, and the pre-Gradle-5 form): they set the task that
 * the diagnostics after them belong to.
 */

/**
 * Gradle prints the path with its leading `:`; a reporter trimming it (`> Task kspKotlin FAILED`) still names a task,
 * and a reporter's markdown bold around the task and its outcome (`> Task **:app:x FAILED**`) is no part of the line.
 * A CI that masks secrets prints asterisks for a part of the name equal to one (`> Task :app:minify******ReleaseWithR8`):
 * a run of three or more inside the path is the mask, not markdown.
 */
export const TASK_LINE =
  /^> Task (?:\*\*)?(:(?:[^\s*]|\*{3,}(?=[^\s*]))*|[A-Za-z][\w-]*(?::[\w-]+)*)(?: (?:FAILED|UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE))?(?:\*\*)?\s*$/;
export const EXECUTING_TASK = /^Executing task '(:[^'\s]+)'/;
/** Gradle before 5 printed tasks as `:app:compileDebugJavaWithJavac UP-TO-DATE`. */
export const OLD_TASK_LINE =
  /^(:[\w.-]+(?::[\w.-]+)*)(?: (?:UP-TO-DATE|FAILED|SKIPPED|NO-SOURCE|FROM-CACHE|\(Thread\[.*|- .*))?\s*$/;
export const CONFIGURE_LINE = /^> Configure project /;
/** Studio's task line with a compiler's first line glued to it: `> Task :app:kspDebugKotline: [ksp] …`. */
export const TASK_GLUED_MESSAGE = /^> Task (:[^\s:]+(?::[^\s:]+)*?)([ewi]: \S.*)$/;
/**
 * An old-style task name with the task's first output line, an absolute path (also a Windows drive's,
 * `:compileDebugJavaC:\p\A.java:134: error: …`) and a line number, glued to it (the manifest merger's position is
 * `line:column` or a `line:column-line:column` range).
 */
export const GLUED_TASK =
  /^(:[A-Za-z][\w-]*(?::[A-Za-z][\w-]*)*)((?:\/[^\s:]|[A-Za-z]:\\)[^:]*:\d+(?::\d+(?:-\d+(?::\d+)?)?)?:? .*)$/;
/**
 * TeamCity's Gradle runner names the task a line was printed under in brackets before it (`[:compileJava] /p/A.java:23:
 * error: …`), in place of Gradle's task header.
 */
export const TEAMCITY_TASK_PREFIX = /^\[(:[A-Za-z][\w-]*(?::[A-Za-z][\w-]*)*)\] (?=\S)/;
