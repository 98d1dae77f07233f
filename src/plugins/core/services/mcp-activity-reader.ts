import { inject, injectable } from 'inversify';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { isProcessAlive } from '../../../kernel/process-identity.js';
import { thisHost } from '../../../shared/actor.js';

export interface McpSessionView {
  readonly session: string;
  readonly client_name: string | null;
  readonly client_version: string | null;
  readonly protocol_version: string | null;
  readonly pid: number;
  readonly toolsets: string[];
  readonly read_only: boolean;
  readonly project_root: string | null;
  readonly started_at: number;
  readonly last_call_at: number | null;
  readonly calls: number;
  readonly errors: number;
  readonly refused: number;
  readonly ended_at: number | null;
  readonly end_reason: string | null;
  /** The server's machine; null for sessions recorded before hosts were (they ran on this one). */
  readonly host: string | null;
  /**
   * Not ended and its process still exists (a crashed server never records its end). A session on another
   * machine sharing the log is alive while it has not ended: its pid cannot be checked from here.
   */
  readonly alive: boolean;
}

/** Whether a session's process can be checked here: it ran on this machine (or before hosts were recorded). */
export function sessionIsLocal(host: string | null, here: string = thisHost()): boolean {
  return host === null || host === here;
}

interface SessionRow extends Omit<McpSessionView, 'toolsets' | 'read_only' | 'alive'> {
  toolsets: string;
  read_only: number;
  /** The server's start time; null for sessions recorded before it was (then the pid alone is checked). */
  pid_start: string | null;
}

function parseToolsets(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/** Reads the `mcp_sessions` read model: which agents are connected, and what they have been doing. */
@injectable()
export class McpActivityReader {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  /**
   * Sessions, most recently active first, from `offset` on. Without includeEnded, only sessions that
   * recorded no end and whose process runs (a page may hold fewer than `limit`).
   */
  sessions(options: { includeEnded: boolean; limit: number; offset?: number }): McpSessionView[] {
    const paged = options.offset !== undefined;
    const rows = this.store()
      .prepareRead(
        `SELECT * FROM mcp_sessions ${options.includeEnded ? '' : 'WHERE ended_at IS NULL'}
         ORDER BY COALESCE(last_call_at, started_at) DESC LIMIT ? OFFSET ?`,
      )
      .all(options.includeEnded || paged ? options.limit : options.limit * 4, options.offset ?? 0) as SessionRow[];
    const here = thisHost();
    const views = rows.map((row) => ({
      session: row.session,
      client_name: row.client_name,
      client_version: row.client_version,
      protocol_version: row.protocol_version,
      pid: row.pid,
      toolsets: parseToolsets(row.toolsets),
      read_only: row.read_only === 1,
      project_root: row.project_root,
      started_at: row.started_at,
      last_call_at: row.last_call_at,
      calls: row.calls,
      errors: row.errors,
      refused: row.refused,
      ended_at: row.ended_at,
      end_reason: row.end_reason,
      host: row.host,
      alive: row.ended_at === null && (!sessionIsLocal(row.host, here) || isProcessAlive(row.pid, row.pid_start)),
    }));
    return (options.includeEnded ? views : views.filter((v) => v.alive)).slice(0, options.limit);
  }

  /** Sessions `sessions` pages through with an offset (without includeEnded: those with no recorded end). */
  count(includeEnded: boolean): number {
    return (
      this.store()
        .prepareRead(`SELECT COUNT(*) AS n FROM mcp_sessions ${includeEnded ? '' : 'WHERE ended_at IS NULL'}`)
        .get() as { n: number }
    ).n;
  }

  liveSessions(limit = 50): McpSessionView[] {
    return this.sessions({ includeEnded: false, limit });
  }
}
