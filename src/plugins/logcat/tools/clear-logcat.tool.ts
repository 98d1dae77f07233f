import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { selectLogDevice } from '../services/log-filter-args.js';
import type { LogLineStore } from '../services/log-line-store.js';

export function createClearLogcatTool(deps: { devices: DeviceInspector; store: LogLineStore }) {
  return defineTool({
    name: 'clear_logcat',
    toolset: 'logcat',
    kind: 'D',
    title: 'Clear logcat',
    description:
      "Delete the log lines stored for a device (for every agent), not the device's buffer. Seqs continue; crashes stay.",
    input: z.object({ device_serial: deviceSerialField }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      removed: z.number().int().describe('Lines deleted.'),
      next_seq: z.number().int().describe('Seq the next stored line gets.'),
    }),
    async handler(args, ctx) {
      const serial = await selectLogDevice(args.device_serial, deps.store, (s) => deps.devices.select(s, ctx));
      const removed = deps.store.clear(serial);
      const counts = deps.store.counts(serial);
      return {
        data: { device_serial: serial, removed, next_seq: counts.stored + 1 },
        summary: `cleared ${removed} stored lines of ${serial}`,
      };
    },
  });
}
