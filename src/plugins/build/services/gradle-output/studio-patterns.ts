/*
 * Android Studio's Messages view and sync notifications (`Error:(12, 5) …`, `Failed to resolve: …`) as people paste them.
 */

import { AAPT_MESSAGE } from './aapt-patterns.js';
import type { DiagnosticSource } from './build-diagnostic.js';
import { IMPLICIT_BLOCK } from './failure-block-patterns.js';
import { DATA_BINDING_MESSAGE, JAVAC_LEVEL, ROOM_MESSAGE } from './javac-patterns.js';
import { MANIFEST_MESSAGE } from './manifest-patterns.js';

/**
 * Studio's Messages view puts the build file's line in front of a failure headline: `Error:(45, 1) Execution failed …`,
 * also where a paste's selection cut into its `Error` (`or:(44, 13) Execution failed …`).
 */
export const STUDIO_LOCATED_HEADLINE =
  /^\s*(?:E?r?r?o?r)?:\((\d+)(?:, ?\d+)?\)\s*(?=Execution failed for task|A problem occurred (?:configuring|evaluating) )/;
/** Studio's sync message for a dependency no repository had (`ERROR: Failed to resolve: g:a:v`, bare when copied). */
export const STUDIO_UNRESOLVED = /^\s*(Failed to resolve: \S+:\S+)\s*$/;
/**
 * Gradle's own build-script failures (a DSL method or property the script's Groovy did not find, a plugin id nobody
 * provides), which Studio 3's sync printed behind the same `ERROR: ` as AGP's messages: they are Gradle's, not AGP's.
 */
export const BUILD_SCRIPT_FAILURE =
  /^(?:Gradle DSL method not found: |Could not find method \S+ for arguments |Could not (?:get|set) unknown property '|No such property: \S+ for class: |Plugin with id '[^']+' not found\.)/;
/** Studio's notification when a sync fails: the rest of the line is the failure. */
export const STUDIO_SYNC_FAILED = /^\s*Gradle (?:project )?sync failed: (\S.*)$/;
/** A Studio location with its message lost (copied apart from it): `Error:(39,13)`. */
export const STUDIO_LOCATION_ONLY = /^\s*Error:\((\d+)(?:, ?(\d+))?\)\s*$/;
/**
 * Android Studio's Messages view: `Error:(12, 0) msg`, `Error:(34, 24) Kotlin: msg`, `Error:(8) msg`, `Error:msg`; javac's
 * level word stays in front of its message in the JDK's locales (`Error:(8, 38) 错误: 找不到符号`), and IntelliJ's own build
 * names the compiler instead (`Error:(40, 25) java: cannot find symbol`).
 */
export const STUDIO_LOCATED = new RegExp(
  `^(Error|Warning):\\((\\d+)(?:, ?(\\d+))?\\) ?(?:(Kotlin|Java|java|Gradle|${JAVAC_LEVEL.slice(1, -1)}): )?(.+)$`,
);
/** The word Studio keeps in front of a javac message: javac's level in any of the JDK's locales, or the compiler's name. */
const STUDIO_JAVAC_TOOL = new RegExp(`^(?:Java|java|Warning|${JAVAC_LEVEL.slice(1, -1)})$`);
export const STUDIO_UNLOCATED =
  /^(Error|Warning):(?:Gradle: )?(?!\s*(?:\(|Execution failed|A problem occurred|FAILURE: |BUILD (?:FAILED|SUCCESSFUL)))(\S.*)$/;
export const STUDIO_OPEN_FILE = /^<a href="openFile:([^"]+)">/;
/**
 * Studio's Messages view groups located messages under a line that is only the file's path (absolute, rootless as
 * Windows' `\\proj\\app\\…` is, or relative where a reporter cut the project's part).
 */
export const STUDIO_FILE_LINE = /^(?:[A-Za-z]:[\\/]|[\\/]|[\w.-]+[\\/])[^:*?"<>|]*\.[A-Za-z]{1,6}$/;
/**
 * A markdown list's bullet a reporter's editor put before such a row (`* `, `- `), escaped or set in bold by an importer
 * (`**\\*   app/src/…/MainActivity.java`).
 */
const LIST_BULLET_BEFORE_ROW = /^(?:\*\*)?\\?[*+-] +(?=\S)/;

/** The file a Studio group's row names, behind a reporter's `> ` quote or list bullet too; null for any other line. */
export function studioFileRow(line: string): string | null {
  let row = line.startsWith('> ') ? line.slice(2) : line;
  const c = row.charCodeAt(0);
  if (c === 42 || c === 43 || c === 45 || c === 92) row = row.replace(LIST_BULLET_BEFORE_ROW, '');
  return STUDIO_FILE_LINE.test(row) ? row : null;
}
/** A source file's node in Studio's Build window tree: its path under the source root, no drive, no position. */
export const STUDIO_TREE_SOURCE = /^[\w.-]+(?:\/[\w.-]+)*\.(?:kt|kts|java)$/;
/** javac's level word in front of a message Studio's build view lists under its file (a copy of its table keeps it). */
export const STUDIO_TREE_LEVEL = /^(error|warning): (\S.*)$/;
/**
 * An annotation processor's message names the annotation it checks first (`@AutoValue classes cannot have …`): Studio
 * lists the processor's warnings as `Warning:<message>`, with no file when the element is a class.
 */
export const ANNOTATION_PROCESSOR_MESSAGE = /^@[A-Z]\w*(?:\.[A-Z]\w*)* \S/;
/** javac's notes in that tree (it shows them under the file too). */
export const STUDIO_TREE_JAVAC_NOTE =
  /^(?:uses (?:unchecked or unsafe operations|or overrides a deprecated API)|Recompile with -Xlint)/;
/** Kotlin's warnings in that tree, which shows no level: the compiler's warning wordings. */
export const STUDIO_TREE_KOTLIN_WARNING =
  /\b(?:is deprecated|is never used|[Uu]nchecked cast|[Uu]nnecessary|[Rr]edundant|No cast needed|is always (?:true|false|null)|[Nn]ame shadowed|will never be)\b/;
/** An exception's class and message, which Studio also shows as `Error:java.util…Exception: …`: a trace, not a problem. */
export const STUDIO_EXCEPTION = /^[\w$]+(?:\.[\w$]+)+(?:Exception|Error)\b/;

/** A reporter's words before Studio's `Error:` headline on its line (`i have this problem Error:Execution failed …`). */
export function withoutWordsBeforeHeadline(line: string): string {
  const at = line.indexOf(' Error:') + 1;
  const rest = line.slice(at);
  return !line.slice(0, at).includes(':') && IMPLICIT_BLOCK.test(rest) ? rest : line;
}

/** The tool behind a Studio `Error:(l, c)` message: named by Studio, else told by the file or by the message. */
export function studioSource(tool: string, file: string | null, message: string): DiagnosticSource {
  if (tool === 'Kotlin' || (file !== null && /\.kts?$/.test(file))) return 'kotlin';
  // Annotation processors' messages, on a layout file too: the data binding compiler and Room run in javac's task.
  if (DATA_BINDING_MESSAGE.test(message) || ROOM_MESSAGE.test(message)) return 'javac';
  // The manifest merger's records, which Studio positions in the manifest without naming it (`Error:(21, 13) Attribute
  // …@authorities at debug:21:13 requires a placeholder substitution …`).
  if (MANIFEST_MESSAGE.test(message)) return 'manifest';
  if ((file !== null && /\.xml$/.test(file)) || AAPT_MESSAGE.test(message)) return 'aapt2';
  if (STUDIO_JAVAC_TOOL.test(tool) || (file !== null && /\.java$/.test(file))) return 'javac';
  return 'gradle';
}
/**
 * Studio's own level word from a Chinese language pack, glued to its message as the English one is (`错误:(201, 80) …`,
 * `错误:Execution failed …`); javac's localized level has a space after its colon and is left alone.
 */
export const STUDIO_LOCALIZED_LEVEL = /^(错误|警告):(?=\S)/;
