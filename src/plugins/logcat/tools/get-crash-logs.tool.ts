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
      "Crashes, native crashes and ANRs seen in logcat, grouped by signature, newest first: counts, first/last seen, builds affected, top frames. Defaults to the project's apps. Full stack: get_crash_stack_trace; deaths logcat missed: get_exit_reasons.",
    input: z.object({
      package: z.string().min(1).max(255).optional().describe("Application id; defaults to the project's apps."),
      device_serial: z.string().min(1).max(128).optional().describe('Only groups seen on this device.'),
      count: z.number().int().min(1).max(200).default(20).describe('Most groups to return (default 20, max 200).'),
      cursor: z.string().max(20).optional().describe('next_cursor of the previous page.'),
      retrace: z
        .boolean()
        .optional()
        .describe("Also give each group's top frames deobfuscated with its build's R8 mapping."),
    }),
    output: z.object({
      groups: z.array(
        z.object({
          crash_group_id: z.string(),
          package: z.string().optional(),
          kind: z.enum(['java', 'native', 'anr']),
          title: z.string(),
          signature: z.string(),
          crashes: z.number().int(),
          first_seen: z.string(),
          last_seen: z.string(),
          last_device: z.string(),
          builds: z.array(
            z.object({
              build_id: z.string().optional(),
              version_code: z.number().int(),
              variant: z.string().optional(),
              crashes: z.number().int(),
            }),
          ),
          top_frames: z.array(z.string()),
          retraced_top_frames: z.array(z.string()).optional(),
        }),
      ),
      total: z.number().int(),
      has_more: z.boolean(),
      next_cursor: z.string().optional(),
      hint: z.string().optional(),
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
            signature: clip(g.signature, 500),
            crashes: g.crashes,
            first_seen: isoTime(g.first_seen_at)!,
            last_seen: isoTime(g.last_seen_at)!,
            last_device: g.last_device,
            builds: deps.crashes.builds(g.group_id).map((b) =>
              omitNulls({
                build_id: b.build_id,
                version_code: b.version_code,
                variant: b.variant,
                crashes: b.crashes,
              }),
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
