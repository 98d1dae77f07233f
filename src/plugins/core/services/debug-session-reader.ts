import { inject, injectable } from 'inversify';
import type { StoreReader } from '../../../events/event-definition.js';
import { ToolError } from '../../../kernel/errors.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { Settings } from '../../../kernel/settings.js';
import { thisHost } from '../../../shared/actor.js';
import { debugSessionId, type TimelineCategory } from '../debug-sessions.projection.js';
import {
  chooseDefaultPair,
  compareSessions,
  type PairCandidate,
  parseProvenance,
  type ProvenanceFacts,
  type SessionComparison,
  type SessionFacts,
} from './debug-session-comparison.js';

/*
 * The debug sessions read model, for the MCP tools, the CLI and the TUI. The whole API:
 *   list(filter)                  compact sessions, newest first, with a total for paging
 *   get(id)                       one session with its build (throws SESSION_NOT_FOUND / SESSION_PRUNED)
 *   timeline(id, {max, before})   its events newest first, paged by seq
 *   crashes(id)                   its crashes with attribution and the log lines each crash event kept
 *   compare(from?, to?)           what changed between two sessions (default pair: see chooseDefaultPair)
 *   hasOpenSession(device, pkg)   whether an install's session is still open there
 * `state` is derived here: an open session with no event for `debugSessionIdleMinutes` reads `idle`.
 */

export const DEBUG_SESSION_STATES = ['open', 'idle', 'superseded', 'ended'] as const;
export type DebugSessionState = (typeof DEBUG_SESSION_STATES)[number];

export interface DebugSessionActor {
  readonly kind: string;
  readonly session?: string;
  readonly client?: string;
  readonly pid: number;
  /** The installer's machine (absent on events recorded before hosts were). */
  readonly host?: string;
}

export interface DebugSessionSummary {
  readonly session_id: string;
  readonly install_seq: number;
  readonly device_serial: string;
  readonly package: string;
  readonly state: DebugSessionState;
  readonly installed_at: number;
  readonly installed_by: DebugSessionActor;
  readonly build_id: string | null;
  readonly module: string | null;
  readonly variant: string | null;
  readonly version_code: number;
  readonly version_name: string | null;
  readonly apk_sha256: string;
  readonly apk_path: string;
  readonly run_configuration: string | null;
  readonly last_event_at: number;
  readonly ended_at: number | null;
  readonly end_reason: string | null;
  readonly superseded_by: string | null;
  readonly launches: number;
  readonly crashes: number;
  readonly anrs: number;
  readonly tool_calls: number;
  readonly ui_actions: number;
  readonly first_launch_ms: number | null;
  readonly first_launch_state: string | null;
  readonly last_launch_ms: number | null;
  readonly timeline_rows: number;
  readonly timeline_dropped: number;
}

export interface DebugSessionBuild {
  readonly build_id: string;
  readonly kind: string;
  readonly tasks: string[];
  readonly module: string | null;
  readonly variant: string | null;
  readonly status: string | null;
  readonly started_seq: number;
  readonly finished_seq: number | null;
  readonly log_path: string;
  readonly log_sha256: string | null;
  readonly log_bytes: number | null;
  /** The mapping file this build wrote for the session's module and variant. */
  readonly mapping: { readonly path: string; readonly sha256: string } | null;
  readonly provenance: ProvenanceFacts | null;
}

export interface DebugSessionDetail extends DebugSessionSummary {
  readonly build: DebugSessionBuild | null;
}

export interface TimelineEntry {
  readonly seq: number;
  readonly at: number;
  readonly type: string;
  readonly category: TimelineCategory;
  readonly summary: string;
  readonly detail: Record<string, unknown> | null;
  readonly actor: DebugSessionActor;
  readonly outcome: string | null;
  readonly duration_ms: number | null;
}

export interface SessionCrash {
  readonly seq: number;
  readonly at: number;
  readonly kind: string;
  readonly title: string;
  readonly signature: string;
  readonly signature_hash: string;
  /** The crash event named this session's install as the installed build. */
  readonly verified: boolean;
  readonly attribution: string;
  readonly lines: string[];
}

export interface DebugSessionFilter {
  readonly package?: string;
  readonly device_serial?: string;
  readonly state?: DebugSessionState;
  readonly only_crashing?: boolean;
  readonly limit: number;
  readonly offset?: number;
}

interface SessionRow extends Omit<DebugSessionSummary, 'state' | 'installed_by'> {
  readonly state: string;
  readonly actor: string;
}

interface BuildRow {
  build_id: string;
  started_seq: number;
  kind: string;
  tasks: string;
  module: string | null;
  variant: string | null;
  provenance: string;
  log_path: string;
  status: string | null;
  finished_seq: number | null;
  log_sha256: string | null;
  log_bytes: number | null;
  mappings: string | null;
}

const SESSION_ID = /^ds-(\d{1,15})$/;

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

@injectable()
export class DebugSessionReader {
  constructor(
    @inject(EventStoreProvider) private readonly store: EventStoreProvider,
    @inject(Settings) private readonly settings: Settings,
  ) {}

  private reader(): StoreReader {
    return this.store();
  }

  private idleMs(): number {
    return this.settings.get().debugSessionIdleMinutes * 60_000;
  }

  /**
   * Sessions matching `filter`, newest install first, and how many match in all. A device is this machine's
   * (`host` unless named), with the sessions from before hosts were named; without a device, every machine's.
   */
  list(
    filter: DebugSessionFilter,
    now = Date.now(),
    host: string = thisHost(),
  ): { sessions: DebugSessionSummary[]; total: number } {
    const idleBefore = now - this.idleMs();
    const params = {
      package: filter.package ?? null,
      device: filter.device_serial ?? null,
      host,
      state: filter.state ?? null,
      crashing: filter.only_crashing ? 1 : 0,
      idle_before: idleBefore,
    };
    const where = `WHERE (CAST(@package AS TEXT) IS NULL OR package = @package) AND (CAST(@device AS TEXT) IS NULL OR (device_serial = @device AND host IN (@host, '')))
      AND (@crashing = 0 OR crashes + anrs > 0)
      AND (CAST(@state AS TEXT) IS NULL
        OR (@state = 'idle' AND state = 'open' AND last_event_at < @idle_before)
        OR (@state = 'open' AND state = 'open' AND last_event_at >= @idle_before)
        OR (@state NOT IN ('idle', 'open') AND state = @state))`;
    const total = (
      this.reader().prepareRead(`SELECT COUNT(*) AS n FROM debug_sessions ${where}`).get(params) as {
        n: number;
      }
    ).n;
    const rows = this.reader()
      .prepareRead(`SELECT * FROM debug_sessions ${where} ORDER BY install_seq DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: filter.limit, offset: filter.offset ?? 0 }) as SessionRow[];
    return { sessions: rows.map((r) => this.toSummary(r, now)), total };
  }

  /**
   * Whether droidwright's latest install of `pkg` on `device` still has an open (or idle) session. The device is
   * this machine's (`host` unless named): another laptop's `emulator-5554` is another device. Sessions opened
   * before hosts were named ('') count as this machine's.
   */
  hasOpenSession(device: string, pkg: string, host: string = thisHost()): boolean {
    return (
      this.reader()
        .prepareRead(
          `SELECT 1 FROM debug_sessions WHERE device_serial = ? AND package = ? AND state = 'open'
             AND (host = ? OR host = '')`,
        )
        .get(device, pkg, host) !== undefined
    );
  }

  /**
   * The newest install droidwright knows of a package on a device (made or observed), for deciding whether the
   * state a tool just read shows an install it does not know; undefined when there is none.
   */
  newestInstall(
    device: string,
    pkg: string,
    host: string = thisHost(),
  ):
    | { readonly version_code: number; readonly observed_update_time: string | null; readonly state: string }
    | undefined {
    return this.reader()
      .prepareRead(
        `SELECT version_code, observed_update_time, state FROM debug_sessions WHERE device_serial = ? AND package = ?
           AND (host = ? OR host = '')
         ORDER BY install_seq DESC LIMIT 1`,
      )
      .get(device, pkg, host) as
      | { version_code: number; observed_update_time: string | null; state: string }
      | undefined;
  }

  /** One session with its build; an unknown or pruned id is a ToolError saying which. */
  get(sessionId: string, now = Date.now()): DebugSessionDetail {
    const row = this.row(sessionId);
    const summary = this.toSummary(row, now);
    return { ...summary, build: row.build_id ? this.build(row.build_id, row.module, row.variant) : null };
  }

  /** Timeline entries newest first, at most `max`, only those with seq < `beforeSeq` when given. */
  timeline(
    sessionId: string,
    options: { max: number; beforeSeq?: number },
  ): { entries: TimelineEntry[]; has_more: boolean } {
    this.row(sessionId);
    const rows = this.reader()
      .prepareRead(
        `SELECT seq, at, type, category, summary, detail, actor, outcome, duration_ms FROM debug_session_timeline
         WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      )
      .all(sessionId, options.beforeSeq ?? Number.MAX_SAFE_INTEGER, options.max + 1) as {
      seq: number;
      at: number;
      type: string;
      category: TimelineCategory;
      summary: string;
      detail: string | null;
      actor: string;
      outcome: string | null;
      duration_ms: number | null;
    }[];
    const entries = rows.slice(0, options.max).map((r) => ({
      ...r,
      detail: parseJson<Record<string, unknown> | null>(r.detail, null),
      actor: parseJson<DebugSessionActor>(r.actor, { kind: 'unknown', pid: 0 }),
    }));
    return { entries, has_more: rows.length > options.max };
  }

  /** Crashes attributed to the session, oldest first, with the log lines their events kept (at most `max`). */
  crashes(sessionId: string, max = 20): SessionCrash[] {
    const row = this.row(sessionId);
    const rows = this.reader()
      .prepareRead(
        `SELECT t.seq, t.at, t.detail, e.data FROM debug_session_timeline t JOIN events e ON e.seq = t.seq
         WHERE t.session_id = ? AND t.category = 'crash' ORDER BY t.seq LIMIT ?`,
      )
      .all(sessionId, max) as { seq: number; at: number; detail: string; data: string }[];
    return rows.map((r) => {
      const d = parseJson<{
        kind: string;
        title: string;
        signature: string;
        signature_hash: string;
        verified: boolean;
        installed_seq: number | null;
      }>(r.detail, { kind: '?', title: '?', signature: '', signature_hash: '', verified: false, installed_seq: null });
      const lines = parseJson<{ lines?: unknown }>(r.data, {}).lines;
      return {
        seq: r.seq,
        at: r.at,
        kind: d.kind,
        title: d.title,
        signature: d.signature,
        signature_hash: d.signature_hash,
        verified: d.verified,
        attribution: d.verified
          ? `the crash record names this install (seq ${row.install_seq}) as the installed build`
          : d.installed_seq === null
            ? `${row.package} on ${row.device_serial} was this install when it crashed; the crash record names no installed build`
            : `${row.package} on ${row.device_serial} was this install when it crashed, but the crash record names install seq ${d.installed_seq}`,
        lines: Array.isArray(lines) ? lines.map(String) : [],
      };
    });
  }

  /**
   * Compares two sessions: both ids, or neither, which picks the newest change between a crashing and a clean session
   * of the same package and variant (chooseDefaultPair; `chosen` is then true).
   */
  compare(
    fromId?: string,
    toId?: string,
  ): { from: DebugSessionDetail; to: DebugSessionDetail; comparison: SessionComparison; chosen: boolean } {
    let pair: { from: string; to: string } | null;
    if (fromId && toId) pair = { from: fromId, to: toId };
    else {
      const candidates = this.reader()
        .prepareRead(
          'SELECT session_id, package, variant, launches, crashes + anrs AS failures FROM debug_sessions ORDER BY install_seq DESC LIMIT 500',
        )
        .all() as PairCandidate[];
      pair = chooseDefaultPair(candidates);
      if (!pair)
        throw new ToolError(
          'SESSION_NOT_FOUND',
          'No pair of launched debug sessions of the same package and variant where one crashed and the other did not. Pass from and to (list_debug_sessions lists the ids).',
        );
    }
    const from = this.get(pair.from);
    const to = this.get(pair.to);
    return { from, to, comparison: compareSessions(this.facts(from), this.facts(to)), chosen: !(fromId && toId) };
  }

  private facts(s: DebugSessionDetail): SessionFacts {
    const crashes = this.reader()
      .prepareRead("SELECT detail FROM debug_session_timeline WHERE session_id = ? AND category = 'crash' ORDER BY seq")
      .all(s.session_id) as { detail: string }[];
    const exits = this.reader()
      .prepareRead(
        "SELECT detail FROM debug_session_timeline WHERE session_id = ? AND category = 'exit_reasons' ORDER BY seq DESC LIMIT 1",
      )
      .get(s.session_id) as { detail: string } | undefined;
    const firstLaunch = s.launches > 0 ? { total_ms: s.first_launch_ms, launch_state: s.first_launch_state } : null;
    return {
      session_id: s.session_id,
      device_serial: s.device_serial,
      package: s.package,
      variant: s.variant,
      build: {
        build_id: s.build_id,
        tasks: s.build?.tasks ?? null,
        module: s.module,
        variant: s.variant,
        version_code: s.version_code,
        version_name: s.version_name,
        apk_sha256: s.apk_sha256,
        mapping_sha256: s.build?.mapping?.sha256 ?? null,
        run_configuration: s.run_configuration,
        provenance: s.build?.provenance ?? null,
      },
      first_launch: firstLaunch,
      crashes: crashes.map((c) => parseJson(c.detail, { signature_hash: '', title: '', kind: '' })),
      exit_reasons: exits
        ? parseJson<{ reasons: Record<string, number> }>(exits.detail, { reasons: {} }).reasons
        : null,
    };
  }

  private row(sessionId: string): SessionRow {
    const row = this.reader().prepareRead('SELECT * FROM debug_sessions WHERE session_id = ?').get(sessionId) as
      | SessionRow
      | undefined;
    if (row) return row;
    const pruned = this.reader()
      .prepareRead('SELECT pruned_seq FROM debug_sessions_pruned WHERE session_id = ?')
      .get(sessionId) as { pruned_seq: number } | undefined;
    if (pruned)
      throw new ToolError(
        'SESSION_PRUNED',
        `Debug session ${sessionId} was pruned from the read model at event ${pruned.pruned_seq} (only the newest sessions are kept). Its events are still in the log: \`droidwright events trace install ${SESSION_ID.exec(sessionId)?.[1] ?? sessionId}\`, or query_events with its device and package.`,
      );
    throw new ToolError(
      'SESSION_NOT_FOUND',
      SESSION_ID.test(sessionId)
        ? `No debug session ${sessionId}: event ${sessionId.slice(3)} is not an app install. list_debug_sessions lists the ids.`
        : `No debug session ${JSON.stringify(sessionId.slice(0, 80))}: ids look like ${debugSessionId(42)}. list_debug_sessions lists them.`,
    );
  }

  private build(buildId: string, module: string | null, variant: string | null): DebugSessionBuild | null {
    const b = this.reader().prepareRead('SELECT * FROM debug_session_builds WHERE build_id = ?').get(buildId) as
      | BuildRow
      | undefined;
    if (!b) return null;
    const mappings = parseJson<{ module: string; variant: string; path: string; sha256: string }[]>(b.mappings, []);
    const mapping = mappings.find((m) => m.module === module && m.variant === variant) ?? null;
    return {
      build_id: b.build_id,
      kind: b.kind,
      tasks: parseJson<string[]>(b.tasks, []),
      module: b.module,
      variant: b.variant,
      status: b.status,
      started_seq: b.started_seq,
      finished_seq: b.finished_seq,
      log_path: b.log_path,
      log_sha256: b.log_sha256,
      log_bytes: b.log_bytes,
      mapping: mapping ? { path: mapping.path, sha256: mapping.sha256 } : null,
      provenance: parseProvenance(b.provenance),
    };
  }

  private toSummary(row: SessionRow, now: number): DebugSessionSummary {
    // observed_update_time is the projection's bookkeeping for observed installs, not part of a session's summary;
    // the host column routes events, and the summary names the machine in installed_by.host.
    const {
      actor,
      state,
      observed_update_time: _observed,
      host: _host,
      ...rest
    } = row as SessionRow & {
      observed_update_time?: string | null;
      host?: string;
    };
    const derived: DebugSessionState =
      state === 'open' ? (row.last_event_at < now - this.idleMs() ? 'idle' : 'open') : (state as DebugSessionState);
    return {
      ...rest,
      state: derived,
      installed_by: parseJson<DebugSessionActor>(actor, { kind: 'unknown', pid: 0 }),
    };
  }
}
