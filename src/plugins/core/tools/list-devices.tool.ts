import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { clipStrings, omitNulls, pageInfo, pageInput, pageOf, pageOutput } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';

export const DeviceSummarySchema = z.object({
  serial: z.string().describe('adb serial; pass it as device_serial to other tools.'),
  state: z.string().describe('adb state: device (online), offline, unauthorized, …'),
  kind: z
    .enum(['emulator', 'physical', 'wireless'])
    .describe('How adb reaches it: an emulator, USB, or over the network (host:port or mDNS).'),
  model: z.string().optional().describe('ro.product.model (online devices only).'),
  manufacturer: z.string().optional().describe('ro.product.manufacturer (online devices only).'),
  api_level: z.number().int().optional().describe('Android API level (ro.build.version.sdk) (online devices only).'),
  android_version: z.string().optional().describe('Android release, e.g. "14" (online devices only).'),
  abi: z.string().optional().describe('Primary ABI, e.g. arm64-v8a or x86_64.'),
  avd_name: z.string().optional().describe('The AVD an emulator runs.'),
});

export function createListDevicesTool(deps: { inspector: DeviceInspector }) {
  return defineTool({
    name: 'list_devices',
    toolset: 'core',
    kind: 'R',
    title: 'List devices',
    description:
      'Devices adb sees (phones, emulators, wireless): state, model, API level, ABI, AVD name. Other tools need the serial as device_serial only when several are online. Records arrivals and departures.',
    input: z.object(pageInput(50, 200, 'devices')),
    output: z.object({
      devices: z.array(DeviceSummarySchema).describe('Every device adb lists, online or not.'),
      online: z.number().int().describe('How many of all devices are online (state "device").'),
      ...pageOutput,
      hint: z.string().optional().describe('What to do when no device is online.'),
    }),
    async handler(args, ctx) {
      const devices = await deps.inspector.listDevices(ctx, ctx.signal);
      const online = devices.filter((d) => d.state === 'device').length;
      const page = pageOf(
        devices.map((d) =>
          omitNulls(
            clipStrings(
              {
                serial: d.serial,
                state: d.state,
                kind: d.kind,
                model: d.model,
                manufacturer: d.manufacturer,
                api_level: d.apiLevel,
                android_version: d.androidVersion,
                abi: d.abi,
                avd_name: d.avdName,
              },
              200,
            ),
          ),
        ),
        args,
      );
      return {
        data: {
          devices: page.items,
          online,
          ...(online === 0
            ? {
                hint: 'No device is online. Start an emulator with launch_avd (see list_avds), connect a phone with USB debugging, or run `droidwright sim`.',
              }
            : {}),
          ...pageInfo(page),
        },
        summary:
          devices.length === 0
            ? 'no devices'
            : `${devices.length} device(s), ${online} online: ${page.items
                .slice(0, 5)
                .map((d) => `${d.serial} (${d.state})`)
                .join(', ')}${devices.length > 5 ? ', …' : ''}`,
      };
    },
  });
}
