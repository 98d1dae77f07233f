import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import type { PackageScope } from '../../../android/gradle-project-model.js';
import { takeWithinBudget } from '../../../kernel/bounded-output.js';
import { InvalidArgumentsError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { formatThreadtime } from '../services/log-line-format.js';
import {
  minLevelField,
  neverStreamedNote,
  packageFilterField,
  parseMinLevel,
  parseTimeBound,
  resolvePackageFilter,
  selectLogDevice,
  tagFilterField,
  timeBoundDescription,
} from '../services/log-filter-args.js';
import type { LogLineStore } from '../services/log-line-store.js';
import { InvalidLogPatternError } from '../services/sqlite-log-line-store.js';

export function createGetLogcatEntriesTool(deps: {
  devices: DeviceInspector;
  store: LogLineStore;
  scope: () => PackageScope | null;
}) {
  return defineTool({
    name: 'get_logcat_entries',
    toolset: 'logcat',
    kind: 'R',
    title: 'Get logcat entries',
    description:
      'Read the stored device log (start_logcat streams it), newest page first, as lines: seq date time pid tid L tag: message.',
    input: z.object({
      device_serial: deviceSerialField,
      count: z.number().int().min(1).max(10_000).default(200).describe('Most lines.'),
      min_level: minLevelField,
      tag: tagFilterField,
      package: packageFilterField,
      pid: z.number().int().min(0).optional().describe('Process id.'),
      text: z.string().min(1).max(256).optional().describe('Substring, ASCII case-insensitive.'),
      regex: z.string().min(1).max(512).optional().describe('RE2 pattern on the message.'),
      since: z.string().min(1).max(40).optional().describe(timeBoundDescription),
      until: z.string().min(1).max(40).optional().describe('Same forms as since.'),
      before_seq: z.number().int().min(1).optional().describe('Cursor (next_before_seq).'),
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      lines: z.array(z.string()).describe('Matching lines, oldest first.'),
      more: z.number().int().describe('Further matching lines past this page.'),
      more_is_lower_bound: z.boolean().optional().describe('more is at least this many.'),
      next_before_seq: z.number().int().optional().describe('before_seq for the next (older) page.'),
      note: z.string().optional().describe('Why nothing was found, when that needs saying.'),
    }),
    async handler(args, ctx) {
      const serial = await selectLogDevice(args.device_serial, deps.store, (s) => deps.devices.select(s, ctx));
      const counts = deps.store.counts(serial);
      if (counts.stored === 0 && counts.dropped === 0) {
        return {
          data: { device_serial: serial, lines: [], more: 0, note: neverStreamedNote(serial) },
          summary: `no log streamed from ${serial} yet; call start_logcat`,
        };
      }
      const newestTime = () =>
        counts.newestSeq === null
          ? null
          : (deps.store.range(serial, counts.newestSeq, counts.newestSeq, 1)[0]?.timeMs ?? null);
      const minLevel = parseMinLevel(args.min_level);
      let page;
      try {
        page = deps.store.query(
          {
            deviceSerial: serial,
            ...(minLevel ? { minLevel } : {}),
            ...(args.tag !== undefined ? { tags: typeof args.tag === 'string' ? [args.tag] : args.tag } : {}),
            ...(args.package !== undefined
              ? { packages: resolvePackageFilter(args.package, 'package', serial, deps.store, deps.scope) }
              : {}),
            ...(args.pid !== undefined ? { pid: args.pid } : {}),
            ...(args.text !== undefined ? { text: args.text } : {}),
            ...(args.regex !== undefined ? { regex: args.regex } : {}),
            ...(args.since !== undefined ? { sinceMs: parseTimeBound(args.since, 'since', newestTime) } : {}),
            ...(args.until !== undefined ? { untilMs: parseTimeBound(args.until, 'until', newestTime) } : {}),
            ...(args.before_seq !== undefined ? { beforeSeq: args.before_seq } : {}),
          },
          args.count,
        );
      } catch (error) {
        if (error instanceof InvalidLogPatternError) {
          throw new InvalidArgumentsError(
            `regex: ${error.message}. Use RE2 syntax (no backreferences or lookaround).`,
            'INVALID_ARGUMENT',
            'regex',
          );
        }
        throw error;
      }
      const { taken, exhausted } = takeWithinBudget(page.lines.map(formatThreadtime));
      const cut = page.lines.length - taken.length;
      const more = page.more + cut;
      const nextBeforeSeq = exhausted ? page.lines[taken.length - 1]!.seq : page.nextBeforeSeq;
      const data = {
        device_serial: serial,
        lines: taken.reverse(),
        more,
        ...(page.moreIsLowerBound ? { more_is_lower_bound: true } : {}),
        ...(nextBeforeSeq !== null ? { next_before_seq: nextBeforeSeq } : {}),
        ...(page.scanLimited
          ? { note: 'The regex scan stopped at its bound before the page filled; pass next_before_seq to continue.' }
          : taken.length === 0 && counts.lines === 0
            ? {
                note: `The store holds no lines for ${serial} now (cleared or evicted); new lines arrive while start_logcat streams.`,
              }
            : {}),
      };
      const morePart = more > 0 ? `, ${more}${page.moreIsLowerBound ? '+' : ''} more` : '';
      return { data, summary: `${taken.length} lines from ${serial}${morePart}` };
    },
  });
}
