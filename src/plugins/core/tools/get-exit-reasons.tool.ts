import { z } from 'zod';
import { MAX_EXIT_RECORDS, type AppInspector } from '../../../android/app-inspector.js';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import type { PackageScopeGuard } from '../../../android/package-scope-guard.js';
import { ANR_REASON, CRASH_REASONS } from '../../../android/parsers/exit-info.js';
import { clipStrings, decodeOffsetCursor, omitNulls, takeWithinBudget } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { validatePackageName } from '../../../kernel/validation.js';
import { AppExitReasonsRead } from '../core.events.js';

export function createGetExitReasonsTool(deps: {
  devices: DeviceInspector;
  apps: AppInspector;
  scope: PackageScopeGuard;
}) {
  return defineTool({
    name: 'get_exit_reasons',
    toolset: 'core',
    kind: 'R',
    title: 'Get exit reasons',
    description:
      "Why an app's processes ended, newest first, from the device's exit history (Android 11+; else supported: false): crashes, ANRs, low-memory kills, user stops, updates, even deaths logcat missed.",
    input: z.object({
      device_serial: deviceSerialField,
      package: z.string().min(1).max(255).optional().describe("Application id; default: the project's only one."),
      limit: z.number().int().min(1).max(MAX_EXIT_RECORDS).optional().describe('Most records per page (default 20).'),
      cursor: z.string().max(20).optional().describe('The next_cursor you got.'),
    }),
    output: z.object({
      device_serial: z.string().describe('The device that was read.'),
      package: z.string().describe('The application id.'),
      supported: z.boolean().describe('False below Android 11, where the device keeps no exit history.'),
      api_level: z.number().int().optional().describe('Device API level.'),
      total: z.number().int().describe('Records the device holds for the package.'),
      has_more: z.boolean().describe('More records follow; pass next_cursor as cursor.'),
      next_cursor: z.string().optional().describe('Cursor of the next page, when has_more.'),
      exits: z
        .array(
          z.object({
            timestamp: z.string().optional().describe('Device local time as printed.'),
            process: z.string().optional().describe('Process name (pkg or pkg:service).'),
            pid: z.number().int().optional().describe('Process id.'),
            reason: z.string().optional().describe('APP CRASH(EXCEPTION), ANR, LOW_MEMORY, USER REQUESTED, …'),
            reason_code: z.number().int().optional().describe('ApplicationExitInfo reason code.'),
            subreason: z.string().optional().describe('Sub-reason, when given.'),
            status: z.number().int().optional().describe('Exit status or signal number.'),
            importance: z.number().int().optional().describe('Process importance at death (100 = foreground).'),
            pss_kb: z.number().int().optional().describe('PSS at death in kB.'),
            rss_kb: z.number().int().optional().describe('RSS at death in kB.'),
            description: z
              .string()
              .optional()
              .describe('The framework description (ANR reason, kill reason…), capped at 1000 characters.'),
            trace: z.string().optional().describe('ANR trace file on the device, when recorded.'),
          }),
        )
        .describe('Newest first.'),
      hint: z.string().optional().describe('Next step when crashes or ANRs are listed, or why nothing is available.'),
    }),
    async handler(args, ctx) {
      const pkg = validatePackageName(args.package ?? deps.scope.defaultPackage());
      const serial = await deps.devices.select(args.device_serial, ctx);
      const offset = decodeOffsetCursor(args.cursor);
      const result = await deps.apps.exitReasons(serial, pkg, args.limit ?? 20, ctx.signal, offset);
      if (!result.supported) {
        return {
          data: omitNulls({
            device_serial: serial,
            package: pkg,
            supported: false,
            api_level: result.apiLevel,
            total: 0,
            has_more: false,
            exits: [],
            hint: result.reason,
          }),
          summary: `exit history not supported on ${serial} (API ${result.apiLevel ?? '?'})`,
        };
      }
      // A read tool records this one fact (as screenshot does): the debug session compares exit reasons by count.
      const reasons: Record<string, number> = {};
      for (const r of result.records) {
        const reason = (r.reason ?? 'unknown').slice(0, 64);
        reasons[reason] = (reasons[reason] ?? 0) + 1;
      }
      ctx.append(
        AppExitReasonsRead,
        {
          device_serial: serial,
          package: pkg,
          total: result.total,
          reasons,
          newest: result.records[0]?.timestamp?.slice(0, 64) ?? null,
        },
        { stream: `device:${serial}`, device: serial, package: pkg },
      );
      const crashes = result.records.filter((r) => r.reasonCode !== null && CRASH_REASONS.has(r.reasonCode)).length;
      const anrs = result.records.filter((r) => r.reasonCode === ANR_REASON).length;
      const { taken: exits } = takeWithinBudget(
        result.records.map((r) =>
          clipStrings(
            omitNulls({
              timestamp: r.timestamp,
              process: r.process,
              pid: r.pid,
              reason: r.reason,
              reason_code: r.reasonCode,
              subreason: r.subreason,
              status: r.status,
              importance: r.importance,
              pss_kb: r.pssKb,
              rss_kb: r.rssKb,
              description: r.description,
              trace: r.trace,
            }),
            1000,
          ),
        ),
      );
      const hasMore = offset + exits.length < result.total;
      return {
        data: omitNulls({
          device_serial: serial,
          package: pkg,
          supported: true,
          api_level: result.apiLevel,
          total: result.total,
          exits,
          has_more: hasMore,
          ...(hasMore ? { next_cursor: String(offset + exits.length) } : {}),
          hint:
            crashes + anrs > 0
              ? `${crashes} crash(es) and ${anrs} ANR(s) listed: get_crash_logs groups the ones logcat recorded, get_crash_stack_trace gives a stack (retrace: true for minified builds).`
              : result.total === 0
                ? `The device has no recorded exits for ${pkg}.`
                : null,
        }),
        summary: `${result.total} exit(s) for ${pkg} on ${serial}${crashes + anrs ? ` (${crashes} crash, ${anrs} ANR)` : ''}`,
      };
    },
  });
}
