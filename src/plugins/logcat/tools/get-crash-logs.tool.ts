import { z } from 'zod';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import { clip, decodeOffsetCursor, omitNulls, takeWithinBudget } from '../../../kernel/bounded-output.js';
import { ToolError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validateSerial } from '../../../kernel/validation.js';
import type { CrashHistory } from '../services/crash-history.js';
import type { CrashRetracer } from '../services/crash-retracer.js';
import { crashMessages, crashPackages, isoTime, topFrames } from '../services/crash-views.js';

const TOP_FRAMES = 5;

export function createGetCrashLogsTool(deps: {
  crashes: CrashHistory;
  retracer: CrashRetracer;
  scope: PackageScopeGuard;
}) {
  return defineTool({
    name: 'get_crash_logs',
    toolset: 'logcat',
    kind: 'R',
    title: 'Get crash logs',
    description:
      'Crashes, native crashes and ANRs from logcat grouped by signature, newest first: counts, builds, top frames. Deaths logcat missed: get_exit_reasons.',
    input: z.object({
      package: z.string().min(1).max(255).optional().describe('Application id.'),
      device_serial: z.string().min(1).max(128).optional().describe('Only groups seen on this device.'),
      count: z.number().int().min(1).max(200).default(20).describe('Most groups per page.'),
      cursor: z.string().max(20).optional().describe('The next_cursor you got.'),
      retrace: z.boolean().optional().describe('Also deobfuscate top frames (R8).'),
    }),
    output: z.object({
      groups: z
        .array(
          z.object({
            crash_group_id: z.string().describe('Pass to get_crash_stack_trace.'),
            package: z.string().optional().describe('The app, when known.'),
            kind: z.enum(['java', 'native', 'anr']).describe('Java exception, native signal, or ANR.'),
            title: z.string().describe('Exception and message, signal, or ANR reason of the newest crash.'),
            crashes: z.number().int().describe('Crashes in the group.'),
            first_seen: z.string().describe('ISO time of the first.'),
            last_seen: z.string().describe('ISO time of the newest.'),
            builds: z
              .array(z.string())
              .describe(
                'Installed builds it was seen in, newest first: "<build id> <variant> v<versionCode> ×<crashes>".',
              ),
            top_frames: z.array(z.string()).describe('First frames of the newest crash, as logged.'),
            retraced_top_frames: z.array(z.string()).optional().describe('The same, deobfuscated (retrace: true).'),
          }),
        )
        .describe('Newest first.'),
      total: z.number().int().describe('Groups matching.'),
      has_more: z.boolean().describe('More groups follow; pass next_cursor as cursor.'),
      next_cursor: z.string().optional().describe('Cursor of the next page.'),
      hint: z.string().optional().describe('Next step.'),
    }),
    async handler(args, ctx) {
      const packages = crashPackages(args.package, deps.scope);
      const device = args.device_serial === undefined ? null : validateSerial(args.device_serial);
      const offset = decodeOffsetCursor(args.cursor);
      const { groups, total } = deps.crashes.groups({ packages, device, offset, limit: args.count });
      const items = [];
      for (const g of groups) {
        const newest = deps.crashes.newest({ groupId: g.group_id });
        const messages = newest ? crashMessages(newest) : [];
        let retraced: string[] | null = null;
        if (args.retrace && newest && g.kind === 'java') {
          try {
            const result = await deps.retracer.retrace(newest, messages.join('\n'), ctx.signal);
            retraced = topFrames(result.text.split('\n'), TOP_FRAMES);
          } catch (error) {
            if (error instanceof ToolError)
              throw new ToolError(error.code, `Crash group ${g.group_id} (${clip(g.title, 120)}): ${error.message}`);
            throw error;
          }
        }
        items.push(
          omitNulls({
            crash_group_id: g.group_id,
            package: g.package,
            kind: g.kind,
            title: clip(g.title, 300),
            crashes: g.crashes,
            first_seen: isoTime(g.first_seen_at)!,
            last_seen: isoTime(g.last_seen_at)!,
            builds: deps.crashes
              .builds(g.group_id)
              .map(
                (b) =>
                  `${b.build_id ?? `apk:${b.apk_sha256.slice(0, 12)}`}${b.variant ? ` ${b.variant}` : ''} v${b.version_code} ×${b.crashes}`,
              ),
            top_frames: topFrames(messages, TOP_FRAMES).map((f) => clip(f, 300)),
            retraced_top_frames: retraced?.map((f) => clip(f, 300)) ?? null,
          }),
        );
      }
      const { taken } = takeWithinBudget(items);
      const end = offset + taken.length;
      const hasMore = end < total;
      return {
        data: omitNulls({
          groups: taken,
          total,
          has_more: hasMore,
          next_cursor: hasMore ? String(end) : null,
          hint:
            total === 0
              ? `No crash recorded${packages ? ` for ${packages.slice(0, 5).join(', ')}` : ''}. Crashes are recorded while logcat streams (start_logcat); get_exit_reasons lists deaths the device kept.`
              : 'get_crash_stack_trace with a crash_group_id gives the full stack and the log around it.',
        }),
        summary: `${total} crash group(s)${packages ? ` for ${packages.slice(0, 3).join(', ')}` : ''}`,
      };
    },
  });
}
