import { ToolError } from '../../../kernel/errors.js';
import type { ToolContext } from '../../../kernel/tool-definition.js';
import type { BuildRecord } from './build-history.js';
import { isSessionEnd, type BuildHandle, type BuildService } from './build-service.js';

export const PROGRESS_INTERVAL_MS = 2000;

/**
 * Waits for a build on behalf of a request: progress every 2 s (elapsed seconds and the current
 * `> Task`), request cancellation cancels this build (recorded as cancelled by the caller), and a
 * session that ends leaves the build running to completion.
 */
export async function awaitBuild(service: BuildService, handle: BuildHandle, ctx: ToolContext): Promise<BuildRecord | 'detached'> {
  const started = Date.now();
  const timer = setInterval(() => {
    const elapsed = Math.floor((Date.now() - started) / 1000);
    const task = service.currentTask(handle.buildId);
    void ctx.progress({ progress: elapsed, message: `${elapsed} s elapsed${task ? `, > Task ${task}` : ''}` });
  }, PROGRESS_INTERVAL_MS);
  try {
    const aborted = new Promise<'aborted'>((resolve) => {
      if (ctx.signal.aborted) resolve('aborted');
      else ctx.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    const first = await Promise.race([handle.done, aborted]);
    if (first !== 'aborted') return first;
    if (isSessionEnd(ctx.signal.reason)) return 'detached';
    service.cancelOwn(handle.buildId, ctx.actor);
    return await handle.done;
  } finally {
    clearInterval(timer);
  }
}

/** A failed, cancelled or timed-out build is an isError result the model can act on. */
export function failureError(record: BuildRecord, summary: string, topErrors: string[]): ToolError {
  const code = record.status === 'timed_out' ? 'TIMEOUT' : record.status === 'cancelled' ? 'CANCELLED' : 'BUILD_FAILED';
  const next =
    record.status === 'failed'
      ? ` Call get_build_errors (build_id "${record.id}") for every diagnostic, or get_build_log for the output.`
      : record.status === 'timed_out'
        ? ` Raise buildTimeoutSec in settings.json or timeout_sec if the build needs longer; get_build_log (build_id "${record.id}") shows where it stopped.`
        : '';
  return new ToolError(code, `${summary}${topErrors.length ? `\n${topErrors.join('\n')}` : ''}${next}`, { build_id: record.id, status: record.status });
}
