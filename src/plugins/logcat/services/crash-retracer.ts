import { closeSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { inject, injectable, optional } from 'inversify';
import { AdbService } from '../../../android/adb-service.js';
import { sha256File } from '../../../android/apk-info.js';
import { AppInspector } from '../../../android/app-inspector.js';
import { sh } from '../../../android/device-command.js';
import { RetraceEngine, readMappingMapId } from '../../../android/retrace/retrace-engine.js';
import { locateRetrace } from '../../../android/sdk-locator.js';
import { BuildArtifactLookup } from '../../../kernel/build-artifact-lookup.js';
import { type BuildMapping, BuildMappingLookup } from '../../../kernel/build-mapping-lookup.js';
import { ToolError } from '../../../kernel/errors.js';
import { InstalledBuildLookup } from '../../../kernel/installed-build-lookup.js';
import { ProcessRunner } from '../../../kernel/process-runner.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { Settings } from '../../../kernel/settings.js';
import type { CrashRecord } from './crash-history.js';

/** How the mapping was tied to the crash, most certain first. */
export type MappingMatch = 'pg_map_id' | 'apk_hash' | 'install_record';

export interface ResolvedMapping {
  readonly path: string;
  readonly buildId: string;
  readonly module: string;
  readonly variant: string;
  readonly matchedBy: MappingMatch;
  readonly pgMapId: string | null;
}

export interface CrashRetrace {
  readonly text: string;
  readonly engine: 'sdk' | 'builtin';
  readonly mapping: ResolvedMapping;
}

/** `lastUpdateTime=2026-11-30 14:02:11` as the device prints it: its local wall clock, read as UTC like log times. */
export function parseDeviceTime(text: string | null): number | null {
  const m = text ? /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(text) : null;
  if (!m) return null;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

function refuse(reason: string): never {
  throw new ToolError(
    'RETRACE_REFUSED',
    `Not retraced: ${reason} Call again without retrace to read the frames as logged.`,
  );
}

function readHead(path: string, bytes: number): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Retraces a recorded crash with the R8 mapping of the exact build that crashed, or refuses with the reason. The
 * build is identified, most certain first, by the `pg_map_id` the frames' `r8-map-id-…` markers name; else by the
 * hash of the APK the device has installed (when the app was not updated since the crash); else by droidwright's
 * install record, checked against the device's versionCode and lastUpdateTime. A mapping file is used only while
 * its bytes are still the ones the build recorded.
 */
@injectable()
export class CrashRetracer {
  private engineCache: RetraceEngine | undefined;
  /** Mapping files already hashed, by path, size and mtime: hashing a large mapping is not free. */
  private readonly hashes = new Map<string, { key: string; sha256: string; pgMapId: string | null }>();

  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    @inject(AppInspector) private readonly apps: AppInspector,
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
    @inject(Settings) private readonly settings: Settings,
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(BuildMappingLookup) @optional() private readonly mappings?: BuildMappingLookup,
    @inject(BuildArtifactLookup) @optional() private readonly artifacts?: BuildArtifactLookup,
    @inject(InstalledBuildLookup) @optional() private readonly installs?: InstalledBuildLookup,
  ) {}

  /** The SDK's `retrace` when it is installed (the health check's lookup), else the built-in engine. */
  engine(): RetraceEngine {
    if (!this.engineCache) {
      const env = this.options.env;
      const sdk = [this.settings.get().androidSdk, env.ANDROID_HOME, env.ANDROID_SDK_ROOT].find(
        (dir) => dir !== undefined && isAbsolute(dir),
      );
      this.engineCache = new RetraceEngine(locateRetrace(sdk ?? null), this.runner);
    }
    return this.engineCache;
  }

  async retrace(crash: CrashRecord, text: string, signal?: AbortSignal): Promise<CrashRetrace> {
    if (crash.kind !== 'java')
      refuse(`retrace maps Java/Kotlin frames; this is ${crash.kind === 'anr' ? 'an ANR' : 'a native crash'}.`);
    const mapping = await this.resolve(crash, signal);
    const engine = this.engine();
    return { text: await engine.retrace(mapping.path, text, signal), engine: engine.name, mapping };
  }

  async resolve(crash: CrashRecord, signal?: AbortSignal): Promise<ResolvedMapping> {
    if (!this.mappings) refuse('no build history is available in this process.');
    const ids = crash.kind === 'java' ? crash.data.r8_map_ids : [];
    if (ids.length > 0) return await this.byMapId(ids);
    const pkg = crash.data.package;
    if (!pkg) refuse('the crash names no package, so its build cannot be identified.');
    const serial = crash.data.device_serial;
    let info: Awaited<ReturnType<AppInspector['appInfo']>>;
    try {
      info = await this.apps.appInfo(serial, pkg, signal);
    } catch (error) {
      refuse(
        `the frames carry no r8-map-id marker, and the device ${serial} could not say which APK is installed (${(error as Error).message.slice(0, 300)}).`,
      );
    }
    const updatedAt = parseDeviceTime(info.lastUpdateTime);
    const crashedAt = crash.data.time_ms;
    if (updatedAt === null || crashedAt === null)
      refuse(
        `the frames carry no r8-map-id marker, and without ${updatedAt === null ? "the device's lastUpdateTime" : "the crash's log time"} it cannot be proven that ${pkg} was not reinstalled since the crash.`,
      );
    if (updatedAt > crashedAt)
      refuse(
        `${pkg} was installed again on ${serial} (lastUpdateTime ${info.lastUpdateTime}) after the crash, so the APK there now is not necessarily the one that crashed, and the frames carry no r8-map-id marker.`,
      );
    const apkHash = await this.deviceApkHash(serial, info.apkPaths, signal);
    if (apkHash) return await this.byApkHash(apkHash, crash);
    return await this.byInstallRecord(crash, pkg, info.versionCode);
  }

  private async byMapId(ids: readonly string[]): Promise<ResolvedMapping> {
    let changed: BuildMapping | null = null;
    for (const m of this.mappings!.recentMappings({ limit: 200 })) {
      const file = await this.fileFacts(m.path);
      if (!file?.pgMapId || !ids.includes(file.pgMapId)) continue;
      if (file.sha256 !== m.sha256) {
        changed = m;
        continue;
      }
      return {
        path: m.path,
        buildId: m.buildId,
        module: m.module,
        variant: m.variant,
        matchedBy: 'pg_map_id',
        pgMapId: file.pgMapId,
      };
    }
    if (changed)
      throw new ToolError(
        'MAPPING_NOT_FOUND',
        `The frames name R8 map id ${ids.join(', ')}; ${changed.path} has that id but is not the file build ${changed.buildId} recorded (its SHA-256 differs). Rebuild that variant, or run droidwright retrace --mapping FILE with the mapping you kept.`,
      );
    throw new ToolError(
      'MAPPING_NOT_FOUND',
      `The frames name R8 map id ${ids.join(', ')}, and no mapping file recorded by a droidwright build (still on disk, unchanged) has that pg_map_id. Build the exact version that crashed with run_gradle_task, or run droidwright retrace --mapping FILE with its mapping.txt.`,
    );
  }

  private async byApkHash(apkHash: string, crash: CrashRecord): Promise<ResolvedMapping> {
    const builds = this.artifacts?.findBuildsByApkHash(apkHash) ?? [];
    if (builds.length === 0)
      refuse(
        `the APK installed on ${crash.data.device_serial} (SHA-256 ${apkHash.slice(0, 12)}…) was not written by any build droidwright recorded, so its mapping is unknown.`,
      );
    const candidates = builds.flatMap((b) =>
      this.mappings!.mappingsOfBuild(b.buildId).filter(
        (m) => (b.variant === null || m.variant === b.variant) && (b.module === null || m.module === b.module),
      ),
    );
    if (candidates.length === 0)
      throw new ToolError(
        'MAPPING_NOT_FOUND',
        `The installed APK was written by build ${builds[0]!.buildId}${builds[0]!.variant ? ` (${builds[0]!.variant})` : ''}, which recorded no mapping file: it was not minified, so its frames are already the original names.`,
      );
    return this.checked(candidates, 'apk_hash');
  }

  private async byInstallRecord(
    crash: CrashRecord,
    pkg: string,
    deviceVersionCode: number | null,
  ): Promise<ResolvedMapping> {
    const recorded = crash.data.build;
    if (!recorded?.build_id)
      refuse(
        `the frames carry no r8-map-id marker, the device's APK could not be hashed, and droidwright has no install record naming the build of ${pkg}.`,
      );
    const current = this.installs?.installedBuild(crash.data.device_serial, pkg);
    if (!current || current.installedSeq !== recorded.installed_seq)
      refuse(
        `droidwright installed ${pkg} again after the crash, so its install record no longer describes the device.`,
      );
    if (deviceVersionCode !== recorded.version_code)
      refuse(
        `the device reports versionCode ${deviceVersionCode ?? 'unknown'} for ${pkg}, but the install record says ${recorded.version_code}: something else installed it.`,
      );
    const candidates = this.mappings!.mappingsOfBuild(recorded.build_id).filter(
      (m) =>
        (current.variant === null || m.variant === current.variant) &&
        (current.module === null || m.module === current.module),
    );
    if (candidates.length === 0)
      throw new ToolError(
        'MAPPING_NOT_FOUND',
        `Build ${recorded.build_id} recorded no mapping file for ${current.variant ?? 'its variant'}: it was not minified, so its frames are already the original names.`,
      );
    return this.checked(candidates, 'install_record');
  }

  /** One mapping, still the bytes its build recorded; several different ones are refused as ambiguous. */
  private async checked(candidates: readonly BuildMapping[], matchedBy: MappingMatch): Promise<ResolvedMapping> {
    const distinct = new Map(candidates.map((m) => [m.sha256, m]));
    if (distinct.size > 1)
      refuse(
        `the installed build matches ${distinct.size} different mapping files (${[...distinct.values()]
          .slice(0, 3)
          .map((m) => `${m.module} ${m.variant}`)
          .join(', ')}), and none can be preferred with certainty.`,
      );
    const m = candidates[0]!;
    const file = await this.fileFacts(m.path);
    if (!file)
      throw new ToolError(
        'MAPPING_NOT_FOUND',
        `Build ${m.buildId} wrote ${m.path}, which is gone. Rebuild the same variant from the same sources, or retrace by hand with droidwright retrace --mapping FILE.`,
      );
    if (file.sha256 !== m.sha256)
      throw new ToolError(
        'MAPPING_NOT_FOUND',
        `${m.path} changed since build ${m.buildId} wrote it (a later build overwrote it), so it is not that build's mapping. Reinstall and reproduce with a fresh build, or run droidwright retrace --mapping FILE with the mapping you kept.`,
      );
    return { path: m.path, buildId: m.buildId, module: m.module, variant: m.variant, matchedBy, pgMapId: file.pgMapId };
  }

  /** The file's SHA-256 and header pg_map_id, or null when it cannot be read; cached by size and mtime. */
  private async fileFacts(path: string): Promise<{ sha256: string; pgMapId: string | null } | null> {
    let key: string;
    try {
      const st = await stat(path);
      if (!st.isFile()) return null;
      key = `${st.size}:${st.mtimeMs}`;
    } catch {
      return null;
    }
    const known = this.hashes.get(path);
    if (known?.key === key) return known;
    const head = readHead(path, 4096);
    if (head === null) return null;
    let sha256: string;
    try {
      sha256 = await sha256File(path);
    } catch {
      return null;
    }
    const facts = { key, sha256, pgMapId: readMappingMapId(head) };
    this.hashes.set(path, facts);
    return facts;
  }

  /** The SHA-256 of the installed base APK as the device computes it, or null when the device cannot say. */
  private async deviceApkHash(serial: string, paths: readonly string[], signal?: AbortSignal): Promise<string | null> {
    const base = paths.find((p) => p.endsWith('/base.apk')) ?? paths[0];
    if (!base) return null;
    try {
      const out = await this.adb.shell(serial, sh`sha256sum ${base}`, {
        signal,
        timeoutMs: 60_000,
        maxOutputBytes: 4096,
      });
      const hash = /^([0-9a-f]{64})\s/m.exec(out.output)?.[1];
      return out.exitCode === 0 && hash ? hash : null;
    } catch {
      return null;
    }
  }
}
