import { existsSync, mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
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
  sdkRootCandidates,
} from '../../../android/sdk-locator.js';
import { readWitness } from '../../../events/event-witness.js';
import { PgSyncClient } from '../../../events/postgres/pg-sync-client.js';
import { redactLocation } from '../../../events/postgres/postgres-location.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { ProcessRunner } from '../../../kernel/process-runner.js';
import { SelectedProject } from '../../../kernel/project-selection.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { Settings } from '../../../kernel/settings.js';
import { eventLogLocation, isPostgresStore, witnessPath } from '../../../kernel/store-location.js';
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
  source: 'settings' | 'ANDROID_HOME' | 'ANDROID_SDK_ROOT' | 'local.properties' | 'known-location' | null;
}
export interface AdbCheck extends Check {
  server: { port: number; reachable: boolean; version: number | null };
}
/** One device as the adb server lists it (`device`, `unauthorized`, `offline`, …), with what to do when not usable. */
export interface DeviceEntry {
  serial: string;
  state: string;
  hint: string | null;
}
export interface DevicesCheck {
  /** At least one device is online (state `device`). */
  ok: boolean;
  /** False when no adb server answered: then nothing could be listed. */
  listed: boolean;
  devices: DeviceEntry[];
  hint: string | null;
}
export interface ProjectCheck {
  ok: boolean;
  path: string | null;
  trusted: boolean | null;
  hint: string | null;
}
export interface DataDirCheck {
  ok: boolean;
  path: string;
  hint: string | null;
}
/** Where the event log is kept and whether this process can use it: the connection check of a PostgreSQL store. */
export interface StoreCheck {
  ok: boolean;
  kind: 'sqlite' | 'postgres';
  /** A file, or the PostgreSQL server and database without the password. */
  location: string;
  /** PostgreSQL: a connection was made. SQLite: always true (a missing file is created on first use). */
  reachable: boolean;
  /** PostgreSQL's `server_version`. */
  server_version: string | null;
  /** The log's schema version; null when there is no log yet or it could not be opened. */
  schema_version: number | null;
  /** The newest event (seq 0 for an empty log); null when it could not be read. */
  head: { seq: number; hash: string } | null;
  /** What failed, naming the server (never the password). */
  error: string | null;
  hint: string | null;
}
export interface EventLogCheck {
  ok: boolean;
  path: string;
  /** Events walked; 0 when there is no log yet. */
  checked: number;
  /** Witness heads the log was checked against. */
  anchors: number;
  hint: string | null;
}
export interface HealthReport {
  node: Check;
  java: JavaCheck;
  android_sdk: SdkCheck;
  build_tools: Check;
  adb: AdbCheck;
  devices: DevicesCheck;
  emulator: Check;
  project: ProjectCheck;
  gradle_wrapper: Check;
  retrace: Check;
  data_dir: DataDirCheck;
  store: StoreCheck;
  /** Only when asked for (`verifyEventLog`): walking a large log takes time. */
  event_log: EventLogCheck | null;
  all_ok: boolean;
}

export interface HealthCheckOptions {
  /** Recompute the event log's hash chain against the witness (`events verify`). */
  verifyEventLog?: boolean;
}

/** What a person or an agent reads from a report: each check once, with its severity and the fix. */
export interface HealthFinding {
  check: string;
  status: 'ok' | 'warning' | 'error';
  summary: string;
  fix: string | null;
}

/** Bound on every probe: a hung tool must not hang the health check. */
const PROBE_TIMEOUT_MS = 5000;
const MIN_JAVA = 17;
/** package.json `engines.node`. */
const MIN_NODE: readonly [number, number] = [20, 9];

/** Whether this Node.js is one droidwright supports (`engines`: >= 20.9). */
export function nodeCheck(version: string = process.versions.node): Check {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    ok,
    path: process.execPath,
    version,
    hint: ok ? null : `Node.js ${version} is older than ${MIN_NODE.join('.')}; install Node.js 20, 22 or 24.`,
  };
}

/** Advice for a device the adb server lists in a state other than `device`. */
export function deviceStateHint(state: string): string | null {
  switch (state) {
    case 'device':
      return null;
    case 'unauthorized':
      return 'Unlock the phone and accept the "Allow USB debugging?" prompt (tick "Always allow from this computer"). No prompt? Revoke USB debugging authorizations in Developer options, then reconnect the cable.';
    case 'offline':
      return 'The device is connected but not answering: reconnect the cable (or `adb reconnect`), or restart the emulator.';
    case 'no permissions':
      return "This user may not open the USB device: add a udev rule for the phone's vendor (see developer.android.com/studio/run/device) and reconnect.";
    case 'authorizing':
    case 'connecting':
      return 'Still connecting: wait a few seconds and check again.';
    default:
      return `State "${state}": reconnect the device; droidwright uses only devices in the "device" state.`;
  }
}

/** `host:devices` lines: `<serial>\t<state>`. */
export function parseDeviceList(text: string): { serial: string; state: string }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [serial = '', ...rest] = line.split('\t');
      return { serial, state: rest.join(' ').trim() || 'unknown' };
    });
}

/** Newest first by numeric version parts (`35.0.1` before `34.0.0`); names that are not versions last. */
function newestVersion(names: string[]): string | null {
  const key = (n: string) => n.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : -1));
  const sorted = [...names].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
      const d = (kb[i] ?? -1) - (ka[i] ?? -1);
      if (d !== 0) return d;
    }
    return 0;
  });
  return sorted[0] ?? null;
}

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
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
  ) {}

  async run(signal?: AbortSignal, options: HealthCheckOptions = {}): Promise<HealthReport> {
    const node = nodeCheck();
    const sdk = this.androidSdk();
    // An SDK found only at a usual install location is not a choice the user made: adb and the emulator are
    // then looked up as the device tools look them up (PATH before those locations).
    const chosenSdk = sdk.source === 'known-location' ? null : sdk.path;
    const [java, adb, emulator] = await Promise.all([
      this.java(signal),
      this.adb(chosenSdk, signal),
      this.emulator(chosenSdk, signal),
    ]);
    const devices = await this.devices(adb);
    const project = this.projectCheck();
    const gradleWrapper = this.gradleWrapper();
    const retrace = this.retrace(sdk.path);
    const dataDir = this.dataDir();
    const store = this.storeCheck();
    const eventLog = options.verifyEventLog ? this.eventLog(store) : null;
    const all_ok =
      node.ok &&
      java.ok &&
      sdk.ok &&
      adb.ok &&
      (this.project.root === null || gradleWrapper.ok) &&
      dataDir.ok &&
      store.ok &&
      (eventLog?.ok ?? true);
    return {
      node,
      java,
      android_sdk: sdk,
      build_tools: this.buildTools(sdk.path),
      adb,
      devices,
      emulator,
      project,
      gradle_wrapper: gradleWrapper,
      retrace,
      data_dir: dataDir,
      store,
      event_log: eventLog,
      all_ok,
    };
  }

  /** Lists devices through the running adb server only: a health check never starts one. */
  private async devices(adb: AdbCheck): Promise<DevicesCheck> {
    if (!adb.server.reachable)
      return {
        ok: false,
        listed: false,
        devices: [],
        hint: `No adb server answers on port ${adb.server.port}, so no device could be listed; droidwright starts it on first use (or run \`adb start-server\`).`,
      };
    let listing: { serial: string; state: string }[];
    try {
      listing = parseDeviceList(await adbHostRequest(adb.server.port, 'host:devices', 3000));
    } catch (error) {
      return {
        ok: false,
        listed: false,
        devices: [],
        hint: `The adb server on port ${adb.server.port} did not list devices (${(error as Error).message}); restart it with \`adb kill-server && adb start-server\`.`,
      };
    }
    const devices = listing.map((d) => ({ ...d, hint: deviceStateHint(d.state) }));
    const online = devices.some((d) => d.state === 'device');
    return {
      ok: online,
      listed: true,
      devices,
      hint: online
        ? null
        : devices.length === 0
          ? 'No device connected: plug in a phone with USB debugging on, start an emulator (launch_avd), or run `droidwright sim` for a simulated one.'
          : "No device is online; see each device's hint.",
    };
  }

  private projectCheck(): ProjectCheck {
    const root = this.project.root;
    if (!root)
      return {
        ok: false,
        path: null,
        trusted: null,
        hint: 'No Gradle project here: run droidwright in the project (a folder at or above one with settings.gradle[.kts]) or pass --project <path>.',
      };
    const trusted = this.trust.isTrusted(root);
    return {
      ok: true,
      path: root,
      trusted,
      hint: trusted
        ? null
        : `Builds and tests refuse an untrusted project: run \`droidwright trust ${root}\` yourself in a terminal.`,
    };
  }

  /** Creates the data directory if needed and writes (then removes) a probe file: the real test of a full or read-only disk. */
  private dataDir(): DataDirCheck {
    const path = this.options.home;
    const probe = join(path, `.health-probe-${process.pid}`);
    try {
      mkdirSync(path, { recursive: true });
      writeFileSync(probe, 'probe', { flag: 'wx' });
      unlinkSync(probe);
      return { ok: true, path, hint: null };
    } catch (error) {
      return {
        ok: false,
        path,
        hint: `Cannot write to the data directory ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): free disk space or fix its permissions, or set DROIDWRIGHT_HOME to a writable folder.`,
      };
    }
  }

  /**
   * Can this process use the event log? SQLite: the file opens (no file yet is fine). PostgreSQL: a connection of
   * its own first (so an unreachable server is told apart from a log that does not open), the server's version,
   * then the store itself: schema version and head. Bounded: 5 s to connect.
   */
  private storeCheck(): StoreCheck {
    const location = eventLogLocation(this.options);
    const remote = isPostgresStore(location);
    const base: StoreCheck = {
      ok: true,
      kind: remote ? 'postgres' : 'sqlite',
      location: remote ? redactLocation(location) : location,
      reachable: true,
      server_version: null,
      schema_version: null,
      head: null,
      error: null,
      hint: null,
    };
    if (!remote && !existsSync(location)) return base;
    if (remote) {
      let client: PgSyncClient | undefined;
      try {
        client = PgSyncClient.connect(location, {
          connectTimeoutMs: PROBE_TIMEOUT_MS,
          statementTimeoutMs: PROBE_TIMEOUT_MS,
          applicationName: 'droidwright doctor',
        });
        base.location = client.location;
        base.server_version = String(client.query('reader', 'SHOW server_version').rows[0]?.server_version ?? '');
      } catch (error) {
        const message = (error as Error).message;
        return { ...base, ok: false, reachable: false, error: message, hint: postgresFix(message, base.location) };
      } finally {
        client?.close();
      }
    }
    try {
      const store = this.store();
      const head = store.digest();
      return { ...base, schema_version: store.stats().schemaVersion, head: { seq: head.seq, hash: head.hash } };
    } catch (error) {
      const message = (error as Error).message;
      return {
        ...base,
        ok: false,
        error: message,
        hint: remote
          ? postgresFix(message, base.location)
          : 'Move the file aside to start a new log, or point --store / $DROIDWRIGHT_STORE elsewhere.',
      };
    }
  }

  /** `events verify`: the whole chain, against this machine's witness of the log. No log yet is fine. */
  private eventLog(store: StoreCheck): EventLogCheck {
    const path = store.location;
    if (!store.ok) {
      return {
        ok: false,
        path,
        checked: 0,
        anchors: 0,
        hint: 'Not verified: the event log could not be opened (see the store check above).',
      };
    }
    if (store.kind === 'sqlite' && store.head === null) return { ok: true, path, checked: 0, anchors: 0, hint: null };
    try {
      const anchors = readWitness(witnessPath(this.options.home, this.options.store)).anchors;
      const result = this.store().verify({ anchors });
      return {
        ok: result.ok,
        path,
        checked: result.checked,
        anchors: anchors.length,
        hint: result.ok
          ? null
          : `The event log does not verify${result.firstBadSeq !== undefined ? ` at seq ${result.firstBadSeq}` : ''}: ${result.reason ?? 'hash mismatch'}. ${store.kind === 'postgres' ? 'Keep the database as it is for inspection (`droidwright events verify`) and tell whoever administers it.' : 'Keep the file for inspection (`droidwright events verify`), and move it aside to start a new log.'}`,
      };
    } catch (error) {
      return {
        ok: false,
        path,
        checked: 0,
        anchors: 0,
        hint: `The event log cannot be read: ${(error as Error).message}`,
      };
    }
  }

  /** The newest `build-tools/<version>` of the SDK (AGP picks its own, but needs one installed or installable). */
  private buildTools(sdk: string | null): Check {
    const hint =
      'No build-tools in the Android SDK. Install them with `sdkmanager "build-tools;35.0.0"` (Android Studio: SDK Manager → SDK Tools).';
    if (!sdk || !isAbsolute(sdk)) return { ok: false, path: null, version: null, hint };
    const base = join(sdk, 'build-tools');
    let names: string[];
    try {
      names = readdirSync(base).filter((n) => isDirectory(join(base, n)));
    } catch {
      return { ok: false, path: null, version: null, hint };
    }
    const newest = newestVersion(names);
    if (!newest) return { ok: false, path: null, version: null, hint };
    const path = join(base, newest);
    return { ok: true, path, version: sourceRevision(path) ?? newest, hint: null };
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
    // Nothing configured: the places installers put the SDK, as the device tools look for adb.
    const known = sdkRootCandidates({ env: {}, home: env.HOME }).find((c) => isDirectory(c.root));
    if (known) {
      const platformTools = sourceRevision(join(known.root, 'platform-tools'));
      return {
        ok: true,
        path: known.root,
        version: platformTools ? `platform-tools ${platformTools}` : null,
        source: 'known-location',
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

/** The one thing to do about a PostgreSQL failure, from the server's (or the socket's) own message. */
export function postgresFix(message: string, location: string): string {
  const [, host = 'HOST', port = '5432', database = 'DATABASE'] =
    /(?:[^@\s]*@)?([^:/\s]+):(\d+)\/(\S*)/.exec(location) ?? [];
  if (/database "[^"]*" does not exist/i.test(message))
    return `Create the database (\`createdb -h ${host} -p ${port} ${database}\`) or fix its name in the store URL (--store / $DROIDWRIGHT_STORE).`;
  if (
    /password authentication failed|no pg_hba\.conf entry|role "[^"]*" does not exist|SASL|password must be|client password/i.test(
      message,
    )
  )
    return `Check the role and its password: set PGPASSWORD, or add \`${host}:${port}:${database || '*'}:ROLE:PASSWORD\` to ~/.pgpass (chmod 600); the server's pg_hba.conf must admit this machine.`;
  if (/SSL|certificate|TLS/i.test(message))
    return "Check the URL's TLS options (sslmode, sslrootcert, sslcert): they must match what the server offers.";
  if (
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|timeout|did not answer|terminated/i.test(
      message,
    )
  )
    return `Start the server, or fix the host and port in the store URL (--store / $DROIDWRIGHT_STORE); \`pg_isready -h ${host} -p ${port}\` run here says whether it answers this machine.`;
  if (/permission denied/i.test(message))
    return 'Grant the role what droidwright needs in that database: CREATE on its schema the first time (it creates its tables), then SELECT and INSERT.';
  return `Connect with \`psql -h ${host} -p ${port} ${database}\` from this machine to see the server's own message.`;
}

function describe(check: Check): string {
  return [check.version, check.path && `(${check.path})`].filter(Boolean).join(' ') || 'found';
}

/**
 * The report as a list a person reads (`droidwright doctor`) and an agent can act on: every check with
 * its severity and the concrete fix. Errors block work (no builds, no devices, no log); warnings name
 * what is missing for part of it (an optional tool, a device to authorize, trust to grant).
 */
export function healthFindings(report: HealthReport): HealthFinding[] {
  const out: HealthFinding[] = [];
  const add = (check: string, status: HealthFinding['status'], summary: string, fix: string | null = null) =>
    out.push({ check, status, summary, fix: status === 'ok' ? null : fix });
  const required = (check: string, c: Check, what: string) =>
    add(check, c.ok ? 'ok' : 'error', c.ok ? `${what} ${describe(c)}` : `${what} not usable`, c.hint);
  // An optional tool's hint is "<what is missing>. <how to install it>": the first sentence is the finding.
  const optional = (check: string, c: Check, what: string) => {
    if (c.ok) return add(check, 'ok', `${what} ${describe(c)}`);
    const [first = '', ...rest] = (c.hint ?? `${what} not found.`).split(/(?<=\.) /);
    const summary = first.replace(/\.$/, '');
    add(check, 'warning', /only needed/.test(summary) ? summary : `${summary} (optional)`, rest.join(' ') || c.hint);
  };

  required('node', report.node, 'Node.js');
  const { java } = report;
  add(
    'java',
    java.ok ? 'ok' : 'error',
    java.ok
      ? `JDK ${java.version} for Gradle (${java.path}, from ${java.source})`
      : java.major_version !== null
        ? `JDK ${java.version} is too old for the Android Gradle Plugin (needs ${MIN_JAVA}+)`
        : 'no usable JDK for Gradle',
    java.hint,
  );
  const sdk = report.android_sdk;
  add(
    'android_sdk',
    sdk.ok ? 'ok' : 'error',
    sdk.ok ? `Android SDK ${sdk.path} (from ${sdk.source})${sdk.version ? `, ${sdk.version}` : ''}` : 'no Android SDK',
    sdk.hint,
  );
  optional('build_tools', report.build_tools, 'build-tools');
  const { adb } = report;
  add('adb', adb.ok ? 'ok' : 'error', adb.ok ? `adb ${describe(adb)}` : 'adb not usable', adb.ok ? null : adb.hint);
  add(
    'adb_server',
    adb.server.reachable ? 'ok' : 'warning',
    adb.server.reachable
      ? `adb server answers on port ${adb.server.port} (protocol ${adb.server.version})`
      : `no adb server on port ${adb.server.port}`,
    `droidwright starts it on first use; to start it now: \`adb start-server\` (port ${adb.server.port}).`,
  );
  const { devices } = report;
  if (devices.listed) {
    const online = devices.devices.filter((d) => d.state === 'device');
    add(
      'devices',
      devices.ok ? 'ok' : 'warning',
      online.length > 0
        ? `${online.length} device(s) online: ${online.map((d) => d.serial).join(', ')}`
        : 'no device online',
      devices.hint,
    );
    for (const device of devices.devices.filter((d) => d.state !== 'device'))
      add(`device ${device.serial}`, 'warning', `${device.serial} is ${device.state}`, device.hint);
  }
  optional('emulator', report.emulator, 'Android Emulator');
  const { project } = report;
  add(
    'project',
    project.ok ? 'ok' : 'warning',
    project.ok ? `project ${project.path}` : 'no Gradle project selected',
    project.hint,
  );
  if (project.ok) {
    required('gradle_wrapper', report.gradle_wrapper, 'Gradle wrapper');
    add(
      'trust',
      project.trusted ? 'ok' : 'warning',
      project.trusted ? 'project trusted: builds may run' : 'project not trusted: builds and tests are refused',
      project.hint,
    );
  }
  optional('retrace', report.retrace, 'R8 retrace');
  const dir = report.data_dir;
  add(
    'data_dir',
    dir.ok ? 'ok' : 'error',
    dir.ok ? `data directory ${dir.path} is writable` : `data directory ${dir.path} is not writable`,
    dir.hint,
  );
  const store = report.store;
  // The default SQLite log has its say in event_log; a PostgreSQL one gets its connection reported here.
  if (store.kind === 'postgres' || !store.ok)
    add(
      'store',
      store.ok ? 'ok' : 'error',
      store.ok
        ? `event log in PostgreSQL ${store.server_version ?? ''} at ${store.location}: schema ${store.schema_version}, ${store.head && store.head.seq > 0 ? `head seq ${store.head.seq} (${store.head.hash.slice(0, 12)}…)` : 'no events yet'}`
        : store.reachable
          ? `the event log at ${store.location} cannot be opened: ${store.error}`
          : // The error names the server; what to check is the fix line, not repeated here.
            (store.error ?? `PostgreSQL at ${store.location} is unreachable`).replace(/\. Check that .*$/s, ''),
      store.hint,
    );
  const log = report.event_log;
  // A store that cannot be opened was reported above; its chain was not walked, so there is nothing more to say.
  if (log && store.ok)
    add(
      'event_log',
      log.ok ? 'ok' : 'error',
      log.ok
        ? log.checked === 0
          ? `no event log yet (${log.path} is created on first use)`
          : `event log intact: ${log.checked} events, hash chain verified${log.anchors > 0 ? ` against ${log.anchors} witness head(s)` : ''}`
        : `event log ${log.path} does not verify`,
      log.hint,
    );
  return out;
}
