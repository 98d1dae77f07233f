/*
 * AGP's manifest merger: its located records (`<path>:6:9-35 Error:` and the detail lines under them), its
 * messages recognisable without a location, Studio's Merged Manifest pane, and AGP's check on a manifest's `package=`.
 */

/**
 * Manifest merger: `<path>/AndroidManifest.xml:6:9-35 Error:` then tab-indented details. A library's manifest is
 * printed after the library's coordinates (`[com.example:lib:1.0] <path>:19:5-79 Warning:`), no part of its path;
 * Studio's `Warning: ` or `Error: ` before the whole line (`Warning: <path>:20:9 Warning:`) is no part of it either.
 * A record re-printed as one line puts a colon after its position and its message after the severity
 * (`<path>:28:9-34:35: Error: Invalid instruction …`).
 */
export const MANIFEST_LOCATED =
  /^\s*(?:(?:Error|Warning):\s*)?(?:\[[^\]\s]+\] )?(.+?\.xml)(?::(\d+)(?::(\d+)(?:-\d+(?::\d+)?)?:?)?)?\s+(Error|Warning):(?: (.*))?$/;
export const MANIFEST_FAILED = /^Manifest merger failed\b/;
/**
 * A record's header a console cut inside its position (`C:\…\AndroidManifest.xml:19:5-6`, a library's coordinates
 * before it or not): a path alone on the line. Then the row with the rest (`5 Error:`).
 */
export const MANIFEST_HEAD_CUT =
  /^\s*(?:\[[^\]\s]+\] )?(?:[A-Za-z]:[\\/]|[\\/.~]|[\w.-]+[\\/])[^:*?"<>|]*\.xml:\d+(?::\d*(?:-\d*(?::\d*)?)?)?$/;
export const MANIFEST_HEAD_REST = /^[\d:-]*\s+(?:Error|Warning):\s*$/;
/** A merger record's severity line when the record has no source position to print before it. */
export const BARE_RECORD_HEADER = /^\s*(Error|Warning):\s*$/;
/** The merger's `tools:replace`/`tools:remove` with nothing to act on (ManifestMerger2's `NO_MATCHING_NODE` style). */
export const MANIFEST_TAGGED_UNUSED =
  /^\S+ was tagged at \S+:\d+ to (?:replace|remove) .+ but no other declarations? present$/;
/**
 * The merger's detail lines, read as its message's rest even when a paste lost their tabs or rewrapped its sentences
 * (the element `… explicitly specified for element` names, `<activity#com.example.Main>.`, on a line of its own), and
 * the lines of an overlay manifest's `package` record (`has a different value=(…)`, its `flavorName {` suggestion).
 */
export const MANIFEST_DETAIL =
  /^(?:is also present at |Suggestion: |See https?:\/\/developer\.android\.com\/|\S*AndroidManifest\.xml as the library |Apps targeting Android \d+ and higher are required |`android:exported` when the corresponding component |<[\w-]+(?:#[^\s>]+)?>\.(?:\s|$)|has a different value=\(|does not match the module's namespace |flavorName \{|applicationId = ")/;
/**
 * The merger's own messages, recognisable without `Manifest merger failed :` or a location before them. Android Studio's
 * Merged Manifest pane lists them as `Merging Errors: Error: <message> <module> main manifest (this file), line 23`.
 * AGP 7.0's previews worded the missing `android:exported` as `Apps targeting Android 12 and higher are required …`
 * alone (later versions put `android:exported needs to be explicitly specified for <element>.` before it).
 * A record's key names its element the merger's way (`provider#androidx.core.content.FileProvider@authorities`), and
 * a reporter may have put the pane's `Error` in markdown bold (`**Error**: `). A conflict's first line alone may end
 * in a source without a position (`from AndroidManifest.xml`, older mergers) or in `from (unknown)`.
 * Its records that name the attribute's or element's place themselves (a placeholder with no value, an overlay
 * manifest's `package`, a key attribute missing, a `tools:` instruction it cannot follow) are recognised the same way.
 * A paste cut inside the `Manifest merger failed : ` before them (`fest merger failed : uses-sdk:…`) keeps its tail;
 * one cut inside the minSdk message's library path still has that message's own end (`…/AndroidManifest.xml as the
 * library might be using APIs not available in 16`).
 */
export const MANIFEST_MESSAGE =
  /^\s*(?:Merging Errors: )?(?:(?:\*\*)?Error(?:\*\*)?: )?(?:[A-Za-z]*(?: merger)? failed : )?((?:uses-sdk:minSdkVersion \d+ cannot be smaller than version \d+ declared in library|uses-sdk:(?:minSdk|targetSdk)Version \S+ cannot be different than version|Overlay manifest:package attribute declared at|Attribute [\w:.@#$-]+ at \S+ requires a placeholder substitution|Missing '[\w:]+' key attribute on element|Invalid instruction '[^']*', valid instructions are|tools:(?:replace|remove) specified at line:\d+ for attribute|Node \S+ cannot be present in more than one input file|Missing 'package' declaration in manifest at|Main AndroidManifest\.xml at \S+ manifest:package attribute is not declared|Attribute [\w:.@#$-]+ at \S+ has an illegal value=\(|android:exported needs to be explicitly specified for|Apps targeting Android \d+ and higher are required to specify an explicit value for|Attribute [\w:.@#$-]+ value=\(.*\) from .* is also present at|Attribute [\w:.@#$-]+ value=\(.*\) from (?:\(unknown(?=\)\s*$)|(?:\[[^\]]+\] )?\S*AndroidManifest\.xml(?::\d+:\d+(?:-\d+(?::\d+)?)?)?(?=\s*$))|Missing one of the key attributes '[^']*' on element|Element \S+ at \S+ duplicated with element declared at|\S*AndroidManifest\.xml as the library might be using APIs not available in \d+)\b.*)$/;
/** The pane's next record after a message that names its manifest: `… (this file), line 219 Error: Validation failed …`. */
export const MERGED_MANIFEST_PANE_NEXT =
  / manifest(?: \(this file\))?(?:, line \d+)? +(?=(?:\*\*)?(?:Error|Warning)(?:\*\*)?: )/;
export const MAX_PANE_RECORDS = 20;
/**
 * The manifest merger before AGP 1.0 (sdklib's, which Unity's Android player still ran): `Error: [<main>:12, <lib>:12]
 * Trying to merge incompatible …`, the main manifest's place first. Unity dumps a stream that was one line glued in its
 * `stdout[…]` brackets.
 */
export const LEGACY_MERGER_RECORD =
  /^\s*(std(?:out|err)\[)?(?:(Error|Warning): )?\[((?:[A-Za-z]:)?[^\]:,]*\.xml)(?::(\d+))?(?:, [^\]]+)?\] (\S.*)$/;
/**
 * The records that merger logged as errors (its ManifestMerger's `Severity.ERROR`), for a copy that lost the level's
 * word: the rest were warnings.
 */
export const LEGACY_MERGER_ERROR =
  /^(?:Main manifest has <uses-sdk android:minSdkVersion=|Trying to merge incompatible |Undefined '|Could not find element )/;
/**
 * The same merger's place alone on its line, the message on the next (`[<main>, <lib>:2]`, then `Main manifest has
 * <uses-sdk …> but library uses minSdkVersion='10'`), as a Gradle plugin before 1.0 logged it, with no level's word.
 */
export const LEGACY_MERGER_PLACE = /^\s*\[((?:[A-Za-z]:)?[^\]:,]*\.xml)(?::(\d+))?(?:, [^\]]+\.xml(?::\d+)?)?\]\s*$/;
/** The merger's note that it stopped after the errors it reported: not a problem of its own. */
export const MANIFEST_VALIDATION_STOPPED = /^Validation failed, exiting\b/;
/**
 * AGP 7.3+ on a source manifest's `package=` attribute: a warning (`… and the value is ignored.`, or `… is deprecated.`
 * before AGP 8), an error when it differs from the namespace (`Incorrect package="…" found …`). Its explanation and
 * recommendation follow on lines of their own. A reporter shortening it may leave the manifest's path out.
 */
export const PACKAGE_ATTRIBUTE =
  /^\s*((Incorrect )?package="[^"]*" found in source AndroidManifest\.xml(?:: (.+?AndroidManifest\.xml))?\.?)\s*$/;
/** The same line with its manifest's path on the next line (a rewrap after `: `) or cut by a console's width. */
export const PACKAGE_ATTRIBUTE_CUT =
  /^\s*((Incorrect )?package="[^"]*" found in source AndroidManifest\.xml:(?: \S.*?)?)\s*$/;
/** The manifest a package-attribute message names, once its lines are joined. */
export const PACKAGE_PATH = /found in source AndroidManifest\.xml: (.+?AndroidManifest\.xml)/;
/** AGP 8's check that no two modules or libraries share a namespace: a warning, its record headed by the library. */
export const NAMESPACE_NOT_UNIQUE = /^\s*(Namespace '[^']+' is used in multiple modules and\/or libraries: .*)$/;
/**
 * Its recommendation pasted alone still names the manifest. AGP prints the same line under the warning and the error;
 * reported on its own, it is the one that failed the build (a library's `Incorrect package="…"`).
 */
export const PACKAGE_RECOMMENDATION =
  /^\s*(Recommendation: remove package="[^"]*" from the source AndroidManifest\.xml: (.+?AndroidManifest\.xml)\.?)\s*$/;
export const PACKAGE_ATTRIBUTE_REST =
  /^\s*(?:Setting the namespace via |Recommendation: remove package=|Please instead set the namespace |This migration can be done automatically )/;
