import { inject, injectable, optional } from 'inversify';
import type { CrashReport } from '../../../android/logcat/crash-detector.js';
import type { JavaFrame } from '../../../android/logcat/java-stack-trace.js';
import { formatThreadtime } from '../../../android/logcat/logcat-text-parser.js';
import type { StoredEvent } from '../../../events/event-definition.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { InstalledBuildLookup } from '../../../kernel/installed-build-lookup.js';
import { systemActor } from '../../../shared/actor.js';
import { AppCrashed, AppNativeCrashed, AppNotResponding, CRASH_CONTEXT_MAX_LINES } from '../logcat.events.js';
import type { CrashSink } from './crash-sink.js';

const MAX_LINE_CHARS = 1000;
const R8_MARKER = /^r8-map-id-([0-9a-zA-Z]{1,128})$/;

function cut(text: string | null, max: number): string | null {
  if (text === null) return null;
  return text.length > max ? text.slice(0, max) : text;
}

/** The `pg_map_id`s named by frames' `r8-map-id-…` source markers, first seen first (at most 4). */
export function r8MapIdsOfFrames(frames: readonly JavaFrame[]): string[] {
  const ids: string[] = [];
  for (const f of frames) {
    const id = f.fileName ? R8_MARKER.exec(f.fileName)?.[1] : undefined;
    if (id && !ids.includes(id)) ids.push(id);
    if (ids.length === 4) break;
  }
  return ids;
}

/** The block's lines as `logcat -v threadtime` prints them, each cut to 1,000 characters, at most the event's bound. */
export function crashLines(report: CrashReport): { lines: string[]; truncated: boolean } {
  const lines: string[] = [];
  const truncated = report.truncated;
  for (const entry of report.entries) {
    for (const line of formatThreadtime(entry).split('\n')) {
      if (lines.length === CRASH_CONTEXT_MAX_LINES) return { lines, truncated: true };
      lines.push(line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line);
    }
  }
  return { lines, truncated };
}

/**
 * The logcat worker's crash sink: each crash, native crash or ANR it detects becomes one event on the device's
 * stream, recorded by droidwright itself (the worker's pid) and linked to the build droidwright last installed for
 * that package on that device.
 */
@injectable()
export class CrashRecorder implements CrashSink {
  constructor(
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
    @inject(InstalledBuildLookup) @optional() private readonly installs?: InstalledBuildLookup,
  ) {}

  record(deviceSerial: string, report: CrashReport, lineSeqs: { first: number | null; last: number | null }): void {
    this.recordEvent(deviceSerial, report, lineSeqs);
  }

  /** As {@link record}, returning the stored event. */
  recordEvent(
    deviceSerial: string,
    report: CrashReport,
    lineSeqs: { first: number | null; last: number | null },
  ): StoredEvent {
    const { lines, truncated } = crashLines(report);
    const base = {
      device_serial: deviceSerial,
      package: report.package,
      pid: report.pid,
      process: cut(report.process, 512),
      signature: cut(report.signature, 2000)!,
      signature_hash: report.signatureHash,
      time_ms: report.timeMs,
      first_line_seq: lineSeqs.first,
      last_line_seq: lineSeqs.last,
      lines,
      truncated,
      build: this.build(deviceSerial, report.package),
    };
    const meta = {
      stream: `device:${deviceSerial}`,
      device: deviceSerial,
      package: report.package,
      actor: systemActor(),
    };
    const store = this.store();
    switch (report.kind) {
      case 'java':
        return store.append(
          AppCrashed,
          {
            ...base,
            thread: cut(report.thread, 512)!,
            exception_class: cut(report.exceptionClass, 512)!,
            message: cut(report.message, 4000),
            r8_map_ids: r8MapIdsOfFrames([...report.frames, ...report.causes.flatMap((c) => c.frames)]),
          },
          meta,
        );
      case 'native':
        return store.append(
          AppNativeCrashed,
          {
            ...base,
            signal: cut(report.signal, 32),
            fault_address: cut(report.faultAddress, 64),
            abort_message: cut(report.abortMessage, 4000),
            has_tombstone: report.hasTombstone,
          },
          meta,
        );
      case 'anr':
        return store.append(
          AppNotResponding,
          { ...base, component: cut(report.component, 512), reason: cut(report.reason, 4000) },
          meta,
        );
    }
  }

  private build(deviceSerial: string, pkg: string | null) {
    if (pkg === null || !this.installs) return null;
    let installed: ReturnType<InstalledBuildLookup['installedBuild']>;
    try {
      installed = this.installs.installedBuild(deviceSerial, pkg);
    } catch {
      // An unreadable read model must not lose the crash: it is recorded without its build.
      return null;
    }
    if (!installed) return null;
    return {
      build_id: installed.buildId,
      apk_sha256: installed.apkSha256,
      version_code: installed.versionCode,
      variant: installed.variant,
      installed_seq: installed.installedSeq,
    };
  }
}
