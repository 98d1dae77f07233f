import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';
import { clip, decodeOffsetCursor, takeWithinBudget } from '../../../kernel/bounded-output.js';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildService } from '../services/build-service.js';

/** How much of the file is read to answer (tail or head); a filter scans up to this much. */
const WINDOW_BYTES = 16 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;
function readWindow(path: string, from: 'head' | 'tail'): { text: string; partial: boolean } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw new ToolError('NOT_FOUND', `The build log ${path} is missing (deleted or on another machine).`);
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, WINDOW_BYTES);
    const start = from === 'tail' ? size - length : 0;
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, start);
    let text = buffer.toString('utf8');
    // A window that starts mid-file starts mid-line: drop that partial line.
    if (from === 'tail' && start > 0) text = text.slice(text.indexOf('\n') + 1);
    return { text, partial: length < size };
  } finally {
    closeSync(fd);
  }
}

export function createGetBuildLogTool(deps: { service: BuildService }) {
  return defineTool({
    name: 'get_build_log',
    toolset: 'build',
    kind: 'R',
    title: 'Get build log',
    description: "Lines of a build's full Gradle output, also while it runs.",
    input: z.object({
      build_id: z.string().max(64).optional().describe("Build id; default: this project's latest."),
      lines: z.number().int().min(1).max(2000).default(200).describe('Most lines per page.'),
      filter: z.string().min(1).max(200).optional().describe('Only lines containing this text, any case.'),
      from: z.enum(['tail', 'head']).default('tail').describe('Start from the last (tail) or first (head) lines.'),
      cursor: z
        .string()
        .max(20)
        .optional()
        .describe('next_cursor of the previous page (continues toward the other end).'),
    }),
    output: z.object({
      build_id: z.string().describe('The build.'),
      status: z.string().describe('Its status.'),
      log_path: z.string().describe('Path of the full log file.'),
      lines: z.array(z.string()).describe('The selected lines (each cut at 2000 characters).'),
      matched: z.number().int().describe('Lines that matched (before the lines limit).'),
      has_more: z.boolean().describe('More matching lines lie beyond this page; pass next_cursor as cursor.'),
      next_cursor: z.string().optional().describe('Cursor of the next page, when has_more.'),
      partial: z.boolean().describe('True when the log is larger than the 16 MiB window that was searched.'),
      truncated: z
        .boolean()
        .describe(
          'True when fewer lines than asked were returned to keep the reply small; page on with next_cursor or narrow with filter.',
        ),
    }),
    async handler(args) {
      const record = deps.service.resolveBuild(args.build_id);
      const { text, partial } = readWindow(record.logPath, args.from);
      let all = text.split('\n');
      if (all.length > 0 && all[all.length - 1] === '') all.pop();
      if (args.filter !== undefined) {
        const needle = args.filter.toLowerCase();
        all = all.filter((l) => l.toLowerCase().includes(needle));
      }
      // The cursor counts matching lines already returned from the chosen end.
      const skip = Math.min(decodeOffsetCursor(args.cursor), all.length);
      const wanted = (
        args.from === 'tail'
          ? all.slice(Math.max(0, all.length - skip - args.lines), all.length - skip).reverse()
          : all.slice(skip, skip + args.lines)
      ).map((l) => clip(l, MAX_LINE_CHARS));
      const { taken } = takeWithinBudget(wanted);
      const chosen = args.from === 'tail' ? taken.reverse() : taken;
      const consumed = skip + chosen.length;
      const hasMore = consumed < all.length;
      return {
        data: {
          build_id: record.id,
          status: record.status,
          log_path: record.logPath,
          lines: chosen,
          matched: all.length,
          has_more: hasMore,
          ...(hasMore ? { next_cursor: String(consumed) } : {}),
          partial,
          truncated: chosen.length < wanted.length,
        },
        summary: `${chosen.length} line(s) of build ${record.id}'s log (${record.status}).`,
      };
    },
  });
}
