import { PRIORITY, type LogBuffers } from './log-buffers.js';

/** The app the flood logs as, so readers can filter or resolve it like any package. */
export const FLOOD_PACKAGE = 'com.droidwright.logflood';
export const FLOOD_TAG = 'LogFlood';
/** How often the flood wakes to log the lines due since its start; one timer per tick, never one per line. */
const TICK_MS = 5;
/** After a stall (GC, a blocked event loop) the flood catches up at most this much of its schedule; the rest is
 * forgiven (the pace resumes from now), so no sequence number is ever skipped. */
const MAX_CATCH_UP_MS = 1000;
/** Text after the sequence number, so a line is about as long as typical app logging (~100 bytes in `-B`). */
const FILLER = ' the quick brown fox jumps over the lazy dog 0123456789';

/**
 * `droidwright sim --log-rate N`: logs N lines a second to the main buffer, paced in batches. Each message starts
 * with `seq=<n>` (1, 2, 3, … with no gaps) so a reader counts what it lost.
 */
export function startLogFlood(
  logs: LogBuffers,
  options: { readonly rate: number; readonly pid: number; readonly uid: number; readonly clock: () => number },
): { stop(): void } {
  const { rate, pid, uid } = options;
  const start = performance.now();
  /** Lines given up after stalls: the pace resumes from now instead of bursting them (no sequence number skipped). */
  let forgiven = 0;
  let logged = 0;
  const timer = setInterval(() => {
    let due = Math.floor(((performance.now() - start) * rate) / 1000) - forgiven;
    const catchUp = Math.ceil((rate * MAX_CATCH_UP_MS) / 1000);
    if (due - logged > catchUp) {
      forgiven += due - logged - catchUp;
      due = logged + catchUp;
    }
    // Every line of a batch shares the wall clock: the batch is logged at one instant, like a burst.
    const timeMs = options.clock();
    while (logged < due) {
      logged++;
      logs.append({
        buffer: 'main',
        priority: PRIORITY.I,
        tag: FLOOD_TAG,
        message: `seq=${logged}${FILLER}`,
        pid,
        tid: pid + (logged % 4),
        uid,
        timeMs,
      });
    }
  }, TICK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
