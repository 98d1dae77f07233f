import { inject, injectable } from 'inversify';
import type { StoreReader } from '../../../events/event-definition.js';
import type { Actor } from '../../../shared/actor.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import type { ApkRecord, BuildProvenance, BuildStatus, FailedTestRecord, TestCounts } from '../build.events.js';
import type { BuildDiagnostic, DiagnosticSeverity } from './gradle-output/build-diagnostic.js';

export interface BuildRecord {
  readonly id: string;
  readonly projectRoot: string;
  readonly kind: 'build' | 'test';
  readonly status: BuildStatus;
  readonly tasks: string[];
  readonly args: string[];
  readonly module: string | null;
  readonly variant: string | null;
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly durationMs: number | null;
  readonly startedBy: string;
  readonly startedBySession: string | null;
  readonly ownerPid: number;
  readonly timeoutSec: number;
  readonly cancelRequestedBy: string | null;
  readonly cancelRequestedActor: Actor | null;
  readonly cancelledBy: string | null;
  readonly exitCode: number | null;
  readonly reason: string | null;
  readonly counts: { error: number; warning: number; info: number };
  readonly diagnosticsTotal: number;
  readonly apks: ApkRecord[];
  readonly mappings: { module: string; variant: string; path: string; sha256: string }[];
  readonly tests: TestCounts | null;
  readonly logPath: string;
  readonly logSha256: string | null;
  readonly provenance: BuildProvenance;
}

interface BuildRow {
  id: string;
  project_root: string;
  kind: string;
  status: string;
  tasks: string;
  args: string;
  module: string | null;
  variant: string | null;
  started_at: number;
  finished_at: number | null;
  duration_ms: number | null;
  started_by: string;
  started_by_session: string | null;
  owner_pid: number;
  timeout_sec: number;
  cancel_requested_by: string | null;
  cancel_requested_actor: string | null;
  cancelled_by: string | null;
  exit_code: number | null;
  reason: string | null;
  errors: number;
  warnings: number;
  infos: number;
  diagnostics_total: number;
  apks: string;
  mappings: string;
  tests: string | null;
  log_path: string;
  log_sha256: string | null;
  provenance: string;
}

function toRecord(row: BuildRow): BuildRecord {
  return {
    id: row.id,
    projectRoot: row.project_root,
    kind: row.kind as 'build' | 'test',
    status: row.status as BuildStatus,
    tasks: JSON.parse(row.tasks) as string[],
    args: JSON.parse(row.args) as string[],
    module: row.module,
    variant: row.variant,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    durationMs: row.duration_ms,
    startedBy: row.started_by,
    startedBySession: row.started_by_session,
    ownerPid: row.owner_pid,
    timeoutSec: row.timeout_sec,
    cancelRequestedBy: row.cancel_requested_by,
    cancelRequestedActor: row.cancel_requested_actor ? (JSON.parse(row.cancel_requested_actor) as Actor) : null,
    cancelledBy: row.cancelled_by,
    exitCode: row.exit_code,
    reason: row.reason,
    counts: { error: row.errors, warning: row.warnings, info: row.infos },
    diagnosticsTotal: row.diagnostics_total,
    apks: JSON.parse(row.apks) as ApkRecord[],
    mappings: JSON.parse(row.mappings) as BuildRecord['mappings'],
    tests: row.tests ? (JSON.parse(row.tests) as TestCounts) : null,
    logPath: row.log_path,
    logSha256: row.log_sha256,
    provenance: JSON.parse(row.provenance) as BuildProvenance,
  };
}

/**
 * Reads the build_history read model for every process's builds, and keeps the `build_live` side table
 * (build-tables.ts): the task each running build is on.
 */
@injectable()
export class BuildHistory {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  private db(): StoreReader {
    return this.store();
  }

  get(id: string): BuildRecord | null {
    const row = this.db().prepareRead('SELECT * FROM builds WHERE id = ?').get(id) as BuildRow | undefined;
    return row ? toRecord(row) : null;
  }

  latest(projectRoot: string): BuildRecord | null {
    const row = this.db()
      .prepareRead('SELECT * FROM builds WHERE project_root = ? ORDER BY started_at DESC, started_seq DESC LIMIT 1')
      .get(projectRoot) as BuildRow | undefined;
    return row ? toRecord(row) : null;
  }

  /** The build of the same project that started just before `record`. */
  previous(record: BuildRecord): BuildRecord | null {
    const row = this.db()
      .prepareRead(
        `SELECT * FROM builds WHERE project_root = ? AND id != ? AND (started_at < ? OR (started_at = ? AND started_seq < (SELECT started_seq FROM builds WHERE id = ?)))
         ORDER BY started_at DESC, started_seq DESC LIMIT 1`,
      )
      .get(record.projectRoot, record.id, record.startedAt, record.startedAt, record.id) as BuildRow | undefined;
    return row ? toRecord(row) : null;
  }

  running(projectRoot: string): BuildRecord[] {
    const rows = this.db()
      .prepareRead(`SELECT * FROM builds WHERE project_root = ? AND status = 'running' ORDER BY started_at DESC`)
      .all(projectRoot) as BuildRow[];
    return rows.map(toRecord);
  }

  /** Builds of the project, newest first, skipping the first `offset`. */
  list(projectRoot: string, limit: number, offset = 0): BuildRecord[] {
    const rows = this.db()
      .prepareRead(
        'SELECT * FROM builds WHERE project_root = ? ORDER BY started_at DESC, started_seq DESC LIMIT ? OFFSET ?',
      )
      .all(projectRoot, limit, offset) as BuildRow[];
    return rows.map(toRecord);
  }

  count(projectRoot: string): number {
    return (
      this.db().prepareRead('SELECT COUNT(*) AS n FROM builds WHERE project_root = ?').get(projectRoot) as { n: number }
    ).n;
  }

  /** Stored diagnostics of a build (of one severity), as `diagnostics` pages them. */
  diagnosticCount(buildId: string, severity: DiagnosticSeverity | undefined): number {
    const row = (
      severity
        ? this.db()
            .prepareRead('SELECT COUNT(*) AS n FROM build_diagnostics WHERE build_id = ? AND severity = ?')
            .get(buildId, severity)
        : this.db().prepareRead('SELECT COUNT(*) AS n FROM build_diagnostics WHERE build_id = ?').get(buildId)
    ) as { n: number };
    return row.n;
  }

  diagnostics(buildId: string, severity: DiagnosticSeverity | undefined, limit: number, offset = 0): BuildDiagnostic[] {
    const rows = (
      severity
        ? this.db()
            .prepareRead(
              'SELECT * FROM build_diagnostics WHERE build_id = ? AND severity = ? ORDER BY idx LIMIT ? OFFSET ?',
            )
            .all(buildId, severity, limit, offset)
        : this.db()
            .prepareRead(
              `SELECT * FROM build_diagnostics WHERE build_id = ? ORDER BY CASE severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, idx LIMIT ? OFFSET ?`,
            )
            .all(buildId, limit, offset)
    ) as {
      severity: string;
      source: string;
      file: string | null;
      line: number | null;
      col: number | null;
      message: string;
      task: string | null;
    }[];
    return rows.map((r) => ({
      severity: r.severity as DiagnosticSeverity,
      source: r.source as BuildDiagnostic['source'],
      file: r.file,
      line: r.line,
      column: r.col,
      message: r.message,
      task: r.task,
    }));
  }

  /** The failed tests build.finished recorded with their stacks (the first ones; `tests.failed` counts all). */
  failedTests(buildId: string): FailedTestRecord[] {
    const [event] = this.store().query({ types: ['build.finished'], stream: `build:${buildId}`, limit: 1 });
    return ((event?.data as { failed_tests?: FailedTestRecord[] } | undefined)?.failed_tests ?? []).slice();
  }

  activeVariant(projectRoot: string, module: string): string | null {
    const row = this.db()
      .prepareRead('SELECT variant FROM active_variants WHERE project_root = ? AND module = ?')
      .get(projectRoot, module) as { variant: string } | undefined;
    return row?.variant ?? null;
  }

  activeVariants(projectRoot: string): { module: string; variant: string; selectedBy: string; selectedAt: number }[] {
    return (
      this.db()
        .prepareRead(
          'SELECT module, variant, selected_by, selected_at FROM active_variants WHERE project_root = ? ORDER BY module',
        )
        .all(projectRoot) as {
        module: string;
        variant: string;
        selected_by: string;
        selected_at: number;
      }[]
    ).map((r) => ({ module: r.module, variant: r.variant, selectedBy: r.selected_by, selectedAt: r.selected_at }));
  }

  currentTask(buildId: string): string | null {
    const row = this.db().prepareRead('SELECT current_task FROM build_live WHERE build_id = ?').get(buildId) as
      | { current_task: string | null }
      | undefined;
    return row?.current_task ?? null;
  }

  setCurrentTask(buildId: string, task: string | null): void {
    this.store().writeTables((tables) =>
      tables.run(
        `INSERT INTO build_live (build_id, current_task, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (build_id) DO UPDATE SET current_task = excluded.current_task, updated_at = excluded.updated_at`,
        buildId,
        task,
        Date.now(),
      ),
    );
  }

  clearLive(buildId: string): void {
    this.store().writeTables((tables) => tables.run('DELETE FROM build_live WHERE build_id = ?', buildId));
  }
}
