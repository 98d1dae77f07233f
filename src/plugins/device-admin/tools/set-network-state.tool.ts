import { z } from 'zod';
import type { DeviceInspector, NetworkState } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { NetworkController } from '../services/network-controller.js';
import { NetworkChanged } from '../device-admin.events.js';

const State = z.object({
  wifi: z.boolean().optional().describe('Wi-Fi enabled; absent when not reported.'),
  mobile_data: z.boolean().optional().describe('Mobile data enabled; absent when not reported.'),
  airplane_mode: z.boolean().optional().describe('Airplane mode on; absent when not reported.'),
});

function snake(s: NetworkState) {
  return { wifi: s.wifi, mobile_data: s.mobileData, airplane_mode: s.airplaneMode };
}

export function createSetNetworkStateTool(deps: { devices: DeviceInspector; network: NetworkController }) {
  return defineTool({
    name: 'set_network_state',
    toolset: 'device-admin',
    kind: 'D',
    title: 'Set network state',
    description:
      'Switch Wi-Fi, mobile data or airplane mode; returns the previous state. Refuses to cut a wireless adb connection (Wi-Fi off, airplane on).',
    input: z.object({
      device_serial: deviceSerialField,
      wifi: z.boolean().optional().describe('Wi-Fi on or off.'),
      mobile_data: z.boolean().optional().describe('Mobile data on or off.'),
      airplane_mode: z.boolean().optional().describe('Airplane mode on or off.'),
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      previous: State.describe('State before the change; pass it back to restore.'),
      current: State.describe('State after the change, read back from the device.'),
    }),
    async handler(args, ctx) {
      const request = { wifi: args.wifi, mobileData: args.mobile_data, airplaneMode: args.airplane_mode };
      if (args.device_serial !== undefined) NetworkController.checkRequest(args.device_serial, request);
      const serial = await deps.devices.select(args.device_serial, ctx);
      NetworkController.checkRequest(serial, request);
      const { previous, current } = await deps.network.set(serial, request, ctx.signal);
      const requested = {
        wifi: args.wifi ?? null,
        mobile_data: args.mobile_data ?? null,
        airplane_mode: args.airplane_mode ?? null,
      };
      ctx.append(
        NetworkChanged,
        { device_serial: serial, requested, previous: snake(previous), current: snake(current) },
        { stream: `device:${serial}`, device: serial },
      );
      const parts = Object.entries(requested)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => `${k} ${v ? 'on' : 'off'}`);
      return {
        data: omitNulls({ device_serial: serial, previous: snake(previous), current: snake(current) }),
        summary: `${serial}: ${parts.join(', ')}`,
      };
    },
  });
}
