import { inject, injectable } from 'inversify';
import type { BuildMapping, BuildMappingLookup } from '../../../kernel/build-mapping-lookup.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';

const MAX_RESULTS = 200;

interface MappingRow {
  id: string;
  project_root: string;
  mappings: string;
  finished_at: number | null;
}

/** Answers "which mapping did this build write" from the `builds` read model's recorded mapping list. */
@injectable()
export class BuildMappingIndex implements BuildMappingLookup {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  mappingsOfBuild(buildId: string): BuildMapping[] {
    const row = this.store()
      .prepareRead('SELECT id, project_root, mappings, finished_at FROM builds WHERE id = ?')
      .get(buildId) as MappingRow | undefined;
    return row ? toMappings(row) : [];
  }

  recentMappings(query: { projectRoot?: string; limit?: number } = {}): BuildMapping[] {
    const limit = Math.max(1, Math.min(MAX_RESULTS, Math.floor(query.limit ?? MAX_RESULTS)));
    const rows = this.store()
      .prepareRead(
        `SELECT id, project_root, mappings, finished_at FROM builds
          WHERE mappings <> '[]' AND (CAST(? AS TEXT) IS NULL OR project_root = ?)
          ORDER BY finished_at DESC, started_at DESC LIMIT ?`,
      )
      .all(query.projectRoot ?? null, query.projectRoot ?? null, limit) as MappingRow[];
    return rows.flatMap(toMappings).slice(0, limit);
  }
}

function toMappings(row: MappingRow): BuildMapping[] {
  let list: { module: string; variant: string; path: string; sha256: string }[];
  try {
    list = JSON.parse(row.mappings) as typeof list;
  } catch {
    return [];
  }
  return list.map((m) => ({
    buildId: row.id,
    projectRoot: row.project_root,
    module: m.module,
    variant: m.variant,
    path: m.path,
    sha256: m.sha256.toLowerCase(),
    finishedAt: row.finished_at ?? 0,
  }));
}
