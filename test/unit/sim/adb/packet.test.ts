import {
  A_CNXN,
  A_WRTE,
  PacketFormatError,
  PacketReader,
  encodePacket,
  payloadChecksum,
  payloadString,
} from '../../../../src/sim/adb/packet.js';

describe('adb packet codec', () => {
  it('writes the little-endian header adb expects, with checksum and magic', () => {
    const payload = Buffer.from('host::\0');
    const packet = encodePacket(A_CNXN, 0x01000001, 256 * 1024, payload);
    expect(packet.length).toBe(24 + payload.length);
    expect(packet.toString('latin1', 0, 4)).toBe('CNXN');
    expect(packet.readUInt32LE(4)).toBe(0x01000001);
    expect(packet.readUInt32LE(8)).toBe(262144);
    expect(packet.readUInt32LE(12)).toBe(payload.length);
    expect(packet.readUInt32LE(16)).toBe(payloadChecksum(payload));
    expect(packet.readUInt32LE(20)).toBe((A_CNXN ^ 0xffffffff) >>> 0);
  });

  it('sums payload bytes for the checksum', () => {
    expect(payloadChecksum(Buffer.from([1, 2, 255]))).toBe(258);
  });

  it('reassembles packets split and merged arbitrarily by TCP', () => {
    const a = encodePacket(A_WRTE, 1, 2, Buffer.from('hello'));
    const b = encodePacket(A_WRTE, 3, 4, Buffer.alloc(70000, 9));
    const c = encodePacket(A_WRTE, 5, 6);
    const wire = Buffer.concat([a, b, c]);
    const reader = new PacketReader();
    const seen = [];
    for (let offset = 0; offset < wire.length; offset += 7)
      seen.push(...reader.push(wire.subarray(offset, offset + 7)));
    expect(seen.map((p) => [p.arg0, p.arg1, p.payload.length])).toEqual([
      [1, 2, 5],
      [3, 4, 70000],
      [5, 6, 0],
    ]);
    expect(seen[0].payload.toString()).toBe('hello');
  });

  it('rejects a corrupt header instead of guessing', () => {
    const bad = encodePacket(A_WRTE, 1, 2);
    bad.writeUInt32LE(0, 20);
    expect(() => new PacketReader().push(bad)).toThrow(PacketFormatError);
  });

  it('rejects payloads larger than the maximum it announced', () => {
    const header = encodePacket(A_WRTE, 1, 2).subarray(0, 24);
    header.writeUInt32LE(10_000_000, 12);
    expect(() => new PacketReader(1024).push(header)).toThrow(/exceeds/);
  });

  it('reads C-string payloads with or without the trailing NUL', () => {
    expect(payloadString(Buffer.from('shell:ls\0'))).toBe('shell:ls');
    expect(payloadString(Buffer.from('sync:'))).toBe('sync:');
  });
});
