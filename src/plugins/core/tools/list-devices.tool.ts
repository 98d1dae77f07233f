import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { defineTool } from '../../../kernel/tool-definition.js';

export const DeviceSummarySchema = z.object({
  serial: z.string().describe('adb serial; pass it as device_serial to other tools.'),
  state: z.string().describe('adb state: device (online), offline, unauthorized, …'),
  kind: z
    .enum(['emulator', 'physical', 'wireless'])
    .describe('How adb reaches it: an emulator, USB, or over the network (host:port or mDNS).'),
  model: z.string().nullable().describe('ro.product.model; null unless online.'),
  manufacturer: z.string().nullable().describe('ro.product.manufacturer; null unless online.'),
  api_level: z.number().int().nullable().describe('Android API level (ro.build.version.sdk); null unless online.'),
  android_version: z.string().nullable().describe('Android release, e.g. "14"; null unless online.'),
  abi: z.string().nullable().describe('Primary ABI, e.g. arm64-v8a or x86_64.'),
  avd_name: z.string().nullable().describe('The AVD an emulator runs; null for other devices.'),
});

export function createListDevicesTool(deps: { inspector: DeviceInspector }) {
  return defineTool({
    name: 'list_devices',
    toolset: 'core',
    kind: 'R',
    title: 'List devices',
    description:
      'List every device adb sees (phones, emulators, wireless devices) with state, model, API level, ABI and AVD name. Use the serial as device_serial in other tools. Arrivals, departures and state changes since the last look are recorded in the event log.',
    input: z.object({}),
    output: z.object({
      devices: z.array(DeviceSummarySchema).describe('Every device adb lists, online or not.'),
      online: z.number().int().describe('How many are online (state "device").'),
      hint: z.string().nullable().describe('What to do when no device is online.'),
    }),
    async handler(_args, ctx) {
      const devices = await deps.inspector.listDevices(ctx, ctx.signal);
      const online = devices.filter((d) => d.state === 'device').length;
      return {
        data: {
          devices: devices.map((d) => ({
            serial: d.serial,
            state: d.state,
            kind: d.kind,
            model: d.model,
            manufacturer: d.manufacturer,
            api_level: d.apiLevel,
            android_version: d.androidVersion,
            abi: d.abi,
            avd_name: d.avdName,
          })),
          online,
          hint:
            online === 0
              ? 'No device is online. Start an emulator with launch_avd (see list_avds), connect a phone with USB debugging, or run `droidwright sim`.'
              : null,
        },
        summary: devices.length === 0 ? 'no devices' : devices.map((d) => `${d.serial} (${d.state})`).join(', '),
      };
    },
  });
}
