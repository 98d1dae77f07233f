import { realpathSync } from 'node:fs';
import { inject, injectable, optional } from 'inversify';
import { AdbService } from '../../../android/adb-service.js';
import type { ApkInfo } from '../../../android/apk-info.js';
import { sh } from '../../../android/device-command.js';
import { type BuildArtifact, BuildArtifactLookup } from '../../../kernel/build-artifact-lookup.js';
import { ToolError } from '../../../kernel/errors.js';

export interface BuildMatch {
  readonly buildId: string;
  readonly module: string | null;
  readonly variant: string | null;
}

/** The build an install came from, or why none is named. */
export interface BuildLink {
  readonly match: BuildMatch | null;
  /** Set when builds list the hash but none can be chosen without guessing. */
  readonly ambiguity: string | null;
}

function canonicalOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function matchOf(artifact: BuildArtifact): BuildMatch {
  return { buildId: artifact.buildId, module: artifact.module, variant: artifact.variant };
}

/**
 * Picks the build that wrote the installed bytes among the builds that list their hash (newest first).
 * Identical bytes can come from several variants (a flavour that changes nothing), so the file's own
 * path decides first; without a path match, the newest build counts only when every candidate is the
 * same module and variant. Otherwise no build is named and the reason says which ones matched.
 */
export function chooseBuild(candidates: readonly BuildArtifact[], installedPath: string): BuildLink {
  if (candidates.length === 0) return { match: null, ambiguity: null };
  const atPath = candidates.find((c) => c.path === installedPath || canonicalOrSelf(c.path) === installedPath);
  if (atPath) return { match: matchOf(atPath), ambiguity: null };
  const kinds = new Map<string, BuildArtifact>();
  for (const c of candidates) {
    const key = JSON.stringify([c.module, c.variant]);
    if (!kinds.has(key)) kinds.set(key, c);
  }
  if (kinds.size === 1) return { match: matchOf(candidates[0]!), ambiguity: null };
  const named = [...kinds.values()]
    .slice(0, 5)
    .map((c) => `${c.module ?? '?'} ${c.variant ?? '?'} (build ${c.buildId})`)
    .join(', ');
  return {
    match: null,
    ambiguity: `Builds of ${kinds.size} variants wrote these exact bytes (${named}${kinds.size > 5 ? ', …' : ''}) and none recorded them at ${installedPath}, so the install is not linked to a build. Install the APK from the path its build reported to link it.`,
  };
}

/** `Failure [INSTALL_FAILED_VERSION_DOWNGRADE: …]` → its code, with advice an agent can follow. */
export function installFailureAdvice(output: string): { code: string | null; advice: string } {
  const m = /Failure \[([A-Z_]+)(?::\s*([^\]]*))?\]/.exec(output) ?? /(INSTALL_[A-Z_]+)/.exec(output);
  const code = m ? m[1]! : null;
  const advice: Record<string, string> = {
    INSTALL_FAILED_VERSION_DOWNGRADE: 'A newer version is installed; uninstall it first or raise versionCode.',
    INSTALL_FAILED_UPDATE_INCOMPATIBLE: 'The installed app is signed with a different key; uninstall it first.',
    INSTALL_PARSE_FAILED_NO_CERTIFICATES: 'The APK is not signed; build a debug or signed variant.',
    INSTALL_FAILED_INSUFFICIENT_STORAGE: 'The device is out of space; free some and retry.',
    INSTALL_FAILED_OLDER_SDK: "The device is older than the app's minSdk; use a newer device or emulator.",
    INSTALL_FAILED_NO_MATCHING_ABIS:
      "The APK has no native code for this device's ABI; build for it or use a matching emulator.",
    INSTALL_FAILED_TEST_ONLY: 'The APK is test-only.',
    INSTALL_FAILED_ALREADY_EXISTS: 'The app is already installed.',
  };
  return {
    code,
    advice: (code && advice[code]) ?? 'Read the package manager message above, fix the cause and rebuild.',
  };
}

/** Copies an APK to the device, installs it with the package manager, and finds the build that produced it. */
@injectable()
export class ApkInstaller {
  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    // Bound by the build plugin; absent only in a container without it, where installs name no build.
    @inject(BuildArtifactLookup) @optional() private readonly builds?: BuildArtifactLookup,
  ) {}

  async install(
    serial: string,
    localPath: string,
    apk: ApkInfo,
    signal?: AbortSignal,
  ): Promise<{ durationMs: number }> {
    const started = Date.now();
    const remote = `/data/local/tmp/droidwright-${apk.sha256.slice(0, 16)}.apk`;
    await this.adb.push(serial, localPath, remote);
    try {
      const result = await this.adb.shell(serial, sh`pm install -r -t ${remote}`, {
        signal,
        timeoutMs: 180_000,
        maxOutputBytes: 64 * 1024,
      });
      const text = result.output.trim();
      if (!/^Success\b/m.test(text) || (result.exitCode !== null && result.exitCode !== 0)) {
        const { code, advice } = installFailureAdvice(text);
        throw new ToolError(
          'INSTALL_FAILED',
          `Installing ${apk.packageName} on ${serial} failed: ${text.slice(0, 400) || `exit ${result.exitCode}`}. ${advice}`,
          { install_code: code },
        );
      }
    } finally {
      await this.adb
        .shell(serial, sh`rm -f ${remote}`, { timeoutMs: 15_000, maxOutputBytes: 1024 })
        .catch(() => undefined);
    }
    return { durationMs: Date.now() - started };
  }

  /** The build of this project that wrote the installed bytes, from the build history's hash index. */
  findBuild(sha256: string, installedPath: string, projectRoot: string): BuildLink {
    if (!this.builds) return { match: null, ambiguity: null };
    let candidates: BuildArtifact[];
    try {
      candidates = this.builds.findBuildsByApkHash(sha256, { projectRoot });
    } catch {
      // The install happened; an unreadable history only costs the link.
      return { match: null, ambiguity: null };
    }
    return chooseBuild(candidates, installedPath);
  }
}
