import { randomUUID } from 'node:crypto';
import { type Actor, hostNameProblem } from '../shared/actor.js';
import { CanonicalJsonError, canonicalJson } from './canonical-json.js';
import { type EventCatalog, EventValidationError } from './event-catalog.js';
import type { NewEvent, Projection, StoreTable, StoredEvent } from './event-definition.js';
import { EventQueryError } from './event-query-error.js';
import { STORE_TABLES } from './event-schema.js';
import type { EventFilter } from './event-store.js';
import { hashCanonicalRow } from './event-hash.js';
import type { EventRow } from './event-verifier.js';
import { typeMatcher } from './glob.js';

/**
 * What every store does the same way before and around its own SQL: validating and serializing an
 * event, checking a query filter, validating declared tables. Kept here so the SQLite and PostgreSQL
 * stores cannot drift apart on what they accept.
 */

export const DEFAULT_QUERY_LIMIT = 50;
export const MAX_QUERY_LIMIT = 10_000;
export const DEFAULT_READ_AFTER_LIMIT = 1000;
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_DATA_BYTES = 256 * 1024;
export const MAX_FIELD_LENGTH = 512;
/** Events read per page when replaying the log into projections. */
export const REPLAY_PAGE = 500;
const MAX_TYPE_PATTERNS = 100;
const ACTOR_KINDS = new Set(['agent', 'cli', 'tui', 'system']);
const SQL_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An event validated and serialized before the write lock is taken, so the lock is held briefly. */
export interface PreparedEvent {
  id: string;
  type: string;
  v: number;
  stream: string;
  actor: Actor;
  actorJson: string;
  device: string | null;
  package: string | null;
  correlation: string | null;
  data: unknown;
  dataJson: string;
}

export function prepareEvent(
  catalog: EventCatalog,
  maxDataBytes: number,
  event: NewEvent & { actor: Actor },
): PreparedEvent {
  if (event === null || typeof event !== 'object') throw new EventValidationError('An event must be an object.');
  const type = event.type;
  if (typeof type !== 'string') throw new EventValidationError('An event needs a string "type".', undefined, ['type']);
  const data = catalog.validate(type, event.data);
  const v = catalog.get(type)!.version;
  let dataJson: string;
  try {
    dataJson = canonicalJson(data);
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    throw new EventValidationError(
      `Event "${type}" has data JSON cannot store: ${error.message.replace(/^\$/, 'data')}.`,
      type,
      ['data'],
    );
  }
  const bytes = Buffer.byteLength(dataJson, 'utf8');
  if (bytes > maxDataBytes) {
    throw new EventValidationError(
      `Event "${type}" data is ${bytes} bytes, over the ${maxDataBytes}-byte limit. Keep bulk output in a file and record its path and SHA-256 instead.`,
      type,
      ['data'],
    );
  }
  const stream = event.stream;
  if (typeof stream !== 'string' || stream.length === 0 || stream.length > MAX_FIELD_LENGTH) {
    throw new EventValidationError(
      `Event "${type}" needs a "stream" of 1-${MAX_FIELD_LENGTH} characters (e.g. "build:42", "device:emulator-5554").`,
      type,
      ['stream'],
    );
  }
  const actor = normalizeActor(event.actor, type);
  const actorJson = canonicalJson(actor);
  return {
    id: randomUUID(),
    type,
    v,
    stream,
    actor: JSON.parse(actorJson) as Actor,
    actorJson,
    device: optionalField(event.device, 'device', type),
    package: optionalField(event.package, 'package', type),
    correlation: optionalField(event.correlation, 'correlation', type),
    // What listeners and projections see is exactly what a later read returns.
    data: JSON.parse(dataJson),
    dataJson,
  };
}

export function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined) return fallback;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) {
    throw new EventQueryError('limit must be a whole number >= 0.', 'limit');
  }
  return Math.min(limit, MAX_QUERY_LIMIT);
}

const matcherCache = new WeakMap<Projection, (type: string) => boolean>();
export function handlesType(p: Projection, type: string): boolean {
  let match = matcherCache.get(p);
  if (!match) {
    match = typeMatcher(p.handles);
    matcherCache.set(p, match);
  }
  return match(type);
}

export function optionalField(value: unknown, field: string, type: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_FIELD_LENGTH) {
    throw new EventValidationError(
      `Event "${type}": "${field}" must be null or a string of 1-${MAX_FIELD_LENGTH} characters.`,
      type,
      [field],
    );
  }
  return value;
}

export function normalizeActor(actor: unknown, type: string): Actor {
  const a = actor as Partial<Actor> | null | undefined;
  if (!a || typeof a !== 'object' || !ACTOR_KINDS.has(a.kind as string)) {
    throw new EventValidationError(`Event "${type}" needs an actor whose kind is agent, cli, tui or system.`, type, [
      'actor.kind',
    ]);
  }
  if (!Number.isInteger(a.pid) || (a.pid as number) < 0) {
    throw new EventValidationError(`Event "${type}": actor.pid must be a process id.`, type, ['actor.pid']);
  }
  for (const key of ['session', 'client', 'clientVersion'] as const) {
    const value = a[key];
    if (value !== undefined && (typeof value !== 'string' || value.length > MAX_FIELD_LENGTH)) {
      throw new EventValidationError(
        `Event "${type}": actor.${key} must be a string of at most ${MAX_FIELD_LENGTH} characters.`,
        type,
        [`actor.${key}`],
      );
    }
  }
  // Optional: events recorded before hosts were named have none, and stay valid.
  if (a.host !== undefined) {
    const problem = hostNameProblem(a.host);
    if (problem) {
      throw new EventValidationError(`Event "${type}": actor.host ${problem}.`, type, ['actor.host']);
    }
  }
  try {
    return JSON.parse(canonicalJson(a)) as Actor;
  } catch (error) {
    throw new EventValidationError(`Event "${type}": actor is not plain JSON (${(error as Error).message}).`, type, [
      'actor',
    ]);
  }
}

export function validateTables(projections: readonly Projection[], sideTables: readonly StoreTable[]): void {
  const names = new Set<string>();
  const tables = new Map<string, string>();
  for (const p of projections) {
    if (!p || typeof p.name !== 'string' || !SQL_IDENTIFIER.test(p.name)) {
      throw new TypeError(`Projection name ${JSON.stringify(p?.name)} must be an identifier (letters, digits, _).`);
    }
    if (names.has(p.name)) throw new TypeError(`Projection "${p.name}" is registered twice.`);
    names.add(p.name);
    if (!Number.isInteger(p.version) || p.version < 1)
      throw new TypeError(`Projection "${p.name}" needs a positive integer version.`);
    if (!Array.isArray(p.handles) || p.handles.length === 0 || p.handles.some((h) => typeof h !== 'string' || !h)) {
      throw new TypeError(`Projection "${p.name}" must handle at least one event type.`);
    }
    if (typeof p.apply !== 'function' || !Array.isArray(p.ddl))
      throw new TypeError(`Projection "${p.name}" needs ddl and apply().`);
    for (const t of p.tables) {
      if (!SQL_IDENTIFIER.test(t))
        throw new TypeError(`Projection "${p.name}" declares table "${t}", which is not a plain identifier.`);
      if ((STORE_TABLES as readonly string[]).includes(t.toLowerCase()) || t.toLowerCase().startsWith('sqlite_')) {
        throw new TypeError(`Projection "${p.name}" may not own the store's table "${t}".`);
      }
      const owner = tables.get(t.toLowerCase());
      if (owner) throw new TypeError(`Table "${t}" is declared by projections "${owner}" and "${p.name}".`);
      tables.set(t.toLowerCase(), p.name);
    }
  }
  const sideNames = new Map<string, string>();
  for (const t of sideTables) {
    const where = `Side table ${JSON.stringify(t?.name)} (owner ${JSON.stringify(t?.owner)})`;
    if (!t || typeof t.name !== 'string' || !SQL_IDENTIFIER.test(t.name)) {
      throw new TypeError(`${where}: its name must be an identifier (letters, digits, _).`);
    }
    if (typeof t.owner !== 'string' || t.owner.length === 0) throw new TypeError(`${where} needs an owner.`);
    const key = t.name.toLowerCase();
    if ((STORE_TABLES as readonly string[]).includes(key) || key.startsWith('sqlite_')) {
      throw new TypeError(`${where} may not be the store's own table.`);
    }
    const projection = tables.get(key);
    if (projection) throw new TypeError(`${where} is also a table of projection "${projection}".`);
    const other = sideNames.get(key);
    if (other !== undefined) throw new TypeError(`${where} is declared twice (also by owner "${other}").`);
    sideNames.set(key, t.owner);
    if (!Array.isArray(t.migrations) || t.migrations.length === 0) {
      throw new TypeError(`${where} needs at least one migration step (the one that creates it).`);
    }
    for (const step of t.migrations) {
      const valid =
        (typeof step === 'string' && step.trim().length > 0) ||
        (typeof step === 'object' &&
          step !== null &&
          typeof step.addColumn === 'string' &&
          SQL_IDENTIFIER.test(step.addColumn) &&
          typeof step.type === 'string' &&
          step.type.trim().length > 0);
      if (!valid) {
        throw new TypeError(`${where}: each step is SQL or { addColumn: <identifier>, type: <column type> }.`);
      }
    }
  }
}

export function reportListenerError(error: unknown, event: StoredEvent): void {
  const why = error instanceof Error ? error.message : String(error);
  process.stderr.write(`droidwright: an onAppended listener failed on seq ${event.seq} (${event.type}): ${why}\n`);
}

/** A type condition in the store's SQL dialect: exact names and `*` globs. */
export type TypeCondition = (patterns: readonly string[]) => { sql: string; params: string[] };

/**
 * The WHERE clause (`?` parameters), order and limit of an event query, after validating the filter;
 * null when it can match nothing (no types, or limit 0).
 */
export function eventFilterSql(
  filter: EventFilter,
  typeCondition: TypeCondition,
): { where: string[]; params: unknown[]; order: 'asc' | 'desc'; limit: number } | null {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.types !== undefined) {
    if (!Array.isArray(filter.types) || filter.types.some((t) => typeof t !== 'string' || t.length === 0)) {
      throw new EventQueryError('types must be a list of event types or `*` globs.', 'types');
    }
    if (filter.types.length === 0) return null;
    if (filter.types.length > MAX_TYPE_PATTERNS) {
      throw new EventQueryError(
        `types may list at most ${MAX_TYPE_PATTERNS} patterns; use globs such as "build.*".`,
        'types',
      );
    }
    const cond = typeCondition(filter.types);
    where.push(cond.sql);
    params.push(...cond.params);
  }
  if (filter.excludeTypes !== undefined && filter.excludeTypes.length > 0) {
    const patterns = filter.excludeTypes;
    if (patterns.length > MAX_TYPE_PATTERNS || patterns.some((t) => typeof t !== 'string' || t.length === 0)) {
      throw new EventQueryError(
        `exclude_types must list at most ${MAX_TYPE_PATTERNS} event types or \`*\` globs.`,
        'exclude_types',
      );
    }
    const cond = typeCondition(patterns);
    where.push(`NOT ${cond.sql}`);
    params.push(...cond.params);
  }
  const num = (name: keyof EventFilter, column: string, op: string) => {
    const value = filter[name];
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new EventQueryError(`${name} must be a finite number.`, name);
    }
    where.push(`${column} ${op} ?`);
    params.push(value);
  };
  const text = (name: keyof EventFilter, column: string) => {
    const value = filter[name];
    if (value === undefined) return;
    if (typeof value !== 'string') throw new EventQueryError(`${name} must be a string.`, name);
    where.push(`${column} = ?`);
    params.push(value);
  };
  num('since', 'at', '>=');
  num('until', 'at', '<');
  num('afterSeq', 'seq', '>');
  num('beforeSeq', 'seq', '<');
  text('device', 'device');
  text('package', 'package');
  text('correlation', 'correlation');
  text('stream', 'stream');
  text('actorSession', 'actor_session');
  if (filter.actorKind !== undefined && !ACTOR_KINDS.has(filter.actorKind)) {
    throw new EventQueryError('actorKind must be agent, cli, tui or system.', 'actorKind');
  }
  text('actorKind', 'actor_kind');
  const order = filter.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw new EventQueryError('order must be "asc" or "desc".', 'order');
  }
  const limit = clampLimit(filter.limit, DEFAULT_QUERY_LIMIT);
  if (limit === 0) return null;
  return { where, params, order, limit };
}
/** A projection failed while applying an event; the whole append was rolled back. */
export class ProjectionError extends Error {
  override readonly name = 'ProjectionError';
  constructor(
    message: string,
    readonly projection: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/**
 * Links prepared events onto the head (seq, hash) of the chain: each gets the next seq, this moment's
 * time and its hash, as the row to insert and the event listeners and projections see. Pure, so both
 * stores chain exactly alike; it must run under the store's write lock, where the head cannot move.
 */
export function chainEvents(
  events: readonly PreparedEvent[],
  head: { seq: number; hash: string },
): { row: EventRow; event: StoredEvent }[] {
  let prevSeq = head.seq;
  let prevHash = head.hash;
  return events.map((e) => {
    const seq = prevSeq + 1;
    const at = Date.now();
    const hash = hashCanonicalRow({ ...e, seq, at, prev_hash: prevHash });
    const row: EventRow = {
      seq,
      id: e.id,
      at,
      type: e.type,
      v: e.v,
      stream: e.stream,
      actor: e.actorJson,
      actor_session: e.actor.session ?? null,
      actor_kind: e.actor.kind,
      device: e.device,
      package: e.package,
      correlation: e.correlation,
      data: e.dataJson,
      prev_hash: prevHash,
      hash,
    };
    const event: StoredEvent = {
      seq,
      id: e.id,
      at,
      type: e.type,
      v: e.v,
      stream: e.stream,
      actor: e.actor,
      device: e.device,
      package: e.package,
      correlation: e.correlation,
      data: e.data,
      prevHash,
      hash,
    };
    prevSeq = seq;
    prevHash = hash;
    return { row, event };
  });
}

/** The projections `rebuildProjections` names (all when `names` is undefined); an unknown name is refused. */
export function chooseProjections(projections: readonly Projection[], names?: readonly string[]): Projection[] {
  if (names === undefined) return [...projections];
  const known = new Map(projections.map((p) => [p.name, p]));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new EventQueryError(
      `Unknown projection(s): ${unknown.join(', ')}. Known: ${[...known.keys()].join(', ') || '(none)'}.`,
      'names',
    );
  }
  return [...new Set(names)].map((n) => known.get(n)!);
}
