/*
 * The Android Gradle plugin's own messages: its `ERROR:` / `WARNING:` lines and the lines that continue them, its
 * configuration problems (EvalIssueException), and the advice it prints under some of them.
 */

/**
 * How AGP's multi-line notices (DeprecationReporter, SyncIssue, the ignored-dependency warning's jarjar advice) go on
 * after their first line.
 */
export const AGP_CONTINUATION =
  /^(?:It will be removed|The current default is |It has been replaced|For more information|To determine what is calling|Affected Modules:|More information: |Recommendation: |Suggestion: |To suppress this warning|\s*In case of problem, please repackage it with jarjar)/;
export const AGP_ERROR =
  /^\s*(ERROR|WARNING|INFO)::?\s*(?:(\/\S+?|[A-Za-z]:[\\/]\S+?|file:\/\/\S+?):(\d+)(?::(\d+))?: )?(.*)$/;
/** The lines AGP's JDK check prints under its message, also when a paste lost their one-space indentation. */
export const AGP_JDK_ADVICE =
  /^(?:Your current JDK is located in |You can try some of the following options:|\s*- changing )/;
/** AGP's advice on migrating `package=`, printed after a blank line under `Namespace not specified`. */
export const NAMESPACE_ADVICE =
  /^\s*If (?:you've specified the package attribute|the package attribute is specified) in the source AndroidManifest\.xml/;
export const BUILD_FILE_NAMED = "Specify a namespace in the module's build file: ";
export const NAMESPACE_BUILD_FILE = /Specify a namespace in the module's build file: (.+?\.gradle(?:\.kts)?)\. /;
/** AGP reports every configuration problem it finds as an EvalIssueException: its message is the problem. */
export const EVAL_ISSUE = /^\s*(?:Caused by: )?com\.android\.builder\.errors\.EvalIssueException: (\S.*)$/;
/**
 * Warnings AGP prints as plain lines (no `WARNING:`), recognisable by their wording: the JDK's source/target notice, and
 * AGP 3's DSL deprecations logged with `logger.warn` (`publishNonDefault is deprecated …`, the old dependency
 * configurations' `Configuration 'compile' in project ':app' is deprecated. Use 'implementation' instead.`).
 */
export const AGP_PLAIN_WARNING =
  /^\s*(Java compiler version \d+ has deprecated support for compiling with source\/target version \d+\.?|publishNonDefault is deprecated and has no effect anymore\..*|Configuration '[\w-]+' in project '[^']+' is deprecated\. Use '[\w-]+' instead\.)\s*$/;
/**
 * AGP's resource merger as a failure's cause: `<file>[:line[:col]]: Error: <message>` (no position when it has none,
 * `The file name must end with .xml or .png` on a file in a resource directory).
 */
export const MERGER_LOCATED_CAUSE = /^(\/\S+?|[A-Za-z]:\\[^:]+?)(?::(\d+)(?::(\d+))?)?: (?:Error|error|ERROR): (.*)$/;
/**
 * The merger's checks of a resource file's name (FileResourceNameValidator), which Studio's Messages view also shows
 * as `Error: <message>` apart from the file, or under the file's line.
 */
export const MERGER_FILE_NAME_CHECK =
  /^(?:The file name must end with \.xml\b.*|\S+ is not a valid file-based resource name character: .+|The resource name must start with a letter|Resource must have a name)$/;
/**
 * The package manager refusing an APK (`pm install`'s `Failure [INSTALL_FAILED_…]`, also behind adb's `adb: failed to
 * install <apk>: `), as AGP's install task, Ant's `[exec]` or a script relays it.
 */
export const PM_INSTALL_FAILURE = /^\s*(?:adb: failed to install \S.*?: )?(Failure \[INSTALL_[A-Z_]+\b[^\]]*\])\s*$/;
