import type { Projection, StoredEvent } from '../../events/event-definition.js';

/** Projects a person currently trusts; read by TrustService in every process. */
export const trustedProjectsProjection: Projection = {
  name: 'trusted_projects',
  version: 1,
  handles: ['project.trusted', 'project.untrusted'],
  tables: ['trusted_projects'],
  ddl: [
    'CREATE TABLE IF NOT EXISTS trusted_projects (root TEXT PRIMARY KEY, trusted_at INTEGER NOT NULL, by TEXT NOT NULL)',
  ],
  apply(db, event: StoredEvent) {
    const data = event.data as { root: string; by: string };
    if (event.type === 'project.trusted') {
      db.prepare(
        'INSERT INTO trusted_projects (root, trusted_at, by) VALUES (?, ?, ?) ON CONFLICT(root) DO UPDATE SET trusted_at = excluded.trusted_at, by = excluded.by',
      ).run(data.root, event.at, data.by);
    } else {
      db.prepare('DELETE FROM trusted_projects WHERE root = ?').run(data.root);
    }
  },
};
