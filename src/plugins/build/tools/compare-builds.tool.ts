import { z } from 'zod';
import { clip, decodeOffsetCursor, omitNulls, pageInfo, pageOf } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildService } from '../services/build-service.js';

/** git's name-status letters, which agents read at a glance. */
const CHANGE_LETTER = { added: 'A', removed: 'D', modified: 'M' } as const;

export function createCompareBuildsTool(deps: { service: BuildService }) {
  return defineTool({
    name: 'compare_builds',
    toolset: 'build',
    kind: 'R',
    title: 'Compare builds',
    description:
      'Between two builds: files added, removed or modified (by content hash, git or not), commits, and Gradle/AGP/JDK versions.',
    input: z.object({
      build_id: z.string().max(64).optional().describe('Later build (default: latest).'),
      base_build_id: z.string().max(64).optional().describe('Earlier build (default: the one before).'),
      limit: z.number().int().min(1).max(500).default(100).describe('Most files per page.'),
      cursor: z.string().max(20).optional().describe('The next_cursor you got.'),
    }),
    output: z.object({
      base_build_id: z.string().describe('The earlier build.'),
      build_id: z.string().describe('The later build.'),
      commits: z.string().optional().describe('git commits `<earlier> → <later>`, or the one both were built from.'),
      files: z
        .array(z.string())
        .describe('Changed files as `A|D|M <path>` (added, removed, modified; project-relative), by path.'),
      total: z.number().int().describe('Changed files in all.'),
      has_more: z.boolean().describe('More files; pass next_cursor.'),
      next_cursor: z.string().optional().describe('Cursor of the next page.'),
      partial: z
        .array(z.string())
        .optional()
        .describe('Why some files may be missing from the list; absent when complete.'),
      versions: z.array(z.string()).optional().describe('Versions that differ, e.g. `gradle 8.9 → 8.12`.'),
    }),
    async handler(args) {
      decodeOffsetCursor(args.cursor); // A bad cursor is refused before git runs.
      const { base, build, comparison } = await deps.service.compare(args.build_id, args.base_build_id);
      const page = pageOf(comparison.files, args);
      const counts = { added: 0, removed: 0, modified: 0 };
      for (const f of comparison.files) counts[f.change]++;
      const short = (commit: string | null) => commit?.slice(0, 12) ?? '?';
      const commits =
        comparison.sameCommit === null
          ? ''
          : comparison.sameCommit
            ? ` at commit ${short(build.provenance.git.commit)}`
            : ` (commit ${short(base.provenance.git.commit)} → ${short(build.provenance.git.commit)})`;
      const versions = comparison.versions.map((v) => clip(`${v.name} ${v.a ?? '?'} → ${v.b ?? '?'}`, 300));
      const summary = `${base.id} → ${build.id}${commits}: ${comparison.files.length} file(s) changed (${counts.added} added, ${counts.removed} removed, ${counts.modified} modified)${versions.length ? `; ${versions.join(', ')}` : ''}${comparison.complete ? '.' : '; partial, see notes.'}`;
      return {
        data: omitNulls({
          base_build_id: base.id,
          build_id: build.id,
          commits:
            comparison.sameCommit === null
              ? null
              : comparison.sameCommit
                ? build.provenance.git.commit
                : `${base.provenance.git.commit} → ${build.provenance.git.commit}`,
          files: page.items.map((f) => `${CHANGE_LETTER[f.change]} ${clip(f.path, 500)}`),
          ...pageInfo(page),
          partial: comparison.complete ? null : comparison.notes.slice(0, 5).map((n) => clip(n, 400)),
          versions: versions.length ? versions : null,
        }),
        summary,
      };
    },
  });
}
