import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ProcessRunner } from '../../../kernel/process-runner.js';
import { resolveHostExecutable } from '../../../kernel/host-executable.js';
import { BUILD_FILE_NAMES, SETTINGS_FILE_NAMES, type GradleProject } from '../../../android/gradle-project-model.js';
import type { BuildProvenance } from '../build.events.js';
import { hashFiles, MAX_LISTED_SOURCE_FILES, snapshotSourceSets, withinListingBudget } from './source-snapshot.js';

const GIT_TIMEOUT_MS = 5000;
const MAX_HASHED_FILE_BYTES = 8 * 1024 * 1024;

export function sha256Of(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `…/gradle-8.11.1-bin.zip` → `8.11.1`. */
export function gradleVersionFromWrapper(properties: string): string | null {
  const url = /^\s*distributionUrl\s*=\s*(.+)$/m.exec(properties)?.[1];
  if (!url) return null;
  return /gradle-([0-9][0-9A-Za-z.-]*?)-(?:bin|all)\.zip/.exec(url.replace(/\\:/g, ':'))?.[1] ?? null;
}

/** A `key=value` from a .properties file (no continuation lines; what gradle.properties uses). */
export function readProperty(text: string, key: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([^#!=:\s][^=:]*?)\s*[=:]\s*(.*)$/.exec(line);
    if (m && m[1] === key) return m[2]!.trim().replace(/\\(.)/g, '$1');
  }
  return null;
}

/** `JAVA_VERSION="17.0.2"` in `<java home>/release`: the JDK version without running it. */
export function jdkVersion(javaHome: string | null): string | null {
  if (!javaHome) return null;
  try {
    const release = readFileSync(join(javaHome, 'release'), 'utf8');
    return /^JAVA_VERSION="?([^"\n]+)"?/m.exec(release)?.[1] ?? null;
  } catch {
    return null;
  }
}

export interface JdkChoice {
  readonly javaHome: string | null;
  readonly source: 'project-gradle-properties' | 'settings' | 'environment' | null;
}

/**
 * The JDK Gradle will use. A trusted project's `org.gradle.java.home` wins (Gradle reads it itself);
 * then droidwright's setting, then JAVA_HOME. Only called for trusted projects: an untrusted project
 * never chooses an executable.
 */
export function chooseJdk(root: string, settingsJavaHome: string | undefined, env: NodeJS.ProcessEnv): JdkChoice {
  try {
    const fromProject = readProperty(readFileSync(join(root, 'gradle.properties'), 'utf8'), 'org.gradle.java.home');
    if (fromProject) return { javaHome: fromProject, source: 'project-gradle-properties' };
  } catch {
    // No gradle.properties.
  }
  if (settingsJavaHome) return { javaHome: settingsJavaHome, source: 'settings' };
  if (env.JAVA_HOME) return { javaHome: env.JAVA_HOME, source: 'environment' };
  return { javaHome: null, source: null };
}

/** Every file that decides what the build does, relative to the root, with its SHA-256. */
export function hashBuildFiles(project: GradleProject): { path: string; sha256: string }[] {
  const candidates = new Set<string>();
  const root = project.root;
  for (const name of [
    ...SETTINGS_FILE_NAMES,
    ...BUILD_FILE_NAMES,
    'gradle.properties',
    'gradle/libs.versions.toml',
    'gradle/wrapper/gradle-wrapper.properties',
  ]) {
    candidates.add(join(root, name));
  }
  for (const m of project.modules) {
    for (const name of [...BUILD_FILE_NAMES, 'gradle.properties', 'proguard-rules.pro'])
      candidates.add(join(m.dir, name));
  }
  const out: { path: string; sha256: string }[] = [];
  for (const path of [...candidates].sort()) {
    try {
      const stat = statSync(path);
      if (!stat.isFile() || stat.size > MAX_HASHED_FILE_BYTES) continue;
      out.push({ path: relative(root, path), sha256: sha256Of(readFileSync(path)) });
    } catch {
      // Absent: nothing to record.
    }
  }
  return out;
}

export type GitState = BuildProvenance['git'];
type ChangedFile = NonNullable<GitState['files']>[number];

/** A `git status --porcelain=v1 -z --no-renames` record's XY → what happened to the file. */
function changeOf(xy: string): ChangedFile['change'] {
  if (xy === '??') return 'untracked';
  if (xy.includes('D')) return 'deleted';
  if (xy[0] === 'A') return 'added';
  return 'modified';
}

/** The `git` runner every provenance and comparison call uses, or null without a host git. */
export function gitRunner(
  runner: ProcessRunner,
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): ((args: string[], maxOutputBytes?: number) => ReturnType<ProcessRunner['run']>) | null {
  if (!existsSync(root)) return null;
  // The host's git, never one the project puts on PATH (a `./git`, or its own bin directory).
  const gitPath = resolveHostExecutable('git', { env, exclude: [root] });
  if (!gitPath) return null;
  // A repository's own config may name programs (fsmonitor, pagers); never let it choose what we run.
  return (args, maxOutputBytes = 256 * 1024) =>
    runner.run(
      gitPath,
      ['-c', 'core.fsmonitor=false', '-c', 'core.pager=cat', '--literal-pathspecs', '-C', root, ...args],
      {
        timeoutMs: GIT_TIMEOUT_MS,
        maxOutputBytes,
        env: { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
      },
    );
}

/**
 * Commit, branch and every changed or untracked file under the project (ignored files left out, as git
 * does) with the SHA-256 and git blob id of its content now; all null when git or the repository is missing.
 */
export async function gitState(
  runner: ProcessRunner,
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<GitState> {
  const none = { commit: null, branch: null, dirty: null, changed_files: null };
  const git = gitRunner(runner, root, env);
  if (!git) return none;
  try {
    const head = await git(['rev-parse', 'HEAD', '--show-prefix']);
    if (head.exitCode !== 0) return none;
    const [commit, prefix = ''] = head.stdout.split('\n');
    const [branch, status] = await Promise.all([
      git(['rev-parse', '--abbrev-ref', 'HEAD']),
      git(['status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all', '--', '.'], 8 * 1024 * 1024),
    ]);
    const records = status.exitCode === 0 ? status.stdout.split('\0').filter((r) => r.length > 3) : [];
    // A cut output keeps its tail: its first record may be partial, and the total is unknown.
    if (status.truncated) records.shift();
    const changed = status.exitCode === 0 && !status.truncated ? records.length : null;
    const listed = records.slice(0, MAX_LISTED_SOURCE_FILES).map((r) => {
      const full = r.slice(3);
      return {
        path: full.startsWith(prefix) ? full.slice(prefix.length) : full,
        change: changeOf(r.slice(0, 2)),
      };
    });
    listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const { hashes } = await hashFiles(listed.filter((f) => f.change !== 'deleted').map((f) => join(root, f.path)));
    const files = withinListingBudget(
      listed.map((f) => {
        const h = hashes.get(join(root, f.path));
        return { ...f, sha256: h?.sha256 ?? null, ...(h ? { git_blob: h.gitBlob } : {}) };
      }),
    );
    return {
      commit: commit!.trim() || null,
      branch: branch.exitCode === 0 ? branch.stdout.trim() || null : null,
      dirty: changed === null ? null : changed > 0,
      changed_files: changed,
      files,
      files_omitted: Math.max(0, records.length - files.length),
    };
  } catch {
    return none;
  }
}

/** `version "8.5.0"`, `version '8.5.0'`, `version("8.5.0")` after an Android Gradle plugin id. */
const PLUGIN_ID_VERSION =
  /id\s*\(?\s*["']com\.android\.(?:application|library|dynamic-feature|test|asset-pack)["']\s*\)?\s*version\s*\(?\s*["']([^"'$]+)["']/;
/** The classpath notation `com.android.tools.build:gradle:8.5.0` (or `:$agp_version`). */
const AGP_COORDINATE = /["']com\.android\.tools\.build:gradle:([^"'\s]+)["']/;

/** A `$name` / `${name}` version from the same file's assignments (`ext.agp = '8.5.0'`, `val agp = "8.5.0"`) or gradle.properties. */
function resolveVariable(raw: string, text: string, properties: string): string | null {
  const name = /^\$\{?([A-Za-z_][\w.]*)\}?$/.exec(raw)?.[1];
  if (!name) return /^[0-9][\w.+-]*$/.test(raw) ? raw : null;
  const bare = name.replace(/^(?:rootProject\.)?(?:ext\.)?/, '');
  const quoted = new RegExp(`\\b${bare.replace(/\./g, '\\.')}\\s*=\\s*["']([0-9][^"']*)["']`).exec(text)?.[1];
  return quoted ?? readProperty(properties, bare);
}

/** The Android Gradle plugin version a version catalog names (`[plugins]` or `[libraries]`, `version.ref` resolved). */
export function agpVersionFromCatalog(toml: string): string | null {
  const versions = new Map<string, string>();
  let section = '';
  const entries: string[] = [];
  for (const line of toml.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header) {
      section = header[1]!.trim();
      continue;
    }
    if (section === 'versions') {
      const v = /^\s*([\w.-]+)\s*=\s*["']([^"']+)["']/.exec(line);
      if (v) versions.set(v[1]!, v[2]!);
    } else if (section === 'plugins' || section === 'libraries') entries.push(line);
  }
  for (const line of entries) {
    const isAgp =
      /id\s*=\s*["']com\.android\.(?:application|library|dynamic-feature|test)["']/.test(line) ||
      /["']com\.android\.tools\.build:gradle["']/.test(line) ||
      /=\s*["']com\.android\.tools\.build:gradle:[^"']+["']/.test(line) ||
      (/group\s*=\s*["']com\.android\.tools\.build["']/.test(line) && /name\s*=\s*["']gradle["']/.test(line));
    if (!isAgp) continue;
    const literal =
      /=\s*["']com\.android\.(?:tools\.build:gradle|application|library)[^:"']*:([^"']+)["']/.exec(line)?.[1] ??
      /\bversion\s*=\s*["']([^"']+)["']/.exec(line)?.[1];
    if (literal) return literal;
    const ref =
      /version\.ref\s*=\s*["']([^"']+)["']/.exec(line)?.[1] ??
      /version\s*=\s*\{\s*ref\s*=\s*["']([^"']+)["']/.exec(line)?.[1];
    if (ref && versions.has(ref)) return versions.get(ref)!;
  }
  return null;
}

/**
 * The Android Gradle plugin version the build files say: a plugins block (`id("com.android.application")
 * version "X"`), the buildscript classpath (`com.android.tools.build:gradle:X`, variables resolved from the
 * file or gradle.properties), or the version catalog. Null when none says it (e.g. set by a convention plugin).
 */
export function agpVersion(project: GradleProject): string | null {
  const read = (path: string): string => {
    try {
      const stat = statSync(path);
      return stat.isFile() && stat.size <= MAX_HASHED_FILE_BYTES ? readFileSync(path, 'utf8') : '';
    } catch {
      return '';
    }
  };
  const root = project.root;
  const properties = read(join(root, 'gradle.properties'));
  const files = [
    ...SETTINGS_FILE_NAMES,
    ...BUILD_FILE_NAMES,
    ...BUILD_FILE_NAMES.map((n) => join('buildSrc', n)),
    ...project.modules.flatMap((m) => BUILD_FILE_NAMES.map((n) => relative(root, join(m.dir, n)))),
  ];
  for (const name of new Set(files)) {
    const text = read(join(root, name));
    if (!text) continue;
    const fromPlugins = PLUGIN_ID_VERSION.exec(text)?.[1];
    if (fromPlugins) return fromPlugins;
    const coordinate = AGP_COORDINATE.exec(text)?.[1];
    const resolved = coordinate ? resolveVariable(coordinate, text, properties) : null;
    if (resolved) return resolved;
  }
  const catalog = read(join(root, 'gradle', 'libs.versions.toml'));
  return catalog ? agpVersionFromCatalog(catalog) : null;
}

/**
 * The JDK's home when droidwright chooses none: Gradle then runs the host's `java` from PATH, whose real
 * path is `<home>/bin/java`.
 */
function javaHomeOnPath(root: string, env: NodeJS.ProcessEnv): string | null {
  const java = resolveHostExecutable('java', { env, exclude: [root] });
  if (!java) return null;
  try {
    return dirname(dirname(realpathSync(java)));
  } catch {
    return null;
  }
}

export async function collectProvenance(
  runner: ProcessRunner,
  project: GradleProject,
  jdk: JdkChoice,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BuildProvenance> {
  let gradleVersion: string | null = null;
  try {
    gradleVersion = gradleVersionFromWrapper(
      readFileSync(join(project.root, 'gradle', 'wrapper', 'gradle-wrapper.properties'), 'utf8'),
    );
  } catch {
    gradleVersion = null;
  }
  const git = await gitState(runner, project.root, env);
  const pathJavaHome = jdk.javaHome === null ? javaHomeOnPath(project.root, env) : null;
  return {
    git,
    build_files: hashBuildFiles(project).slice(0, 2000),
    gradle_version: gradleVersion,
    agp_version: agpVersion(project),
    jdk: pathJavaHome
      ? { java_home: pathJavaHome, source: 'path', version: jdkVersion(pathJavaHome) }
      : { java_home: jdk.javaHome, source: jdk.source, version: jdkVersion(jdk.javaHome) },
    // Without a commit, the source sets' content is what tells two builds apart.
    ...(git.commit === null ? { sources: await snapshotSourceSets(project) } : {}),
  };
}
