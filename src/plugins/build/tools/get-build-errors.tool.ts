import { z } from 'zod';
import { clip, omitNulls, pageFrom, pageInfo, pageInput, pageOutput } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';

/** A message quoting a whole stack or a long type is cut here; get_build_log has the full text. */
const MAX_MESSAGE_CHARS = 4000;

export function createGetBuildErrorsTool(deps: { service: BuildService; history: BuildHistory }) {
  return defineTool({
    name: 'get_build_errors',
    toolset: 'build',
    kind: 'R',
    title: 'Get build errors',
    description:
      'Diagnostics of a finished build, errors first (Kotlin, KSP, kapt, javac, lint, AAPT2, manifest merger, R8, AGP, tests, Gradle): severity, source, file (project-relative), line, column, message, task.',
    input: z.object({
      build_id: z.string().max(64).optional().describe("Build id; default: this project's latest."),
      severity: z.enum(['error', 'warning', 'info']).optional().describe('Only this severity.'),
      ...pageInput(50, 500, 'diagnostics'),
    }),
    output: z.object({
      build_id: z.string().describe('The build these diagnostics belong to.'),
      status: z.string().describe('Its status.'),
      counts: z
        .object({ error: z.number().int(), warning: z.number().int(), info: z.number().int() })
        .describe('All diagnostics by severity.'),
      stored: z.number().int().describe('Diagnostics kept in the record (the first 500 or so; errors first).'),
      diagnostics: z
        .array(
          z.object({
            severity: z.enum(['error', 'warning', 'info']).describe('error, warning or info.'),
            source: z
              .string()
              .describe(
                'kotlin, ksp, kapt, javac, lint, aapt2, manifest, r8, agp, test, gradle, config-cache or script.',
              ),
            file: z
              .string()
              .optional()
              .describe('File path: relative to the project when inside it, else as the tool printed it.'),
            line: z.number().int().optional().describe('1-based line.'),
            column: z.number().int().optional().describe('1-based column.'),
            message: z.string().describe('The message.'),
            task: z.string().optional().describe('Gradle task that reported it.'),
          }),
        )
        .describe('This page of diagnostics.'),
      ...pageOutput,
    }),
    async handler(args) {
      const record = deps.service.resolveBuild(args.build_id);
      const page = pageFrom(
        (offset, limit) =>
          deps.history
            .diagnostics(record.id, args.severity, limit, offset)
            .map((d) => omitNulls({ ...d, message: clip(d.message, MAX_MESSAGE_CHARS) })),
        deps.history.diagnosticCount(record.id, args.severity),
        args,
      );
      const diagnostics = page.items;
      const note = record.status === 'running' ? ' (still running; diagnostics are recorded when it ends)' : '';
      return {
        data: {
          build_id: record.id,
          status: record.status,
          counts: record.counts,
          stored: Math.min(record.diagnosticsTotal, 500),
          diagnostics,
          ...pageInfo(page),
        },
        summary: `Build ${record.id}: ${record.counts.error} error(s), ${record.counts.warning} warning(s); returning ${diagnostics.length} of ${page.total}${page.has_more ? ', more with cursor' : ''}${note}.`,
      };
    },
  });
}
