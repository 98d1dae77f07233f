import {
  constants,
  createReadStream,
  createWriteStream,
  existsSync,
  lstatSync,
  statSync,
  readlinkSync,
  realpathSync,
} from 'node:fs';
import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidArgumentsError, ToolError } from '../kernel/errors.js';
import { MAX_APK_BYTES } from './apk-info.js';
import { applicationModules, type GradleModule, loadGradleProject } from './gradle-project-model.js';

export interface ProjectApk {
  /** The canonical path (symlinks resolved). */
  readonly path: string;
  readonly module: GradleModule;
  /** Canonical `build/outputs` directories of the project's application modules. */
  readonly outputDirs: readonly string[];
}

/** An APK opened once and copied privately: everything an install reads comes from `copyPath`. */
export interface OpenedProjectApk {
  /** The canonical path of the file that was opened (checked through the open descriptor). */
  readonly path: string;
  readonly module: GradleModule;
  /** A private copy (0600, in a fresh 0700 directory) of the bytes read through that descriptor. */
  readonly copyPath: string;
  /** Removes the private copy. */
  dispose(): Promise<void>;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

const MAX_LINK_HOPS = 40;

/**
 * Where a path leads when links are followed as far as they go, without requiring the end to exist:
 * `realpath` fails on a dangling link, and answering differently then would tell a caller whether a
 * file exists outside the project. The part after the first missing component is kept as written.
 */
function followLinks(path: string): { path: string; exists: boolean } {
  try {
    return { path: realpathSync(path), exists: true };
  } catch {
    // Walk it ourselves below.
  }
  let hops = 0;
  let current = parse(path).root;
  const pending = path.slice(current.length).split(sep).filter(Boolean);
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      return { path: resolve(next, ...pending), exists: false };
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++hops > MAX_LINK_HOPS) return { path: resolve(next, ...pending), exists: false };
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      return { path: resolve(next, ...pending), exists: false };
    }
    const targetPath = isAbsolute(target) ? target : join(current, target);
    const targetRoot = parse(targetPath).root;
    pending.unshift(...targetPath.slice(targetRoot.length).split(sep).filter(Boolean));
    current = targetRoot;
  }
  return { path: current, exists: true };
}

/**
 * Resolves `apk_path` (absolute, or relative to the project root) to an `.apk` under an application
 * module's `build/outputs`, inside the project. Links are followed first and where they lead is
 * checked, so a link that leaves the project is refused even when its own path looks fine, with the
 * same answer whether or not its target exists.
 */
export function resolveProjectApk(projectRoot: string, apkPath: string): ProjectApk {
  if (typeof apkPath !== 'string' || apkPath.trim() === '' || apkPath.includes('\0') || apkPath.length > 4096) {
    throw new InvalidArgumentsError('apk_path must be a path to an .apk file.', 'INVALID_ARGUMENT', 'apk_path');
  }
  const root = realpathSync(projectRoot);
  const given = resolve(root, apkPath);
  if (!given.toLowerCase().endsWith('.apk')) {
    throw new InvalidArgumentsError(
      `apk_path must name an .apk file (got ${JSON.stringify(apkPath.slice(0, 200))}).`,
      'INVALID_ARGUMENT',
      'apk_path',
    );
  }
  // Refuse a path outside the project before touching it, with one answer whether or not it exists:
  // the tool must not tell an agent which files exist elsewhere, or where a link points.
  if (!inside(root, given)) throw outsideProject(root);
  const followed = followLinks(given);
  if (!inside(root, followed.path)) throw outsideProject(root);
  if (!followed.exists) {
    throw new ToolError(
      'NOT_FOUND',
      `${given} does not exist. Build the app first (run_gradle_task assembleDebug) and pass the APK path the build reported.`,
    );
  }
  const canonical = followed.path;
  if (!canonical.toLowerCase().endsWith('.apk') || !isRegularFile(canonical)) {
    throw new InvalidArgumentsError(
      `apk_path resolves to ${canonical}, which is not an .apk file.`,
      'INVALID_ARGUMENT',
      'apk_path',
    );
  }
  const modules = applicationModules(loadGradleProject(root));
  const outputDirs: { dir: string; module: GradleModule }[] = [];
  for (const module of modules) {
    try {
      const dir = realpathSync(join(module.dir, 'build', 'outputs'));
      if (inside(root, dir)) outputDirs.push({ dir, module });
    } catch {
      // Not built yet.
    }
  }
  const home = outputDirs.find((o) => inside(o.dir, canonical) && canonical !== o.dir);
  if (home) return { path: canonical, module: home.module, outputDirs: outputDirs.map((o) => o.dir) };
  const expected = modules.map((m) => join(m.dir, 'build', 'outputs')).join(', ');
  throw new InvalidArgumentsError(
    `apk_path ${canonical} is not under an application module's build outputs${expected ? ` (${expected})` : ' (the project has no application module)'}. Install only APKs the build produced.`,
    'PATH_OUTSIDE_PROJECT',
    'apk_path',
  );
}

/** Follows a link that a swap put here after resolution: the open (no-follow) and its real-path check catch that. */
function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function outsideProject(root: string): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `apk_path is outside the project ${root}. Only APKs the project's build wrote can be installed.`,
    'PATH_OUTSIDE_PROJECT',
    'apk_path',
  );
}

/** The real path of an open descriptor, where the OS tells it (Linux /proc); null elsewhere. */
function descriptorPath(fd: number): string | null {
  const link = `/proc/self/fd/${fd}`;
  if (!existsSync('/proc/self/fd')) return null;
  try {
    return readlinkSync(link);
  } catch {
    return null;
  }
}

/** Tries before giving up on a path that keeps changing (a build rewriting its outputs, or a link being swapped). */
const OPEN_ATTEMPTS = 3;

class PathChanged extends Error {}

/**
 * Opens the APK once and makes a private copy from that descriptor, so the bytes that are hashed,
 * recorded and pushed are the same bytes even if the path is swapped for a link or rewritten during
 * the call. The final component is opened without following links (a link swapped in after the check
 * is refused), and the opened file's own real path must lie in the project's application outputs.
 */
export async function openProjectApk(projectRoot: string, apkPath: string): Promise<OpenedProjectApk> {
  for (let attempt = 1; ; attempt++) {
    const resolved = resolveProjectApk(projectRoot, apkPath);
    let handle: FileHandle;
    try {
      handle = await open(resolved.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'ELOOP' || code === 'ENOENT') && attempt < OPEN_ATTEMPTS) continue;
      if (code === 'ELOOP' || code === 'ENOENT') throw keptChanging(apkPath);
      throw new ToolError('NOT_FOUND', `Cannot open ${resolved.path} (${code ?? 'error'}). Check its permissions.`);
    }
    try {
      await checkOpened(handle, resolved);
      return await copyOpened(handle, resolved);
    } catch (error) {
      if (!(error instanceof PathChanged)) throw error;
      if (attempt >= OPEN_ATTEMPTS) throw keptChanging(apkPath);
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
}

function keptChanging(apkPath: string): ToolError {
  return new ToolError(
    'NOT_FOUND',
    `apk_path ${JSON.stringify(apkPath.slice(0, 200))} changed while it was being opened, ${OPEN_ATTEMPTS} times (replaced, removed or swapped for a link). Wait until the build has finished writing its outputs, then retry.`,
  );
}

async function checkOpened(handle: FileHandle, resolved: ProjectApk): Promise<void> {
  const stat = await handle.stat();
  if (!stat.isFile()) {
    throw new InvalidArgumentsError(
      `apk_path resolves to ${resolved.path}, which is not a regular file.`,
      'INVALID_ARGUMENT',
      'apk_path',
    );
  }
  if (stat.size > MAX_APK_BYTES) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `${resolved.path} is ${stat.size} bytes, larger than any APK droidwright installs (${MAX_APK_BYTES}).`,
    );
  }
  const real = descriptorPath(handle.fd);
  if (real !== null) {
    // A directory on the way swapped after the check: what was opened is what counts.
    if (real !== resolved.path) throw new PathChanged();
    if (!resolved.outputDirs.some((dir) => inside(dir, real) && real !== dir)) throw new PathChanged();
    return;
  }
  // Without /proc: the path must still name the very file that is open.
  try {
    const now = lstatSync(resolved.path);
    if (now.dev !== stat.dev || now.ino !== stat.ino) throw new PathChanged();
  } catch (error) {
    if (error instanceof PathChanged) throw error;
    throw new PathChanged();
  }
}

async function copyOpened(handle: FileHandle, resolved: ProjectApk): Promise<OpenedProjectApk> {
  const dir = await mkdtemp(join(tmpdir(), 'droidwright-apk-'));
  const copyPath = join(dir, 'base.apk');
  const dispose = () => rm(dir, { recursive: true, force: true });
  let copied = 0;
  const bound = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      copied += chunk.length;
      if (copied > MAX_APK_BYTES)
        done(new ToolError('INVALID_ARGUMENT', `${resolved.path} grew past ${MAX_APK_BYTES} bytes while it was read.`));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(
      createReadStream('', { fd: handle.fd, autoClose: false, start: 0 }),
      bound,
      createWriteStream(copyPath, { flags: 'wx', mode: 0o600 }),
    );
  } catch (error) {
    await dispose();
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      'COMMAND_FAILED',
      `Cannot copy ${resolved.path} to a private file in ${tmpdir()} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Check that the APK is readable and the temporary directory has room, then retry.`,
    );
  }
  return { path: resolved.path, module: resolved.module, copyPath, dispose };
}
