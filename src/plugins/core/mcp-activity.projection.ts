import type { Projection, StoredEvent } from '../../events/event-definition.js';

type SessionStarted = {
  session: string;
  client_name: string | null;
  client_version: string | null;
  protocol_version: string | null;
  pid: number;
  pid_start?: string | null;
  toolsets: string[];
  read_only: boolean;
  project_root: string | null;
};
type ToolCalled = {
  session: string;
  tool: string;
  kind: string | null;
  outcome: string;
  error_code: string | null;
  duration_ms: number;
  summary: string;
};
type SessionEnded = { session: string; reason: string };

/**
 * MCP activity read model: one row per server session and one per tool call. A call whose session
 * start was never recorded (the log was briefly locked) still creates its session row.
 */
export const mcpActivityProjection: Projection = {
  name: 'mcp_activity',
  // 2: mcp_sessions.pid_start.
  version: 2,
  handles: ['mcp.session_started', 'mcp.tool_called', 'mcp.session_ended'],
  tables: ['mcp_sessions', 'mcp_tool_calls'],
  ddl: [
    `CREATE TABLE IF NOT EXISTS mcp_sessions (
      session TEXT PRIMARY KEY,
      client_name TEXT, client_version TEXT, protocol_version TEXT,
      pid INTEGER NOT NULL, pid_start TEXT, toolsets TEXT NOT NULL DEFAULT '[]', read_only INTEGER NOT NULL DEFAULT 0, project_root TEXT,
      started_at INTEGER NOT NULL, last_call_at INTEGER,
      calls INTEGER NOT NULL DEFAULT 0, errors INTEGER NOT NULL DEFAULT 0, refused INTEGER NOT NULL DEFAULT 0,
      ended_at INTEGER, end_reason TEXT)`,
    'CREATE INDEX IF NOT EXISTS mcp_sessions_started ON mcp_sessions (started_at)',
    `CREATE TABLE IF NOT EXISTS mcp_tool_calls (
      seq INTEGER PRIMARY KEY, session TEXT NOT NULL, at INTEGER NOT NULL, tool TEXT NOT NULL, kind TEXT,
      outcome TEXT NOT NULL, error_code TEXT, duration_ms INTEGER NOT NULL, summary TEXT NOT NULL)`,
    'CREATE INDEX IF NOT EXISTS mcp_tool_calls_session ON mcp_tool_calls (session, seq)',
  ],
  apply(db, event: StoredEvent) {
    switch (event.type) {
      case 'mcp.session_started': {
        const d = event.data as SessionStarted;
        // The existing row's column is qualified: PostgreSQL finds a bare started_at ambiguous with excluded's.
        db.prepare(
          `INSERT INTO mcp_sessions (session, client_name, client_version, protocol_version, pid, pid_start, toolsets, read_only, project_root, started_at)
           VALUES (@session, @client_name, @client_version, @protocol_version, @pid, @pid_start, @toolsets, @read_only, @project_root, @at)
           ON CONFLICT(session) DO UPDATE SET client_name = excluded.client_name, client_version = excluded.client_version,
             protocol_version = excluded.protocol_version, pid = excluded.pid, pid_start = excluded.pid_start, toolsets = excluded.toolsets,
             read_only = excluded.read_only, project_root = excluded.project_root,
             started_at = MIN(mcp_sessions.started_at, excluded.started_at)`,
        ).run({
          ...d,
          pid_start: d.pid_start ?? null,
          toolsets: JSON.stringify(d.toolsets),
          read_only: d.read_only ? 1 : 0,
          at: event.at,
        });
        break;
      }
      case 'mcp.tool_called': {
        const d = event.data as ToolCalled;
        db.prepare(
          `INSERT INTO mcp_sessions (session, client_name, client_version, pid, started_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(session) DO NOTHING`,
        ).run(d.session, event.actor.client ?? null, event.actor.clientVersion ?? null, event.actor.pid, event.at);
        db.prepare(
          `UPDATE mcp_sessions SET calls = calls + 1, last_call_at = ?,
             errors = errors + ?, refused = refused + ? WHERE session = ?`,
        ).run(event.at, d.outcome === 'error' ? 1 : 0, d.outcome === 'refused' ? 1 : 0, d.session);
        db.prepare(
          `INSERT INTO mcp_tool_calls (seq, session, at, tool, kind, outcome, error_code, duration_ms, summary)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(event.seq, d.session, event.at, d.tool, d.kind, d.outcome, d.error_code, d.duration_ms, d.summary);
        break;
      }
      case 'mcp.session_ended': {
        const d = event.data as SessionEnded;
        db.prepare('UPDATE mcp_sessions SET ended_at = ?, end_reason = ? WHERE session = ?').run(
          event.at,
          d.reason,
          d.session,
        );
        break;
      }
    }
  },
};
