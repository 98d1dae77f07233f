import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { hashCanonicalRow } from '../../../events/event-hash.js';
import { rowToEvent } from '../../../events/event-verifier.js';
import type { StoreReader } from '../../../events/event-definition.js';
import { debugSessionsProjection } from '../debug-sessions.projection.js';

/*
 * A debug session as a self-contained file an auditor checks against the log: the session's read-model rows,
 * every event they were derived from (stored columns exactly, with their hashes), the chain head at export time,
 * and the build log. `verifyBundle` recomputes each event's hash, finds each (seq, hash) and the head in the log,
 * replays the events through the projection to get the session rows back, and checks the build log's SHA-256
 * against the one its build.finished event recorded. Editing any part of the file breaks one of these.
 */

export const BUNDLE_FORMAT = 'droidwright-debug-session';
/** Build logs up to this size go in whole; a larger one is named with its recorded hash only. */
const MAX_BUILD_LOG_BYTES = 8 * 2 ** 20;

/** An event row as the log stores it: actor and data as their canonical JSON text, which the hash covers. */
export interface BundledEvent {
  readonly seq: number;
  readonly id: string;
  readonly at: number;
  readonly type: string;
  readonly v: number;
  readonly stream: string;
  readonly actor: string;
  readonly device: string | null;
  readonly package: string | null;
  readonly correlation: string | null;
  readonly data: string;
  readonly prev_hash: string;
  readonly hash: string;
}

export interface DebugSessionBundle {
  readonly format: typeof BUNDLE_FORMAT;
  readonly version: 1;
  readonly exported_at: string;
  readonly session_id: string;
  /** The log's head (newest seq and hash) when the bundle was written. */
  readonly chain: { readonly seq: number; readonly hash: string; readonly at: number };
  /** The session's row of `debug_sessions`, as stored (state not derived). */
  readonly session: Record<string, unknown>;
  /** Its `debug_session_timeline` rows, oldest first. */
  readonly timeline: Record<string, unknown>[];
  readonly build: Record<string, unknown> | null;
  readonly events: BundledEvent[];
  /** The log lines each crash event kept, by the crash event's seq (also inside those events). */
  readonly crash_lines: { readonly seq: number; readonly lines: string[] }[];
  readonly build_log: {
    readonly path: string;
    readonly recorded_sha256: string | null;
    /** full: base64 is the whole file; missing / too_large: nothing included, `reason` says why. */
    readonly included: 'full' | 'missing' | 'too_large';
    readonly base64?: string;
    readonly reason?: string;
  } | null;
}

const BUILD_EVENT_TYPES = ['build.started', 'build.finished'];

/** Thrown when a session cannot be exported; the message says why. */
export class BundleError extends Error {}

/** The bundle of `sessionId` read from the log now, with the build log from `readFile` (the file system). */
export function exportBundle(
  store: StoreReader,
  sessionId: string,
  head: { seq: number; hash: string; at: number },
  now = new Date(),
): DebugSessionBundle {
  const session = store.prepareRead('SELECT * FROM debug_sessions WHERE session_id = ?').get(sessionId) as
    | Record<string, unknown>
    | undefined;
  if (!session) throw new BundleError(`No debug session ${sessionId} (droidwright sessions list shows the ids).`);
  const timeline = store
    .prepareRead('SELECT * FROM debug_session_timeline WHERE session_id = ? ORDER BY seq')
    .all(sessionId) as Record<string, unknown>[];
  const buildId = session.build_id as string | null;
  const build = buildId
    ? ((store.prepareRead('SELECT * FROM debug_session_builds WHERE build_id = ?').get(buildId) as
        | Record<string, unknown>
        | undefined) ?? null)
    : null;
  const seqs = new Set<number>([session.install_seq as number, ...timeline.map((t) => t.seq as number)]);
  if (typeof session.ended_seq === 'number') seqs.add(session.ended_seq);
  if (build) {
    seqs.add(build.started_seq as number);
    if (typeof build.finished_seq === 'number') seqs.add(build.finished_seq);
  }
  const byId = store.prepareRead('SELECT * FROM events WHERE id = ?');
  const bySeq = store.prepareRead(
    'SELECT seq, id, at, type, v, stream, actor, device, package, correlation, data, prev_hash, hash FROM events WHERE seq = ?',
  );
  // A tool call's outcome updated its intent's row: the outcome event is part of the derivation too.
  const outcomes = store.prepareRead("SELECT seq FROM events WHERE correlation = ? AND type = 'mcp.tool_called'");
  for (const t of timeline) {
    const callId = t.call_id as string | null;
    if (!callId || !byId.get(callId)) continue;
    for (const o of outcomes.all(callId) as { seq: number }[]) seqs.add(o.seq);
  }
  const events = [...seqs]
    .sort((a, b) => a - b)
    .map((seq) => bySeq.get(seq) as BundledEvent | undefined)
    .filter((e): e is BundledEvent => e !== undefined);
  const crashLines = events
    .filter((e) => e.type === 'app.crashed' || e.type === 'app.native_crashed' || e.type === 'app.not_responding')
    .map((e) => ({ seq: e.seq, lines: ((JSON.parse(e.data) as { lines?: string[] }).lines ?? []).map(String) }));
  return {
    format: BUNDLE_FORMAT,
    version: 1,
    exported_at: now.toISOString(),
    session_id: sessionId,
    chain: head,
    session,
    timeline,
    build,
    events,
    crash_lines: crashLines,
    build_log: build ? readBuildLog(build.log_path as string, (build.log_sha256 as string | null) ?? null) : null,
  };
}

function readBuildLog(path: string, recorded: string | null): DebugSessionBundle['build_log'] {
  try {
    const size = statSync(path).size;
    if (size > MAX_BUILD_LOG_BYTES)
      return {
        path,
        recorded_sha256: recorded,
        included: 'too_large',
        reason: `${size} bytes, over the bundle's bound`,
      };
    return { path, recorded_sha256: recorded, included: 'full', base64: readFileSync(path).toString('base64') };
  } catch (error) {
    return {
      path,
      recorded_sha256: recorded,
      included: 'missing',
      reason: `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); build logs of the newest 200 builds are kept`,
    };
  }
}

export interface BundleVerdict {
  readonly ok: boolean;
  /** Each check that failed, in words. */
  readonly problems: string[];
  readonly checked: { readonly events: number; readonly timeline_rows: number; readonly build_log: string };
}

/** Checks a bundle (parsed JSON of unknown shape) against the log `store` reads. */
export function verifyBundle(store: StoreReader, input: unknown): BundleVerdict {
  const problems: string[] = [];
  const bundle = input as Partial<DebugSessionBundle> | null;
  if (!bundle || bundle.format !== BUNDLE_FORMAT || bundle.version !== 1 || !Array.isArray(bundle.events))
    return {
      ok: false,
      problems: [`not a ${BUNDLE_FORMAT} bundle of version 1`],
      checked: { events: 0, timeline_rows: 0, build_log: 'not checked' },
    };
  const inLog = store.prepareRead('SELECT hash FROM events WHERE seq = ?');
  for (const e of bundle.events) {
    let recomputed: string;
    try {
      recomputed = hashCanonicalRow({ ...e, actorJson: e.actor, dataJson: e.data });
    } catch {
      problems.push(`event seq ${e?.seq}: malformed`);
      continue;
    }
    if (recomputed !== e.hash) problems.push(`event seq ${e.seq}: its content does not match its hash (edited)`);
    const logged = inLog.get(e.seq) as { hash: string } | undefined;
    if (!logged) problems.push(`event seq ${e.seq}: not in the log`);
    else if (logged.hash !== e.hash) problems.push(`event seq ${e.seq}: the log holds a different event there`);
  }
  const head = bundle.chain;
  const logHead = head ? (inLog.get(head.seq) as { hash: string } | undefined) : undefined;
  if (!head || !logHead || logHead.hash !== head.hash)
    problems.push(`the chain head at export (seq ${head?.seq}) is not in the log with that hash`);

  // The session rows must be what the projection derives from the bundled events.
  const db = new Database(':memory:');
  try {
    for (const sql of debugSessionsProjection.ddl) db.exec(sql);
    const events = [...bundle.events].sort((a, b) => a.seq - b.seq);
    for (const e of events) {
      try {
        debugSessionsProjection.apply(db, rowToEvent(e));
      } catch (error) {
        problems.push(`event seq ${e.seq}: cannot be replayed (${(error as Error).message})`);
      }
    }
    const id = bundle.session_id;
    const session = db.prepare('SELECT * FROM debug_sessions WHERE session_id = ?').get(id) as
      | Record<string, unknown>
      | undefined;
    // Bundles exported before sessions had a host column (debug_sessions v3) verify as they did.
    if (session && typeof bundle.session === 'object' && bundle.session !== null && !('host' in bundle.session))
      delete session.host;
    const timeline = db.prepare('SELECT * FROM debug_session_timeline WHERE session_id = ? ORDER BY seq').all(id);
    if (JSON.stringify(session) !== JSON.stringify(bundle.session))
      problems.push('the session row differs from what its events give');
    if (JSON.stringify(timeline) !== JSON.stringify(bundle.timeline))
      problems.push('the timeline differs from what its events give');
    if (bundle.build) {
      const build = db.prepare('SELECT * FROM debug_session_builds WHERE build_id = ?').get(bundle.build.build_id);
      if (JSON.stringify(build) !== JSON.stringify(bundle.build))
        problems.push('the build differs from what its events give');
    }
  } finally {
    db.close();
  }
  for (const c of bundle.crash_lines ?? []) {
    const e = bundle.events.find((x) => x.seq === c.seq);
    const lines = e ? ((JSON.parse(e.data) as { lines?: unknown }).lines ?? []) : null;
    if (JSON.stringify(lines) !== JSON.stringify(c.lines))
      problems.push(`crash seq ${c.seq}: kept lines differ from its event`);
  }

  let buildLog = 'none';
  const log = bundle.build_log;
  if (log) {
    const finished = bundle.events.find(
      (e) => BUILD_EVENT_TYPES.includes(e.type) && e.type === 'build.finished' && e.seq === bundle.build?.finished_seq,
    );
    const recorded = finished ? (JSON.parse(finished.data) as { log?: { sha256?: string } }).log?.sha256 : undefined;
    if (log.included === 'full') {
      const actual = createHash('sha256')
        .update(Buffer.from(log.base64 ?? '', 'base64'))
        .digest('hex');
      if (!recorded) problems.push('the build log is included but no build.finished event records its hash');
      else if (actual !== recorded) problems.push('the build log differs from the one its build recorded');
      buildLog = actual === recorded ? 'matches build.finished' : 'differs';
    } else buildLog = `not included (${log.reason ?? log.included})`;
  }
  return {
    ok: problems.length === 0,
    problems,
    checked: { events: bundle.events.length, timeline_rows: bundle.timeline?.length ?? 0, build_log: buildLog },
  };
}
