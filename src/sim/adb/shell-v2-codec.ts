/**
 * adb's shell protocol (feature `shell_v2`): every message is `[id u8][length u32 LE][data]`, which
 * is what lets stdout, stderr and the exit code share one stream.
 */

export const ShellPacketId = {
  stdin: 0,
  stdout: 1,
  stderr: 2,
  exit: 3,
  closeStdin: 4,
  windowSizeChange: 5,
} as const;

export const SHELL_HEADER_SIZE = 5;

export interface ShellPacket {
  readonly id: number;
  readonly data: Buffer;
}

export function encodeShellPacket(id: number, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(SHELL_HEADER_SIZE + data.length);
  out.writeUInt8(id, 0);
  out.writeUInt32LE(data.length, 1);
  data.copy(out, SHELL_HEADER_SIZE);
  return out;
}

/** Splits `data` into as many packets as needed so none exceeds `maxPacket` bytes on the wire. */
export function encodeShellPackets(id: number, data: Buffer, maxPacket: number): Buffer {
  const room = maxPacket - SHELL_HEADER_SIZE;
  if (data.length <= room) return encodeShellPacket(id, data);
  const parts: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += room) {
    parts.push(encodeShellPacket(id, data.subarray(offset, Math.min(data.length, offset + room))));
  }
  return Buffer.concat(parts);
}

/** Reassembles shell packets from stream payloads, which need not align with packet boundaries. */
export class ShellPacketDecoder {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxData = 1024 * 1024) {}

  push(chunk: Buffer): ShellPacket[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const packets: ShellPacket[] = [];
    while (this.pending.length >= SHELL_HEADER_SIZE) {
      const length = this.pending.readUInt32LE(1);
      if (length > this.maxData) throw new Error(`shell packet of ${length} bytes exceeds ${this.maxData}`);
      if (this.pending.length < SHELL_HEADER_SIZE + length) break;
      packets.push({
        id: this.pending[0],
        data: this.pending.subarray(SHELL_HEADER_SIZE, SHELL_HEADER_SIZE + length),
      });
      this.pending = this.pending.subarray(SHELL_HEADER_SIZE + length);
    }
    return packets;
  }
}
