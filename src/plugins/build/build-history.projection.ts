import type { SqlConnection } from '../../events/sql-connection.js';
import { describeActor } from '../../shared/actor.js';
import type { Projection, StoredEvent } from '../../events/event-definition.js';
import type { z } from 'zod';
import type {
  BuildCancelled,
  BuildCancelRequested,
  BuildFinished,
  BuildStarted,
  VariantSelected,
} from './build.events.js';

type Data<E> = E extends { schema: z.ZodType<infer D> } ? D : never;

/**
 * The build history read model (every build in every process, queryable), its diagnostics, the APKs
 * each build wrote (indexed by hash, so an install finds its build without scanning events) and the
 * active variant per module. Pure function of the build.* and variant.selected events.
 */
export const buildHistoryProjection: Projection = {
  name: 'build_history',
  // 3: builds.started_seq, the start order readers break ties with (SQLite's rowid did, which PostgreSQL has not).
  version: 3,
  handles: ['build.started', 'build.finished', 'build.cancel_requested', 'build.cancelled', 'variant.selected'],
  tables: ['builds', 'build_diagnostics', 'build_apks', 'active_variants'],
  ddl: [
    `CREATE TABLE IF NOT EXISTS builds (
      id TEXT PRIMARY KEY,
      project_root TEXT NOT NULL,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      tasks TEXT NOT NULL,
      task TEXT NOT NULL,
      args TEXT NOT NULL,
      module TEXT,
      variant TEXT,
      started_at INTEGER NOT NULL,
      started_seq INTEGER NOT NULL,
      finished_at INTEGER,
      duration_ms INTEGER,
      started_by TEXT NOT NULL,
      started_by_session TEXT,
      owner_pid INTEGER NOT NULL,
      timeout_sec INTEGER NOT NULL,
      cancel_requested_by TEXT,
      cancel_requested_actor TEXT,
      cancelled_by TEXT,
      exit_code INTEGER,
      reason TEXT,
      errors INTEGER NOT NULL DEFAULT 0,
      warnings INTEGER NOT NULL DEFAULT 0,
      infos INTEGER NOT NULL DEFAULT 0,
      diagnostics_total INTEGER NOT NULL DEFAULT 0,
      apks TEXT NOT NULL DEFAULT '[]',
      mappings TEXT NOT NULL DEFAULT '[]',
      tests TEXT,
      log_path TEXT NOT NULL,
      log_sha256 TEXT,
      provenance TEXT NOT NULL
    )`,
    'CREATE INDEX IF NOT EXISTS builds_by_project ON builds (project_root, started_at)',
    'CREATE INDEX IF NOT EXISTS builds_by_status ON builds (status)',
    `CREATE TABLE IF NOT EXISTS build_diagnostics (
      build_id TEXT NOT NULL,
      idx INTEGER NOT NULL,
      severity TEXT NOT NULL,
      source TEXT NOT NULL,
      file TEXT,
      line INTEGER,
      col INTEGER,
      message TEXT NOT NULL,
      task TEXT,
      PRIMARY KEY (build_id, idx)
    )`,
    `CREATE TABLE IF NOT EXISTS build_apks (
      build_id TEXT NOT NULL,
      idx INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      path TEXT NOT NULL,
      module TEXT,
      variant TEXT,
      finished_seq INTEGER NOT NULL,
      PRIMARY KEY (build_id, idx)
    )`,
    'CREATE INDEX IF NOT EXISTS build_apks_by_sha256 ON build_apks (sha256, finished_seq)',
    `CREATE TABLE IF NOT EXISTS active_variants (
      project_root TEXT NOT NULL,
      module TEXT NOT NULL,
      variant TEXT NOT NULL,
      selected_at INTEGER NOT NULL,
      selected_by TEXT NOT NULL,
      PRIMARY KEY (project_root, module)
    )`,
  ],
  apply(db: SqlConnection, event: StoredEvent) {
    switch (event.type) {
      case 'build.started': {
        const d = event.data as Data<typeof BuildStarted>;
        // A restarted build id starts from a fresh row (what INSERT OR REPLACE did, portably): columns the
        // start does not set must not keep the previous run's values.
        db.prepare('DELETE FROM builds WHERE id = ?').run(d.build_id);
        db.prepare(
          `INSERT INTO builds (id, project_root, kind, status, tasks, task, args, module, variant, started_at, started_seq, started_by, started_by_session, owner_pid, timeout_sec, log_path, provenance)
           VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          d.build_id,
          d.project_root,
          d.kind,
          JSON.stringify(d.tasks),
          d.tasks.join(' '),
          JSON.stringify(d.args),
          d.module,
          d.variant,
          event.at,
          event.seq,
          describeActor(event.actor),
          event.actor.session ?? null,
          d.pid,
          d.timeout_sec,
          d.log_path,
          JSON.stringify(d.provenance),
        );
        return;
      }
      case 'build.cancel_requested': {
        const d = event.data as Data<typeof BuildCancelRequested>;
        db.prepare(
          `UPDATE builds SET cancel_requested_by = ?, cancel_requested_actor = ? WHERE id = ? AND status = 'running'`,
        ).run(d.requested_by, JSON.stringify(event.actor), d.build_id);
        return;
      }
      case 'build.cancelled': {
        const d = event.data as Data<typeof BuildCancelled>;
        db.prepare('UPDATE builds SET cancelled_by = ? WHERE id = ?').run(d.cancelled_by, d.build_id);
        return;
      }
      case 'build.finished': {
        const d = event.data as Data<typeof BuildFinished>;
        db.prepare(
          `UPDATE builds SET status = ?, finished_at = ?, duration_ms = ?, exit_code = ?, reason = ?, cancelled_by = COALESCE(?, cancelled_by),
             errors = ?, warnings = ?, infos = ?, diagnostics_total = ?, apks = ?, mappings = ?, tests = ?, log_sha256 = ?
           WHERE id = ?`,
        ).run(
          d.status,
          event.at,
          d.duration_ms,
          d.exit_code,
          d.reason,
          d.cancelled_by,
          d.diagnostic_counts.error,
          d.diagnostic_counts.warning,
          d.diagnostic_counts.info,
          d.diagnostics_total,
          JSON.stringify(d.apks),
          JSON.stringify(d.mappings),
          d.tests ? JSON.stringify(d.tests) : null,
          d.log.sha256,
          d.build_id,
        );
        const insert = db.prepare(
          `INSERT INTO build_diagnostics (build_id, idx, severity, source, file, line, col, message, task) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (build_id, idx) DO UPDATE SET severity = excluded.severity, source = excluded.source, file = excluded.file,
             line = excluded.line, col = excluded.col, message = excluded.message, task = excluded.task`,
        );
        db.prepare('DELETE FROM build_apks WHERE build_id = ?').run(d.build_id);
        const insertApk = db.prepare(
          'INSERT INTO build_apks (build_id, idx, sha256, path, module, variant, finished_seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
        );
        d.apks.forEach((apk, i) => {
          insertApk.run(d.build_id, i, apk.sha256, apk.path, apk.module, apk.variant, event.seq);
        });
        d.diagnostics.forEach((diag, i) => {
          insert.run(
            d.build_id,
            i,
            diag.severity,
            diag.source,
            diag.file,
            diag.line,
            diag.column,
            diag.message,
            diag.task,
          );
        });
        return;
      }
      case 'variant.selected': {
        const d = event.data as Data<typeof VariantSelected>;
        db.prepare(
          `INSERT INTO active_variants (project_root, module, variant, selected_at, selected_by) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(project_root, module) DO UPDATE SET variant = excluded.variant, selected_at = excluded.selected_at, selected_by = excluded.selected_by`,
        ).run(d.project_root, d.module, d.variant, event.at, d.selected_by);
        return;
      }
    }
  },
};
