import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, relative, isAbsolute, sep } from 'node:path';
import { applicationModules, firstExisting, loadGradleProject } from '../../android/gradle-project-model.js';
import { ToolError } from '../../kernel/errors.js';
import type { FileResourceSource } from './resource-catalog.js';

/** The most of a file a resource read takes from disk. */
export const MAX_RESOURCE_FILE_BYTES = 512 * 1024;

const ROOT_FILES: Record<'build-gradle' | 'settings-gradle', readonly string[]> = {
  'build-gradle': ['build.gradle.kts', 'build.gradle'],
  'settings-gradle': ['settings.gradle.kts', 'settings.gradle'],
};

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel.length > 0 && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * Where a project file resource would be, before any check: the root's build or settings script, or
 * for the manifest and app build script, those of the one application module (none with several).
 */
export function projectFileCandidate(root: string, source: Exclude<FileResourceSource, 'skill'>): string | null {
  if (source === 'build-gradle' || source === 'settings-gradle') return firstExisting(root, ROOT_FILES[source]);
  let apps;
  try {
    apps = applicationModules(loadGradleProject(root));
  } catch {
    return null;
  }
  const app = apps.length === 1 ? apps[0] : undefined;
  if (!app) return null;
  return source === 'manifest' ? join(app.dir, 'src', 'main', 'AndroidManifest.xml') : app.buildFile;
}

/**
 * The canonical path of `candidate` when it is a regular file inside the canonical project root, else
 * a ToolError: NOT_FOUND when it does not exist, PATH_OUTSIDE_PROJECT when a link takes it out of the
 * project or it is not a regular file.
 */
export function resolveProjectFile(root: string, candidate: string): string {
  let canonical: string;
  let canonicalRoot: string;
  try {
    canonicalRoot = realpathSync(root);
    canonical = realpathSync(candidate);
  } catch {
    throw new ToolError('NOT_FOUND', `${candidate} does not exist (any more).`);
  }
  if (!isInside(canonicalRoot, canonical))
    throw new ToolError(
      'PATH_OUTSIDE_PROJECT',
      `${relative(canonicalRoot, candidate)} resolves to ${canonical}, outside the project ${canonicalRoot}; droidwright serves only files inside the project.`,
    );
  if (!statSync(canonical).isFile())
    throw new ToolError(
      'PATH_OUTSIDE_PROJECT',
      `${canonical} is not a regular file; droidwright serves only regular files.`,
    );
  return canonical;
}

/** Project files a listing shows: those that pass `resolveProjectFile`. Never throws. */
export function existingProjectFile(root: string, source: Exclude<FileResourceSource, 'skill'>): string | null {
  const candidate = projectFileCandidate(root, source);
  if (!candidate) return null;
  try {
    return resolveProjectFile(root, candidate);
  } catch {
    return null;
  }
}

export interface BoundedText {
  readonly text: string;
  /** The file's size in bytes. */
  readonly size: number;
  /** Bytes of the file the text holds. */
  readonly shown: number;
}

/**
 * The largest cut at or before `end` that does not split a UTF-8 character: when the character
 * starting in the last three bytes needs more bytes than remain, cut before it.
 */
function characterBoundary(bytes: Buffer, end: number): number {
  const stop = Math.min(end, bytes.length);
  for (let at = stop - 1; at >= 0 && at >= stop - 4; at--) {
    const byte = bytes[at] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return at + length > stop ? at : stop;
  }
  return stop;
}

/**
 * Reads at most `maxBytes` of a regular file (opened without following a final link), decodes it as
 * UTF-8 with invalid sequences replaced by U+FFFD, and cuts it further until the text, JSON-encoded,
 * takes at most `maxEncodedBytes` (what the response bound leaves it). A cut text ends with a note
 * saying the file's size and how much of it is shown.
 */
export function readBoundedText(path: string, maxBytes: number, maxEncodedBytes: number): BoundedText {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  let bytes: Buffer;
  let size: number;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ToolError('PATH_OUTSIDE_PROJECT', `${path} is not a regular file.`);
    size = stat.size;
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    bytes = buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let shown = bytes.length < size ? characterBoundary(bytes, bytes.length) : bytes.length;
  for (;;) {
    const body = decoder.decode(bytes.subarray(0, shown));
    const text =
      shown < size
        ? `${body}\n[droidwright: truncated: the file is ${size} bytes; the first ${shown} are shown]`
        : body;
    const encoded = Buffer.byteLength(JSON.stringify(text), 'utf8');
    if (encoded <= maxEncodedBytes || shown === 0) return { text, size, shown };
    // Escaping makes some text larger on the wire: shrink in proportion, with a margin for the note.
    shown = characterBoundary(bytes, Math.floor(shown * (maxEncodedBytes / encoded) * 0.98));
  }
}
