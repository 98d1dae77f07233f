import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { inject, injectable } from 'inversify';
import { adbHostRequest } from '../../../android/adb-server-process.js';
import {
  adbServerPort,
  isDirectory,
  isExecutableFile,
  locateAdb,
  locateEmulator,
  locateRetrace,
  onPath,
  type SdkLocatorInput,
} from '../../../android/sdk-locator.js';
import { ProcessRunner } from '../../../kernel/process-runner.js';
import { SelectedProject } from '../../../kernel/project-selection.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { Settings } from '../../../kernel/settings.js';
import { TrustService } from '../trust-service.js';
import { readHead } from './project-inspector.js';

export interface Check {
  ok: boolean;
  path: string | null;
  version: string | null;
  hint: string | null;
}
export interface JavaCheck extends Check {
  source: 'settings' | 'JAVA_HOME' | 'PATH' | null;
  major_version: number | null;
  warning: string | null;
}
export interface SdkCheck extends Check {
  source: 'settings' | 'ANDROID_HOME' | 'ANDROID_SDK_ROOT' | 'local.properties' | null;
}
export interface AdbCheck extends Check {
  server: { port: number; reachable: boolean; version: number | null };
}
export interface HealthReport {
  java: JavaCheck;
  android_sdk: SdkCheck;
  adb: AdbCheck;
  emulator: Check;
  gradle_wrapper: Check;
  retrace: Check;
  all_ok: boolean;
}

/** Bound on every probe: a hung tool must not hang the health check. */
const PROBE_TIMEOUT_MS = 5000;
const MIN_JAVA = 17;

/** `java -version` prints e.g. `openjdk version "17.0.12" 2024-07-16` (or `"1.8.0_392"`) on stderr. */
export function parseJavaVersion(output: string): { version: string; major: number } | null {
  const match = /version "([^"]+)"/.exec(output);
  if (!match) return null;
  const version = match[1]!;
  const parts = version.split(/[._+-]/);
  const major = parts[0] === '1' ? Number(parts[1]) : Number(parts[0]);
  return Number.isFinite(major) ? { version, major } : null;
}

/** `adb version`: "Android Debug Bridge version 1.0.41" then "Version 29.0.6-debian". */
export function parseAdbVersion(output: string): string | null {
  const protocol = /Android Debug Bridge version ([\d.]+)/.exec(output)?.[1];
  const release = /^Version (\S+)/m.exec(output)?.[1];
  if (!protocol) return null;
  return release ? `${protocol} (${release})` : protocol;
}

/** `local.properties` escapes ':' and '\' (`sdk.dir=C\:\\Android\\sdk`). */
export function parseSdkDir(properties: string): string | null {
  const line = /^\s*sdk\.dir\s*[=:]\s*(.*)$/m.exec(properties)?.[1];
  if (!line) return null;
  return line.trim().replace(/\\(.)/g, '$1') || null;
}

function sourceRevision(dir: string): string | null {
  const text = readHead(join(dir, 'source.properties'), 16 * 1024);
  return text ? (/^Pkg\.Revision\s*=\s*(\S+)/m.exec(text)?.[1] ?? null) : null;
}

/**
 * Asks the adb server for its version over its own protocol without starting it (`host:version`).
 * Reachable means a server answered with a version.
 */
export async function probeAdbServer(
  port: number,
  timeoutMs = 2000,
): Promise<{ reachable: boolean; version: number | null }> {
  try {
    const version = Number.parseInt(await adbHostRequest(port, 'host:version', timeoutMs), 16);
    return Number.isFinite(version) ? { reachable: true, version } : { reachable: false, version: null };
  } catch {
    return { reachable: false, version: null };
  }
}

/**
 * Checks the tools the Android loop needs. Never runs project code: the Gradle wrapper is inspected,
 * not executed, and an untrusted project's local.properties cannot choose the SDK.
 */
@injectable()
export class HealthChecker {
  constructor(
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
    @inject(Settings) private readonly settings: Settings,
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(SelectedProject) private readonly project: SelectedProject,
    @inject(TrustService) private readonly trust: TrustService,
  ) {}

  async run(signal?: AbortSignal): Promise<HealthReport> {
    const sdk = this.androidSdk();
    const [java, adb, emulator] = await Promise.all([
      this.java(signal),
      this.adb(sdk.path, signal),
      this.emulator(sdk.path, signal),
    ]);
    const gradleWrapper = this.gradleWrapper();
    const retrace = this.retrace(sdk.path);
    const all_ok = java.ok && sdk.ok && adb.ok && (this.project.root === null || gradleWrapper.ok);
    return { java, android_sdk: sdk, adb, emulator, gradle_wrapper: gradleWrapper, retrace, all_ok };
  }

  private async probe(file: string, args: string[], signal?: AbortSignal): Promise<string | null> {
    try {
      const result = await this.runner.run(file, args, {
        timeoutMs: PROBE_TIMEOUT_MS,
        killGraceMs: 1000,
        maxOutputBytes: 64 * 1024,
        signal,
      });
      if (result.timedOut || result.cancelled) return null;
      return `${result.stdout}\n${result.stderr}`;
    } catch {
      return null;
    }
  }

  private async java(signal?: AbortSignal): Promise<JavaCheck> {
    const env = this.options.env;
    const configured = this.settings.get().javaHome;
    let source: JavaCheck['source'] = null;
    let bin: string | null = null;
    if (configured) [source, bin] = ['settings', join(configured, 'bin', 'java')];
    else if (env.JAVA_HOME) [source, bin] = ['JAVA_HOME', join(env.JAVA_HOME, 'bin', 'java')];
    else {
      bin = onPath('java', env, this.project.root) ?? null;
      source = bin ? 'PATH' : null;
    }
    const hint17 = `Install JDK ${MIN_JAVA} or newer and set JAVA_HOME (or "javaHome" in settings.json).`;
    // A relative JDK location would be answered by the working directory, usually the project.
    if (bin && !isAbsolute(bin)) {
      return {
        ok: false,
        path: bin,
        version: null,
        source,
        major_version: null,
        warning: null,
        hint: `${source === 'settings' ? '"javaHome" in settings.json' : 'JAVA_HOME'} is a relative path; droidwright runs no tool found relative to the working directory. Set it to an absolute path.`,
      };
    }
    if (!bin || !isExecutableFile(bin)) {
      return {
        ok: false,
        path: bin,
        version: null,
        source,
        major_version: null,
        warning: null,
        hint: bin ? `${bin} is not an executable. ${hint17}` : `No java found. ${hint17}`,
      };
    }
    const output = await this.probe(bin, ['-version'], signal);
    const parsed = output ? parseJavaVersion(output) : null;
    if (!parsed)
      return {
        ok: false,
        path: bin,
        version: null,
        source,
        major_version: null,
        warning: null,
        hint: `${bin} -version gave no version. ${hint17}`,
      };
    const old = parsed.major < MIN_JAVA;
    return {
      ok: !old,
      path: bin,
      version: parsed.version,
      source,
      major_version: parsed.major,
      warning: old
        ? `Java ${parsed.major} is older than ${MIN_JAVA}; the Android Gradle Plugin needs ${MIN_JAVA}+.`
        : null,
      hint: old ? hint17 : null,
    };
  }

  private androidSdk(): SdkCheck {
    const env = this.options.env;
    const candidates: [SdkCheck['source'], string | undefined][] = [
      ['settings', this.settings.get().androidSdk],
      ['ANDROID_HOME', env.ANDROID_HOME],
      ['ANDROID_SDK_ROOT', env.ANDROID_SDK_ROOT],
    ];
    // Only a trusted project may point us at an SDK: its tools are executables we would run.
    if (this.project.root && this.trust.isTrusted(this.project.root)) {
      const props = readHead(join(this.project.root, 'local.properties'), 64 * 1024);
      candidates.push(['local.properties', props ? (parseSdkDir(props) ?? undefined) : undefined]);
    }
    for (const [source, given] of candidates) {
      if (!given) continue;
      // Gradle reads sdk.dir relative to the project; anything else relative would be read from the cwd.
      const dir = source === 'local.properties' && this.project.root ? resolve(this.project.root, given) : given;
      if (!isAbsolute(dir)) {
        return {
          ok: false,
          path: dir,
          version: null,
          source,
          hint: `${source} is a relative path (${dir}); droidwright runs no tool found relative to the working directory. Set it to the SDK's absolute path.`,
        };
      }
      if (!isDirectory(dir)) {
        return {
          ok: false,
          path: dir,
          version: null,
          source,
          hint: `${source} points to ${dir}, which is not a directory. Fix it or install the Android SDK there.`,
        };
      }
      const platformTools = sourceRevision(join(dir, 'platform-tools'));
      return {
        ok: true,
        path: dir,
        version: platformTools ? `platform-tools ${platformTools}` : null,
        source,
        hint: null,
      };
    }
    return {
      ok: false,
      path: null,
      version: null,
      source: null,
      hint: 'No Android SDK found. Install it (Android Studio or command-line tools) and set ANDROID_HOME, or "androidSdk" in settings.json.',
    };
  }

  /** The same lookup the device tools use, so the health check reports the adb and emulator they will run. */
  private locatorInput(sdk: string | null): SdkLocatorInput {
    const settings = this.settings.get();
    return {
      adbPath: settings.adbPath,
      androidSdk: settings.androidSdk ?? (sdk && isAbsolute(sdk) ? sdk : undefined),
      env: this.options.env,
      projectRoot: this.project.root,
    };
  }

  private async adb(sdk: string | null, signal?: AbortSignal): Promise<AdbCheck> {
    const configured = this.settings.get().adbPath;
    const path = configured ?? locateAdb(this.locatorInput(sdk))?.path ?? null;
    const port = adbServerPort(this.options.env);
    const server = { port, ...(await probeAdbServer(port)) };
    if (path && !isAbsolute(path)) {
      return {
        ok: false,
        path,
        version: null,
        server,
        hint: '"adbPath" in settings.json is a relative path; droidwright runs no tool found relative to the working directory. Set it to an absolute path.',
      };
    }
    if (!path || !isExecutableFile(path)) {
      return {
        ok: false,
        path,
        version: null,
        server,
        hint: 'adb not found. Install Android SDK platform-tools and put them on PATH, or set "adbPath" in settings.json.',
      };
    }
    const output = await this.probe(path, ['version'], signal);
    const version = output ? parseAdbVersion(output) : null;
    const hint = !version
      ? `${path} version gave no version; reinstall platform-tools.`
      : server.reachable
        ? null
        : `No adb server answers on port ${port}; it starts on first use (or run \`adb start-server\`).`;
    return { ok: version !== null, path, version, server, hint };
  }

  private async emulator(sdk: string | null, signal?: AbortSignal): Promise<Check> {
    const path = locateEmulator(this.locatorInput(sdk))?.path ?? null;
    if (!path)
      return {
        ok: false,
        path: null,
        version: null,
        hint: 'Android Emulator not found (only needed for virtual devices). Install it with sdkmanager "emulator".',
      };
    const output = await this.probe(path, ['-version'], signal);
    const version = output ? (/emulator version (\S+)/i.exec(output)?.[1] ?? null) : null;
    return {
      ok: version !== null,
      path,
      version,
      hint: version ? null : `${path} -version gave no version; reinstall the emulator package.`,
    };
  }

  private gradleWrapper(): Check {
    const root = this.project.root;
    if (!root)
      return {
        ok: false,
        path: null,
        version: null,
        hint: 'No Gradle project selected: start droidwright in a project directory or pass --project <path>.',
      };
    const path = join(root, 'gradlew');
    const properties = readHead(join(root, 'gradle', 'wrapper', 'gradle-wrapper.properties'), 64 * 1024);
    const version = properties ? (/gradle-([\w.-]+?)-(?:bin|all)\.zip/.exec(properties)?.[1] ?? null) : null;
    let exists = false;
    try {
      exists = statSync(path).isFile();
    } catch {
      exists = false;
    }
    if (!exists)
      return {
        ok: false,
        path: null,
        version,
        hint: `The project has no gradlew at ${path}. Generate the wrapper with \`gradle wrapper\`.`,
      };
    if (!isExecutableFile(path))
      return {
        ok: false,
        path,
        version,
        hint: `${path} is not executable. Review it, then run \`chmod +x gradlew\` yourself.`,
      };
    return { ok: true, path, version, hint: null };
  }

  private retrace(sdk: string | null): Check {
    const hint =
      'retrace not found (only needed to de-obfuscate R8 stack traces). Install Android SDK Command-line Tools.';
    const path = locateRetrace(sdk);
    if (path) return { ok: true, path, version: sourceRevision(dirname(dirname(path))), hint: null };
    return { ok: false, path: null, version: null, hint };
  }
}
