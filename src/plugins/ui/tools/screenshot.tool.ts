import { z } from 'zod';
import { deviceSerialField } from '../../../android/device-tool-fields.js';
import { defineTool } from '../../../kernel/tool-definition.js';
import type { ScreenshotService } from '../services/screenshot-service.js';
import type { UiReader } from '../services/ui-reader.js';
import { UiScreenshotTaken } from '../ui.events.js';

export function createScreenshotTool(deps: { reader: UiReader; screenshots: ScreenshotService }) {
  return defineTool({
    name: 'screenshot',
    toolset: 'ui',
    kind: 'R',
    title: 'Screenshot',
    description:
      'A PNG of the device screen. To act, prefer element ids from get_ui_hierarchy; to tap a point seen here, multiply its image coordinates by scale.',
    input: z.object({
      device_serial: deviceSerialField,
      max_dimension: z.number().int().min(256).max(8192).default(1280).describe('Longer side at most, px.'),
      full_size: z.boolean().default(false).describe('Device resolution; also saved to a file.'),
    }),
    output: z.object({
      device_serial: z.string().describe('The device.'),
      width: z.number().int().describe('Device screen px.'),
      height: z.number().int().describe('Device screen px.'),
      image_width: z.number().int().describe('Returned image px.'),
      image_height: z.number().int().describe('Returned image px.'),
      scale: z.number().describe('Device px per image px.'),
      reduced_to_fit: z.boolean().optional().describe('Made smaller to fit the 128 KiB response.'),
      file: z.string().optional().describe('The device PNG as sent (full_size).'),
    }),
    async handler(args, ctx) {
      const serial = await deps.reader.selectDevice(args.device_serial, ctx);
      const shot = await deps.screenshots.take(serial, {
        maxDimension: args.full_size ? null : args.max_dimension,
        signal: ctx.signal,
      });
      ctx.append(
        UiScreenshotTaken,
        {
          device_serial: serial,
          foreground_package: shot.foregroundPackage,
          sha256: shot.sha256,
          width: shot.width,
          height: shot.height,
          bytes: shot.bytes,
          returned_width: shot.imageWidth,
          returned_height: shot.imageHeight,
        },
        {
          stream: `device:${serial}`,
          device: serial,
          ...(shot.foregroundPackage ? { package: shot.foregroundPackage } : {}),
        },
      );
      return {
        data: {
          device_serial: serial,
          width: shot.width,
          height: shot.height,
          image_width: shot.imageWidth,
          image_height: shot.imageHeight,
          scale: shot.scale,
          ...(shot.reducedToFit ? { reduced_to_fit: true } : {}),
          ...(shot.file ? { file: shot.file } : {}),
        },
        summary: `${shot.imageWidth}×${shot.imageHeight} PNG of the ${shot.width}×${shot.height} screen (scale ${shot.scale})`,
        images: [{ data: shot.png.toString('base64'), mimeType: 'image/png' }],
      };
    },
  });
}
