import { ToolError } from '../../../kernel/errors.js';
import type { ToolContext } from '../../../kernel/tool-definition.js';
import type { BuildRecord } from './build-history.js';
import { isSessionEnd, type BuildHandle, type BuildService } from './build-service.js';

export const PROGRESS_INTERVAL_MS = 2000;
/** After a request is cancelled, how long it waits for the worker to record the cancelled build. */
const CANCEL_WAIT_MS = 15_000;
/**
 * A request waits at most this long past the build's time limit: by then its worker has recorded the
 * end or died (and the wait reaps it). The reply then says the build is still running.
 */
const WAIT_MARGIN_MS = 60_000;

/**
 * Waits for a build on behalf of a request by reading its record (the build runs in its own worker
 * process): progress every 2 s (elapsed seconds and the current `> Task`); request cancellation asks
 * the worker to cancel this build, recorded as cancelled by the caller; a session that ends stops
 * the wait and leaves the build running to its recorded end.
 */
export async function awaitBuild(
  service: BuildService,
  handle: BuildHandle,
  ctx: ToolContext,
): Promise<BuildRecord | 'detached'> {
  const started = Date.now();
  const timer = setInterval(() => {
    const elapsed = Math.floor((Date.now() - started) / 1000);
    let task: string | null = null;
    try {
      task = service.currentTask(handle.buildId);
    } catch {
      // The store is closing with the session; the wait ends with it.
    }
    void ctx.progress({ progress: elapsed, message: `${elapsed} s elapsed${task ? `, > Task ${task}` : ''}` });
  }, PROGRESS_INTERVAL_MS);
  try {
    const record = await service.waitForEnd(handle.buildId, handle.timeoutSec * 1000 + WAIT_MARGIN_MS, ctx.signal);
    if (!record)
      throw new ToolError(
        'STORE_UNAVAILABLE',
        `Build ${handle.buildId} has no record in the event log. Check it with \`droidwright events verify\`.`,
      );
    if (record.status !== 'running' || !ctx.signal.aborted) return record;
    if (isSessionEnd(ctx.signal.reason)) return 'detached';
    service.requestCancel(handle.buildId, ctx.actor, 'request');
    return (await service.waitForEnd(handle.buildId, CANCEL_WAIT_MS)) ?? record;
  } finally {
    clearInterval(timer);
  }
}

/**
 * A failed, cancelled or timed-out build is an isError result the model can act on: the summary, the
 * first errors one a line, then what to call next on a line of its own. A summary of a failed build
 * with errors listed leaves out its reason (the first error), so nothing is said twice.
 */
export function failureError(
  record: BuildRecord,
  summary: string,
  topErrors: string[],
  details: Record<string, unknown> = {},
): ToolError {
  const code = record.status === 'timed_out' ? 'TIMEOUT' : record.status === 'cancelled' ? 'CANCELLED' : 'BUILD_FAILED';
  const next =
    record.status === 'failed' && record.diagnosticsTotal > 0
      ? `Call get_build_errors (build_id "${record.id}") for every diagnostic, or get_build_log for the output.`
      : record.status === 'failed' && record.exitCode !== null
        ? `get_build_log (build_id "${record.id}") shows the output.`
        : record.status === 'timed_out'
          ? `Raise buildTimeoutSec in settings.json or timeout_sec if the build needs longer; get_build_log (build_id "${record.id}") shows where it stopped.`
          : '';
  // A reason that ends a sentence itself must not get a second period from the summary.
  const text = summary.replace(/([.!?])\.$/, '$1');
  return new ToolError(code, [text, ...topErrors, ...(next ? [next] : [])].join('\n'), {
    build_id: record.id,
    status: record.status,
    ...details,
  });
}
