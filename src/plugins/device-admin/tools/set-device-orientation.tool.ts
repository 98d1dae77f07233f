import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { ORIENTATIONS, type OrientationController } from '../services/orientation-controller.js';
import { OrientationChanged } from '../device-admin.events.js';

export function createSetDeviceOrientationTool(deps: { devices: DeviceInspector; orientation: OrientationController }) {
  return defineTool({
    name: 'set_device_orientation',
    toolset: 'device-admin',
    kind: 'W',
    title: 'Set device orientation',
    description:
      'Lock the screen orientation (auto-rotate off) or return to auto-rotate; returns the previous orientation.',
    input: z.object({
      device_serial: deviceSerialField,
      orientation: z.enum(ORIENTATIONS).describe('auto: sensor-driven.'),
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      orientation: z.enum(ORIENTATIONS).describe('The orientation now set.'),
      previous: z.enum(ORIENTATIONS).optional().describe('The orientation before; absent when it could not be read.'),
    }),
    async handler(args, ctx) {
      const serial = await deps.devices.select(args.device_serial, ctx);
      const { previous } = await deps.orientation.set(serial, args.orientation, ctx.signal);
      ctx.append(
        OrientationChanged,
        { device_serial: serial, orientation: args.orientation, previous },
        { stream: `device:${serial}`, device: serial },
      );
      return {
        data: omitNulls({ device_serial: serial, orientation: args.orientation, previous }),
        summary: `${serial}: ${previous ?? '?'} → ${args.orientation}`,
      };
    },
  });
}
