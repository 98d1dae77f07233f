import { InvalidArgumentsError } from '../../../kernel/errors.js';
import type { StoredEvent } from '../../../events/event-definition.js';

/** Largest `data` (as JSON characters) returned per event; bigger payloads are cut and marked. */
export const MAX_EVENT_DATA_CHARS = 2048;

/** An ISO 8601 time or epoch milliseconds (as a number or a digit string) → epoch ms. */
export function parseTimeBound(value: string | number, field: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0)
      throw new InvalidArgumentsError(
        `${field} must be a non-negative epoch milliseconds value.`,
        'INVALID_ARGUMENT',
        field,
      );
    return Math.trunc(value);
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const relative = /^(\d+)\s*(s|m|h|d)$/.exec(text);
  if (relative) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[relative[2] as 's' | 'm' | 'h' | 'd'];
    return Date.now() - Number(relative[1]) * unit;
  }
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) {
    throw new InvalidArgumentsError(
      `${field} must be an ISO 8601 time (2025-01-31T12:00:00Z), epoch milliseconds, or an age like 15m / 2h / 1d (got ${JSON.stringify(text.slice(0, 40))}).`,
      'INVALID_ARGUMENT',
      field,
    );
  }
  return parsed;
}

export interface PresentedEvent {
  seq: number;
  at: string;
  type: string;
  stream: string;
  actor: { kind: string; session: string | null; client: string | null; pid: number; host: string | null };
  device: string | null;
  package: string | null;
  correlation: string | null;
  data: unknown;
  data_truncated: boolean;
}

/** The wire form of an event: ISO time, snake_case, and `data` bounded so one event cannot flood a reply. */
export function presentEvent(event: StoredEvent, maxDataChars = MAX_EVENT_DATA_CHARS): PresentedEvent {
  const json = JSON.stringify(event.data) ?? 'null';
  const truncated = json.length > maxDataChars;
  return {
    seq: event.seq,
    at: new Date(event.at).toISOString(),
    type: event.type,
    stream: event.stream,
    actor: {
      kind: event.actor.kind,
      session: event.actor.session ?? null,
      client: event.actor.client ?? null,
      pid: event.actor.pid,
      host: event.actor.host ?? null,
    },
    device: event.device,
    package: event.package,
    correlation: event.correlation,
    data: truncated ? { preview: json.slice(0, maxDataChars), total_chars: json.length } : event.data,
    data_truncated: truncated,
  };
}

/** Characters of an event's one-line summary. */
const MAX_SUMMARY_CHARS = 200;

export interface CompactEvent {
  seq: number;
  at: string;
  type: string;
  actor: string;
  device?: string;
  package?: string;
  summary: string;
}

/**
 * `agent claude-code 1a2b3c4d pid 123`: enough to tell actors apart in a list. `on <host>` follows when the
 * actor ran on another machine than `localHost` (a team's shared log), where the pid alone says nothing.
 */
function describeEventActor(actor: StoredEvent['actor'], localHost: string | undefined): string {
  const host = actor.host !== undefined && actor.host !== localHost ? `on ${actor.host}` : undefined;
  return [actor.kind, actor.client, actor.session?.slice(0, 8), `pid ${actor.pid}`, host]
    .filter((part) => part !== undefined && part !== null && part !== '')
    .map((part) => String(part).slice(0, 60))
    .join(' ');
}

/** `key=value` for the scalar fields of the data (device and package are columns already). */
function summarizeData(data: unknown): string {
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return (JSON.stringify(data) ?? '').slice(0, MAX_SUMMARY_CHARS);
  const parts: string[] = [];
  let length = 0;
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (key === 'device_serial' || key === 'package') continue;
    if (value === null || value === undefined || typeof value === 'object') continue;
    const part = `${key}=${typeof value === 'string' ? value.slice(0, 80) : String(value)}`;
    parts.push(part);
    length += part.length + 1;
    if (length > MAX_SUMMARY_CHARS) break;
  }
  const line = parts.join(' ');
  return line.length > MAX_SUMMARY_CHARS ? `${line.slice(0, MAX_SUMMARY_CHARS)}…` : line;
}

/** The default one-line form of an event in query_events; `localHost` is the machine asking. */
export function compactEvent(event: StoredEvent, localHost?: string): CompactEvent {
  return {
    seq: event.seq,
    at: new Date(event.at).toISOString(),
    type: event.type,
    actor: describeEventActor(event.actor, localHost),
    ...(event.device !== null ? { device: event.device } : {}),
    ...(event.package !== null ? { package: event.package } : {}),
    summary: summarizeData(event.data),
  };
}
