import type { AdbService } from '../../../android/adb-service.js';
import { sh, type DeviceCommand } from '../../../android/device-command.js';
import { CrashDetector, type CrashReport } from '../../../android/logcat/crash-detector.js';
import { LogcatBinaryDecoder } from '../../../android/logcat/logcat-binary-decoder.js';
import type { LogcatEntry } from '../../../android/logcat/logcat-entry.js';
import type { EventStore } from '../../../events/event-store.js';
import { currentProcess, isProcessAlive, type ProcessIdentity } from '../../../kernel/process-identity.js';
import type { SettingsValues } from '../../../kernel/settings.js';
import { type Actor, systemActor } from '../../../shared/actor.js';
import { LogcatStarted, LogcatStopped } from '../logcat.events.js';
import type { CrashSink } from './crash-sink.js';
import { LogcatLease, type LogcatLeaseRow } from './logcat-lease.js';
import type { LogLineStore, StoredLogLine } from './log-line-store.js';
import { PidPackages } from './pid-packages.js';

/**
 * `logcat -B` measured faster than `-v threadtime` through the real adb server (scripts/measure-sim-flood.mjs at
 * 300,000 lines/s requested: binary delivered 138,660 lines/s, text 103,979), and needs no timestamp guessing.
 */
export const LOGCAT_FORMAT = 'binary' as const;
/** The buffers a phone's `logcat` shows by default; `crash` holds the Java crash blocks on Android 7+. */
export const LOGCAT_BUFFERS = ['main', 'system', 'crash'] as const;

/** Entries per line-store transaction, and the most waiting to be stored before the socket is paused. */
const BATCH_ENTRIES = 5000;
const PAUSE_AT_ENTRIES = 4 * BATCH_ENTRIES;
/** A partial batch is stored after this long, so readers see lines within a fraction of a second. */
const FLUSH_MS = 50;
/** How often the worker reads its lease row (stop request, idle clock) and ticks the crash detector. */
const POLL_MS = 500;
/** Where the stream got to is written to the lease at most this often. */
const PROGRESS_MS = 1000;
/** How long a worker waits for the process that started it to hand over the lease, while that process lives. */
const HANDOVER_WAIT_MS = 60_000;
/** Attempts to store one batch before its lines are counted as dropped. */
const STORE_ATTEMPTS = 3;
/** Stored lines read back to recognise the ones a resumed stream repeats (all share the resume millisecond). */
const BOUNDARY_LINES = 100_000;
/** Tags whose lines can be part of a crash block; only their store seqs are remembered for the crash sink. */
const CRASH_TAGS = new Set(['AndroidRuntime', 'ActivityManager', 'DEBUG', 'libc', 'crash_dump32', 'crash_dump64']);

export type LogcatStopReason = 'requested' | 'device_gone' | 'idle' | 'signal' | 'error';

export interface LogcatWorkerCounts {
  /** Entries decoded from the device, repeats of already stored boundary lines included. */
  read: number;
  stored: number;
  evicted: number;
  dropped: number;
}

export interface LogcatWorkerOutcome {
  readonly reason: LogcatStopReason;
  readonly detail: string | null;
  readonly counts: LogcatWorkerCounts;
}

export interface LogcatWorkerDeps {
  readonly adb: Pick<AdbService, 'openExecStream' | 'shell' | 'listDevices'>;
  readonly events: () => EventStore;
  readonly lines: LogLineStore;
  /** Null when no crash recorder is bound: lines are still stored. */
  readonly crashes: CrashSink | null;
  readonly settings: Pick<SettingsValues, 'logcatIdleMinutes' | 'logcatReconnectSeconds'>;
  readonly log?: (message: string) => void;
}

type ByteStream = NodeJS.ReadableStream & { destroy(): void };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function lineKey(pid: number, tid: number | null, level: string, tag: string, message: string): string {
  return `${pid}\u0000${tid ?? ''}\u0000${level}\u0000${tag}\u0000${message}`;
}

/**
 * The lines already stored at the resume millisecond: `logcat -T <time>` repeats them, and each is skipped once.
 * The first entry past that millisecond ends the check.
 */
export class ResumeBoundary {
  private readonly keys = new Map<string, number>();
  private open = true;

  constructor(
    readonly resumeMs: number,
    stored: readonly Pick<StoredLogLine, 'pid' | 'tid' | 'level' | 'tag' | 'message' | 'timeMs'>[],
  ) {
    for (const line of stored) {
      if (line.timeMs !== resumeMs) continue;
      const key = lineKey(line.pid, line.tid, line.level, line.tag, line.message);
      this.keys.set(key, (this.keys.get(key) ?? 0) + 1);
    }
  }

  /** True when `entry` repeats a stored line (and consumes it). */
  repeats(entry: LogcatEntry): boolean {
    if (!this.open) return false;
    if (entry.timeMs === null || entry.timeMs > this.resumeMs || this.keys.size === 0) {
      this.open = false;
      return false;
    }
    if (entry.timeMs < this.resumeMs) return false;
    const key = lineKey(entry.pid, entry.tid, entry.level, entry.tag, entry.message);
    const left = this.keys.get(key);
    if (left === undefined) return false;
    if (left <= 1) this.keys.delete(key);
    else this.keys.set(key, left - 1);
    return true;
  }
}

/** `logcat -T` takes an epoch time as `<seconds>.<milliseconds>`. */
export function logcatCommand(resumeMs: number | null): DeviceCommand {
  const buffers = LOGCAT_BUFFERS.join(',');
  if (resumeMs === null) return sh`logcat -B -b ${buffers}`;
  const since = `${Math.floor(resumeMs / 1000)}.${String(resumeMs % 1000).padStart(3, '0')}`;
  return sh`logcat -B -b ${buffers} -T ${since}`;
}

/**
 * Streams one device's log into the line store: the body of `droidwright logcat-worker <serial>`, a detached process
 * holding the device's lease. Reads `logcat -B` through the adb server, stores lines in batches with their package,
 * hands every crash block to the crash sink with its line seqs, resumes after a device comes back (or after a dead
 * worker) from the last stored line without storing it twice, and records logcat.started / logcat.stopped.
 */
export class LogcatWorker {
  private readonly lease: LogcatLease;
  private readonly detector = new CrashDetector();
  private readonly seqOfCrashLine = new WeakMap<LogcatEntry, number>();
  private readonly counts: LogcatWorkerCounts = { read: 0, stored: 0, evicted: 0, dropped: 0 };
  private pending: LogcatEntry[] = [];
  private stream: ByteStream | null = null;
  private paused = false;
  private pumping: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private stopRequest: { reason: LogcatStopReason; detail: string | null; actor: Actor | null } | null = null;
  private wakeStop: (() => void) | null = null;
  private resumeMs: number | null = null;
  private lastStoredAt: number | null = null;
  private progressWrittenAt = 0;
  private pids: PidPackages | null = null;
  /** The device this worker streams (set by `run`). */
  private serial = '';

  constructor(private readonly deps: LogcatWorkerDeps) {
    this.lease = new LogcatLease(deps.events());
  }

  /** Stops the stream (SIGTERM and the like): recorded as `signal`. */
  stop(reason: LogcatStopReason, detail: string | null = null, actor: Actor | null = null): void {
    this.stopRequest ??= { reason, detail, actor };
    this.stream?.destroy();
    const wake = this.wakeStop;
    this.wakeStop = null;
    wake?.();
  }

  /**
   * Waits for the lease to name this process (or takes a lease nobody live holds), streams until a stop condition,
   * and records the end. Null when another worker holds the device (nothing was recorded).
   */
  async run(serial: string, me: ProcessIdentity = currentProcess()): Promise<LogcatWorkerOutcome | null> {
    const lease = await this.awaitLease(serial, me);
    if (!lease) return null;
    this.serial = serial;
    this.pids = new PidPackages(
      async (command) => (await this.deps.adb.shell(serial, command, { timeoutMs: 10_000 })).output,
    );
    const evictedBefore = this.evictedSoFar(serial);
    const resumeMs = this.resumePoint(serial, lease);
    // A device that goes away before a new line is stored is reopened from here too, not from its buffer's start.
    this.resumeMs = resumeMs;
    let first: ByteStream;
    try {
      first = await this.open(serial, resumeMs);
    } catch (error) {
      // Never streamed: nothing to record; the process that started us reads the reason from our log.
      this.lease.finish(serial, me);
      throw error;
    }
    if (!this.lease.markStreaming(serial, me)) {
      first.destroy();
      return null;
    }
    this.appendStarted(serial, me, lease);
    const poller = setInterval(() => this.poll(serial, me), POLL_MS);
    try {
      await this.streamLoop(serial, first);
    } finally {
      clearInterval(poller);
    }
    await this.drain();
    for (const report of this.detector.flush()) this.recordCrash(serial, report);
    this.writeProgress(serial, me, true);
    const evictedAfter = this.evictedSoFar(serial);
    this.counts.evicted = Math.max(0, evictedAfter - evictedBefore);
    const stop = this.stopRequest ?? { reason: 'error' as const, detail: 'the stream ended', actor: null };
    this.appendStopped(serial, me, lease, stop);
    this.lease.finish(serial, me);
    return { reason: stop.reason, detail: stop.detail, counts: { ...this.counts } };
  }

  private async awaitLease(serial: string, me: ProcessIdentity): Promise<LogcatLeaseRow | null> {
    const deadline = Date.now() + HANDOVER_WAIT_MS;
    for (;;) {
      if (this.stopRequest) return null;
      const row = this.lease.read(serial);
      if (row && row.pid === me.pid && row.startTime === me.startTime && row.state === 'starting') return row;
      const holderAlive = row !== null && row.state !== 'stopped' && isProcessAlive(row.pid, row.startTime);
      // Started by hand, or the process that started us died before handing over: take a lease nobody holds.
      if (!holderAlive) {
        const claim = this.lease.claim(serial, me, row?.actor ?? systemActor());
        if (claim.claimed) return this.lease.read(serial);
        return null;
      }
      // A live holder that is a streaming worker (or is not handing over to us in time): it has the device.
      if (row.state === 'streaming' || Date.now() >= deadline) return null;
      await sleep(50);
    }
  }

  /** Newest device time stored: the later of the lease's record and the line store's newest line. */
  private resumePoint(serial: string, lease: LogcatLeaseRow): number | null {
    let newest: number | null = null;
    try {
      const counts = this.deps.lines.counts(serial);
      if (counts.newestSeq !== null) {
        newest = this.deps.lines.range(serial, counts.newestSeq, counts.newestSeq, 1)[0]?.timeMs ?? null;
      }
    } catch (error) {
      this.say(`could not read the newest stored line: ${(error as Error).message}`);
    }
    if (lease.resumeMs === null) return newest;
    return newest === null ? lease.resumeMs : Math.max(newest, lease.resumeMs);
  }

  private boundaryAt(serial: string, resumeMs: number | null): ResumeBoundary | null {
    if (resumeMs === null) return null;
    try {
      const page = this.deps.lines.query({ deviceSerial: serial, sinceMs: resumeMs }, BOUNDARY_LINES);
      return new ResumeBoundary(resumeMs, page.lines);
    } catch (error) {
      this.say(`could not read the lines at the resume point: ${(error as Error).message}`);
      return new ResumeBoundary(resumeMs, []);
    }
  }

  private evictedSoFar(serial: string): number {
    try {
      return this.deps.lines.counts(serial).evicted;
    } catch {
      return 0;
    }
  }

  private async open(serial: string, resumeMs: number | null): Promise<ByteStream> {
    const stream = await this.deps.adb.openExecStream(serial, logcatCommand(resumeMs));
    this.attach(stream, this.boundaryAt(serial, resumeMs));
    return stream;
  }

  private attach(stream: ByteStream, boundary: ResumeBoundary | null): void {
    this.stream = stream;
    this.paused = false;
    const decoder = new LogcatBinaryDecoder();
    stream.on('data', (chunk: Buffer) => {
      const entries = decoder.push(chunk);
      this.counts.read += entries.length;
      for (const entry of entries) if (boundary === null || !boundary.repeats(entry)) this.pending.push(entry);
      if (this.pending.length >= BATCH_ENTRIES) this.kick();
      else this.flushTimer ??= setTimeout(() => this.kick(), FLUSH_MS);
      if (this.pending.length >= PAUSE_AT_ENTRIES && !this.paused) {
        this.paused = true;
        stream.pause();
      }
    });
  }

  /** Streams until a stop; a stream that ends is reopened from the resume point while the device comes back in time. */
  private async streamLoop(serial: string, first: ByteStream): Promise<void> {
    let stream: ByteStream | null = first;
    while (!this.stopRequest) {
      if (stream) {
        await this.ended(stream);
        stream = null;
        if (this.stopRequest) break;
        await this.drain();
        this.say(`the stream of ${serial} ended; waiting for the device`);
      }
      stream = await this.reconnect(serial);
    }
  }

  /** Resolves when the stream ends or a stop is requested. */
  private ended(stream: ByteStream): Promise<void> {
    return new Promise((resolve) => {
      const finish = (): void => {
        this.wakeStop = null;
        resolve();
      };
      stream.once('end', finish);
      stream.once('close', finish);
      stream.once('error', (error: Error) => {
        this.say(`stream error: ${error.message}`);
        finish();
      });
      this.wakeStop = finish;
      if (this.stopRequest) finish();
    });
  }

  /** Reopens the stream once the device is online again; stops as `device_gone` after the reconnect window. */
  private async reconnect(serial: string): Promise<ByteStream | null> {
    const deadline = Date.now() + this.deps.settings.logcatReconnectSeconds * 1000;
    while (!this.stopRequest) {
      let online = false;
      try {
        online = (await this.deps.adb.listDevices()).some((d) => d.serial === serial && d.state === 'device');
      } catch {
        // The adb server itself may be restarting; it counts against the same window.
      }
      if (online) {
        try {
          const stream = await this.open(serial, this.resumeMs);
          this.say(`streaming ${serial} again from ${this.resumeMs ?? 'the start of its buffer'}`);
          return stream;
        } catch (error) {
          this.say(`could not reopen the stream: ${(error as Error).message}`);
        }
      }
      if (Date.now() >= deadline) {
        this.stop('device_gone', `${serial} was not back online within ${this.deps.settings.logcatReconnectSeconds} s`);
        return null;
      }
      await this.sleepUnlessStopped(500);
    }
    return null;
  }

  private sleepUnlessStopped(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeStop = null;
        resolve();
      }, ms);
      this.wakeStop = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private kick(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    this.pumping ??= this.pump().finally(() => {
      this.pumping = null;
      if (this.pending.length > 0) this.kick();
    });
  }

  /** Stores everything read so far (and waits for a store in progress). */
  private async drain(): Promise<void> {
    while (this.pending.length > 0 || this.pumping) {
      this.kick();
      await this.pumping;
    }
  }

  private async pump(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.length > BATCH_ENTRIES ? this.pending.splice(0, BATCH_ENTRIES) : this.pending;
      if (batch === this.pending) this.pending = [];
      const serial = this.serial;
      if (this.pids) {
        const pids = new Set<number>();
        for (const entry of batch) pids.add(entry.pid);
        await this.pids.refreshFor(pids);
      }
      await this.store(serial, batch);
      if (this.paused && this.pending.length < BATCH_ENTRIES) {
        this.paused = false;
        this.stream?.resume();
      }
    }
  }

  private async store(serial: string, batch: LogcatEntry[]): Promise<void> {
    const packageOf = this.pids?.packageOf ?? (() => null);
    let seqs: { first: number; last: number } | null = null;
    let failure: unknown = null;
    for (let attempt = 0; attempt < STORE_ATTEMPTS; attempt++) {
      try {
        seqs = this.deps.lines.append(serial, batch, packageOf);
        failure = null;
        break;
      } catch (error) {
        failure = error;
        await sleep(100 * (attempt + 1));
      }
    }
    if (failure) {
      this.counts.dropped += batch.length;
      this.say(`dropped ${batch.length} lines the line store refused: ${(failure as Error).message}`);
      try {
        this.deps.lines.countDropped(serial, batch.length);
      } catch {
        // Counted in logcat.stopped all the same.
      }
    } else {
      this.counts.stored += batch.length;
      this.lastStoredAt = Date.now();
    }
    for (const entry of batch)
      if (entry.timeMs !== null && (this.resumeMs === null || entry.timeMs > this.resumeMs))
        this.resumeMs = entry.timeMs;
    // Seqs are consecutive within one append; anything else and the crash gets no line link rather than a wrong one.
    const consecutive = seqs !== null && seqs.last - seqs.first + 1 === batch.length;
    const now = Date.now();
    for (let i = 0; i < batch.length; i++) {
      const entry = batch[i]!;
      if (consecutive && CRASH_TAGS.has(entry.tag)) this.seqOfCrashLine.set(entry, seqs!.first + i);
      const reports = this.detector.push(entry, now);
      for (const report of reports) this.recordCrash(serial, report);
    }
  }

  private recordCrash(serial: string, report: CrashReport): void {
    if (!this.deps.crashes) return;
    const first = report.entries[0];
    const last = report.entries[report.entries.length - 1];
    try {
      this.deps.crashes.record(serial, report, {
        first: first ? (this.seqOfCrashLine.get(first) ?? null) : null,
        last: last ? (this.seqOfCrashLine.get(last) ?? null) : null,
      });
    } catch (error) {
      this.say(`could not record a ${report.kind} crash: ${(error as Error).message}`);
    }
  }

  private poll(serial: string, me: ProcessIdentity): void {
    for (const report of this.detector.tick(Date.now())) this.recordCrash(serial, report);
    let row: LogcatLeaseRow | null;
    try {
      row = this.lease.read(serial);
    } catch (error) {
      this.say(`could not read the lease: ${(error as Error).message}`);
      return;
    }
    if (!row || row.pid !== me.pid || row.startTime !== me.startTime || row.state === 'stopped') {
      this.stop('error', "another process took over this device's lease");
      return;
    }
    if (row.stopActor) {
      this.stop('requested', null, row.stopActor);
      return;
    }
    const idleMs = this.deps.settings.logcatIdleMinutes * 60_000;
    if (Date.now() - row.touchedAt >= idleMs) {
      this.stop('idle', `no reader for ${this.deps.settings.logcatIdleMinutes} min`);
      return;
    }
    this.writeProgress(serial, me, false);
  }

  private writeProgress(serial: string, me: ProcessIdentity, force: boolean): void {
    if (this.lastStoredAt === null) return;
    if (!force && (this.lastStoredAt <= this.progressWrittenAt || Date.now() - this.progressWrittenAt < PROGRESS_MS))
      return;
    try {
      this.lease.progress(serial, me, this.resumeMs, this.lastStoredAt);
      this.progressWrittenAt = Date.now();
    } catch (error) {
      this.say(`could not record progress: ${(error as Error).message}`);
    }
  }

  private appendStarted(serial: string, me: ProcessIdentity, lease: LogcatLeaseRow): void {
    this.deps.events().append(
      LogcatStarted,
      {
        device_serial: serial,
        pid: me.pid,
        format: LOGCAT_FORMAT,
        buffers: [...LOGCAT_BUFFERS],
        took_over: lease.tookOver,
      },
      { stream: `logcat:${serial}`, device: serial, actor: lease.actor },
    );
  }

  private appendStopped(
    serial: string,
    me: ProcessIdentity,
    lease: LogcatLeaseRow,
    stop: { reason: LogcatStopReason; detail: string | null; actor: Actor | null },
  ): void {
    try {
      this.deps.events().append(
        LogcatStopped,
        {
          device_serial: serial,
          pid: me.pid,
          reason: stop.reason,
          detail: stop.detail?.slice(0, 1000) ?? null,
          ...this.counts,
        },
        { stream: `logcat:${serial}`, device: serial, actor: stop.actor ?? lease.actor },
      );
    } catch (error) {
      this.say(`could not record logcat.stopped: ${(error as Error).message}`);
    }
  }

  private say(message: string): void {
    (this.deps.log ?? ((m: string) => process.stderr.write(`${new Date().toISOString()} ${m}\n`)))(message);
  }
}
