/*
 * Android lint's text report lines (`<path>:12: Error: message [IssueId]`) and its abort before the failure block.
 */

/** Lint's `<path>: Error: …` for a problem with no line (its own errors about a detector), the message running on. */
export const LINT_WITHOUT_LINE = /^(\S+\.(?:java|kt|kts|xml|gradle)): (Error|Warning): (\S.*)$/;
export const LINT = /^\s*(.+?):(?:(\d+):)? (Error|Warning|Information|Hint|Fatal): (.*\[[A-Za-z0-9_]+\])\s*$/;
/** Lint's `<path>:12: Error: …` before its closing `[IssueId]`. */
export const LINT_CUT_BEFORE_ID = /^\s*\S.*?:\d+: (?:Error|Warning): \S/;
export const LINT_IN_LINT_TASK = /^\s*(\S.*?\.\w+):(\d+): (Error|Warning|Information|Fatal): (\S.*)$/;
/** Lint's own line before the failure block it ends the build with (the advice follows it). */
export const LINT_ABORTED = /^\s*(Lint found (?:fatal )?errors\b[^.]*\.)\s*$/;
/** Lint's advice under `Lint found errors in the project; aborting build.`, its first line (a DSL snippet follows). */
export const LINT_ABORT_ADVICE =
  /^Fix the issues identified by lint, or add the following to your build script to proceed with errors:$/;
