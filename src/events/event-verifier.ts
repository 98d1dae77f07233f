import Database from 'better-sqlite3';
import type { Actor } from '../shared/actor.js';
import { CanonicalJsonError, canonicalJson } from './canonical-json.js';
import { EventValidationError } from './event-catalog.js';
import type { Projection, StoredEvent } from './event-definition.js';
import { hashCanonicalRow } from './event-hash.js';
import { APPEND_ONLY_TRIGGERS, GENESIS_HASH } from './event-schema.js';
import { typeMatcher } from './glob.js';

/**
 * A (seq, hash) the log must still contain: a digest an auditor kept, or a line of the witness file.
 * `source` names it in the failure ("the digest", "witness.jsonl line 12").
 */
export interface ChainAnchor {
  readonly seq: number;
  readonly hash: string;
  readonly source: string;
}

export interface VerifyResult {
  ok: boolean;
  /** Rows walked (including the first bad one). */
  checked: number;
  /** Last seq whose hash and link verified (0 when none). */
  lastSeq: number;
  firstBadSeq?: number;
  reason?: string;
  /** Anchors (digest, witness lines) the log was checked against, when any were given. */
  anchors?: number;
  /** Read models rebuilt and compared, when asked for. */
  projections?: string[];
  /** First seq of an export that does not start at 1: its prev_hash is taken as given. */
  firstSeq?: number;
}

/** The stored columns of one event row. */
export interface EventRow {
  seq: number;
  id: string;
  at: number;
  type: string;
  v: number;
  stream: string;
  actor: string;
  actor_session: string | null;
  actor_kind: string;
  device: string | null;
  package: string | null;
  correlation: string | null;
  data: string;
  prev_hash: string;
  hash: string;
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * Walks the whole chain in seq order (streaming): every row's actor and data must be stored exactly
 * as their canonical JSON (so no reader — `json_extract`, another language's parser — can see
 * something other than what was hashed: a duplicate key or re-serialized whitespace fails), every
 * hash and link must recompute, and every anchor must still be in the log. Runs SQLite's quick_check
 * first (`full`: integrity_check) and flags a log whose append-only triggers were dropped.
 */
export function verifyChain(
  db: Database.Database,
  options: { anchors?: readonly ChainAnchor[]; full?: boolean } = {},
): VerifyResult {
  const full = options.full ?? false;
  const check = db.pragma(full ? 'integrity_check' : 'quick_check') as Record<string, string>[];
  const problems = check.flatMap((row) => String(Object.values(row)[0]).split('\n')).filter((v) => v !== 'ok');
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ');
    const more = problems.length > 5 ? ` (+${problems.length - 5} more)` : '';
    return {
      ok: false,
      checked: 0,
      lastSeq: 0,
      reason: `SQLite ${full ? 'integrity_check' : 'quick_check'} failed: ${shown}${more}`,
    };
  }
  const walker = new ChainWalker(options.anchors ?? []);
  const early = walker.start();
  if (early) return early;
  for (const row of db.prepare('SELECT * FROM events ORDER BY seq ASC').iterate() as IterableIterator<EventRow>) {
    const bad = walker.row(row);
    if (bad) return bad;
  }
  const end = walker.finish();
  if (end) return end;
  const triggers = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'`)
    .all()
    .map((r) => (r as { name: string }).name);
  const missing = APPEND_ONLY_TRIGGERS.filter((t) => !triggers.includes(t));
  if (missing.length > 0) {
    return {
      ...walker.result(),
      ok: false,
      reason: `the chain is intact but the append-only trigger(s) ${missing.join(', ')} were removed, so rows could be edited in place; treat the log as tampered with`,
    };
  }
  return walker.result();
}

/**
 * Recomputes the chain from an export (`droidwright events export`, JSON Lines of StoredEvent) with no
 * database: the format is in docs/event-log.md. Each line must be exactly what the exporter writes
 * (JSON.stringify of the parsed line), so a duplicate key or edited whitespace — which parsers may read
 * differently — fails. An export that starts after seq 1 (a filtered one) is verified from its first
 * line on, whose prev_hash is taken as given; a gap fails, because a filtered export is not a chain.
 */
export function verifyExportLines(lines: Iterable<string>, anchors: readonly ChainAnchor[] = []): VerifyResult {
  const walker = new ChainWalker(anchors);
  let lineNo = 0;
  let firstSeq: number | undefined;
  for (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return { ...walker.result(), ok: false, reason: `line ${lineNo} is not JSON` };
    }
    const seq = parsed?.seq;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !Number.isInteger(seq)) {
      return { ...walker.result(), ok: false, reason: `line ${lineNo} is not an exported event (no integer seq)` };
    }
    if (JSON.stringify(parsed) !== line) {
      return {
        ...walker.result(),
        ok: false,
        firstBadSeq: seq as number,
        reason: `line ${lineNo} (seq ${seq}) is not exactly as \`events export\` writes it (a duplicate key, reordered keys or changed whitespace)`,
      };
    }
    if (firstSeq === undefined) {
      firstSeq = seq as number;
      if (firstSeq !== 1) {
        if (typeof parsed.prevHash !== 'string' || !HASH.test(parsed.prevHash)) {
          return { ...walker.result(), ok: false, firstBadSeq: firstSeq, reason: `seq ${firstSeq} has no prevHash` };
        }
        walker.startAt(firstSeq - 1, parsed.prevHash);
      } else {
        const early = walker.start();
        if (early) return early;
      }
    }
    const bad = walker.row(exportedRow(parsed));
    if (bad) return bad;
  }
  if (firstSeq === undefined) {
    const early = walker.start();
    if (early) return early;
  }
  const end = walker.finish();
  if (end) return end;
  const result = walker.result();
  return firstSeq !== undefined && firstSeq > 1 ? { ...result, firstSeq } : result;
}

/** An exported event back into stored columns; actor/data are re-serialized canonically (the export is plain JSON). */
function exportedRow(e: Record<string, unknown>): EventRow {
  let actor: string;
  let data: string;
  try {
    actor = canonicalJson(e.actor);
    data = canonicalJson(e.data);
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    actor = '';
    data = '';
  }
  const actorObject = e.actor as Partial<Actor> | undefined;
  return {
    seq: e.seq as number,
    id: e.id as string,
    at: e.at as number,
    type: e.type as string,
    v: e.v as number,
    stream: e.stream as string,
    actor,
    actor_kind: (actorObject?.kind as string) ?? '',
    actor_session: actorObject?.session ?? null,
    device: e.device as string | null,
    package: e.package as string | null,
    correlation: e.correlation as string | null,
    data,
    prev_hash: e.prevHash as string,
    hash: e.hash as string,
  };
}

/** The chain rules, row by row, shared by the database walks (SQLite, PostgreSQL) and the export walk. */
export class ChainWalker {
  private checked = 0;
  private prevSeq = 0;
  private prevHash = GENESIS_HASH;
  private readonly pending: Map<number, ChainAnchor[]>;

  constructor(private readonly anchors: readonly ChainAnchor[]) {
    this.pending = new Map();
    for (const anchor of anchors) {
      const list = this.pending.get(anchor.seq) ?? [];
      list.push(anchor);
      this.pending.set(anchor.seq, list);
    }
  }

  start(): VerifyResult | undefined {
    for (const anchor of this.pending.get(0) ?? []) {
      if (anchor.hash !== GENESIS_HASH) {
        return this.bad(0, `${anchor.source} names seq 0, which must carry the genesis hash`);
      }
    }
    this.pending.delete(0);
    return undefined;
  }

  /** An export that begins after seq 1: anchors before it cannot be checked and are dropped. */
  startAt(seq: number, hash: string): void {
    this.prevSeq = seq;
    this.prevHash = hash;
    for (const key of [...this.pending.keys()]) if (key <= seq) this.pending.delete(key);
  }

  row(row: EventRow): VerifyResult | undefined {
    this.checked++;
    if (row.seq !== this.prevSeq + 1) {
      return this.bad(this.prevSeq + 1, `gap after seq ${this.prevSeq} (next stored seq is ${row.seq})`);
    }
    const columns = columnProblem(row);
    if (columns) return this.bad(row.seq, columns);
    let actor: Actor;
    let data: unknown;
    try {
      actor = JSON.parse(row.actor) as Actor;
      data = JSON.parse(row.data);
    } catch {
      return this.bad(row.seq, 'actor or data is not valid JSON');
    }
    const canonical = canonicalProblem('actor', actor, row.actor) ?? canonicalProblem('data', data, row.data);
    if (canonical) return this.bad(row.seq, canonical);
    // Both columns are now known to be canonical JSON, so they can be hashed as stored.
    const hash = hashCanonicalRow({
      seq: row.seq,
      id: row.id,
      at: row.at,
      type: row.type,
      v: row.v,
      stream: row.stream,
      actorJson: row.actor,
      device: row.device,
      package: row.package,
      correlation: row.correlation,
      dataJson: row.data,
      prev_hash: row.prev_hash,
    });
    if (hash !== row.hash) return this.bad(row.seq, 'hash mismatch');
    if (row.prev_hash !== this.prevHash) return this.bad(row.seq, `prev_hash does not match seq ${this.prevSeq}`);
    if (row.actor_kind !== actor?.kind || row.actor_session !== (actor?.session ?? null)) {
      return this.bad(row.seq, 'actor_kind/actor_session columns do not match the hashed actor');
    }
    for (const anchor of this.pending.get(row.seq) ?? []) {
      if (row.hash !== anchor.hash) {
        return this.bad(
          row.seq,
          `seq ${row.seq} has hash ${row.hash}, not the ${anchor.hash} of ${anchor.source}: the log was rewritten at or before seq ${row.seq}`,
        );
      }
    }
    this.pending.delete(row.seq);
    this.prevSeq = row.seq;
    this.prevHash = row.hash;
    return undefined;
  }

  finish(): VerifyResult | undefined {
    if (this.pending.size === 0) return undefined;
    const seq = Math.min(...this.pending.keys());
    const anchor = this.pending.get(seq)![0];
    return this.bad(
      seq,
      `the log ends at seq ${this.prevSeq} but ${anchor.source} covers seq ${seq}: events were removed (the log was truncated or replaced)`,
    );
  }

  result(): VerifyResult {
    const base: VerifyResult = { ok: true, checked: this.checked, lastSeq: this.prevSeq };
    return this.anchors.length > 0 ? { ...base, anchors: this.anchors.length } : base;
  }

  private bad(seq: number, reason: string): VerifyResult {
    return { ...this.result(), ok: false, firstBadSeq: seq, reason };
  }
}

/** Columns whose SQLite type is not what the hash assumes (a hand-inserted row). */
function columnProblem(row: EventRow): string | undefined {
  for (const key of ['seq', 'at', 'v'] as const) {
    if (!Number.isSafeInteger(row[key])) return `column ${key} is not an integer`;
  }
  for (const key of ['id', 'type', 'stream', 'actor', 'data', 'prev_hash', 'hash'] as const) {
    if (typeof row[key] !== 'string') return `column ${key} is not text`;
  }
  for (const key of ['device', 'package', 'correlation'] as const) {
    if (row[key] !== null && typeof row[key] !== 'string') return `column ${key} is neither text nor null`;
  }
  return undefined;
}

function canonicalProblem(column: 'actor' | 'data', parsed: unknown, stored: string): string | undefined {
  let canonical: string;
  try {
    canonical = canonicalJson(parsed);
  } catch {
    return `${column} is not representable as canonical JSON`;
  }
  if (canonical === stored) return undefined;
  return `${column} is not stored as its canonical JSON (a duplicate key, unsorted keys or extra whitespace), so readers may see something other than what was hashed`;
}

export interface ProjectionCheckpoint {
  name: string;
  version: number;
  last_seq: number;
}

/**
 * What a projection check needs from the store that holds the read models: its checkpoints, its events
 * and its tables. SQLite's comes from the file itself; PostgreSQL's reads its database.
 */
export interface ProjectionSource {
  checkpoints(): readonly ProjectionCheckpoint[];
  /** Events with seq <= `upTo`, ascending. */
  events(upTo: number): Iterable<EventRow>;
  /** The stored table's column names in order; empty when the table is missing. */
  columns(table: string): string[];
  rows(table: string): Iterable<unknown>;
  /**
   * The store folds unquoted names to lower case (PostgreSQL), so the replay's column names are
   * compared lower-cased too.
   */
  readonly foldsNames?: boolean;
}

/**
 * Replays the log into a fresh in-memory database with the same projections and compares every
 * projection table with the stored one, row by row (as multisets: row order is not part of a read
 * model). Each projection is replayed up to its own checkpoint, so a projection that a process
 * without it left behind is compared with what it should hold at that point. Must run inside one
 * read transaction of `db`, so the events and the tables are the same snapshot.
 */
export function verifyProjections(
  db: Database.Database,
  projections: readonly Projection[],
): { ok: true; projections: string[] } | { ok: false; projection: string; reason: string } {
  return verifyProjectionsFrom(sqliteSource(db), projections);
}

function sqliteSource(db: Database.Database): ProjectionSource {
  return {
    checkpoints: () => db.prepare('SELECT name, version, last_seq FROM projections').all() as ProjectionCheckpoint[],
    events: (upTo) =>
      db.prepare('SELECT * FROM events WHERE seq <= ? ORDER BY seq ASC').iterate(upTo) as IterableIterator<EventRow>,
    columns: (table) => columnsOf(db, table),
    rows: (table) => db.prepare(`SELECT * FROM "${table}"`).iterate(),
  };
}

/** verifyProjections against any store's tables; the replay always runs in an in-memory SQLite. */
export function verifyProjectionsFrom(
  source: ProjectionSource,
  projections: readonly Projection[],
): { ok: true; projections: string[] } | { ok: false; projection: string; reason: string } {
  if (projections.length === 0) return { ok: true, projections: [] };
  const checkpoints = new Map(source.checkpoints().map((r) => [r.name, r]));
  for (const p of projections) {
    const row = checkpoints.get(p.name);
    if (!row) {
      return {
        ok: false,
        projection: p.name,
        reason: `read model ${p.name} has no checkpoint row in the projections table, so nothing says which events it reflects; run \`droidwright events rebuild\``,
      };
    }
    if (row.version !== p.version) {
      return {
        ok: false,
        projection: p.name,
        reason: `read model ${p.name} is at version ${row.version} but this droidwright builds version ${p.version}; run \`droidwright events rebuild ${p.name}\` and verify again`,
      };
    }
  }
  const memory = new Database(':memory:');
  try {
    memory.pragma('foreign_keys = ON');
    for (const p of projections) for (const ddl of p.ddl) memory.exec(ddl);
    const matchers = projections.map((p) => ({
      p,
      handles: typeMatcher(p.handles),
      upTo: checkpoints.get(p.name)!.last_seq,
    }));
    const maxSeq = Math.max(...matchers.map((m) => m.upTo));
    const replay = memory.transaction(() => {
      for (const row of source.events(maxSeq)) {
        let event: StoredEvent | undefined;
        for (const m of matchers) {
          if (row.seq > m.upTo || !m.handles(row.type)) continue;
          event ??= rowToEvent(row);
          m.p.apply(memory, event);
        }
      }
    });
    replay();
    for (const p of projections) {
      for (const table of p.tables) {
        const difference = compareTable(source, memory, table);
        if (difference) {
          return {
            ok: false,
            projection: p.name,
            reason: `read model ${table} (projection ${p.name}) differs from a replay of the log: ${difference}`,
          };
        }
      }
    }
    return { ok: true, projections: projections.map((p) => p.name) };
  } finally {
    memory.close();
  }
}

/** A stored row (or an exported copy of one, which has no actor_kind/actor_session index columns) as its event. */
export function rowToEvent(row: Omit<EventRow, 'actor_kind' | 'actor_session'>): StoredEvent {
  return {
    seq: row.seq,
    id: row.id,
    at: row.at,
    type: row.type,
    v: row.v,
    stream: row.stream,
    actor: JSON.parse(row.actor) as Actor,
    device: row.device,
    package: row.package,
    correlation: row.correlation,
    data: JSON.parse(row.data),
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

function columnsOf(db: Database.Database, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).all(table) as { name: string }[]).map(
    (c) => c.name,
  );
}

const SHOWN_ROW_CHARS = 300;

function showRow(key: string): string {
  return key.length > SHOWN_ROW_CHARS ? `${key.slice(0, SHOWN_ROW_CHARS - 3)}...` : key;
}

/** The first difference between the stored and the rebuilt table, or undefined when they hold the same rows. */
function compareTable(stored: ProjectionSource, rebuilt: Database.Database, table: string): string | undefined {
  const fold = stored.foldsNames === true;
  const name = (column: string) => (fold ? column.toLowerCase() : column);
  const expectedColumns = columnsOf(rebuilt, table).map(name);
  const storedColumns = stored.columns(table);
  if (storedColumns.length === 0) return 'the stored table is missing';
  if (storedColumns.join(',') !== expectedColumns.join(',')) {
    return `its columns are (${storedColumns.join(', ')}), a replay creates (${expectedColumns.join(', ')})`;
  }
  const rowKey = (row: unknown): string =>
    canonicalJson(
      fold ? Object.fromEntries(Object.entries(row as Record<string, unknown>).map(([k, v]) => [name(k), v])) : row,
    );
  const expected = new Map<string, number>();
  for (const row of rebuilt.prepare(`SELECT * FROM "${table}"`).iterate()) {
    const key = rowKey(row);
    expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  for (const row of stored.rows(table)) {
    const key = rowKey(row);
    const n = expected.get(key);
    if (!n) return `the stored row ${showRow(key)} is not produced by any event`;
    if (n === 1) expected.delete(key);
    else expected.set(key, n - 1);
  }
  const [missing] = expected.keys();
  if (missing !== undefined) return `the row ${showRow(missing)} that the events produce is missing`;
  return undefined;
}

/**
 * The rows to insert for events copied verbatim from another store (`events migrate`): the first must
 * follow `head` (next seq, prev_hash = head hash), each one the previous, and every hash must recompute
 * from the canonical row. Throws EventValidationError naming the first event that does not fit, so a
 * different chain is never merged into this one.
 */
export function checkVerbatimChain(head: { seq: number; hash: string }, events: readonly StoredEvent[]): EventRow[] {
  let prev = head;
  return events.map((event) => {
    const where = `event seq ${event?.seq}`;
    if (event === null || typeof event !== 'object' || event.seq !== prev.seq + 1) {
      throw new EventValidationError(
        `Cannot import ${where}: this log's head is seq ${prev.seq}, so the next event must be seq ${prev.seq + 1}.`,
      );
    }
    if (event.prevHash !== prev.hash) {
      throw new EventValidationError(
        `Cannot import ${where}: its prev_hash ${String(event.prevHash).slice(0, 12)}… is not this log's hash at seq ${prev.seq} (${prev.hash.slice(0, 12)}…). The two logs are different chains; refusing to merge them.`,
      );
    }
    const actorJson = canonicalJson(event.actor);
    const dataJson = canonicalJson(event.data);
    const hash = hashCanonicalRow({ ...event, actorJson, dataJson, prev_hash: event.prevHash });
    if (hash !== event.hash) {
      throw new EventValidationError(`Cannot import ${where}: its hash does not recompute from its fields.`);
    }
    prev = { seq: event.seq, hash };
    return {
      seq: event.seq,
      id: event.id,
      at: event.at,
      type: event.type,
      v: event.v,
      stream: event.stream,
      actor: actorJson,
      actor_session: event.actor.session ?? null,
      actor_kind: event.actor.kind,
      device: event.device,
      package: event.package,
      correlation: event.correlation,
      data: dataJson,
      prev_hash: event.prevHash,
      hash,
    };
  });
}
