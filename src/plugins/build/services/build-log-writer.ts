import { createHash, type Hash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

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
      text = `${Buffer.from(text, 'utf8').subarray(0, MAX_LOG_LINE_BYTES).toString('utf8').replace(/\uFFFD$/, '')} [droidwright: line truncated at 64 KiB]`;
      this.truncatedLines++;
    }
    let chunk = Buffer.from(`${text}\n`, 'utf8');
    if (this.bytes + chunk.length > MAX_LOG_BYTES) {
      chunk = Buffer.from(`[droidwright: log capped at ${MAX_LOG_BYTES} bytes; further output was not written]\n`, 'utf8');
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
    return { path: this.path, sha256: this.hash.copy().digest('hex'), bytes: this.bytes, lines: this.lines, truncated_lines: this.truncatedLines };
  }
}
