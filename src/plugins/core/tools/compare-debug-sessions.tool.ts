import { z } from 'zod';
import { clip } from '../../../kernel/bounded-output.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { DebugSessionReader } from '../services/debug-session-reader.js';
import { compactSession, compactSessionSchema, sessionIdField } from './debug-session-fields.js';

const value = z.union([z.string(), z.number(), z.boolean()]);
const crashDelta = z.object({
  signature_hash: z.string().describe('Crash group signature hash.'),
  title: z.string().describe('Exception and message, signal, or ANR reason.'),
  kind: z.string().describe('java, native or anr.'),
  from_count: z.number().int().describe('Times in the from session.'),
  to_count: z.number().int().describe('Times in the to session.'),
});

export function createCompareDebugSessionsTool(deps: { sessions: DebugSessionReader }) {
  return defineTool({
    name: 'compare_debug_sessions',
    toolset: 'core',
    kind: 'R',
    title: 'Compare debug sessions',
    description:
      'What changed between two debug sessions: build provenance, changed source files, new and gone crash signatures, first-launch time delta, exit reason counts. Without from/to: the newest crashing session against the clean one after it.',
    input: z.object({
      from: sessionIdField.optional().describe('Earlier session id (give both or neither).'),
      to: sessionIdField.optional().describe('Later session id.'),
    }),
    output: z.object({
      from: compactSessionSchema.describe('The earlier session.'),
      to: compactSessionSchema.describe('The later session.'),
      chosen: z.boolean().describe('True when the pair was chosen because no ids were given.'),
      build_differences: z
        .array(
          z.object({
            field: z.string().describe('What differs (build_id, variant, version_code, apk_sha256, commit, …).'),
            from: value.optional().describe('Value in the from session.'),
            to: value.optional().describe('Value in the to session.'),
          }),
        )
        .describe('Build and provenance fields that differ.'),
      changed_files: z
        .array(
          z.object({
            path: z.string().describe('Path in the project.'),
            change: z.enum(['added', 'modified', 'removed']).describe('How it changed.'),
          }),
        )
        .describe('Source files whose content differs between the two builds.'),
      changed_files_partial: z.boolean().describe('The file list may miss files; changed_files_note says why.'),
      changed_files_note: z.string().optional().describe('Why the file list is partial.'),
      crashes_new: z.array(crashDelta).describe('Crash signatures only the to session has.'),
      crashes_gone: z.array(crashDelta).describe('Crash signatures only the from session has.'),
      crashes_persisting: z.array(crashDelta).describe('Crash signatures both have.'),
      launch: z
        .object({
          from_ms: z.number().int().optional().describe('First launch total time in from.'),
          to_ms: z.number().int().optional().describe('First launch total time in to.'),
          delta_ms: z.number().int().optional().describe('to_ms − from_ms.'),
          note: z.string().optional().describe('Why the launch times are not compared.'),
        })
        .describe('First-launch time, compared only when comparable.'),
      exit_reasons: z
        .array(
          z.object({
            reason: z.string().describe('Exit reason.'),
            from: z.number().int().describe('Records with it in the newest read of the from session.'),
            to: z.number().int().describe('Records with it in the newest read of the to session.'),
          }),
        )
        .describe('Exit reasons read (get_exit_reasons) in each session, by count.'),
    }),
    async handler(args) {
      if ((args.from === undefined) !== (args.to === undefined))
        throw new InvalidArgumentsError(
          'Give both from and to, or neither (then the newest crashing/clean pair of one package and variant is compared).',
          'INVALID_ARGUMENT',
          args.from === undefined ? 'from' : 'to',
        );
      const { from, to, comparison: c, chosen } = deps.sessions.compare(args.from, args.to);
      const cut = <T>(list: T[]) => list.slice(0, 50);
      const gone = c.crashes.gone.map((d) => d.title);
      const added = c.crashes.new.map((d) => d.title);
      const files = c.changed_files.files;
      const summary =
        `${from.session_id} → ${to.session_id}: ` +
        [
          gone.length ? `crash gone: ${clip(gone.join('; '), 200)}` : null,
          added.length ? `new crash: ${clip(added.join('; '), 200)}` : null,
          files.length
            ? `${files.length} changed file(s): ${clip(
                files
                  .slice(0, 5)
                  .map((f) => f.path)
                  .join(', '),
                300,
              )}`
            : 'no changed files found',
          'delta_ms' in c.launch ? `launch ${c.launch.delta_ms >= 0 ? '+' : ''}${c.launch.delta_ms} ms` : null,
        ]
          .filter((part) => part !== null)
          .join('; ');
      return {
        data: {
          from: compactSession(from),
          to: compactSession(to),
          chosen,
          build_differences: c.build_differences.map((d) => ({
            field: d.field,
            ...(d.from !== null ? { from: typeof d.from === 'string' ? clip(d.from, 300) : d.from } : {}),
            ...(d.to !== null ? { to: typeof d.to === 'string' ? clip(d.to, 300) : d.to } : {}),
          })),
          changed_files: cut(files.map((f) => ({ path: clip(f.path, 500), change: f.change }))),
          changed_files_partial: c.changed_files.partial || files.length > 50,
          ...(c.changed_files.note || files.length > 50
            ? {
                changed_files_note: [
                  c.changed_files.note,
                  files.length > 50 ? `${files.length - 50} more not listed` : null,
                ]
                  .filter(Boolean)
                  .join('; '),
              }
            : {}),
          crashes_new: cut(c.crashes.new),
          crashes_gone: cut(c.crashes.gone),
          crashes_persisting: cut(c.crashes.persisting),
          launch: c.launch,
          exit_reasons: cut(c.exit_reasons.map((e) => ({ ...e, reason: clip(e.reason, 64) }))),
        },
        summary,
      };
    },
  });
}
