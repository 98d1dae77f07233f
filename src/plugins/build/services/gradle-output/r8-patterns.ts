/*
 * D8 and R8: dexing and desugaring errors, the dex size limit, missing classes and their report's parts.
 */

/** D8's size limit names the counts on the next line. */
export const D8_COUNTS = /^# (?:methods|fields|types): /;
/** The file a D8/R8 message is about (a dex, a jar, a class; no position), then the tool's tag. */
export const D8_ORIGIN = /^((?:[A-Za-z]:[\\/]|\/|file:)[^:]*?): [RD]8: (\S.*)$/;
/** D8/R8's own exception named as a cause: its message is the dexing problem (the generic ones say nothing). */
export const D8_CAUSE = /^\s*(?:Caused by: )?com\.android\.tools\.r8\.[\w.$]+: (?!Compilation failed to complete)(.+)$/;
export const R8_MISSING = /^\s*Missing class:? (\S+)(?: \(referenced from: .*\))?\s*$/;
/** R8's summary of its missing classes, recognisable by its wording when its `ERROR:` / `WARNING:` was not pasted. */
export const R8_MISSING_SUMMARY = /^\s*(Missing classes detected while running R8\.(?: \S.*)?)$/;
/** The parts of R8's missing-class report a terminal or an editor put on lines of their own. */
export const R8_MISSING_CONTINUATION =
  /^\s*(?:Please add the missing classes |\S*missing_rules\.txt\.?\s*$|\(referenced from: |and \d+ other contexts?\))/;
/** D8's dex size limit, bare or behind `D8: ` (its counts follow on the next line in the older form). */
export const D8_DEX_LIMIT =
  /^\s*(?:D8: |Error: )?(Cannot fit requested classes in (?:a single dex file|the main-dex file).*)$/;
/** D8/R8's desugaring limits, printed bare, after `Error: `, or as an exception's message. */
export const D8_MESSAGE =
  /^\s*(?:Error: |ERROR: |D8: |com\.android\.tools\.r8\.[\w.$]+: )?((?:Invoke-customs|Default interface methods|Static interface methods|Private interface methods|MethodHandle\.invoke and MethodHandle\.invokeExact|Invoke-polymorphic|Constant-dynamic) (?:are|is) only supported starting with Android \S+ \(--min-api \d+\).*)$/;
