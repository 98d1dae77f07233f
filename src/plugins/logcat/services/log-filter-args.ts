import { z } from 'zod';
import { isLogLevel, type LogLevel } from '../../../android/logcat/logcat-entry.js';
import type { PackageScope } from '../../../android/gradle-project-model.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { validatePackageName } from '../../../kernel/validation.js';
import type { LogLineStore } from './log-line-store.js';

export const minLevelField = z.enum(['V', 'D', 'I', 'W', 'E', 'F', 'A']).optional().describe('Lowest level.');

export const tagFilterField = z
  .union([z.string().min(1).max(128), z.array(z.string().min(1).max(128)).min(1).max(32)])
  .optional()
  .describe('Tag or tags (any of).');

export const packageFilterField = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe('App id, or "mine" (the project\'s apps).');

const RELATIVE = /^(\d{1,9})(ms|s|m|h|d)$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export const timeBoundDescription = 'ISO time, epoch ms, or age before the newest line (30s, 5m, 2h).';

/**
 * A `since`/`until` argument as epoch ms. Durations count back from the newest stored line, not the host clock:
 * text captures store the device's wall clock read as UTC, so the host clock would be off by the device's zone.
 */
export function parseTimeBound(
  value: string | undefined,
  field: string,
  newestTimeMs: () => number | null,
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const relative = RELATIVE.exec(text);
  if (relative) {
    const newest = newestTimeMs();
    return (newest ?? Date.now()) - Number(relative[1]) * UNIT_MS[relative[2]!]!;
  }
  if (/^\d{1,15}$/.test(text)) return Number(text);
  const parsed = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(parsed)) return parsed;
  throw new InvalidArgumentsError(
    `${field} ${JSON.stringify(text.slice(0, 64))} is not a time: pass ISO-8601 (2026-01-31T12:00:00Z), epoch ms, or a duration such as 30s, 5m, 2h.`,
    'INVALID_ARGUMENT',
    field,
  );
}

export function parseMinLevel(value: string | undefined): LogLevel | undefined {
  return value !== undefined && isLogLevel(value) ? value : undefined;
}

/**
 * The packages a `package` argument stands for on this device. `mine` is every package the device's lines were
 * resolved to that the project's scope accepts (base ids, variant suffixes, and `:process` names of those),
 * plus the ids the project declares; without a project it is refused, naming what to pass instead.
 */
export function resolvePackageFilter(
  value: string | undefined,
  field: string,
  deviceSerial: string,
  store: LogLineStore,
  scope: () => PackageScope | null,
): string[] | undefined {
  if (value === undefined) return undefined;
  if (value !== 'mine') {
    const [app, process] = value.split(':', 2);
    validatePackageName(app!, field);
    if (process !== undefined) return [value];
    const seen = store.packages?.(deviceSerial) ?? [];
    return [value, ...seen.filter((p) => p.startsWith(`${value}:`))];
  }
  const projectScope = scope();
  if (!projectScope || projectScope.packages.length === 0) {
    throw new InvalidArgumentsError(
      `${field} "mine" needs a Gradle project with a readable application id; pass the application id instead (e.g. com.example.app).`,
      'PROJECT_NOT_FOUND',
      field,
    );
  }
  const seen = store.packages?.(deviceSerial) ?? [];
  const mine = seen.filter((p) => projectScope.isInScope(p.split(':', 1)[0]!));
  return [...new Set([...projectScope.packages, ...mine])];
}

/**
 * The device whose log a read tool reads: a serial the store already holds lines for is read even when the
 * device is unplugged (its log outlives the connection); otherwise the usual selection among online devices.
 */
export async function selectLogDevice(
  requested: string | undefined,
  store: LogLineStore,
  select: (requested: string | undefined) => Promise<string>,
): Promise<string> {
  if (requested !== undefined) {
    const counts = store.counts(requested);
    if (counts.stored > 0 || counts.dropped > 0) return requested;
  }
  return select(requested);
}

/** What a read tool says when no worker ever streamed this device into the store. */
export function neverStreamedNote(serial: string): string {
  return `No log has been streamed from ${serial} yet: call start_logcat (device_serial "${serial}") first, then read again.`;
}
