/*
 * D8 and R8: dexing and desugaring errors, the dex size limit, missing classes and their report's parts.
 */

/** D8's size limit names the counts on the next line. */
export const D8_COUNTS = /^# (?:methods|fields|types): /;
/**
 * The file a D8/R8 message is about (a dex, a jar, a class; no position), then the tool's tag. The path may be absolute
 * (Unix, drive, URL), under the home directory, or drive-less on Windows.
 */
export const D8_ORIGIN = /^((?:[A-Za-z]:[\\/]|[\\/]|~[\\/]|file:)[^:]*?): [RD]8: (\S.*)$/;
/** The same with the rule file's position R8 names in a keep-rule error (`<proguard.txt>:10:1-15: R8: …`). */
export const D8_ORIGIN_POSITIONED =
  /^\s*((?:[A-Za-z]:[\\/]|[\\/]|~[\\/]|file:)[^:]*?):(\d+):(\d+)(?:-\d+(?::\d+)?)?: [RD]8: (\S.*)$/;
/**
 * R8's own console form (its default diagnostics handler): `Warning in <origin>:` / `Error in <origin>:` alone on a
 * line, the message on the next line (indented by two spaces in R8 1.x). Later versions name the position there too,
 * `Error in <origin> at line 4, column 17:` (a range by its start; another kind of position by its description).
 */
export const R8_ORIGIN_HEADER =
  /^\s*(Error|Warning) in ((?:[A-Za-z]:[\\/]|[\\/]|~[\\/]|file:)\S.*?)(?: at (?:line (\d+)(?:, column (\d+))?|[^:]+))?:\s*$/;
/** An origin inside an archive (`<jar>:<entry>.class`): the archive is the file on disk. */
export const ARCHIVE_ENTRY_ORIGIN = /^(.*?\.(?:jar|zip|aar|apk)):[^\\:]+$/;
/** A keep-rule error's message ends with the position in the rule file (`… at <path>:4:17`). */
export const R8_MESSAGE_POSITION = / at \S.*?:(\d+):(\d+)\s*$/;
/**
 * What D8 and R8 report as warnings whatever the line they come on says: a type missing for desugaring (its `-CC`
 * companion, its super-interface), class files without the stack map their control flow needs, and a keep-rule option
 * R8 skips (`Ignoring option: -dump`; newer R8 makes some of these an info, never an error).
 */
export const D8_WARNING_WORDING =
  /was not found, it is required for default or static interface methods desugaring|^Expected stack map table for method with non-linear control flow|^Ignoring option: -/;
/**
 * R8's warning on a method whose bytecode fails verification, its wording fixed by R8; a build view's copy drops the
 * `WARNING: R8: ` before it.
 */
export const R8_UNREACHABLE_METHOD =
  /^\s*(The method `[^`]+` does not type check and will be assumed to be unreachable\.)\s*$/;
/** R8's command-line summary when it stops on missing library classes (its `Warning: Missing class:` lines above it). */
export const R8_LIBRARY_CLASSES_MISSING =
  /^\s*(?:Error: )?(Compilation can't be completed because some library classes are missing\.)\s*$/;
/** D8/R8's own exception named as a cause: its message is the dexing problem (the generic ones say nothing). */
export const D8_CAUSE = /^\s*(?:Caused by: )?com\.android\.tools\.r8\.[\w.$]+: (?!Compilation failed to complete)(.+)$/;
/** A missing class, as R8 lists it under its summary or on its own command-line `Warning: ` / `Error: ` line. */
export const R8_MISSING = /^\s*(?:(Warning|Error): )?(Missing class:? \S+(?: \(referenced from: .*\))?)\s*$/;
/** R8's summary of its missing classes, recognisable by its wording when its `ERROR:` / `WARNING:` was not pasted (nor its advice). */
export const R8_MISSING_SUMMARY = /^\s*(Missing classes detected while running R8(?:\.(?: \S.*)?)?)\s*$/;
/** The parts of R8's missing-class report a terminal or an editor put on lines of their own. */
export const R8_MISSING_CONTINUATION =
  /^\s*(?:Please add the missing classes |\S*missing_rules\.txt\.?\s*$|\(referenced from: |and \d+ other contexts?\))/;
/** D8's dex size limit, bare or behind `D8: ` (its counts follow on the next line in the older form). */
export const D8_DEX_LIMIT =
  /^\s*(?:D8: |Error: )?(Cannot fit requested classes in (?:a single dex file|the main-dex file).*)$/;
/** D8/R8's desugaring limits, printed bare, after `Error: `, or as an exception's message. */
export const D8_MESSAGE =
  /^\s*(?:Error: |ERROR: |D8: |com\.android\.tools\.r8\.[\w.$]+: )?((?:Invoke-customs|Default interface methods|Static interface methods|Private interface methods|MethodHandle\.invoke and MethodHandle\.invokeExact|Invoke-polymorphic|Constant-dynamic) (?:are|is) only supported starting with Android \S+ \(--min-api \d+\).*)$/;
/**
 * D8's duplicate-class error in its own wording, without its `D8: ` tag: the line under AGP's `Error while merging dex
 * archives:` (the merger exception's message goes on with it), or pasted alone.
 */
export const D8_PROGRAM_TYPE_PRESENT = /^\s*(Program type already present: [\w$.]+)\s*$/;
/** The tasks that run D8 or R8 (dexing, merging dex, desugaring, shrinking), by the last part of their path. */
export const DEX_TASK = /:[^:]*(?:[Dd]ex|R8|[Mm]inify|[Dd]esugar|[Pp]roguard)[^:]*$/;
/**
 * dx, D8's predecessor, when it crashed: `UNEXPECTED TOP-LEVEL ERROR:` (an `Error`, such as running out of memory) or
 * `UNEXPECTED TOP-LEVEL EXCEPTION:` alone on a line, then the throwable's stack trace. Studio's `Error:` may lead both.
 */
export const DX_CRASH_BANNER = /^(?:Error:\s*)?UNEXPECTED TOP-LEVEL (?:ERROR|EXCEPTION):\s*$/;
/** The first line of that stack trace: the throwable, which says what failed. */
export const DX_CRASH_THROWABLE = /^(?:Error:\s*)?((?:[a-z_][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)\b.*)$/;
