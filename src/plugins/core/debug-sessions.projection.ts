import type { SqlConnection } from '../../events/sql-connection.js';
import type { Projection, StoredEvent } from '../../events/event-definition.js';
import type { Actor } from '../../shared/actor.js';

/*
 * Debug sessions: one per `app.installed` of a package on a device, until the next install of that package there
 * (superseded) or until droidwright sees the package gone (`app.uninstall_observed`: ended). Everything that
 * happened to the install meanwhile is its timeline. Other plugins' events are read by type name through the
 * minimal shapes below (plugins never import each other); a session's build comes from `build.started` /
 * `build.finished`, which this projection keeps itself, so a rebuild of this projection alone gives the same rows.
 * `idle` is not stored: it depends on the clock, so readers derive it from `last_event_at`.
 */

/** Sessions kept; past it the oldest closed one is pruned (its id is remembered, so a lookup can say so). */
export const MAX_DEBUG_SESSIONS = 5000;
/** Timeline rows kept per session; past it the oldest row that is not a crash is dropped and counted. */
export const MAX_TIMELINE_ROWS = 5000;

export const SESSION_STATES = ['open', 'superseded', 'ended'] as const;
export type StoredSessionState = (typeof SESSION_STATES)[number];

export const TIMELINE_CATEGORIES = [
  'launch',
  'restart',
  'stop',
  'crash',
  'exit_reasons',
  'permission',
  'network',
  'orientation',
  'deep_link',
  'settings',
  'ui',
  'tool_call',
  'ended',
] as const;
export type TimelineCategory = (typeof TIMELINE_CATEGORIES)[number];

export function debugSessionId(installSeq: number): string {
  return `ds-${installSeq}`;
}

type Installed = {
  device_serial: string;
  package: string;
  apk_path: string;
  apk_sha256: string;
  version_code: number;
  version_name: string | null;
  build_id: string | null;
  module: string | null;
  variant: string | null;
  run_configuration?: string;
};
type InstallObserved = {
  device_serial: string;
  package: string;
  version_code: number | null;
  version_name: string | null;
  last_update_time: string | null;
  apk_sha256: string | null;
  build_id: string | null;
  observed_by: string;
};
type Launched = {
  device_serial: string;
  package: string;
  activity: string | null;
  total_ms: number | null;
  wait_ms: number | null;
  launch_state: string | null;
  cleared_data?: boolean;
};
type Crash = {
  device_serial: string;
  package: string | null;
  signature: string;
  signature_hash: string;
  exception_class?: string;
  message?: string | null;
  signal?: string | null;
  abort_message?: string | null;
  reason?: string | null;
  lines: string[];
  build: { build_id: string | null; installed_seq: number } | null;
};
type BuildStartedShape = {
  build_id: string;
  kind: string;
  tasks: string[];
  module: string | null;
  variant: string | null;
  log_path: string;
  provenance: unknown;
};
type BuildFinishedShape = {
  build_id: string;
  status: string;
  log: { path: string; sha256: string; bytes: number };
  mappings: { module: string; variant: string; path: string; sha256: string }[];
};
type ToolCallStartedShape = { tool: string; kind: string };
type ToolCalledShape = {
  tool: string;
  kind: string | null;
  outcome: string;
  error_code: string | null;
  duration_ms: number;
};

const CRASH_KINDS: Readonly<Record<string, string>> = {
  'app.crashed': 'java',
  'app.native_crashed': 'native',
  'app.not_responding': 'anr',
};

/** One line naming a crash: exception and message, signal and abort message, or the ANR reason. */
export function crashHeadline(type: string, d: Crash): string {
  let title: string;
  if (type === 'app.crashed') title = d.message ? `${d.exception_class}: ${d.message}` : (d.exception_class ?? 'crash');
  else if (type === 'app.native_crashed')
    title = `${d.signal ?? 'fatal signal'}${d.abort_message ? `: ${d.abort_message}` : ''}`;
  else title = `ANR${d.reason ? `: ${d.reason}` : ''}`;
  const line = title.split('\n', 1)[0]!;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? '?' : `${v} ms`);

export const debugSessionsProjection: Projection = {
  name: 'debug_sessions',
  // 3: sessions belong to the host of their install (a serial names a device only on its own machine).
  version: 3,
  handles: [
    'app.installed',
    'app.launched',
    'app.restarted',
    'app.stopped',
    'app.crashed',
    'app.native_crashed',
    'app.not_responding',
    'app.exit_reasons_read',
    'app.uninstall_observed',
    'app.install_observed',
    'app.settings_opened',
    'permission.granted',
    'permission.revoked',
    'network.changed',
    'orientation.changed',
    'deep_link.opened',
    'ui.tapped',
    'ui.text_entered',
    'ui.swiped',
    'ui.key_sent',
    'ui.screenshot_taken',
    'mcp.tool_call_started',
    'mcp.tool_called',
    'build.started',
    'build.finished',
  ],
  tables: ['debug_sessions', 'debug_session_timeline', 'debug_session_builds', 'debug_sessions_pruned'],
  ddl: [
    `CREATE TABLE IF NOT EXISTS debug_sessions (
      session_id TEXT PRIMARY KEY, install_seq INTEGER NOT NULL, host TEXT NOT NULL, device_serial TEXT NOT NULL,
      package TEXT NOT NULL,
      state TEXT NOT NULL, installed_at INTEGER NOT NULL, actor TEXT NOT NULL,
      apk_path TEXT NOT NULL, apk_sha256 TEXT NOT NULL, version_code INTEGER NOT NULL, version_name TEXT,
      build_id TEXT, module TEXT, variant TEXT, run_configuration TEXT,
      ended_at INTEGER, ended_seq INTEGER, end_reason TEXT, superseded_by TEXT,
      last_event_at INTEGER NOT NULL, launches INTEGER NOT NULL DEFAULT 0, crashes INTEGER NOT NULL DEFAULT 0,
      anrs INTEGER NOT NULL DEFAULT 0, tool_calls INTEGER NOT NULL DEFAULT 0, ui_actions INTEGER NOT NULL DEFAULT 0,
      first_launch_ms INTEGER, first_launch_state TEXT, last_launch_ms INTEGER,
      timeline_rows INTEGER NOT NULL DEFAULT 0, timeline_dropped INTEGER NOT NULL DEFAULT 0,
      observed_update_time TEXT)`,
    'CREATE INDEX IF NOT EXISTS debug_sessions_target ON debug_sessions (device_serial, package, state)',
    'CREATE INDEX IF NOT EXISTS debug_sessions_open ON debug_sessions (state, device_serial)',
    'CREATE INDEX IF NOT EXISTS debug_sessions_package ON debug_sessions (package, install_seq)',
    `CREATE TABLE IF NOT EXISTS debug_session_timeline (
      session_id TEXT NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL, type TEXT NOT NULL, category TEXT NOT NULL,
      summary TEXT NOT NULL, detail TEXT, actor TEXT NOT NULL, call_id TEXT, outcome TEXT, duration_ms INTEGER,
      PRIMARY KEY (session_id, seq))`,
    'CREATE INDEX IF NOT EXISTS debug_session_timeline_call ON debug_session_timeline (call_id) WHERE call_id IS NOT NULL',
    'CREATE INDEX IF NOT EXISTS debug_session_timeline_category ON debug_session_timeline (session_id, category, seq)',
    `CREATE TABLE IF NOT EXISTS debug_session_builds (
      build_id TEXT PRIMARY KEY, started_seq INTEGER NOT NULL, kind TEXT NOT NULL, tasks TEXT NOT NULL,
      module TEXT, variant TEXT, provenance TEXT NOT NULL, log_path TEXT NOT NULL,
      status TEXT, finished_seq INTEGER, log_sha256 TEXT, log_bytes INTEGER, mappings TEXT)`,
    'CREATE TABLE IF NOT EXISTS debug_sessions_pruned (session_id TEXT PRIMARY KEY, pruned_seq INTEGER NOT NULL)',
  ],
  apply(db, event) {
    const apply = APPLIERS[event.type];
    if (apply) apply(db, event);
  },
};

interface OpenSession {
  readonly session_id: string;
  readonly install_seq: number;
  readonly package: string;
}

function actorJson(actor: Actor): string {
  return JSON.stringify({
    kind: actor.kind,
    ...(actor.session ? { session: actor.session } : {}),
    ...(actor.client ? { client: actor.client } : {}),
    pid: actor.pid,
    // Another machine's installs are named as such (list_debug_sessions, the dashboard).
    ...(actor.host !== undefined ? { host: actor.host } : {}),
  });
}

/**
 * The host whose devices an event is about: its actor's, '' for events recorded before hosts were named. A
 * serial names a device only on its own machine (two laptops sharing a log each have an `emulator-5554`), so
 * an event reaches the sessions of its own host's installs, and those opened before hosts were named (only a
 * single-machine log has them: they are read as the machine's that goes on using the log, as everywhere else).
 */
const hostOf = (event: StoredEvent): string => event.actor.host ?? '';

function openSessions(db: SqlConnection, event: StoredEvent, device: string | null, pkg: string | null): OpenSession[] {
  if (!device) return [];
  const host = hostOf(event);
  if (pkg)
    return db
      .prepare(
        `SELECT session_id, install_seq, package FROM debug_sessions
         WHERE device_serial = ? AND package = ? AND state = 'open' AND (host = ? OR host = '')`,
      )
      .all(device, pkg, host) as OpenSession[];
  return db
    .prepare(
      `SELECT session_id, install_seq, package FROM debug_sessions
       WHERE state = 'open' AND device_serial = ? AND (host = ? OR host = '')`,
    )
    .all(device, host) as OpenSession[];
}

interface TimelineRow {
  readonly category: TimelineCategory;
  readonly summary: string;
  readonly detail?: Record<string, unknown>;
  readonly callId?: string;
  readonly outcome?: string | null;
  readonly durationMs?: number | null;
}

/** Adds a row to the session's timeline, dropping the oldest non-crash row past MAX_TIMELINE_ROWS. */
function addRow(db: SqlConnection, sessionId: string, event: StoredEvent, row: TimelineRow): void {
  db.prepare(
    `INSERT INTO debug_session_timeline (session_id, seq, at, type, category, summary, detail, actor, call_id, outcome, duration_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(session_id, seq) DO NOTHING`,
  ).run(
    sessionId,
    event.seq,
    event.at,
    event.type,
    row.category,
    row.summary.length > 300 ? `${row.summary.slice(0, 300)}…` : row.summary,
    row.detail ? JSON.stringify(row.detail) : null,
    actorJson(event.actor),
    row.callId ?? null,
    row.outcome ?? null,
    row.durationMs ?? null,
  );
  db.prepare(
    'UPDATE debug_sessions SET timeline_rows = timeline_rows + 1, last_event_at = MAX(last_event_at, ?) WHERE session_id = ?',
  ).run(event.at, sessionId);
  const { timeline_rows } = db
    .prepare('SELECT timeline_rows FROM debug_sessions WHERE session_id = ?')
    .get(sessionId) as { timeline_rows: number };
  if (timeline_rows > MAX_TIMELINE_ROWS) {
    const dropped = db
      .prepare(
        `DELETE FROM debug_session_timeline WHERE session_id = ? AND seq = (
           SELECT seq FROM debug_session_timeline WHERE session_id = ? AND category != 'crash' ORDER BY seq LIMIT 1)`,
      )
      .run(sessionId, sessionId).changes;
    if (dropped > 0)
      db.prepare(
        'UPDATE debug_sessions SET timeline_rows = timeline_rows - 1, timeline_dropped = timeline_dropped + 1 WHERE session_id = ?',
      ).run(sessionId);
  }
}

function bump(
  db: SqlConnection,
  sessionId: string,
  column: 'launches' | 'crashes' | 'anrs' | 'tool_calls' | 'ui_actions',
) {
  db.prepare(`UPDATE debug_sessions SET ${column} = ${column} + 1 WHERE session_id = ?`).run(sessionId);
}

function toEach(
  db: SqlConnection,
  event: StoredEvent,
  device: string | null,
  pkg: string | null,
  row: TimelineRow,
  counter?: 'launches' | 'ui_actions' | 'tool_calls',
) {
  for (const s of openSessions(db, event, device, pkg)) {
    addRow(db, s.session_id, event, row);
    if (counter) bump(db, s.session_id, counter);
  }
}

function pruneOldest(db: SqlConnection, seq: number): void {
  const { n } = db.prepare('SELECT COUNT(*) AS n FROM debug_sessions').get() as { n: number };
  if (n <= MAX_DEBUG_SESSIONS) return;
  const oldest = db
    .prepare("SELECT session_id FROM debug_sessions WHERE state != 'open' ORDER BY install_seq LIMIT 1")
    .get() as { session_id: string } | undefined;
  if (!oldest) return;
  db.prepare('DELETE FROM debug_session_timeline WHERE session_id = ?').run(oldest.session_id);
  db.prepare('DELETE FROM debug_sessions WHERE session_id = ?').run(oldest.session_id);
  db.prepare(
    `INSERT INTO debug_sessions_pruned (session_id, pruned_seq) VALUES (?, ?)
     ON CONFLICT (session_id) DO UPDATE SET pruned_seq = excluded.pruned_seq`,
  ).run(oldest.session_id, seq);
}

/** Opens the session of one install, superseding the open one of that package on that device. */
function openSession(
  db: SqlConnection,
  event: StoredEvent,
  d: Installed,
  actor: string,
  observedUpdateTime: string | null,
): void {
  const id = debugSessionId(event.seq);
  db.prepare(
    `UPDATE debug_sessions SET state = 'superseded', ended_at = ?, ended_seq = ?, superseded_by = ?
     WHERE device_serial = ? AND package = ? AND state = 'open' AND (host = ? OR host = '')`,
  ).run(event.at, event.seq, id, d.device_serial, d.package, hostOf(event));
  db.prepare(
    `INSERT INTO debug_sessions (session_id, install_seq, host, device_serial, package, state, installed_at, actor, apk_path,
       apk_sha256, version_code, version_name, build_id, module, variant, run_configuration, last_event_at,
         observed_update_time)
     VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    event.seq,
    hostOf(event),
    d.device_serial,
    d.package,
    event.at,
    actor,
    d.apk_path,
    d.apk_sha256,
    d.version_code,
    d.version_name,
    d.build_id,
    d.module,
    d.variant,
    d.run_configuration ?? null,
    event.at,
    observedUpdateTime,
  );
  pruneOldest(db, event.seq);
}

const APPLIERS: Readonly<Record<string, (db: SqlConnection, event: StoredEvent) => void>> = {
  'app.installed'(db, event) {
    openSession(db, event, event.data as Installed, actorJson(event.actor), null);
  },
  'app.install_observed'(db, event) {
    const d = event.data as InstallObserved;
    // Nobody droidwright knows made this install: the session's actor says it was observed, and by which call.
    const actor = JSON.parse(actorJson(event.actor)) as Record<string, unknown>;
    openSession(
      db,
      event,
      {
        device_serial: d.device_serial,
        package: d.package,
        apk_path: '',
        apk_sha256: d.apk_sha256 ?? '',
        version_code: d.version_code ?? 0,
        version_name: d.version_name,
        build_id: d.build_id,
        module: null,
        variant: null,
      },
      JSON.stringify({ ...actor, kind: 'observed', observed_by: d.observed_by }),
      d.last_update_time ?? '',
    );
  },
  'app.launched'(db, event) {
    const d = event.data as Launched;
    for (const s of openSessions(db, event, d.device_serial, d.package)) {
      addRow(db, s.session_id, event, {
        category: 'launch',
        summary: `launched ${d.activity ?? d.package} in ${ms(d.total_ms)}${d.launch_state ? ` (${d.launch_state})` : ''}`,
        detail: { total_ms: d.total_ms, wait_ms: d.wait_ms, launch_state: d.launch_state, activity: d.activity },
      });
      recordLaunch(db, s.session_id, d);
    }
  },
  'app.restarted'(db, event) {
    const d = event.data as Launched;
    for (const s of openSessions(db, event, d.device_serial, d.package)) {
      addRow(db, s.session_id, event, {
        category: 'restart',
        summary: `restarted${d.cleared_data ? ' with data cleared' : ''} in ${ms(d.total_ms)}${d.launch_state ? ` (${d.launch_state})` : ''}`,
        detail: {
          total_ms: d.total_ms,
          wait_ms: d.wait_ms,
          launch_state: d.launch_state,
          activity: d.activity,
          cleared_data: d.cleared_data ?? false,
        },
      });
      recordLaunch(db, s.session_id, d);
    }
  },
  'app.stopped'(db, event) {
    const d = event.data as { device_serial: string; package: string; was_running: boolean };
    toEach(db, event, d.device_serial, d.package, {
      category: 'stop',
      summary: d.was_running ? 'force-stopped' : 'force-stopped (was not running)',
    });
  },
  'app.crashed': crash,
  'app.native_crashed': crash,
  'app.not_responding': crash,
  'app.exit_reasons_read'(db, event) {
    const d = event.data as { device_serial: string; package: string; total: number; reasons: Record<string, number> };
    const parts = Object.entries(d.reasons).map(([reason, n]) => `${reason} ×${n}`);
    toEach(db, event, d.device_serial, d.package, {
      category: 'exit_reasons',
      summary: `exit reasons read: ${d.total} record(s)${parts.length ? `, ${parts.join(', ')}` : ''}`,
      detail: { total: d.total, reasons: d.reasons },
    });
  },
  'app.uninstall_observed'(db, event) {
    const d = event.data as { device_serial: string; package: string; observed_by: string };
    for (const s of openSessions(db, event, d.device_serial, d.package)) {
      addRow(db, s.session_id, event, {
        category: 'ended',
        summary: `${d.package} found not installed by ${d.observed_by}`,
        detail: { observed_by: d.observed_by },
      });
      db.prepare(
        "UPDATE debug_sessions SET state = 'ended', ended_at = ?, ended_seq = ?, end_reason = ? WHERE session_id = ?",
      ).run(event.at, event.seq, `not installed (seen by ${d.observed_by})`, s.session_id);
    }
  },
  'app.settings_opened'(db, event) {
    const d = event.data as { device_serial: string; package: string };
    toEach(db, event, d.device_serial, d.package, { category: 'settings', summary: 'app settings opened' });
  },
  'permission.granted': permission,
  'permission.revoked': permission,
  'network.changed'(db, event) {
    const d = event.data as {
      device_serial: string;
      current: { wifi: boolean | null; mobile_data: boolean | null; airplane_mode: boolean | null };
    };
    const flag = (v: boolean | null) => (v === null ? '?' : v ? 'on' : 'off');
    toEach(db, event, d.device_serial, null, {
      category: 'network',
      summary: `network: wifi ${flag(d.current.wifi)}, mobile data ${flag(d.current.mobile_data)}, airplane ${flag(d.current.airplane_mode)}`,
      detail: { current: d.current },
    });
  },
  'orientation.changed'(db, event) {
    const d = event.data as { device_serial: string; orientation: string; previous: string | null };
    toEach(db, event, d.device_serial, null, {
      category: 'orientation',
      summary: `orientation ${d.previous ?? '?'} → ${d.orientation}`,
    });
  },
  'deep_link.opened'(db, event) {
    const d = event.data as { device_serial: string; uri: string; package: string | null };
    toEach(db, event, d.device_serial, d.package, {
      category: 'deep_link',
      summary: `deep link ${d.uri.length > 200 ? `${d.uri.slice(0, 200)}…` : d.uri}`,
    });
  },
  'ui.tapped': ui,
  'ui.text_entered': ui,
  'ui.swiped': ui,
  'ui.key_sent': ui,
  'ui.screenshot_taken': ui,
  'mcp.tool_call_started'(db, event) {
    const d = event.data as ToolCallStartedShape;
    toEach(
      db,
      event,
      event.device,
      event.package,
      {
        category: 'tool_call',
        summary: `${d.tool} (${d.kind})`,
        detail: { tool: d.tool, kind: d.kind },
        callId: event.id,
      },
      'tool_calls',
    );
  },
  'mcp.tool_called'(db, event) {
    const d = event.data as ToolCalledShape;
    if (d.kind === 'R' || d.kind === null) return;
    const summary = `${d.tool} (${d.kind}) ${d.outcome}${d.error_code ? ` ${d.error_code}` : ''} in ${d.duration_ms} ms`;
    const updated = event.correlation
      ? db
          .prepare(
            'UPDATE debug_session_timeline SET outcome = ?, duration_ms = ?, summary = ? WHERE call_id = ? AND category = ?',
          )
          .run(d.outcome, d.duration_ms, summary, event.correlation, 'tool_call').changes
      : 0;
    // A call refused before it ran has no intent record: its outcome is the only one.
    if (updated === 0)
      toEach(
        db,
        event,
        event.device,
        event.package,
        {
          category: 'tool_call',
          summary,
          detail: { tool: d.tool, kind: d.kind },
          outcome: d.outcome,
          durationMs: d.duration_ms,
        },
        'tool_calls',
      );
  },
  'build.started'(db, event) {
    const d = event.data as BuildStartedShape;
    db.prepare(
      `INSERT INTO debug_session_builds (build_id, started_seq, kind, tasks, module, variant, provenance, log_path)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(build_id) DO NOTHING`,
    ).run(
      d.build_id,
      event.seq,
      d.kind,
      JSON.stringify(d.tasks),
      d.module,
      d.variant,
      JSON.stringify(d.provenance ?? {}),
      d.log_path,
    );
  },
  'build.finished'(db, event) {
    const d = event.data as BuildFinishedShape;
    db.prepare(
      `UPDATE debug_session_builds SET status = ?, finished_seq = ?, log_sha256 = ?, log_bytes = ?, mappings = ?
       WHERE build_id = ?`,
    ).run(d.status, event.seq, d.log.sha256, d.log.bytes, JSON.stringify(d.mappings), d.build_id);
  },
};

function recordLaunch(db: SqlConnection, sessionId: string, d: Launched): void {
  db.prepare(
    `UPDATE debug_sessions SET launches = launches + 1, last_launch_ms = ?,
       first_launch_state = CASE WHEN launches = 0 THEN ? ELSE first_launch_state END,
       first_launch_ms = CASE WHEN launches = 0 THEN ? ELSE first_launch_ms END
     WHERE session_id = ?`,
  ).run(d.total_ms, d.launch_state, d.total_ms, sessionId);
}

function crash(db: SqlConnection, event: StoredEvent): void {
  const d = event.data as Crash;
  const kind = CRASH_KINDS[event.type]!;
  // A process the crash detector could not name belongs to no install.
  if (d.package === null) return;
  // Attributed by device + package + time: the install of that package open on that device when it was recorded.
  for (const s of openSessions(db, event, d.device_serial, d.package)) {
    const verified = d.build !== null && d.build.installed_seq === s.install_seq;
    addRow(db, s.session_id, event, {
      category: 'crash',
      summary: `${kind === 'anr' ? 'ANR' : `${kind} crash`}: ${crashHeadline(event.type, d)}${verified ? '' : ' (unverified)'}`,
      detail: {
        kind,
        signature: d.signature.length > 500 ? `${d.signature.slice(0, 500)}…` : d.signature,
        signature_hash: d.signature_hash,
        title: crashHeadline(event.type, d),
        verified,
        installed_seq: d.build?.installed_seq ?? null,
        lines: d.lines.length,
      },
    });
    bump(db, s.session_id, kind === 'anr' ? 'anrs' : 'crashes');
  }
}

function permission(db: SqlConnection, event: StoredEvent): void {
  const d = event.data as { device_serial: string; package: string; permission: string };
  toEach(db, event, d.device_serial, d.package, {
    category: 'permission',
    summary: `${event.type === 'permission.granted' ? 'granted' : 'revoked'} ${d.permission}`,
  });
}

function ui(db: SqlConnection, event: StoredEvent): void {
  const d = event.data as {
    device_serial: string;
    foreground_package: string | null;
    target?: {
      resource_id: string | null;
      text: string | null;
      content_desc: string | null;
      x: number;
      y: number;
    } | null;
    key?: string;
    length?: number;
  };
  const target = d.target
    ? (d.target.resource_id ??
      d.target.content_desc ??
      (d.target.text ? `"${d.target.text}"` : `${d.target.x},${d.target.y}`))
    : null;
  const what =
    event.type === 'ui.tapped'
      ? `tap ${target ?? ''}`
      : event.type === 'ui.text_entered'
        ? `typed ${d.length ?? 0} chars${target ? ` into ${target}` : ''}`
        : event.type === 'ui.swiped'
          ? `swipe${target ? ` on ${target}` : ''}`
          : event.type === 'ui.key_sent'
            ? `key ${d.key ?? ''}`
            : 'screenshot';
  // An action on another app's screen is not this session's; one on no known app goes to every open session there.
  toEach(db, event, d.device_serial, d.foreground_package, { category: 'ui', summary: what.trim() }, 'ui_actions');
}
