import { z } from 'zod';
import { clip, decodeOffsetCursor, omitNulls, pageInput, pageOf, pageInfo } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildRecord } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';

const SideSchema = z.object({
  build_id: z.string().describe('Build id.'),
  status: z.string().describe('Its outcome.'),
  commit: z.string().optional().describe('git commit it was built from.'),
  branch: z.string().optional().describe('git branch.'),
  changed_files: z.number().int().optional().describe('Files git listed as changed or untracked then.'),
});

function side(r: BuildRecord) {
  const git = r.provenance.git;
  return omitNulls({
    build_id: r.id,
    status: r.status,
    commit: git.commit,
    branch: git.branch,
    changed_files: git.changed_files,
  });
}

export function createCompareBuildsTool(deps: { service: BuildService }) {
  return defineTool({
    name: 'compare_builds',
    toolset: 'build',
    kind: 'R',
    title: 'Compare builds',
    description:
      'What changed between two builds of this project: commits, files added/removed/modified (by content hash, git or not), Gradle/AGP/JDK versions. Default: the latest build against the one before it.',
    input: z.object({
      build_id: z.string().max(64).optional().describe('The later build (default: the latest).'),
      base_build_id: z.string().max(64).optional().describe('The build to compare against (default: the one before).'),
      ...pageInput(100, 500, 'changed files'),
    }),
    output: z.object({
      base: SideSchema.describe('The earlier build.'),
      build: SideSchema.describe('The later build.'),
      basis: z.enum(['git', 'source-hashes', 'none']).describe('How files were compared.'),
      files: z
        .array(
          z.object({
            path: z.string().describe('Relative to the project root.'),
            change: z.enum(['added', 'removed', 'modified']).describe('From the base build to the later one.'),
          }),
        )
        .describe('Files whose content differs, relative to the project.'),
      total: z.number().int().describe('Changed files in all.'),
      has_more: z.boolean().describe('More files; pass next_cursor.'),
      next_cursor: z.string().optional().describe('Cursor of the next page.'),
      complete: z.boolean().describe('False when some files could not be compared (see notes).'),
      notes: z.array(z.string()).optional().describe('Why the comparison is partial.'),
      versions: z
        .array(
          z.object({
            name: z.enum(['gradle', 'agp', 'jdk']).describe('Which version.'),
            base: z.string().optional().describe('In the base build (absent: unknown).'),
            build: z.string().optional().describe('In the later build.'),
          }),
        )
        .describe('Gradle, AGP and JDK versions that differ.'),
    }),
    async handler(args) {
      decodeOffsetCursor(args.cursor); // A bad cursor is refused before git runs.
      const { base, build, comparison } = await deps.service.compare(args.build_id, args.base_build_id);
      const page = pageOf(comparison.files, args);
      const counts = { added: 0, removed: 0, modified: 0 };
      for (const f of comparison.files) counts[f.change]++;
      const commits =
        comparison.sameCommit === false
          ? `commit ${base.provenance.git.commit!.slice(0, 12)} → ${build.provenance.git.commit!.slice(0, 12)}`
          : comparison.sameCommit
            ? `same commit ${build.provenance.git.commit!.slice(0, 12)}`
            : null;
      const summary = [
        `${base.id} → ${build.id}:`,
        commits ? `${commits};` : '',
        `${comparison.files.length} file(s) changed (${counts.added} added, ${counts.removed} removed, ${counts.modified} modified)`,
        comparison.versions.length ? `; ${comparison.versions.map((v) => `${v.name} ${v.a} → ${v.b}`).join(', ')}` : '',
        comparison.complete ? '.' : ' (partial, see notes).',
      ]
        .filter(Boolean)
        .join(' ')
        .replace(' ;', ';');
      return {
        data: {
          base: side(base),
          build: side(build),
          basis: comparison.basis,
          files: page.items.map((f) => ({ path: clip(f.path, 500), change: f.change })),
          ...pageInfo(page),
          complete: comparison.complete,
          ...(comparison.notes.length ? { notes: comparison.notes.slice(0, 5).map((n) => clip(n, 400)) } : {}),
          versions: comparison.versions.map((v) => omitNulls({ name: v.name, base: v.a, build: v.b })),
        },
        summary,
      };
    },
  });
}
