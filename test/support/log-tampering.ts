// What an attacker with write access to events.db can do with sqlite alone: drop the append-only
// triggers, rewrite rows and recompute every hash after them, or cut the end off. Used to show what
// `events verify` catches (and, with the witness, what it no longer misses).
import Database from 'better-sqlite3';
import { canonicalJson } from '../../src/events/canonical-json.js';
import { computeEventHash } from '../../src/events/event-hash.js';
import { GENESIS_HASH } from '../../src/events/event-schema.js';

interface Row {
  seq: number;
  id: string;
  at: number;
  type: string;
  v: number;
  stream: string;
  actor: string;
  device: string | null;
  package: string | null;
  correlation: string | null;
  data: string;
}

function withoutTriggers(path: string, body: (db: Database.Database) => void): void {
  const db = new Database(path);
  try {
    for (const { name } of db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'`)
      .all() as { name: string }[]) {
      db.exec(`DROP TRIGGER "${name}"`);
    }
    body(db);
    // A careful attacker puts the triggers back, so the log looks untouched.
    db.exec(`CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events
      BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
      CREATE TRIGGER events_refuse_delete BEFORE DELETE ON events
      BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;`);
  } finally {
    db.close();
  }
}

/** Rewrites `data` of the chosen rows and re-chains the whole log with valid hashes, canonically stored. */
export function rechainLog(path: string, edit: (seq: number, data: unknown) => unknown): void {
  withoutTriggers(path, (db) => {
    const rows = db.prepare('SELECT * FROM events ORDER BY seq').all() as Row[];
    const update = db.prepare('UPDATE events SET data = ?, prev_hash = ?, hash = ? WHERE seq = ?');
    let prev = GENESIS_HASH;
    for (const row of rows) {
      const data = edit(row.seq, JSON.parse(row.data));
      const hash = computeEventHash({ ...row, actor: JSON.parse(row.actor), data, prev_hash: prev });
      update.run(canonicalJson(data), prev, hash, row.seq);
      prev = hash;
    }
  });
}

/** Deletes every event after `keepThroughSeq`: the remaining prefix is still a valid chain. */
export function truncateLog(path: string, keepThroughSeq: number): void {
  withoutTriggers(path, (db) => {
    db.prepare('DELETE FROM events WHERE seq > ?').run(keepThroughSeq);
  });
}
