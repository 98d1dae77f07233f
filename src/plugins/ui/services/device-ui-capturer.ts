import { setTimeout as delay } from 'node:timers/promises';
import { inject, injectable } from 'inversify';
import { AdbService } from '../../../android/adb-service.js';
import { sh } from '../../../android/device-command.js';
import { computeScreenHash } from '../../../android/ui/screen-hash.js';
import { parseUiDump, UiDumpParseError } from '../../../android/ui/ui-dump-parser.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { ToolError } from '../../../kernel/errors.js';
import { UiCaptureLock } from './ui-capture-lock.js';
import type { UiCapture, UiCaptureOptions, UiCapturer } from './ui-capturer.js';

/** The whole capture, lock wait included. */
export const UI_CAPTURE_DEADLINE_MS = 60_000;
/** One `uiautomator dump`: a dump of a busy screen takes seconds on a slow device, never this long. */
export const UI_CAPTURE_ATTEMPT_MS = 25_000;
const LOCK_POLL_MS = 100;
const RETRY_PAUSE_MS = 300;
/** A dump of 5,000 nodes is about 2 MiB; more is not a window hierarchy. */
const MAX_DUMP_BYTES = 16 * 1024 * 1024;
const DEVICE_DUMP_FILE = '/data/local/tmp/droidwright-window-dump.xml';

/*
 * The dump and the resumed activity in one round trip: `exec:` (adb exec-out) carries the XML byte for byte,
 * and the activity costs one grep on the device rather than a second adb command. `2>&1` because uiautomator
 * reports "already registered" and "could not get idle state" on stderr on some versions.
 */
const EXEC_OUT_DUMP = sh`uiautomator dump /dev/tty 2>&1; dumpsys activity activities 2>/dev/null | grep -E ResumedActivity`;
/* For devices whose exec: service or /dev/tty refuses: dump to a file, read it back, remove it. */
const FILE_DUMP = sh`uiautomator dump ${DEVICE_DUMP_FILE} 2>&1 && cat ${DEVICE_DUMP_FILE}; rm -f ${DEVICE_DUMP_FILE}; dumpsys activity activities 2>/dev/null | grep -E ResumedActivity`;

const ALREADY_REGISTERED = /already registered/i;
/** Transient: the app was animating (no idle within uiautomator's own wait) or the window was being replaced. */
const TRANSIENT = /could not get idle state|null root node|UiAutomationService not connected|Killed/i;
const RESUMED = /ResumedActivity[:=]\s*ActivityRecord\{\S+ \S+ ([\w.$]+\/[\w.$]+)/;

/** The resumed activity from `dumpsys activity activities | grep ResumedActivity` output, as `pkg/.Activity`. */
export function parseResumedActivity(text: string): string | null {
  const match = RESUMED.exec(text);
  return match ? match[1] : null;
}

type Attempt =
  | { readonly kind: 'dump'; readonly xml: string; readonly activity: string | null }
  | { readonly kind: 'transient'; readonly why: string }
  /** The device did not answer within the attempt's time (ours, not the device's, reason). */
  | { readonly kind: 'timeout'; readonly why: string }
  | { readonly kind: 'refused'; readonly why: string };

function classify(text: string): Attempt {
  const end = text.lastIndexOf('</hierarchy>');
  if (text.includes('<hierarchy') && end >= 0) {
    return {
      kind: 'dump',
      xml: text.slice(0, end + '</hierarchy>'.length),
      activity: parseResumedActivity(text.slice(end)),
    };
  }
  const why = firstLine(text);
  if (ALREADY_REGISTERED.test(text)) throw alreadyRegistered();
  if (TRANSIENT.test(text)) return { kind: 'transient', why };
  return { kind: 'refused', why };
}

function firstLine(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !l.startsWith('UI hierchary dumped'));
  return (line ?? 'no output').slice(0, 200);
}

function alreadyRegistered(): ToolError {
  return new ToolError(
    'UI_BUSY',
    'UI Automator on the device is busy with another client ("already registered": a running instrumentation test, an Appium or uiautomator2 server, or another automation tool). Stop that client, then retry.',
  );
}

/**
 * `UiCapturer` over adb: one capture per device at a time in this process (a queue) and across processes
 * (UiCaptureLock), the dump through exec-out with a dump-to-file fallback, retried while the device says it
 * could not get idle, within a whole-capture deadline.
 */
@injectable()
export class DeviceUiCapturer implements UiCapturer {
  private lockInstance: UiCaptureLock | undefined;
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly history = new Map<string, { previous: UiCapture | null; latest: UiCapture }>();
  /** Devices whose exec: service or /dev/tty did not give a dump: they go straight to the file path. */
  private readonly fileDumpDevices = new Set<string>();

  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
  ) {}

  private lock(): UiCaptureLock {
    return (this.lockInstance ??= new UiCaptureLock(this.store()));
  }

  previous(deviceSerial: string): UiCapture | null {
    return this.history.get(deviceSerial)?.previous ?? null;
  }

  latest(deviceSerial: string): UiCapture | null {
    return this.history.get(deviceSerial)?.latest ?? null;
  }

  capture(deviceSerial: string, options: UiCaptureOptions = {}): Promise<UiCapture> {
    const started = Date.now();
    const deadlineMs = Math.min(Math.max(1, options.deadlineMs ?? UI_CAPTURE_DEADLINE_MS), UI_CAPTURE_DEADLINE_MS);
    const deadline = started + deadlineMs;
    // Captures of one device in this process run one after another; the lock row orders them across processes.
    const before = this.queues.get(deviceSerial) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.captureLocked(deviceSerial, started, deadline, options));
    const tail = run.catch(() => undefined);
    this.queues.set(deviceSerial, tail);
    void tail.then(() => {
      if (this.queues.get(deviceSerial) === tail) this.queues.delete(deviceSerial);
    });
    return run;
  }

  private async captureLocked(
    serial: string,
    started: number,
    deadline: number,
    options: UiCaptureOptions,
  ): Promise<UiCapture> {
    const token = await this.acquire(serial, deadline, options.signal);
    try {
      const { xml, activity } = await this.dump(serial, started, deadline, options.signal);
      let snapshot;
      try {
        snapshot = parseUiDump(xml);
      } catch (error) {
        if (!(error instanceof UiDumpParseError)) throw error;
        throw new ToolError(
          'COMMAND_FAILED',
          `The UI dump of ${serial} could not be read (${error.message}). Retry; if it persists, run \`adb -s ${serial} exec-out uiautomator dump /dev/tty\` to see what the device returns.`,
        );
      }
      const capture: UiCapture = {
        deviceSerial: serial,
        snapshot,
        screenHash: computeScreenHash(snapshot),
        activity,
        capturedAt: Date.now(),
        durationMs: Date.now() - started,
      };
      this.history.set(serial, { previous: this.history.get(serial)?.latest ?? null, latest: capture });
      return capture;
    } finally {
      this.lock().release(serial, token);
    }
  }

  private async acquire(serial: string, deadline: number, signal?: AbortSignal): Promise<string> {
    for (;;) {
      const result = this.lock().tryAcquire(serial);
      if (result.acquired) return result.token;
      if (Date.now() + LOCK_POLL_MS > deadline) {
        throw new ToolError(
          'UI_BUSY',
          `Device ${serial} is busy with another droidwright process (pid ${result.holder.pid}) capturing its screen. Retry in a moment.`,
          { holder_pid: result.holder.pid },
        );
      }
      await pause(LOCK_POLL_MS, signal);
    }
  }

  private async dump(
    serial: string,
    started: number,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<{ xml: string; activity: string | null }> {
    let attempts = 0;
    let lastWhy = '';
    // What the device itself answered: a last attempt starved by the deadline ("no answer within 0 s") must not hide it.
    let deviceWhy = '';
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new ToolError(
          'UI_CAPTURE_TIMEOUT',
          `The screen of ${serial} could not be captured within ${Math.max(1, Math.round((deadline - started) / 1000))} s${attempts > 0 ? ` (${attempts} attempt${attempts === 1 ? '' : 's'}; last: ${lastWhy}${deviceWhy && deviceWhy !== lastWhy ? `; before that: ${deviceWhy}` : ''})` : ''}. UI Automator waits for the app to be idle: an endless animation or a busy main thread keeps it from answering. Retry, or wait for the app to settle.`,
        );
      }
      attempts++;
      const timeoutMs = Math.min(UI_CAPTURE_ATTEMPT_MS, remaining);
      let attempt: Attempt;
      try {
        attempt = this.fileDumpDevices.has(serial)
          ? await this.fileDump(serial, timeoutMs, signal)
          : await this.execOutDump(serial, timeoutMs, signal);
        if (attempt.kind === 'refused' && !this.fileDumpDevices.has(serial)) {
          const viaFile = await this.fileDump(
            serial,
            Math.min(UI_CAPTURE_ATTEMPT_MS, Math.max(1, deadline - Date.now())),
            signal,
          );
          if (viaFile.kind === 'dump') this.fileDumpDevices.add(serial);
          attempt = viaFile;
        }
      } catch (error) {
        if (error instanceof ToolError && error.code === 'TIMEOUT') {
          attempt = { kind: 'timeout', why: `no answer within ${Math.round(timeoutMs / 1000)} s` };
        } else throw error;
      }
      if (attempt.kind === 'dump') return attempt;
      if (attempt.kind === 'transient') deviceWhy = attempt.why;
      if (attempt.kind === 'refused') {
        throw new ToolError(
          'COMMAND_FAILED',
          `uiautomator dump failed on ${serial}: ${attempt.why}. Check that the device is unlocked and its screen on, then retry.`,
        );
      }
      lastWhy = attempt.why;
      await pause(Math.min(RETRY_PAUSE_MS, Math.max(0, deadline - Date.now())), signal);
    }
  }

  private async execOutDump(serial: string, timeoutMs: number, signal?: AbortSignal): Promise<Attempt> {
    try {
      const result = await this.adb.execOut(serial, EXEC_OUT_DUMP, {
        timeoutMs,
        maxOutputBytes: MAX_DUMP_BYTES,
        signal,
      });
      return classify(result.output.toString('utf8'));
    } catch (error) {
      // adbd without the exec: service (Android before 5) answers FAIL: that is a refusal, not a dead device.
      if (error instanceof ToolError && error.code === 'COMMAND_FAILED') return { kind: 'refused', why: error.message };
      throw error;
    }
  }

  private async fileDump(serial: string, timeoutMs: number, signal?: AbortSignal): Promise<Attempt> {
    const result = await this.adb.shell(serial, FILE_DUMP, { timeoutMs, maxOutputBytes: MAX_DUMP_BYTES, signal });
    return classify(result.output);
  }
}

async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted)
    throw new ToolError('CANCELLED', 'The request was cancelled while waiting to capture the screen.');
  try {
    await delay(ms, undefined, { signal });
  } catch {
    throw new ToolError('CANCELLED', 'The request was cancelled while waiting to capture the screen.');
  }
}
