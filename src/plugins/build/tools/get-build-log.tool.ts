import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { BuildService } from '../services/build-service.js';

/** How much of the file is read to answer (tail or head); a filter scans up to this much. */
const WINDOW_BYTES = 16 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;
/** The lines returned stay under this many bytes, whatever `lines` asks for: a reply an agent can read. */
const MAX_REPLY_BYTES = 128 * 1024;

/** Keeps the lines nearest the end (tail) or the start (head) that fit the byte budget. */
function withinBudget(lines: readonly string[], from: 'head' | 'tail'): { kept: string[]; truncated: boolean } {
  const ordered = from === 'tail' ? [...lines].reverse() : [...lines];
  const kept: string[] = [];
  let bytes = 0;
  for (const line of ordered) {
    bytes += Buffer.byteLength(line) + 4;
    if (bytes > MAX_REPLY_BYTES && kept.length > 0) break;
    kept.push(line);
  }
  return { kept: from === 'tail' ? kept.reverse() : kept, truncated: kept.length < lines.length };
}

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
    description:
      "Lines of a build's full Gradle output (default: the last 200 of the latest build). filter keeps only lines containing a text (case-insensitive). Works while the build runs.",
    input: z.object({
      build_id: z
        .string()
        .max(64)
        .optional()
        .describe("Id of a build of this project (other projects' ids are refused); defaults to its latest build."),
      lines: z.number().int().min(1).max(2000).default(200).describe('How many lines (default 200, max 2000).'),
      filter: z.string().min(1).max(200).optional().describe('Only lines containing this text (case-insensitive).'),
      from: z.enum(['tail', 'head']).default('tail').describe('tail: the last lines (default); head: the first lines.'),
    }),
    output: z.object({
      build_id: z.string().describe('The build.'),
      status: z.string().describe('Its status.'),
      log_path: z.string().describe('Path of the full log file.'),
      lines: z.array(z.string()).describe('The selected lines (each cut at 2000 characters).'),
      matched: z.number().int().describe('Lines that matched (before the lines limit).'),
      partial: z.boolean().describe('True when the log is larger than the 16 MiB window that was searched.'),
      truncated: z
        .boolean()
        .describe(
          'True when fewer lines than asked were returned to stay under 128 KiB; narrow with filter or fewer lines.',
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
      const wanted = (args.from === 'tail' ? all.slice(-args.lines) : all.slice(0, args.lines)).map((l) =>
        l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l,
      );
      const { kept: chosen, truncated } = withinBudget(wanted, args.from);
      return {
        data: {
          build_id: record.id,
          status: record.status,
          log_path: record.logPath,
          lines: chosen,
          matched: all.length,
          partial,
          truncated,
        },
        summary: `${chosen.length} line(s) of build ${record.id}'s log (${record.status}).`,
      };
    },
  });
}
