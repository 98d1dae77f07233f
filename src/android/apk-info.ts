import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ToolError } from '../kernel/errors.js';
import { readApkManifest, type ApkManifestInfo } from './apk-manifest.js';

export interface ApkInfo {
  readonly packageName: string;
  readonly versionCode: number;
  readonly versionName: string | null;
  /** Fully qualified MAIN/LAUNCHER activity, or null when the APK declares none. */
  readonly launchableActivity: string | null;
  readonly permissions: readonly string[];
  /** Lowercase hex SHA-256 of the file: how an install is matched to the build that produced it. */
  readonly sha256: string;
  readonly size: number;
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** APKs bigger than this are not something a debug build produces; refusing keeps hashing bounded. */
export const MAX_APK_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * Reads an APK on the host: its binary manifest (package, version, launcher activity, permissions),
 * its size and SHA-256. A file that is not a readable APK is NOT_FOUND / INVALID_ARGUMENT with the reason.
 * `label` names the file in errors (the caller's path when `path` is a private copy of it).
 */
export async function readApkInfo(path: string, label = path): Promise<ApkInfo> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile())
      throw new ToolError('INVALID_ARGUMENT', `${label} is not a regular file. Pass the path of an .apk file.`);
    size = info.size;
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      'NOT_FOUND',
      `Cannot read ${label} (${(error as NodeJS.ErrnoException).code ?? 'error'}). Build the app first, then pass the APK path the build reported.`,
    );
  }
  if (size > MAX_APK_BYTES)
    throw new ToolError(
      'INVALID_ARGUMENT',
      `${label} is ${size} bytes, larger than any APK droidwright installs (${MAX_APK_BYTES}).`,
    );
  let manifest: ApkManifestInfo;
  try {
    manifest = await readApkManifest(path);
  } catch (error) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `${label} is not a readable APK (${(error as Error).message.slice(0, 200)}). Rebuild it; a partially written or non-APK file cannot be installed.`,
    );
  }
  return {
    packageName: manifest.packageName,
    versionCode: manifest.versionCode,
    versionName: manifest.versionName || null,
    launchableActivity: manifest.launchableActivity,
    permissions: manifest.permissions,
    sha256: await sha256File(path),
    size,
  };
}
