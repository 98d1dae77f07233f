import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ProcessRunner } from '../../../kernel/process-runner.js';
import { resolveHostExecutable } from '../../../kernel/host-executable.js';
import { BUILD_FILE_NAMES, SETTINGS_FILE_NAMES, type GradleProject } from '../../../android/gradle-project-model.js';
import type { BuildProvenance } from '../build.events.js';

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

/** Commit, branch, dirty flag and changed-file count; all null when git or the repository is missing. */
export async function gitState(
  runner: ProcessRunner,
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BuildProvenance['git']> {
  const none = { commit: null, branch: null, dirty: null, changed_files: null };
  if (!existsSync(root)) return none;
  // The host's git, never one the project puts on PATH (a `./git`, or its own bin directory).
  const gitPath = resolveHostExecutable('git', { env, exclude: [root] });
  if (!gitPath) return none;
  // A repository's own config may name programs (fsmonitor, pagers); never let it choose what we run.
  const git = (args: string[]) =>
    runner.run(gitPath, ['-c', 'core.fsmonitor=false', '-c', 'core.pager=cat', '-C', root, ...args], {
      timeoutMs: GIT_TIMEOUT_MS,
      maxOutputBytes: 256 * 1024,
      env: { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
    });
  try {
    const head = await git(['rev-parse', 'HEAD']);
    if (head.exitCode !== 0) return none;
    const branch = await git(['rev-parse', '--abbrev-ref', 'HEAD']);
    const status = await git(['status', '--porcelain', '--untracked-files=normal']);
    const changed =
      status.exitCode === 0 && !status.truncated
        ? status.stdout.split('\n').filter((l) => l.trim() !== '').length
        : null;
    return {
      commit: head.stdout.trim() || null,
      branch: branch.exitCode === 0 ? branch.stdout.trim() || null : null,
      dirty: changed === null ? null : changed > 0,
      changed_files: changed,
    };
  } catch {
    return none;
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
  return {
    git: await gitState(runner, project.root, env),
    build_files: hashBuildFiles(project).slice(0, 2000),
    gradle_version: gradleVersion,
    jdk: { java_home: jdk.javaHome, source: jdk.source, version: jdkVersion(jdk.javaHome) },
  };
}
