/**
 * The adb transport packet: a 24-byte little-endian header (command, arg0, arg1, payload length,
 * payload checksum, command ^ 0xffffffff) followed by the payload.
 */

export const A_SYNC = 0x434e5953;
export const A_CNXN = 0x4e584e43;
export const A_AUTH = 0x48545541;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_CLSE = 0x45534c43;
export const A_WRTE = 0x45545257;
export const A_STLS = 0x534c5453;

/** The protocol version that lets both sides skip checksums (adb >= 1.0.32 understands it). */
export const A_VERSION = 0x01000001;
/** Largest payload we accept or send; the host honours the maxdata we announce in CNXN. */
export const MAX_PAYLOAD = 256 * 1024;

export const HEADER_SIZE = 24;

export interface AdbPacket {
  readonly command: number;
  readonly arg0: number;
  readonly arg1: number;
  readonly payload: Buffer;
}

const NAMES: Record<number, string> = {
  [A_SYNC]: 'SYNC',
  [A_CNXN]: 'CNXN',
  [A_AUTH]: 'AUTH',
  [A_OPEN]: 'OPEN',
  [A_OKAY]: 'OKAY',
  [A_CLSE]: 'CLSE',
  [A_WRTE]: 'WRTE',
  [A_STLS]: 'STLS',
};

export function commandName(command: number): string {
  return NAMES[command] ?? `0x${command.toString(16).padStart(8, '0')}`;
}

export function payloadChecksum(payload: Buffer): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) sum += payload[i];
  return sum >>> 0;
}

export function encodePacket(command: number, arg0: number, arg1: number, payload: Buffer = EMPTY): Buffer {
  const out = Buffer.allocUnsafe(HEADER_SIZE + payload.length);
  out.writeUInt32LE(command >>> 0, 0);
  out.writeUInt32LE(arg0 >>> 0, 4);
  out.writeUInt32LE(arg1 >>> 0, 8);
  out.writeUInt32LE(payload.length, 12);
  out.writeUInt32LE(payloadChecksum(payload), 16);
  out.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  payload.copy(out, HEADER_SIZE);
  return out;
}

const EMPTY = Buffer.alloc(0);

export class PacketFormatError extends Error {
  override readonly name = 'PacketFormatError';
}

/**
 * Reassembles packets from TCP chunks, which split and merge packets arbitrarily. Throws
 * PacketFormatError on a corrupt header (bad magic, oversized payload): the connection is then unusable.
 */
export class PacketReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxPayload: number = MAX_PAYLOAD) {}

  push(chunk: Buffer): AdbPacket[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const packets: AdbPacket[] = [];
    for (;;) {
      if (this.buffered < HEADER_SIZE) break;
      const head = this.peek(HEADER_SIZE);
      const command = head.readUInt32LE(0);
      const length = head.readUInt32LE(12);
      const magic = head.readUInt32LE(20);
      if (magic !== (command ^ 0xffffffff) >>> 0) {
        throw new PacketFormatError(`bad packet magic for command ${commandName(command)}`);
      }
      if (length > this.maxPayload) {
        throw new PacketFormatError(`payload of ${length} bytes exceeds the ${this.maxPayload}-byte maximum`);
      }
      if (this.buffered < HEADER_SIZE + length) break;
      const whole = this.take(HEADER_SIZE + length);
      packets.push({
        command,
        arg0: whole.readUInt32LE(4),
        arg1: whole.readUInt32LE(8),
        payload: whole.subarray(HEADER_SIZE),
      });
    }
    return packets;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0].subarray(0, n);
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined.subarray(0, n);
  }

  private take(n: number): Buffer {
    const first = this.chunks[0];
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const joined = Buffer.concat(this.chunks);
      out = joined.subarray(0, n);
      this.chunks = joined.length > n ? [joined.subarray(n)] : [];
    }
    this.buffered -= n;
    return out;
  }
}

/** CNXN/OPEN payloads are C strings: drop the trailing NUL when present. */
export function payloadString(payload: Buffer): string {
  const end = payload.length > 0 && payload[payload.length - 1] === 0 ? payload.length - 1 : payload.length;
  return payload.toString('utf8', 0, end);
}
