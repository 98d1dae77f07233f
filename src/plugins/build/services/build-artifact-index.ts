import { inject, injectable } from 'inversify';
import type { BuildArtifact, BuildArtifactLookup, BuildArtifactQuery } from '../../../kernel/build-artifact-lookup.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';

const MAX_RESULTS = 200;

interface ArtifactRow {
  build_id: string;
  project_root: string;
  path: string;
  module: string | null;
  variant: string | null;
  finished_at: number | null;
}

/** Answers "which builds wrote these bytes" from the build history's indexed `build_apks` table. */
@injectable()
export class BuildArtifactIndex implements BuildArtifactLookup {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  findBuildsByApkHash(sha256: string, query: BuildArtifactQuery = {}): BuildArtifact[] {
    const limit = Math.max(1, Math.min(MAX_RESULTS, Math.floor(query.limit ?? MAX_RESULTS)));
    const rows = this.store()
      .prepareRead(
        `SELECT a.build_id, b.project_root, a.path, a.module, a.variant, b.finished_at
           FROM build_apks a JOIN builds b ON b.id = a.build_id
          WHERE a.sha256 = ? AND (CAST(? AS TEXT) IS NULL OR b.project_root = ?)
          ORDER BY a.finished_seq DESC, a.idx
          LIMIT ?`,
      )
      .all(sha256.toLowerCase(), query.projectRoot ?? null, query.projectRoot ?? null, limit) as ArtifactRow[];
    return rows.map((r) => ({
      buildId: r.build_id,
      projectRoot: r.project_root,
      path: r.path,
      module: r.module,
      variant: r.variant,
      finishedAt: r.finished_at ?? 0,
    }));
  }
}
