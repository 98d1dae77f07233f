import type { StoredLogLine } from './log-line-store.js';

/** Longest message a tool or the CLI prints for one line; longer ones are cut with `…`. */
export const MAX_MESSAGE_CHARS = 2000;

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/**
 * `MM-DD HH:MM:SS.mmm` of a stored time. Text captures store the device's wall clock read as UTC, binary ones
 * exact epoch ms; both print as the device showed them when read back in UTC.
 */
export function formatLogTime(timeMs: number | null): string {
  if (timeMs === null) return '---- --:--:--.---';
  const d = new Date(timeMs);
  return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/** One line as logcat's threadtime prints it, prefixed with its seq (the cursor unit): compact for agents. */
export function formatThreadtime(line: StoredLogLine): string {
  const message =
    line.message.length > MAX_MESSAGE_CHARS ? `${line.message.slice(0, MAX_MESSAGE_CHARS)}…` : line.message;
  return `${line.seq} ${formatLogTime(line.timeMs)} ${line.pid} ${line.tid ?? '-'} ${line.level} ${line.tag}: ${message}`;
}
