import { setTimeout as delay } from 'node:timers/promises';
import { ToolError } from '../../../kernel/errors.js';
import type { ToolContext } from '../../../kernel/tool-definition.js';
import type { UiCapture, UiCapturer } from './ui-capturer.js';

/** Pause between reads: UI Automator itself waits for idle, so this only keeps a fast device from spinning. */
const POLL_PAUSE_MS = 200;

export type PollOutcome<T> =
  | {
      readonly done: true;
      readonly capture: UiCapture;
      readonly result: T;
      readonly elapsedMs: number;
      readonly captures: number;
    }
  | {
      readonly done: false;
      readonly last: UiCapture | null;
      readonly lastError: string | null;
      readonly elapsedMs: number;
      readonly captures: number;
    };

/**
 * Captures the screen until `check` returns a result (not null) or `timeoutMs` passes, reporting progress
 * after every read and stopping when the client cancels. A read that times out or cannot get idle counts
 * as a miss; a busy UI Automator (another client) and device failures end the wait at once.
 */
export async function pollScreen<T>(
  capturer: UiCapturer,
  serial: string,
  ctx: ToolContext,
  timeoutMs: number,
  check: (capture: UiCapture, previous: UiCapture | null) => T | null,
): Promise<PollOutcome<T>> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let last: UiCapture | null = null;
  let lastError: string | null = null;
  let captures = 0;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { done: false, last, lastError, elapsedMs: Date.now() - started, captures };
    let capture: UiCapture;
    try {
      capture = await capturer.capture(serial, { signal: ctx.signal, deadlineMs: Math.max(remaining, 1) });
    } catch (error) {
      if (error instanceof ToolError && error.code === 'UI_CAPTURE_TIMEOUT') {
        lastError = error.message.slice(0, 200);
        continue;
      }
      throw error;
    }
    captures++;
    const result = check(capture, last);
    last = capture;
    if (result !== null) return { done: true, capture, result, elapsedMs: Date.now() - started, captures };
    await ctx.progress({
      progress: Math.min(Date.now() - started, timeoutMs),
      total: timeoutMs,
      message: `read ${captures}: not yet (screen ${capture.screenHash})`,
    });
    const pause = Math.min(POLL_PAUSE_MS, deadline - Date.now());
    if (pause > 0) {
      try {
        await delay(pause, undefined, { signal: ctx.signal });
      } catch {
        throw new ToolError('CANCELLED', 'The wait was cancelled.');
      }
    }
  }
}
