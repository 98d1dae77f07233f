import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Actor } from '../../../shared/actor.js';
import type { EventStore } from '../../../events/event-store.js';
import {
  BuildFinished,
  type BuildFinishedData,
  type FailedTestRecord,
  type FinalBuildStatus,
  type TestCounts,
} from '../build.events.js';
import type { BuildRecord } from './build-history.js';
import { countBySeverity, type BuildDiagnostic } from './gradle-output/build-diagnostic.js';

/*
 * build.finished is the one record of a build's end, so it must always fit: the event store refuses
 * `data` over 256 KiB of UTF-8, and a refused build.finished would leave the build "running" forever.
 * Everything here is measured in UTF-8 bytes (a Japanese message is three bytes a character).
 */

/** The store's cap is 256 KiB of canonical JSON; this leaves room for differences in key order and escaping. */
export const MAX_FINISHED_DATA_BYTES = 224 * 1024;
const MAX_EVENT_DIAGNOSTICS = 500;
/** One diagnostic may not take a large part of the budget (a stack trace pasted as a message). */
const MAX_MESSAGE_CHARS = 4000;
const MAX_REASON_CHARS = 2000;
/** Failed tests recorded with their stacks; their diagnostics (all of them, within the budget) say the rest. */
export const MAX_EVENT_FAILED_TESTS = 20;

export interface LogSummary {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly lines: number;
  readonly truncated_lines: number;
}

export interface FinishedFacts {
  readonly status: FinalBuildStatus;
  readonly durationMs: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly reason: string | null;
  readonly cancelledBy: string | null;
  readonly diagnostics: readonly BuildDiagnostic[];
  readonly apks: BuildRecord['apks'];
  readonly mappings: BuildRecord['mappings'];
  readonly tests: TestCounts | null;
  /** Failed tests read from the JUnit reports, when there were any. */
  readonly failedTests?: readonly FailedTestRecord[];
  readonly log: LogSummary;
  /** Set when another process recorded the end of a build whose worker died. */
  readonly reapedBy?: string;
}

function utf8Bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The data of build.finished within `budget` UTF-8 bytes: diagnostics (errors first) are dropped
 * first, then mapping and APK entries; counts and totals always describe everything. `truncated` says
 * something was left out.
 */
export function finishedEventData(
  buildId: string,
  f: FinishedFacts,
  budget = MAX_FINISHED_DATA_BYTES,
): BuildFinishedData {
  const base = {
    build_id: buildId,
    status: f.status,
    duration_ms: f.durationMs,
    exit_code: f.exitCode,
    signal: f.signal,
    reason: f.reason ? cut(f.reason, MAX_REASON_CHARS) : null,
    cancelled_by: f.cancelledBy,
    diagnostic_counts: countBySeverity(f.diagnostics),
    diagnostics: [] as BuildDiagnostic[],
    diagnostics_total: f.diagnostics.length,
    apks: f.apks.slice(0, 100),
    mappings: f.mappings.slice(0, 100),
    tests: f.tests,
    log: f.log,
    ...(f.failedTests?.length ? { failed_tests: f.failedTests.slice(0, MAX_EVENT_FAILED_TESTS) } : {}),
    ...(f.reapedBy ? { reaped_by: f.reapedBy } : {}),
  };
  let truncated = base.apks.length < f.apks.length || base.mappings.length < f.mappings.length;
  let bytes = utf8Bytes({ ...base, truncated: true });
  while (bytes > budget && (base.mappings.length > 0 || base.apks.length > 0)) {
    if (base.mappings.length > 0) base.mappings.pop();
    else base.apks.pop();
    truncated = true;
    bytes = utf8Bytes({ ...base, truncated: true });
  }
  // Errors first, so a build with thousands of warnings still records its errors.
  const ordered = [
    ...f.diagnostics.filter((d) => d.severity === 'error'),
    ...f.diagnostics.filter((d) => d.severity !== 'error'),
  ];
  for (const d of ordered) {
    if (base.diagnostics.length >= MAX_EVENT_DIAGNOSTICS) break;
    const kept = d.message.length > MAX_MESSAGE_CHARS ? { ...d, message: cut(d.message, MAX_MESSAGE_CHARS) } : d;
    // +1 for the comma between array elements.
    const size = utf8Bytes(kept) + 1;
    if (bytes + size > budget) break;
    base.diagnostics.push(kept);
    bytes += size;
  }
  if (base.diagnostics.length < f.diagnostics.length) truncated = true;
  return truncated ? { ...base, truncated: true } : base;
}

/** What is left when even the bounded record is refused: the outcome, the counts and the log's hash. */
export function minimalFinishedData(buildId: string, f: FinishedFacts): BuildFinishedData {
  return {
    build_id: buildId,
    status: f.status,
    duration_ms: f.durationMs,
    exit_code: f.exitCode,
    signal: f.signal,
    reason: f.reason ? cut(f.reason, 500) : null,
    cancelled_by: f.cancelledBy,
    diagnostic_counts: countBySeverity(f.diagnostics),
    diagnostics: [],
    diagnostics_total: f.diagnostics.length,
    apks: [],
    mappings: [],
    tests: f.tests,
    log: f.log,
    ...(f.reapedBy ? { reaped_by: f.reapedBy } : {}),
    truncated: true,
  };
}

/** `<build-logs>/<id>.outcome.json`: where a worker that could not write build.finished leaves its outcome for the reaper. */
export function outcomeFallbackPath(logPath: string, buildId: string): string {
  return join(dirname(logPath), `${buildId}.outcome.json`);
}

/** Writes the bounded build.finished data next to the build log; false when that fails too. */
export function writeOutcomeFallback(logPath: string, buildId: string, f: FinishedFacts): boolean {
  const path = outcomeFallbackPath(logPath, buildId);
  try {
    writeFileSync(`${path}.tmp`, JSON.stringify(finishedEventData(buildId, f)), { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
    return true;
  } catch (error) {
    process.stderr.write(
      `droidwright: could not write the outcome of build ${buildId} to ${path}: ${(error as Error).message}\n`,
    );
    return false;
  }
}

/**
 * The outcome a dead worker left behind, or null. Typed as what the worker wrote; the store validates it
 * again when it is appended, so a file edited since is refused there.
 */
export function readOutcomeFallback(logPath: string, buildId: string): BuildFinishedData | null {
  try {
    const data = JSON.parse(readFileSync(outcomeFallbackPath(logPath, buildId), 'utf8')) as Record<string, unknown>;
    return data !== null && typeof data === 'object' && data.build_id === buildId && typeof data.status === 'string'
      ? (data as BuildFinishedData)
      : null;
  } catch {
    return null;
  }
}

/**
 * Appends build.finished; if the store refuses it (validation), appends the minimal record instead.
 * Returns false only when neither could be written (the store is gone), after saying so on stderr.
 */
export function appendFinished(store: EventStore, buildId: string, actor: Actor, f: FinishedFacts): boolean {
  const meta = { stream: `build:${buildId}`, correlation: buildId, actor };
  try {
    store.append(BuildFinished, finishedEventData(buildId, f), meta);
    return true;
  } catch (error) {
    process.stderr.write(
      `droidwright: build.finished for ${buildId} was refused (${(error as Error).message}); recording the outcome without details.\n`,
    );
  }
  try {
    store.append(BuildFinished, minimalFinishedData(buildId, f), meta);
    return true;
  } catch (error) {
    process.stderr.write(`droidwright: could not record build.finished for ${buildId}: ${(error as Error).message}\n`);
    return false;
  }
}

/** Path, SHA-256 and size of a log file we did not write line by line (a build that never started, an orphan). */
export function summarizeLogFile(path: string): LogSummary {
  const hash = createHash('sha256');
  let bytes = 0;
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(1024 * 1024);
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      bytes += n;
    }
  } catch {
    // Missing log: hash of what was read.
  } finally {
    if (fd !== null) closeSync(fd);
  }
  return { path, sha256: hash.digest('hex'), bytes, lines: 0, truncated_lines: 0 };
}
