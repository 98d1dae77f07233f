import { z } from 'zod';
import type { DeviceInspector } from '../../../android/device-inspector.js';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { omitNulls } from '../../../kernel/bounded-output.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import { DeviceSummarySchema } from './list-devices.tool.js';

const Size = z.object({ width: z.number().int().describe('Pixels.'), height: z.number().int().describe('Pixels.') });

export function createGetDeviceInfoTool(deps: { inspector: DeviceInspector }) {
  return defineTool({
    name: 'get_device_info',
    toolset: 'core',
    kind: 'R',
    title: 'Get device info',
    description:
      'One device: model, Android version and API level, ABI, key build properties, screen size and density, battery, Wi-Fi, mobile data and airplane mode.',
    input: z.object({ device_serial: deviceSerialField }),
    output: z.object({
      device: DeviceSummarySchema.describe('The same summary list_devices gives.'),
      properties: z
        .record(z.string(), z.string())
        .describe('Selected build properties (getprop), values capped at 300 characters.'),
      screen: z
        .object({
          physical: Size.optional().describe('wm size physical size.'),
          override: Size.optional().describe('wm size override, when set; taps use this space.'),
          density_dpi: z.number().int().optional().describe('Physical density.'),
          density_override_dpi: z.number().int().optional().describe('Override density, when set.'),
        })
        .describe('Screen geometry.'),
      battery: z
        .object({
          percent: z.number().int().optional().describe('Charge in percent.'),
          status: z.string().optional().describe('charging, discharging, not_charging, full or unknown.'),
          plugged: z.string().optional().describe('ac, usb, wireless, dock; absent on battery.'),
          health: z.string().optional().describe('Battery health.'),
          temperature_c: z.number().optional().describe('Degrees Celsius.'),
        })
        .optional()
        .describe('dumpsys battery; absent when the device has none.'),
      network: z
        .object({
          wifi: z.boolean().optional().describe('Wi-Fi enabled (global setting wifi_on).'),
          mobile_data: z.boolean().optional().describe('Mobile data enabled.'),
          airplane_mode: z.boolean().optional().describe('Airplane mode on.'),
        })
        .describe('Radio switches from global settings; a switch the device does not report is absent.'),
    }),
    async handler(args, ctx) {
      const { inspector } = deps;
      const serial = await inspector.select(args.device_serial, ctx);
      const info = await inspector.deviceInfo(serial, ctx.signal);
      const s = info.summary;
      return {
        data: omitNulls({
          device: {
            serial: s.serial,
            state: s.state,
            kind: s.kind,
            model: s.model,
            manufacturer: s.manufacturer,
            api_level: s.apiLevel,
            android_version: s.androidVersion,
            abi: s.abi,
            avd_name: s.avdName,
          },
          properties: { ...info.properties },
          screen: {
            physical: info.screen.physical,
            override: info.screen.override,
            density_dpi: info.screen.density.physical,
            density_override_dpi: info.screen.density.override,
          },
          battery: info.battery
            ? {
                percent: info.battery.percent,
                status: info.battery.status,
                plugged: info.battery.plugged,
                health: info.battery.health,
                temperature_c: info.battery.temperatureC,
              }
            : null,
          network: {
            wifi: info.network.wifi,
            mobile_data: info.network.mobileData,
            airplane_mode: info.network.airplaneMode,
          },
        }),
        summary: `${serial}: ${s.model ?? 'unknown model'}, API ${s.apiLevel ?? '?'}${info.screen.physical ? `, ${info.screen.physical.width}x${info.screen.physical.height}` : ''}`,
      };
    },
  });
}
