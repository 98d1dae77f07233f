import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { neverStreamedNote, selectLogDevice } from '../services/log-filter-args.js';
import type { LogLineStore } from '../services/log-line-store.js';
import type { LogcatStreams } from '../services/logcat-streams.js';

export function createGetLogcatStatsTool(deps: {
  devices: DeviceInspector;
  store: LogLineStore;
  streams: LogcatStreams;
  retention: () => { maxLines: number; maxBytes: number };
}) {
  return defineTool({
    name: 'get_logcat_stats',
    toolset: 'logcat',
    kind: 'R',
    title: 'Get logcat stats',
    description:
      "The device's stored log: lines per level, top tags, lines/s, stored/evicted/dropped, retention, worker state.",
    input: z.object({ device_serial: deviceSerialField }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      worker: z.enum(['running', 'stopped']).describe('Whether a logcat worker streams this device now.'),
      worker_pid: z.number().int().optional().describe('The worker process, when running.'),
      lines: z.number().int().describe('Lines kept now.'),
      bytes: z.number().int().describe('Message bytes kept now.'),
      oldest_seq: z.number().int().optional().describe('Oldest kept seq.'),
      newest_seq: z.number().int().optional().describe('Newest kept seq.'),
      stored: z.number().int().describe('Lines ever stored for this device.'),
      evicted: z.number().int().describe('Lines removed by retention.'),
      dropped: z.number().int().describe('Lines lost at ingest.'),
      lines_per_second: z.number().int().describe('Over the newest 10 s of device time.'),
      by_level: z.record(z.string(), z.number().int()).describe('Kept lines per level.'),
      top_tags: z.array(z.object({ tag: z.string(), lines: z.number().int() })).describe('Busiest tags.'),
      retention_lines: z.number().int().describe('Lines kept at most (setting logcatRetentionLines).'),
      retention_bytes: z.number().int().describe('Message bytes kept at most (setting logcatRetentionBytes).'),
      note: z.string().optional().describe('What to do when nothing was streamed yet.'),
    }),
    async handler(args, ctx) {
      const serial = await selectLogDevice(args.device_serial, deps.store, (s) => deps.devices.select(s, ctx));
      const counts = deps.store.counts(serial);
      const worker = deps.streams.state(serial);
      const retention = deps.retention();
      const never = counts.stored === 0 && counts.dropped === 0;
      const data = {
        device_serial: serial,
        worker: worker.state,
        ...(worker.state === 'running' && worker.pid !== null ? { worker_pid: worker.pid } : {}),
        lines: counts.lines,
        bytes: counts.bytes,
        ...(counts.oldestSeq !== null ? { oldest_seq: counts.oldestSeq } : {}),
        ...(counts.newestSeq !== null ? { newest_seq: counts.newestSeq } : {}),
        stored: counts.stored,
        evicted: counts.evicted,
        dropped: counts.dropped,
        lines_per_second: counts.recentLinesPerSecond ?? 0,
        by_level: { ...counts.byLevel } as Record<string, number>,
        top_tags: counts.topTags.map((t) => ({ tag: t.tag.slice(0, 128), lines: t.lines })),
        retention_lines: retention.maxLines,
        retention_bytes: retention.maxBytes,
        ...(never && worker.state !== 'running' ? { note: neverStreamedNote(serial) } : {}),
      };
      return {
        data,
        summary: `${counts.lines} lines kept for ${serial} (worker ${worker.state}; evicted ${counts.evicted}, dropped ${counts.dropped})`,
      };
    },
  });
}
