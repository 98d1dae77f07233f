import { z } from 'zod';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildHistory } from '../services/build-history.js';
import type { BuildService } from '../services/build-service.js';

/** Diagnostics returned in one reply stay under this many bytes of JSON. */
const MAX_REPLY_BYTES = 128 * 1024;

export function createGetBuildErrorsTool(deps: { service: BuildService; history: BuildHistory }) {
  return defineTool({
    name: 'get_build_errors',
    toolset: 'build',
    kind: 'R',
    title: 'Get build errors',
    description:
      'Structured diagnostics of a finished build (Kotlin, KSP, kapt, javac, lint, AAPT2, manifest merger, R8, AGP, failed tests, Gradle, configuration cache, build scripts): severity, source, file, line, column, message, task. Errors first. Files inside the project are relative to it. Diagnostics without a location keep their message.',
    input: z.object({
      build_id: z
        .string()
        .max(64)
        .optional()
        .describe("Id of a build of this project (other projects' ids are refused); defaults to its latest build."),
      severity: z.enum(['error', 'warning', 'info']).optional().describe('Only this severity.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(500)
        .default(50)
        .describe('At most this many diagnostics (default 50, max 500).'),
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
              .nullable()
              .describe('File path: relative to the project when inside it, else as the tool printed it.'),
            line: z.number().int().nullable().describe('1-based line.'),
            column: z.number().int().nullable().describe('1-based column.'),
            message: z.string().describe('The message.'),
            task: z.string().nullable().describe('Gradle task that reported it.'),
          }),
        )
        .describe('The diagnostics.'),
    }),
    async handler(args) {
      const record = deps.service.resolveBuild(args.build_id);
      // Each message is capped where diagnostics are stored; the page is capped here so 500 long ones stay readable.
      const diagnostics: ReturnType<typeof deps.history.diagnostics> = [];
      let bytes = 0;
      for (const diagnostic of deps.history.diagnostics(record.id, args.severity, args.limit)) {
        bytes += Buffer.byteLength(JSON.stringify(diagnostic));
        if (bytes > MAX_REPLY_BYTES && diagnostics.length > 0) break;
        diagnostics.push(diagnostic);
      }
      const note = record.status === 'running' ? ' (still running; diagnostics are recorded when it ends)' : '';
      return {
        data: {
          build_id: record.id,
          status: record.status,
          counts: record.counts,
          stored: Math.min(record.diagnosticsTotal, 500),
          diagnostics,
        },
        summary: `Build ${record.id}: ${record.counts.error} error(s), ${record.counts.warning} warning(s); returning ${diagnostics.length}${note}.`,
      };
    },
  });
}
