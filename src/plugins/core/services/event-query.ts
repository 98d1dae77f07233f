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
  actor: { kind: string; session: string | null; client: string | null; pid: number };
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
    },
    device: event.device,
    package: event.package,
    correlation: event.correlation,
    data: truncated ? { preview: json.slice(0, maxDataChars), total_chars: json.length } : event.data,
    data_truncated: truncated,
  };
}
