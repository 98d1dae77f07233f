import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import type { PackageScope } from '../../../android/gradle-project-model.js';
import { InvalidArgumentsError, ToolError } from '../../../kernel/errors.js';
import type { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { AppCrashed, AppNativeCrashed, AppNotResponding } from '../logcat.events.js';
import { formatThreadtime } from '../services/log-line-format.js';
import { packageFilterField, resolvePackageFilter, tagFilterField } from '../services/log-filter-args.js';
import type { LogLineStore } from '../services/log-line-store.js';
import type { LogcatStreams } from '../services/logcat-streams.js';
import { compileLogPattern, InvalidLogPatternError } from '../services/sqlite-log-line-store.js';

const POLL_MS = 200;
const PROGRESS_MS = 2000;
const CRASH_TYPES = [AppCrashed.type, AppNativeCrashed.type, AppNotResponding.type];

export function createWaitForLogTool(deps: {
  devices: DeviceInspector;
  store: LogLineStore;
  streams: LogcatStreams;
  events: EventStoreProvider;
  scope: () => PackageScope | null;
}) {
  return defineTool({
    name: 'wait_for_log',
    toolset: 'logcat',
    kind: 'R',
    title: 'Wait for log',
    description:
      'Wait for a new log line matching marker (streams if needed); ends early on a crash or ANR of package (of any app without it).',
    input: z.object({
      device_serial: deviceSerialField,
      marker: z.string().min(1).max(512).describe('RE2 pattern on the message.'),
      tags: tagFilterField,
      package: packageFilterField,
      timeout_ms: z.number().int().min(100).max(120_000).default(30_000).describe('Max wait.'),
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      outcome: z.enum(['matched', 'crashed', 'timed_out']).describe('Why the wait ended.'),
      line: z.string().optional().describe('The matching line, when matched.'),
      crash: z.string().optional().describe('The crash event (type, package, signature), when crashed.'),
      crash_event_seq: z.number().int().optional().describe('Its event seq (get_crash_logs has the details).'),
      waited_ms: z.number().int().describe('How long it waited.'),
      lines_seen: z.number().int().describe('Lines that arrived while waiting.'),
    }),
    async handler(args, ctx) {
      try {
        compileLogPattern(args.marker);
      } catch (error) {
        if (error instanceof InvalidLogPatternError) {
          throw new InvalidArgumentsError(
            `marker: ${error.message}. Use RE2 syntax (no backreferences or lookaround).`,
            'INVALID_ARGUMENT',
            'marker',
          );
        }
        throw error;
      }
      const serial = await deps.devices.select(args.device_serial, ctx);
      const started = Date.now();
      let cursor = deps.store.counts(serial).stored;
      const firstSeq = cursor;
      const events = deps.events();
      let eventCursor = events.lastSeq();
      if (deps.streams.state(serial).state !== 'running') await deps.streams.ensure(serial, ctx.actor);
      const packages =
        args.package === undefined
          ? undefined
          : resolvePackageFilter(args.package, 'package', serial, deps.store, deps.scope);
      const crashPackages = packages ? new Set(packages.map((p) => p.split(':', 1)[0]!)) : undefined;
      const tags = args.tags === undefined ? undefined : typeof args.tags === 'string' ? [args.tags] : args.tags;
      let nextProgress = started + PROGRESS_MS;
      const result = (outcome: 'matched' | 'crashed' | 'timed_out', extra: Record<string, unknown> = {}) => ({
        device_serial: serial,
        outcome,
        ...extra,
        waited_ms: Date.now() - started,
        lines_seen: Math.max(0, cursor - firstSeq),
      });
      for (;;) {
        if (ctx.signal.aborted) throw new ToolError('CANCELLED', `wait_for_log on ${serial} was cancelled.`);
        deps.streams.touch(serial);
        // Everything up to `newest` is in the snapshot the marker query reads next, so it is examined once.
        const newest = deps.store.query(
          { deviceSerial: serial, afterSeq: cursor, beforeSeq: Number.MAX_SAFE_INTEGER },
          1,
        ).lines[0]?.seq;
        const page = deps.store.query(
          {
            deviceSerial: serial,
            afterSeq: cursor,
            regex: args.marker,
            ...(tags ? { tags } : {}),
            ...(packages ? { packages } : {}),
          },
          1,
        );
        const hit = page.lines[0];
        if (hit) {
          cursor = Math.max(cursor, hit.seq);
          return {
            data: result('matched', { line: formatThreadtime(hit) }),
            summary: `matched on ${serial}: ${hit.tag}`,
          };
        }
        if (newest !== undefined && !page.scanLimited) cursor = Math.max(cursor, newest);
        const crashes = events.query({
          types: CRASH_TYPES,
          device: serial,
          afterSeq: eventCursor,
          order: 'asc',
          limit: 50,
        });
        for (const event of crashes) {
          eventCursor = Math.max(eventCursor, event.seq);
          if (crashPackages && !(event.package && crashPackages.has(event.package))) continue;
          const data = event.data as { signature?: string };
          const crash = `${event.type} ${event.package ?? 'unknown package'}: ${(data.signature ?? '').slice(0, 300)}`;
          return {
            data: result('crashed', { crash, crash_event_seq: event.seq }),
            summary: `${event.type} of ${event.package ?? 'an app'} on ${serial} before the marker`,
          };
        }
        const now = Date.now();
        if (now - started >= args.timeout_ms) {
          return { data: result('timed_out'), summary: `no line matched within ${args.timeout_ms} ms on ${serial}` };
        }
        if (now >= nextProgress) {
          nextProgress = now + PROGRESS_MS;
          void ctx.progress({
            progress: now - started,
            total: args.timeout_ms,
            message: `${Math.max(0, cursor - firstSeq)} lines seen, no match yet`,
          });
        }
        await sleep(Math.min(POLL_MS, Math.max(1, args.timeout_ms - (now - started))), undefined, {
          signal: ctx.signal,
        }).catch(() => undefined);
      }
    },
  });
}
