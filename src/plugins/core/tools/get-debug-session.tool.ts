import { z } from 'zod';
import { clip, DATA_BUDGET_BYTES, takeWithinBudget, wireBytes } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { TIMELINE_CATEGORIES } from '../debug-sessions.projection.js';
import type { DebugSessionReader } from '../services/debug-session-reader.js';
import {
  compactSession,
  compactSessionSchema,
  describeInstaller,
  sessionIdField,
  sessionLine,
} from './debug-session-fields.js';

/** Crash log lines returned per crash (each cut to 300 characters); the crash event keeps up to 120. */
const LINES_PER_CRASH = 40;
const CRASH_BUDGET = 24 * 1024;
const CHANGED_FILES_LISTED = 30;

export function createGetDebugSessionTool(deps: { sessions: DebugSessionReader }) {
  return defineTool({
    name: 'get_debug_session',
    toolset: 'core',
    kind: 'R',
    title: 'Get debug session',
    description:
      'One debug session: its build and provenance, installer, crashes with attribution and log lines, and timeline newest first (launches, stops, crashes, device changes, deep links, UI actions, tool calls).',
    input: z.object({
      session_id: sessionIdField,
      max_events: z.number().int().min(1).max(500).default(100).describe('Most timeline events per page.'),
      before_seq: z.number().int().min(1).optional().describe('next_before_seq of the previous page.'),
    }),
    output: z.object({
      session: compactSessionSchema
        .extend({
          apk_path: z.string().describe('APK file that was installed.'),
          apk_sha256: z.string().describe('SHA-256 of the installed APK.'),
          module: z.string().optional().describe('Gradle module of the build.'),
          ended_at: z.string().optional().describe('When it was superseded or ended (ISO 8601).'),
          end_reason: z.string().optional().describe('Why it ended.'),
          superseded_by: z.string().optional().describe('The session of the next install.'),
          tool_calls: z.number().int().describe('State-changing tool calls naming its device.'),
          ui_actions: z.number().int().describe('UI actions on its screens.'),
          timeline_dropped: z.number().int().describe('Oldest timeline rows dropped past the per-session bound.'),
        })
        .describe('The session.'),
      build: z
        .object({
          build_id: z.string().describe('Build id.'),
          tasks: z.array(z.string()).describe('Gradle tasks it ran.'),
          status: z.string().optional().describe('Build outcome.'),
          mapping_sha256: z.string().optional().describe('SHA-256 of the R8 mapping for the module and variant.'),
          commit: z.string().optional().describe('git commit built.'),
          branch: z.string().optional().describe('git branch.'),
          dirty: z.boolean().optional().describe('Uncommitted changes were built.'),
          changed_files: z.array(z.string()).describe(`Uncommitted files built (the first ${CHANGED_FILES_LISTED}).`),
          log_path: z.string().describe('Build log file.'),
        })
        .optional()
        .describe('The build that wrote the installed APK, when droidwright recorded it.'),
      crashes: z
        .array(
          z.object({
            seq: z.number().int().describe('Event seq of the crash.'),
            at: z.string().describe('When it was recorded (ISO 8601).'),
            kind: z.string().describe('java, native or anr.'),
            title: z.string().describe('Exception and message, signal, or ANR reason.'),
            signature_hash: z.string().describe('Crash group signature hash (get_crash_logs).'),
            verified: z.boolean().describe('The crash record names this install as the installed build.'),
            attribution: z.string().describe('How the crash was tied to this session.'),
            lines: z.array(z.string()).describe(`Log lines kept with the crash (the first ${LINES_PER_CRASH}).`),
          }),
        )
        .describe('Crashes attributed to the session, oldest first.'),
      events: z
        .array(
          z.object({
            seq: z.number().int().describe('Event seq.'),
            at: z.string().describe('Time (ISO 8601).'),
            category: z.enum(TIMELINE_CATEGORIES).describe('What kind of event.'),
            summary: z.string().describe('One line.'),
            actor: z.string().describe('Who caused it.'),
            outcome: z.string().optional().describe('Tool call outcome.'),
            duration_ms: z.number().int().optional().describe('Tool call duration.'),
          }),
        )
        .describe('Timeline, newest first.'),
      has_more: z.boolean().describe('Older events follow; pass next_before_seq as before_seq.'),
      next_before_seq: z.number().int().optional().describe('before_seq of the next page, when has_more.'),
    }),
    async handler(args) {
      const s = deps.sessions.get(args.session_id);
      const git = s.build?.provenance?.git;
      const build = s.build
        ? {
            build_id: s.build.build_id,
            tasks: s.build.tasks.slice(0, 20),
            ...(s.build.status ? { status: s.build.status } : {}),
            ...(s.build.mapping ? { mapping_sha256: s.build.mapping.sha256 } : {}),
            ...(git?.commit ? { commit: git.commit } : {}),
            ...(git?.branch ? { branch: clip(git.branch, 200) } : {}),
            ...(git?.dirty !== null && git?.dirty !== undefined ? { dirty: git.dirty } : {}),
            changed_files: (git?.files ?? [])
              .slice(0, CHANGED_FILES_LISTED)
              .map((f) => clip(`${f.change ?? '?'} ${f.path}`, 300)),
            log_path: clip(s.build.log_path, 500),
          }
        : undefined;
      const { taken: crashes } = takeWithinBudget(
        deps.sessions.crashes(s.session_id).map((c) => ({
          seq: c.seq,
          at: new Date(c.at).toISOString(),
          kind: c.kind,
          title: clip(c.title, 300),
          signature_hash: c.signature_hash,
          verified: c.verified,
          attribution: c.attribution,
          lines: c.lines.slice(0, LINES_PER_CRASH).map((l) => clip(l, 300)),
        })),
        CRASH_BUDGET,
      );
      const session = {
        ...compactSession(s),
        apk_path: clip(s.apk_path, 500),
        apk_sha256: s.apk_sha256,
        ...(s.module ? { module: s.module } : {}),
        ...(s.ended_at !== null ? { ended_at: new Date(s.ended_at).toISOString() } : {}),
        ...(s.end_reason ? { end_reason: s.end_reason } : {}),
        ...(s.superseded_by ? { superseded_by: s.superseded_by } : {}),
        tool_calls: s.tool_calls,
        ui_actions: s.ui_actions,
        timeline_dropped: s.timeline_dropped,
      };
      const timeline = deps.sessions.timeline(s.session_id, {
        max: args.max_events,
        ...(args.before_seq !== undefined ? { beforeSeq: args.before_seq } : {}),
      });
      const used = wireBytes({ session, build, crashes });
      const { taken: events, exhausted } = takeWithinBudget(
        timeline.entries.map((e) => ({
          seq: e.seq,
          at: new Date(e.at).toISOString(),
          category: e.category,
          summary: e.summary,
          actor: describeInstaller(e.actor).slice(0, 200),
          ...(e.outcome ? { outcome: e.outcome } : {}),
          ...(e.duration_ms !== null ? { duration_ms: e.duration_ms } : {}),
        })),
        Math.max(4 * 1024, DATA_BUDGET_BYTES - used),
      );
      const hasMore = exhausted || timeline.has_more;
      return {
        data: {
          session,
          ...(build ? { build } : {}),
          crashes,
          events,
          has_more: hasMore,
          ...(hasMore && events.length > 0 ? { next_before_seq: events[events.length - 1]!.seq } : {}),
        },
        summary: sessionLine(s),
      };
    },
  });
}
