import { z } from 'zod';
import { formatThreadtime } from '../../../android/logcat/logcat-text-parser.js';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import { clip, omitNulls } from '../../../kernel/bounded-output.js';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validateSerial } from '../../../kernel/validation.js';
import type { CrashHistory, CrashRecord } from '../services/crash-history.js';
import type { CrashRetracer } from '../services/crash-retracer.js';
import { crashMessages, crashPackages, isoTime } from '../services/crash-views.js';
import type { LogLineStore } from '../services/log-line-store.js';

/** Log lines shown before and after the crash block, from the line store. */
const CONTEXT_LINES = 15;
/** The stack and its retrace are each cut here: a crash block is bounded (120 lines of 1,000 characters) anyway. */
const MAX_STACK_CHARS = 24_000;

function detailsOf(c: CrashRecord) {
  switch (c.kind) {
    case 'java':
      return { exception_class: c.data.exception_class, message: c.data.message, thread: c.data.thread };
    case 'native':
      return { signal: c.data.signal, fault_address: c.data.fault_address, message: c.data.abort_message };
    case 'anr':
      return { component: c.data.component, message: c.data.reason };
  }
}

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
      "The newest crash's full stack (of a crash group, a package, or the project's apps) with the log lines around it and the build it came from; retrace: true deobfuscates it with that exact build's R8 mapping or refuses saying why. Groups: get_crash_logs; device exit history: get_exit_reasons.",
    input: z.object({
      package: z.string().min(1).max(255).optional().describe("Application id; defaults to the project's apps."),
      crash_group_id: z.string().min(1).max(64).optional().describe('A crash_group_id from get_crash_logs.'),
      device_serial: z.string().min(1).max(128).optional().describe('Only crashes on this device.'),
      retrace: z.boolean().optional().describe("Deobfuscate with the crashed build's R8 mapping."),
    }),
    output: z.object({
      crash_group_id: z.string().describe('Its group (get_crash_logs).'),
      kind: z.enum(['java', 'native', 'anr']).describe('Java exception, native signal, or ANR.'),
      package: z.string().optional().describe('The app, when known.'),
      device_serial: z.string().describe('Where it crashed.'),
      pid: z.number().int().optional().describe('Process id.'),
      process: z.string().optional().describe('Process name.'),
      time: z.string().optional().describe('Device log time of the first line (device clock as UTC).'),
      recorded_at: z.string().describe('When droidwright recorded it.'),
      exception_class: z.string().optional().describe('Java: the exception.'),
      signal: z.string().optional().describe('Native: the signal.'),
      fault_address: z.string().optional().describe('Native: the fault address.'),
      component: z.string().optional().describe('ANR: the component.'),
      thread: z.string().optional().describe('Java: the thread.'),
      message: z.string().optional().describe('Exception message, abort message or ANR reason.'),
      signature: z.string().describe('The grouping signature.'),
      group_crashes: z.number().int().describe('Crashes in its group.'),
      build: z
        .object({
          build_id: z.string().optional().describe('droidwright build.'),
          version_code: z.number().int().describe('Installed versionCode.'),
          variant: z.string().optional().describe('Build variant.'),
        })
        .optional()
        .describe('The build droidwright had installed for the package.'),
      stack: z.string().describe('The crash block as logged (without logcat columns).'),
      truncated: z.boolean().describe('Lines were cut.'),
      retraced: z
        .object({
          stack: z.string().describe('The stack with original names and lines.'),
          engine: z.enum(['sdk', 'builtin']).describe("SDK retrace or droidwright's."),
          matched_by: z
            .enum(['pg_map_id', 'apk_hash', 'install_record'])
            .describe('How the mapping was tied to the crash.'),
          build_id: z.string().describe('Build whose mapping was used.'),
          variant: z.string().describe('Its variant.'),
          mapping: z.string().describe('The mapping file.'),
          pg_map_id: z.string().optional().describe("The mapping's R8 id."),
        })
        .optional()
        .describe('With retrace: true.'),
      log_context: z.array(z.string()).optional().describe('Stored log lines around the crash block.'),
      hint: z.string().optional().describe('Next step.'),
    }),
    async handler(args, ctx) {
      const device = args.device_serial === undefined ? null : validateSerial(args.device_serial);
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
        crash = deps.crashes.newest({ packages, device });
        if (!crash)
          throw new ToolError(
            'NOT_FOUND',
            `No crash recorded${packages ? ` for ${packages.slice(0, 5).join(', ')}` : ''}${device ? ` on ${device}` : ''}. Crashes are recorded while logcat streams (start_logcat); get_exit_reasons lists deaths the device kept.`,
          );
      }
      const messages = crashMessages(crash);
      const stackText = messages.join('\n');
      let retraced: Awaited<ReturnType<CrashRetracer['retrace']>> | null = null;
      if (args.retrace) retraced = await deps.retracer.retrace(crash, stackText, ctx.signal);
      const group = deps.crashes.group(crash.groupId);
      const d = crash.data;
      const details = detailsOf(crash);
      const context = logContext(deps.lines(), crash);
      return {
        data: omitNulls({
          crash_group_id: crash.groupId,
          kind: crash.kind,
          package: d.package,
          device_serial: d.device_serial,
          pid: d.pid,
          process: d.process,
          time: isoTime(d.time_ms),
          recorded_at: isoTime(crash.at)!,
          ...details,
          message: details.message ? clip(details.message, 2000) : null,
          signature: d.signature,
          group_crashes: group?.crashes ?? 1,
          build: d.build
            ? { build_id: d.build.build_id, version_code: d.build.version_code, variant: d.build.variant }
            : null,
          stack: clip(stackText, MAX_STACK_CHARS),
          truncated: d.truncated || stackText.length > MAX_STACK_CHARS,
          retraced: retraced
            ? {
                stack: clip(retraced.text, MAX_STACK_CHARS),
                engine: retraced.engine,
                matched_by: retraced.mapping.matchedBy,
                build_id: retraced.mapping.buildId,
                variant: retraced.mapping.variant,
                mapping: retraced.mapping.path,
                pg_map_id: retraced.mapping.pgMapId,
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
