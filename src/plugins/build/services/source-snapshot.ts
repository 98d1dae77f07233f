import { createHash } from 'node:crypto';
import { type Stats, lstatSync, readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { GradleProject } from '../../../android/gradle-project-model.js';

/** Files listed by name in a build's provenance; the rest are counted (`files_omitted`). */
export const MAX_LISTED_SOURCE_FILES = 500;
/**
 * UTF-8 bytes the listed files may take in build.started (the store refuses events over 256 KiB): long
 * paths list fewer files, the rest are counted as omitted.
 */
export const MAX_LISTED_BYTES = 96 * 1024;

/** The longest prefix of `items` whose JSON fits in MAX_LISTED_BYTES (and MAX_LISTED_SOURCE_FILES). */
export function withinListingBudget<T>(items: readonly T[]): T[] {
  let bytes = 2;
  const taken: T[] = [];
  for (const item of items.slice(0, MAX_LISTED_SOURCE_FILES)) {
    bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
    if (bytes > MAX_LISTED_BYTES) break;
    taken.push(item);
  }
  return taken;
}

/** Source-set files looked at in a project without git; beyond this they are counted as unhashed. */
const MAX_WALKED_FILES = 20_000;
/** Bytes read for hashing per build start: the bound that keeps a large tree from delaying the build. */
const MAX_HASHED_BYTES = 32 * 1024 * 1024;
/** A single file above this is listed without a hash (generated blobs, not sources). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Wall-clock budget for hashing at build start; files not reached are listed without a hash. */
const HASH_BUDGET_MS = 750;
const HASH_CONCURRENCY = 8;
/** Entries the per-process cache keeps (path + size + times → hashes), so an unchanged file is not read again. */
const MAX_CACHE_ENTRIES = 50_000;

export interface FileHashes {
  readonly sha256: string;
  /** git's object id of the same bytes (`git hash-object` without filters), to compare with a commit's tree. */
  readonly gitBlob: string;
}

interface CacheEntry extends FileHashes {
  readonly key: string;
}

/** Hashes by absolute path, valid while size, mtime, ctime and inode are the same (git's own index test). */
const statCache = new Map<string, CacheEntry>();

function statKey(stat: Stats): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
}

function remember(path: string, entry: CacheEntry): void {
  statCache.delete(path);
  statCache.set(path, entry);
  if (statCache.size > MAX_CACHE_ENTRIES) statCache.delete(statCache.keys().next().value as string);
}

/** For tests that measure a cold start. */
export function clearSourceHashCache(): void {
  statCache.clear();
}

async function hashFile(path: string, stat: Stats): Promise<FileHashes | null> {
  const key = statKey(stat);
  const cached = statCache.get(path);
  if (cached && cached.key === key) return cached;
  const handle = await open(path, 'r');
  try {
    const sha256 = createHash('sha256');
    const blob = createHash('sha1').update(`blob ${stat.size}\0`);
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, 1024 * 1024) || 1);
    let read = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, read);
      if (bytesRead === 0) break;
      read += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      sha256.update(chunk);
      blob.update(chunk);
      if (read > stat.size) return null; // Growing while read: no hash is honest.
    }
    if (read !== stat.size) return null;
    const entry = { key, sha256: sha256.digest('hex'), gitBlob: blob.digest('hex') };
    remember(path, entry);
    return entry;
  } finally {
    await handle.close();
  }
}

/** What a bounded hashing pass gives for each path: its hashes, or null when it was not read (bound, error). */
export interface HashPass {
  readonly hashes: Map<string, FileHashes | null>;
  /** Bytes actually read (cache hits cost nothing). */
  readonly bytesRead: number;
}

/**
 * Hashes regular files (never following a symlink) within the byte and time budgets, a few at a time off
 * the event loop. `paths` are absolute; files past a bound map to null.
 */
export async function hashFiles(
  paths: readonly string[],
  budget: { bytes?: number; ms?: number } = {},
): Promise<HashPass> {
  const deadline = Date.now() + (budget.ms ?? HASH_BUDGET_MS);
  let bytesLeft = budget.bytes ?? MAX_HASHED_BYTES;
  let bytesRead = 0;
  const hashes = new Map<string, FileHashes | null>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++]!;
      hashes.set(path, null);
      if (Date.now() > deadline) continue;
      try {
        const stat = lstatSync(path);
        if (!stat.isFile() || stat.size > MAX_FILE_BYTES) continue;
        const cached = statCache.get(path);
        if (cached?.key === statKey(stat)) {
          hashes.set(path, cached);
          continue;
        }
        if (stat.size > bytesLeft) continue;
        bytesLeft -= stat.size;
        bytesRead += stat.size;
        hashes.set(path, await hashFile(path, stat));
      } catch {
        // Vanished or unreadable: listed without a hash.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HASH_CONCURRENCY, paths.length) }, worker));
  return { hashes, bytesRead };
}

export interface SourceSetSnapshot {
  /** The first files (sorted by path) with their SHA-256. */
  readonly files: { path: string; sha256: string }[];
  /** Files found under the modules' source sets (up to the walk bound). */
  readonly files_total: number;
  /** Hashed files not listed in `files` (the list is bounded). */
  readonly files_omitted: number;
  /** Files found but not hashed (over a size, byte or time bound, or past the walk bound). */
  readonly unhashed: number;
  /** SHA-256 over every hashed file's `path NUL sha256 LF`, in path order: equal trees give equal hashes. */
  readonly sha256: string;
}

/** Every regular file under `<module>/src/<source set>/`, relative to the root, sorted; bounded. */
function sourceSetFiles(project: GradleProject): { files: string[]; overflow: number } {
  const files: string[] = [];
  let overflow = 0;
  const seen = new Set<string>();
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        if (files.length < MAX_WALKED_FILES) files.push(path);
        else overflow++;
      }
    }
  };
  for (const module of project.modules) {
    const src = join(module.dir, 'src');
    if (seen.has(src)) continue;
    seen.add(src);
    walk(src);
  }
  return { files: files.sort(), overflow };
}

/**
 * A content hash of the project's source sets, for a project without git: two builds of the same
 * sources give the same `sha256`, and the listed files say which ones differ.
 */
export async function snapshotSourceSets(project: GradleProject): Promise<SourceSetSnapshot> {
  const { files, overflow } = sourceSetFiles(project);
  const { hashes } = await hashFiles(files);
  const combined = createHash('sha256');
  const hashed: { path: string; sha256: string }[] = [];
  for (const path of files) {
    const h = hashes.get(path);
    if (!h) continue;
    const rel = relative(project.root, path).split(sep).join('/');
    combined.update(`${rel}\0${h.sha256}\n`);
    hashed.push({ path: rel, sha256: h.sha256 });
  }
  const listed = withinListingBudget(hashed);
  return {
    files: listed,
    files_total: files.length + overflow,
    files_omitted: hashed.length - listed.length,
    unhashed: files.length - hashed.length + overflow,
    sha256: combined.digest('hex'),
  };
}
