import type { UiSnapshot } from '../../../android/ui/ui-dump-parser.js';

/** One capture of a device's screen: the parsed dump and what identifies it. */
export interface UiCapture {
  readonly deviceSerial: string;
  readonly snapshot: UiSnapshot;
  /** computeScreenHash(snapshot): equal for the same screen, different for a changed one. */
  readonly screenHash: string;
  /** The resumed activity (`com.example/.MainActivity`) when the device said, else null. */
  readonly activity: string | null;
  /** UTC epoch ms when the dump was taken, and how long the capture took (lock wait included). */
  readonly capturedAt: number;
  readonly durationMs: number;
}

export interface UiCaptureOptions {
  /** Whole-capture deadline in ms (default and maximum 60,000; each attempt at most 25,000). */
  readonly deadlineMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * Captures a device's UI hierarchy, one capture per device at a time across every droidwright process (a lock
 * row keyed by serial), and remembers this process's previous capture of each device so tools can return diffs.
 * Failures are ToolErrors with codes: UI_BUSY (another droidwright process or UI Automator client holds the
 * device), UI_CAPTURE_TIMEOUT (the deadline passed), DEVICE_* as other device tools report them.
 */
export const UiCapturer = Symbol.for('droidwright.ui.UiCapturer');
export interface UiCapturer {
  capture(deviceSerial: string, options?: UiCaptureOptions): Promise<UiCapture>;
  /** The capture before the newest one of this device in this process, for `compare_ui_state` and action diffs. */
  previous(deviceSerial: string): UiCapture | null;
  /** The newest capture of this device in this process. */
  latest(deviceSerial: string): UiCapture | null;
}
