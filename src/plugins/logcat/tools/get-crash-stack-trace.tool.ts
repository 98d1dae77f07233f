import { z } from 'zod';
import { formatThreadtime } from '../../../android/logcat/logcat-text-parser.js';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import { clip, omitNulls } from '../../../kernel/bounded-output.js';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { CrashHistory, CrashRecord } from '../services/crash-history.js';
import type { CrashRetracer } from '../services/crash-retracer.js';
import { crashTitle } from '../crashes.projection.js';
import { crashMessages, crashPackages, isoTime } from '../services/crash-views.js';
import type { LogLineStore } from '../services/log-line-store.js';

const EVENT_TYPE = { java: 'app.crashed', native: 'app.native_crashed', anr: 'app.not_responding' } as const;

/** Log lines shown before and after the crash block, from the line store. */
const CONTEXT_LINES = 15;
/** The stack and its retrace are each cut here: a crash block is bounded (120 lines of 1,000 characters) anyway. */
const MAX_STACK_CHARS = 24_000;

export function createGetCrashStackTraceTool(deps: {
  crashes: CrashHistory;
  retracer: CrashRetracer;
  scope: PackageScopeGuard;
  lines: () => LogLineStore | null;
}) {
  return defineTool({
    name: 'get_crash_stack_trace',
    toolset: 'logcat',
    kind: 'R',
    title: 'Get crash stack trace',
    description:
      "Newest crash's stack (by group, package or the project's apps), its build and nearby log; retrace: true maps R8 frames with that exact build's mapping or says why not.",
    input: z.object({
      package: z.string().min(1).max(255).optional().describe('Application id.'),
      crash_group_id: z.string().min(1).max(64).optional().describe('From get_crash_logs.'),
      retrace: z.boolean().optional().describe('Deobfuscate (R8 mapping).'),
    }),
    output: z.object({
      crash_group_id: z.string().describe('Its group (get_crash_logs).'),
      kind: z.enum(['java', 'native', 'anr']).describe('Java exception, native signal, or ANR.'),
      package: z.string().optional().describe('The app, when known.'),
      device_serial: z.string().describe('Where it crashed.'),
      time: z.string().optional().describe('Log time (device clock as UTC).'),
      title: z.string().describe('Exception, signal or ANR reason.'),
      build: z.string().optional().describe('Build installed then: "<build id> <variant> v<versionCode>".'),
      stack: z.string().describe('The crash block as logged (without logcat columns).'),
      truncated: z.boolean().describe('Lines were cut.'),
      retraced: z
        .object({
          stack: z.string().describe('The stack with original names and lines.'),
          matched_by: z
            .enum(['pg_map_id', 'apk_hash', 'install_record'])
            .describe('How the mapping was tied to the crash.'),
          build_id: z.string().describe('Build whose mapping was used.'),
          mapping: z.string().describe('The mapping file and engine.'),
        })
        .optional()
        .describe('With retrace: true.'),
      log_context: z.array(z.string()).optional().describe('Stored log lines around the crash block.'),
      hint: z.string().optional().describe('Next step.'),
    }),
    async handler(args, ctx) {
      let crash: CrashRecord | null;
      if (args.crash_group_id !== undefined) {
        if (!/^[0-9a-f]{8,64}$/.test(args.crash_group_id))
          throw new InvalidArgumentsError(
            'crash_group_id must be a crash_group_id from get_crash_logs (hex).',
            'INVALID_ARGUMENT',
            'crash_group_id',
          );
        crash = deps.crashes.newest({ groupId: args.crash_group_id });
        if (!crash)
          throw new ToolError(
            'NOT_FOUND',
            `No crash group ${args.crash_group_id}. List the groups with get_crash_logs and pass one of their crash_group_id values.`,
          );
      } else {
        const packages = crashPackages(args.package, deps.scope);
        crash = deps.crashes.newest({ packages });
        if (!crash)
          throw new ToolError(
            'NOT_FOUND',
            `No crash recorded${packages ? ` for ${packages.slice(0, 5).join(', ')}` : ''}. Crashes are recorded while logcat streams (start_logcat); get_exit_reasons lists deaths the device kept.`,
          );
      }
      const messages = crashMessages(crash);
      const stackText = messages.join('\n');
      let retraced: Awaited<ReturnType<CrashRetracer['retrace']>> | null = null;
      if (args.retrace) retraced = await deps.retracer.retrace(crash, stackText, ctx.signal);
      const d = crash.data;
      const context = logContext(deps.lines(), crash);
      return {
        data: omitNulls({
          crash_group_id: crash.groupId,
          kind: crash.kind,
          package: d.package,
          device_serial: d.device_serial,
          time: isoTime(d.time_ms),
          title: clip(crashTitle(EVENT_TYPE[crash.kind], d), 2000),
          build: d.build
            ? `${d.build.build_id ?? `apk:${d.build.apk_sha256.slice(0, 12)}`}${d.build.variant ? ` ${d.build.variant}` : ''} v${d.build.version_code}`
            : null,
          stack: clip(stackText, MAX_STACK_CHARS),
          truncated: d.truncated || stackText.length > MAX_STACK_CHARS,
          retraced: retraced
            ? {
                stack: clip(retraced.text, MAX_STACK_CHARS),
                matched_by: retraced.mapping.matchedBy,
                build_id: retraced.mapping.buildId,
                mapping: `${retraced.mapping.path} (${retraced.engine === 'sdk' ? 'SDK retrace' : 'built-in retrace'})`,
              }
            : null,
          log_context: context,
          hint:
            crash.kind === 'java' && !args.retrace && crash.data.r8_map_ids.length > 0
              ? 'The frames are obfuscated (R8): call again with retrace: true for the original names and lines.'
              : null,
        }),
        summary: `${crash.kind} crash of ${d.package ?? d.process ?? 'unknown'} on ${d.device_serial}${retraced ? ` (retraced, ${retraced.mapping.matchedBy})` : ''}`,
      };
    },
  });
}

/** The stored lines around the block (other processes included), when the line store still holds them. */
function logContext(store: LogLineStore | null, crash: CrashRecord): string[] | null {
  const { first_line_seq: first, last_line_seq: last, device_serial: serial } = crash.data;
  if (!store || first === null || last === null) return null;
  try {
    const lines = store.range(serial, Math.max(0, first - CONTEXT_LINES), last + CONTEXT_LINES, 200);
    if (lines.length === 0) return null;
    return lines
      .filter((l) => l.seq < first || l.seq > last)
      .map((l) =>
        clip(
          formatThreadtime({
            time: '',
            timeMs: l.timeMs,
            pid: l.pid,
            tid: l.tid,
            level: l.level,
            tag: l.tag,
            message: l.message,
          }),
          1000,
        ),
      );
  } catch {
    // The line store is a convenience here: the crash itself is in the event.
    return null;
  }
}
