import { LOG_BUFFER_NAMES, type LogcatEntry, type LogLevel } from './logcat-entry.js';

/**
 * `logcat -B` output: a sequence of `logger_entry` records as liblog defines them.
 *
 * | version | header bytes | fields after `len` (uint16)                                        |
 * |---------|--------------|---------------------------------------------------------------------|
 * | v1      | 20           | `__pad` (uint16, 0), pid, tid, sec, nsec                           |
 * | v2      | 24           | `hdr_size` (24), pid, tid, sec, nsec, euid                         |
 * | v3      | 24           | `hdr_size` (24), pid, tid, sec, nsec, lid                          |
 * | v4      | 28           | `hdr_size` (28), pid, tid, sec, nsec, lid, uid                     |
 *
 * All little-endian; `len` is the payload length. v2 and v3 share a header size: logd (Android 5+) writes v3 or v4,
 * so 24 is read as v3 unless the decoder is told the source is the old kernel logger (`headerSize24: 'v2'`).
 * Text payloads are `priority byte, tag\0, message\0`; the binary buffers (events, stats, security) carry a 4-byte
 * event tag number and typed values, printed here the way `logcat` prints an unresolved event.
 */
export interface LogcatBinaryDecoderOptions {
  readonly headerSize24?: 'v3' | 'v2';
}

export interface LogcatBinaryDecoderStats {
  readonly entries: number;
  /** Bytes skipped to find the next plausible header after a corrupt one (0 on a healthy stream). */
  readonly skippedBytes: number;
  /** Bytes held waiting for the rest of an entry. */
  readonly pendingBytes: number;
}

/** The largest entry liblog ever writes (`LOGGER_ENTRY_MAX_LEN`); anything longer is corruption. */
const MAX_ENTRY_BYTES = 5 * 1024;
const EVENT_BUFFERS = new Set([2, 5, 6]);

const LEVELS: readonly LogLevel[] = ['V', 'D', 'I', 'W', 'E', 'F'];

function levelOf(priority: number): LogLevel {
  // 0 (unknown) and 1 (default) never reach the log; 8 (silent) is a filter level, not a record level.
  if (priority <= 2) return 'V';
  return LEVELS[priority - 2] ?? 'F';
}

/** Node's native UTF-8 slice is several times faster than TextDecoder on the short strings log entries hold. */
function decodeText(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, end);
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Decodes typed event payload values as `logcat -b events` prints them when it cannot name the tag. */
function eventValue(bytes: Uint8Array, view: DataView, at: number, end: number): [string, number] {
  if (at >= end) return ['', end];
  const type = bytes[at]!;
  const p = at + 1;
  switch (type) {
    case 0:
      return p + 4 <= end ? [String(view.getInt32(p, true)), p + 4] : ['', end];
    case 1:
      return p + 8 <= end ? [view.getBigInt64(p, true).toString(), p + 8] : ['', end];
    case 4:
      return p + 4 <= end ? [String(view.getFloat32(p, true)), p + 4] : ['', end];
    case 2: {
      if (p + 4 > end) return ['', end];
      const n = view.getInt32(p, true);
      const stop = Math.min(end, p + 4 + Math.max(0, n));
      return [utf8.decode(bytes.subarray(p + 4, stop)), stop];
    }
    case 3: {
      if (p + 1 > end) return ['[]', end];
      const count = bytes[p]!;
      const items: string[] = [];
      let q = p + 1;
      for (let i = 0; i < count && q < end; i++) {
        const [text, next] = eventValue(bytes, view, q, end);
        items.push(text);
        q = next;
      }
      return [`[${items.join(',')}]`, q];
    }
    default:
      return ['', end];
  }
}

/**
 * Streaming decoder: `push` any chunking of the byte stream (an entry may be split across chunks, or a chunk may
 * hold many entries) and get the complete entries back. Holds at most one partial entry.
 */
export class LogcatBinaryDecoder {
  private pending: Uint8Array = new Uint8Array(0);
  private entries = 0;
  private skippedBytes = 0;
  private readonly v2: boolean;

  constructor(options: LogcatBinaryDecoderOptions = {}) {
    this.v2 = options.headerSize24 === 'v2';
  }

  get stats(): LogcatBinaryDecoderStats {
    return { entries: this.entries, skippedBytes: this.skippedBytes, pendingBytes: this.pending.length };
  }

  push(chunk: Uint8Array): LogcatEntry[] {
    let bytes: Buffer;
    if (this.pending.length === 0) bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    else {
      bytes = Buffer.allocUnsafe(this.pending.length + chunk.length);
      bytes.set(this.pending, 0);
      bytes.set(chunk, this.pending.length);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const out: LogcatEntry[] = [];
    let at = 0;
    while (bytes.length - at >= 4) {
      const len = view.getUint16(at, true);
      const field = view.getUint16(at + 2, true);
      const headerSize = field === 0 ? 20 : field;
      if ((headerSize !== 20 && headerSize !== 24 && headerSize !== 28) || headerSize + len > MAX_ENTRY_BYTES) {
        // Not a header: resynchronise one byte on rather than stall or throw on a stream that keeps coming.
        at++;
        this.skippedBytes++;
        continue;
      }
      if (bytes.length - at < headerSize + len) break;
      out.push(this.decode(bytes, view, at, headerSize, len));
      at += headerSize + len;
    }
    // Copy the tail so the caller's chunk (often a pooled Buffer) is not retained.
    this.pending = at === bytes.length ? new Uint8Array(0) : Uint8Array.prototype.slice.call(bytes, at);
    this.entries += out.length;
    return out;
  }

  /** Bytes left over at the end of the stream: a truncated final entry, which is reported rather than guessed. */
  end(): { readonly truncatedBytes: number } {
    const truncatedBytes = this.pending.length;
    this.pending = new Uint8Array(0);
    return { truncatedBytes };
  }

  private decode(bytes: Buffer, view: DataView, at: number, headerSize: number, len: number): LogcatEntry {
    const pid = view.getInt32(at + 4, true);
    const tid = view.getUint32(at + 8, true);
    const sec = view.getUint32(at + 12, true);
    const nsec = view.getUint32(at + 16, true);
    let lid: number | undefined;
    let uid: number | undefined;
    if (headerSize === 24) {
      if (this.v2) uid = view.getUint32(at + 20, true);
      else lid = view.getUint32(at + 20, true);
    } else if (headerSize === 28) {
      lid = view.getUint32(at + 20, true);
      uid = view.getUint32(at + 24, true);
    }
    const start = at + headerSize;
    const end = start + len;
    let level: LogLevel;
    let tag: string;
    let message: string;
    if (lid !== undefined && EVENT_BUFFERS.has(lid)) {
      level = 'I';
      tag = len >= 4 ? String(view.getUint32(start, true)) : '';
      message = len > 4 ? eventValue(bytes, view, start + 4, end)[0] : '';
    } else {
      level = levelOf(len > 0 ? bytes[start]! : 0);
      let tagEnd = bytes.indexOf(0, start + 1);
      if (tagEnd === -1 || tagEnd > end) tagEnd = end;
      tag = decodeText(bytes, Math.min(start + 1, end), tagEnd);
      let msgEnd = end;
      // Drop the terminating NUL and the trailing newline some writers leave (logcat -v prints neither).
      while (msgEnd > tagEnd + 1 && (bytes[msgEnd - 1] === 0 || bytes[msgEnd - 1] === 10)) msgEnd--;
      message = tagEnd + 1 <= msgEnd ? decodeText(bytes, tagEnd + 1, msgEnd) : '';
    }
    const e: {
      time: string;
      timeMs: number;
      pid: number;
      tid: number;
      level: LogLevel;
      tag: string;
      message: string;
      uid?: string;
      buffer?: string;
    } = {
      time: `${sec}.${String(nsec).padStart(9, '0')}`,
      timeMs: sec * 1000 + Math.floor(nsec / 1e6),
      pid,
      tid,
      level,
      tag,
      message,
    };
    if (uid !== undefined) e.uid = String(uid);
    if (lid !== undefined) e.buffer = LOG_BUFFER_NAMES[lid] ?? `log-${lid}`;
    return e;
  }
}

export interface LogcatBinaryEntryInput {
  readonly pid: number;
  readonly tid: number;
  readonly sec: number;
  readonly nsec: number;
  /** Log id (`0` main … `4` crash); written for v3 and v4. */
  readonly lid?: number;
  readonly uid?: number;
  /** liblog priority: 2 verbose … 7 fatal. */
  readonly priority: number;
  readonly tag: string;
  readonly message: string;
}

const LEVEL_PRIORITY: Readonly<Record<LogLevel, number>> = { V: 2, D: 3, I: 4, W: 5, E: 6, F: 7, A: 7 };

export function priorityOfLevel(level: LogLevel): number {
  return LEVEL_PRIORITY[level];
}

/**
 * Writes one `logger_entry` the way logd does (v4 unless told otherwise), for the simulated device and for tests.
 * Over-long messages are cut to fit `LOGGER_ENTRY_MAX_LEN`, as liblog does.
 */
export function encodeLogcatBinaryEntry(input: LogcatBinaryEntryInput, version: 1 | 2 | 3 | 4 = 4): Uint8Array {
  const headerSize = version === 1 ? 20 : version === 4 ? 28 : 24;
  // Sized and written in place (one pooled allocation per entry): the simulated device's flood encodes
  // 100,000 entries a second.
  const tagBytes = Buffer.byteLength(input.tag);
  const room = Math.max(0, MAX_ENTRY_BYTES - headerSize - 1 - tagBytes - 2);
  let messageBytes = Buffer.byteLength(input.message);
  let cut: Buffer | null = null;
  if (messageBytes > room) {
    cut = Buffer.from(input.message).subarray(0, room);
    messageBytes = room;
  }
  const len = 1 + tagBytes + 1 + messageBytes + 1;
  const out = Buffer.allocUnsafe(headerSize + len);
  out.writeUInt16LE(len, 0);
  out.writeUInt16LE(version === 1 ? 0 : headerSize, 2);
  out.writeInt32LE(input.pid, 4);
  out.writeUInt32LE(input.tid, 8);
  out.writeUInt32LE(input.sec, 12);
  out.writeUInt32LE(input.nsec, 16);
  if (version === 2) out.writeUInt32LE(input.uid ?? 0, 20);
  if (version === 3 || version === 4) out.writeUInt32LE(input.lid ?? 0, 20);
  if (version === 4) out.writeUInt32LE(input.uid ?? 0, 24);
  out[headerSize] = input.priority;
  out.write(input.tag, headerSize + 1, 'utf8');
  out[headerSize + 1 + tagBytes] = 0;
  const at = headerSize + 2 + tagBytes;
  if (cut) cut.copy(out, at);
  else out.write(input.message, at, 'utf8');
  out[at + messageBytes] = 0;
  return out;
}
