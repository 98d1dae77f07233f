import { createHash, type Hash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const MAX_LOG_LINE_BYTES = 64 * 1024;
/** A runaway build cannot fill the disk through us. */
export const MAX_LOG_BYTES = 512 * 1024 * 1024;

/** The full build output, line by line, with its SHA-256 computed as it is written. */
export class BuildLogWriter {
  private fd: number | null;
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;
  lines = 0;
  truncatedLines = 0;
  private capped = false;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'wx', 0o600);
  }

  write(line: string): void {
    if (this.fd === null || this.capped) return;
    let text = line;
    if (Buffer.byteLength(text, 'utf8') > MAX_LOG_LINE_BYTES) {
      text = `${Buffer.from(text, 'utf8')
        .subarray(0, MAX_LOG_LINE_BYTES)
        .toString('utf8')
        .replace(/\uFFFD$/, '')} [droidwright: line truncated at 64 KiB]`;
      this.truncatedLines++;
    }
    let chunk = Buffer.from(`${text}\n`, 'utf8');
    if (this.bytes + chunk.length > MAX_LOG_BYTES) {
      chunk = Buffer.from(
        `[droidwright: log capped at ${MAX_LOG_BYTES} bytes; further output was not written]\n`,
        'utf8',
      );
      this.capped = true;
    }
    writeSync(this.fd, chunk);
    this.hash.update(chunk);
    this.bytes += chunk.length;
    this.lines++;
  }

  close(): { path: string; sha256: string; bytes: number; lines: number; truncated_lines: number } {
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
    return {
      path: this.path,
      sha256: this.hash.copy().digest('hex'),
      bytes: this.bytes,
      lines: this.lines,
      truncated_lines: this.truncatedLines,
    };
  }
}

/** How many builds keep their files in build-logs. */
export const KEEP_BUILD_LOGS = 200;
const BUILD_FILE = /^([0-9a-f]{12})\.(log|worker\.log|outcome\.json)$/;

/**
 * Deletes the files of all but the newest `keep` builds in `dir` (`<id>.log`, `<id>.worker.log`,
 * `<id>.outcome.json`), newest by file time; never the files of a build `isRunning` names. Returns
 * the ids removed. Best effort: a file that cannot be read or deleted is left alone.
 */
export function pruneBuildLogs(dir: string, isRunning: (buildId: string) => boolean, keep = KEEP_BUILD_LOGS): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const builds = new Map<string, { files: string[]; mtime: number }>();
  for (const name of names) {
    const match = BUILD_FILE.exec(name);
    if (!match) continue;
    let mtime = 0;
    try {
      mtime = statSync(join(dir, name)).mtimeMs;
    } catch {
      continue;
    }
    const entry = builds.get(match[1]!) ?? { files: [], mtime: 0 };
    entry.files.push(name);
    entry.mtime = Math.max(entry.mtime, mtime);
    builds.set(match[1]!, entry);
  }
  const old = [...builds.entries()].sort((a, b) => b[1].mtime - a[1].mtime).slice(keep);
  const removed: string[] = [];
  for (const [id, { files }] of old) {
    if (isRunning(id)) continue;
    for (const name of files) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // Gone already, or not ours to delete.
      }
    }
    removed.push(id);
  }
  return removed;
}
