import { inject, injectable } from 'inversify';
import { AdbService } from '../../../android/adb-service.js';
import type { ApkInfo } from '../../../android/apk-info.js';
import { sh } from '../../../android/device-command.js';
import type { StoredEvent } from '../../../events/event-definition.js';
import { ToolError } from '../../../kernel/errors.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';

export interface BuildMatch {
  readonly buildId: string;
  readonly module: string | null;
  readonly variant: string | null;
}

interface BuildFinishedApks {
  build_id: string;
  apks: { sha256: string; module: string | null; variant: string | null }[];
}

/** How far back an install looks for the build that wrote its APK. */
const BUILD_LOOKBACK = 1000;

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
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
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

  /** The newest `build.finished` that lists an APK with this hash. */
  findBuild(sha256: string): BuildMatch | null {
    let events: StoredEvent[];
    try {
      events = this.store().query({ types: ['build.finished'], order: 'desc', limit: BUILD_LOOKBACK });
    } catch {
      return null;
    }
    for (const event of events) {
      const data = event.data as Partial<BuildFinishedApks>;
      const apk = data.apks?.find((a) => a.sha256 === sha256);
      if (apk && data.build_id)
        return { buildId: data.build_id, module: apk.module ?? null, variant: apk.variant ?? null };
    }
    return null;
  }
}
