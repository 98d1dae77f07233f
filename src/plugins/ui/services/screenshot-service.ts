import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject, injectable } from 'inversify';
import { AdbService } from '../../../android/adb-service.js';
import { sh } from '../../../android/device-command.js';
import { ToolError } from '../../../kernel/errors.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { parseResumedActivity } from './device-ui-capturer.js';

export const SCREENSHOT_MAX_BYTES = 32 * 1024 * 1024;
export const SCREENSHOT_MAX_PIXELS = 16 * 1024 * 1024;
/**
 * The PNG a result may carry: base64 grows it by a third, and the whole response (text and JSON included)
 * must stay under 128 KiB on the wire.
 */
export const SCREENSHOT_WIRE_PNG_BYTES = 88 * 1024;
const KEPT_SCREENSHOT_FILES = 20;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Screenshot {
  /** What the device sent. */
  readonly width: number;
  readonly height: number;
  readonly bytes: number;
  readonly sha256: string;
  /** What is returned: a PNG of at most the requested size that fits a response. */
  readonly png: Buffer;
  readonly imageWidth: number;
  readonly imageHeight: number;
  /** Device pixels per image pixel: multiply image coordinates by this to tap. */
  readonly scale: number;
  /** True when the image was made smaller (or quantized) than asked so the response fits 128 KiB. */
  readonly reducedToFit: boolean;
  readonly foregroundPackage: string | null;
  /** The device's PNG as sent, kept in the data dir (full_size only). */
  readonly file: string | null;
}

/** Width and height from a PNG's IHDR chunk, or null when `png` is not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR')
    return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

type Sharp = typeof import('sharp');
let sharpModule: Promise<Sharp> | undefined;
/** sharp is native and large: loaded on the first screenshot, never at server start. */
function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then((m) => (m as unknown as { default: Sharp }).default ?? (m as unknown as Sharp));
  return sharpModule;
}

/**
 * Downscales a PNG so its longer side is at most `maxDimension` (never up), then keeps shrinking (and
 * quantizing to a palette) until it is at most `maxBytes`. Returns the PNG and its size.
 */
export async function fitPng(
  png: Buffer,
  source: { width: number; height: number },
  maxDimension: number,
  maxBytes: number,
): Promise<{ png: Buffer; width: number; height: number; reduced: boolean }> {
  const sharp = await loadSharp();
  const longest = Math.max(source.width, source.height);
  let factor = Math.min(1, maxDimension / longest);
  let reduced = false;
  for (let round = 0; ; round++) {
    const width = Math.max(1, Math.round(source.width * factor));
    const height = Math.max(1, Math.round(source.height * factor));
    const unchanged = factor === 1 && round === 0;
    const out = unchanged
      ? png
      : await sharp(png)
          .resize(width, height, { kernel: 'lanczos3', fit: 'fill' })
          .png({ compressionLevel: 6, adaptiveFiltering: false, palette: reduced })
          .toBuffer();
    if (out.length <= maxBytes || width <= 64 || height <= 64) return { png: out, width, height, reduced };
    // A palette first (UI screens have few colours), then a smaller image.
    if (!reduced) reduced = true;
    else factor *= 0.8;
  }
}

@injectable()
export class ScreenshotService {
  constructor(
    @inject(AdbService) private readonly adb: AdbService,
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
  ) {}

  async take(serial: string, request: { maxDimension: number | null; signal: AbortSignal }): Promise<Screenshot> {
    const [shot, activity] = await Promise.all([
      this.adb.execOut(serial, sh`screencap -p`, {
        timeoutMs: 20_000,
        maxOutputBytes: SCREENSHOT_MAX_BYTES + 1,
        signal: request.signal,
      }),
      // The app shown, for the audit record; a failure here must not cost the picture.
      this.adb
        .shell(serial, sh`dumpsys activity activities | grep -E ResumedActivity`, {
          timeoutMs: 10_000,
          maxOutputBytes: 64 * 1024,
          signal: request.signal,
        })
        .then((r) => parseResumedActivity(r.output))
        .catch(() => null),
    ]);
    if (shot.truncated) {
      throw new ToolError(
        'COMMAND_FAILED',
        `The screenshot from ${serial} is over ${SCREENSHOT_MAX_BYTES / 1024 / 1024} MiB, more than any phone screen as PNG; the device returned something else. Check \`adb -s ${serial} exec-out screencap -p\`.`,
      );
    }
    const size = pngSize(shot.output);
    if (!size) {
      const head = shot.output
        .subarray(0, 120)
        .toString('utf8')
        .replace(/[^\x20-\x7e]+/g, ' ')
        .trim();
      throw new ToolError(
        'COMMAND_FAILED',
        `screencap on ${serial} did not return a PNG${head ? ` (it said: ${head})` : ' (no output)'}. The screen may be secure (FLAG_SECURE) or off; wake and unlock the device, then retry.`,
      );
    }
    if (size.width * size.height > SCREENSHOT_MAX_PIXELS || size.width === 0 || size.height === 0) {
      throw new ToolError(
        'COMMAND_FAILED',
        `The screenshot from ${serial} is ${size.width}×${size.height}, over the ${SCREENSHOT_MAX_PIXELS / 1024 / 1024} Mpx droidwright reads. Lower the display size (wm size) and retry.`,
      );
    }
    const longest = Math.max(size.width, size.height);
    const fitted = await fitPng(shot.output, size, request.maxDimension ?? longest, SCREENSHOT_WIRE_PNG_BYTES);
    const file = request.maxDimension === null ? this.keep(serial, shot.output) : null;
    return {
      width: size.width,
      height: size.height,
      bytes: shot.output.length,
      sha256: createHash('sha256').update(shot.output).digest('hex'),
      png: fitted.png,
      imageWidth: fitted.width,
      imageHeight: fitted.height,
      scale: Math.round((size.width / fitted.width) * 10_000) / 10_000,
      reducedToFit: fitted.reduced,
      foregroundPackage: activity ? activity.slice(0, activity.indexOf('/')) : null,
      file,
    };
  }

  private keep(serial: string, png: Buffer): string {
    const dir = join(this.options.home, 'screenshots');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${serial.replace(/[^\w.-]+/g, '_')}-${Date.now()}.png`);
    writeFileSync(file, png);
    try {
      const files = readdirSync(dir)
        .filter((name) => name.endsWith('.png'))
        .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
        .sort((a, b) => b.mtime - a.mtime);
      for (const old of files.slice(KEPT_SCREENSHOT_FILES)) rmSync(old.path, { force: true });
    } catch {
      // Housekeeping only.
    }
    return file;
  }
}
