import { ByteQueue } from '../../../../src/sim/adb/byte-queue.js';
import type { ServiceStream } from '../../../../src/sim/adb/device-stream.js';
import { runSyncService } from '../../../../src/sim/adb/sync-service.js';
import { MemoryFileSystem } from '../../../integration/sim/tiny-android.js';

function request(id: string, arg: Buffer | string | number): Buffer {
  const body = typeof arg === 'number' ? Buffer.alloc(0) : Buffer.from(arg);
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32LE(typeof arg === 'number' ? arg : body.length, 4);
  return Buffer.concat([head, body]);
}

/** Runs a sync session over `wire`, delivered in `chunkSize` pieces, and returns every byte the device wrote. */
async function session(fs: MemoryFileSystem, wire: Buffer, chunkSize = 5): Promise<Buffer> {
  const input = new ByteQueue();
  const written: Buffer[] = [];
  const stream: ServiceStream = {
    maxPayload: 256 * 1024,
    signal: new AbortController().signal,
    input,
    write: async (data) => void written.push(Buffer.from(data)),
  };
  for (let offset = 0; offset < wire.length; offset += chunkSize) input.push(wire.subarray(offset, offset + chunkSize));
  input.end();
  await runSyncService(stream, fs);
  return Buffer.concat(written);
}

describe('sync service', () => {
  it('stores a pushed file across DATA chunks and answers OKAY (framing independent of WRTE boundaries)', async () => {
    const fs = new MemoryFileSystem();
    const wire = Buffer.concat([
      request('SEND', '/data/local/tmp/deep/app.apk,33188'),
      request('DATA', 'hello '),
      request('DATA', 'world'),
      request('DONE', 1700000000),
      request('QUIT', 0),
    ]);
    const reply = await session(fs, wire, 3);
    expect(reply.toString('latin1', 0, 4)).toBe('OKAY');
    expect(fs.readFile('/data/local/tmp/deep/app.apk')?.toString()).toBe('hello world');
    expect(fs.stat('/data/local/tmp/deep/app.apk')).toEqual({ mode: 0o100644, size: 11, mtimeSec: 1700000000 });
  });

  it('answers STAT v1 with zeros for a missing path and STA2 with ENOENT', async () => {
    const fs = new MemoryFileSystem();
    const stat = await session(fs, request('STAT', '/nope'));
    expect(stat.toString('latin1', 0, 4)).toBe('STAT');
    expect(stat.subarray(4).equals(Buffer.alloc(12))).toBe(true);
    const sta2 = await session(fs, request('STA2', '/nope'));
    expect(sta2.length).toBe(72);
    expect(sta2.readUInt32LE(4)).toBe(2);
  });

  it('answers STA2 with mode and size of an existing file', async () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/sdcard/a.txt', Buffer.from('abc'), 0o100600, 42);
    const sta2 = await session(fs, request('STA2', '/sdcard/a.txt'));
    expect(sta2.readUInt32LE(4)).toBe(0);
    expect(sta2.readUInt32LE(24)).toBe(0o100600);
    expect(Number(sta2.readBigUInt64LE(40))).toBe(3);
    expect(Number(sta2.readBigInt64LE(56))).toBe(42);
  });

  it('lists a directory with DENT entries, . and .., then DONE', async () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/sdcard/x.txt', Buffer.from('x'), 0o100644, 1);
    const reply = await session(fs, request('LIST', '/sdcard'));
    const names: string[] = [];
    let offset = 0;
    while (reply.toString('latin1', offset, offset + 4) === 'DENT') {
      const length = reply.readUInt32LE(offset + 16);
      names.push(reply.toString('utf8', offset + 20, offset + 20 + length));
      offset += 20 + length;
    }
    expect(names).toEqual(['.', '..', 'x.txt']);
    expect(reply.toString('latin1', offset, offset + 4)).toBe('DONE');
    expect(reply.length - offset).toBe(20);
  });

  it('lists with LIS2 using the v2 entry layout', async () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/sdcard/y.bin', Buffer.alloc(5), 0o100644, 1);
    const reply = await session(fs, request('LIS2', '/sdcard'));
    let offset = 0;
    const names: string[] = [];
    while (reply.toString('latin1', offset, offset + 4) === 'DNT2') {
      const length = reply.readUInt32LE(offset + 72);
      names.push(reply.toString('utf8', offset + 76, offset + 76 + length));
      offset += 76 + length;
    }
    expect(names).toContain('y.bin');
    expect(reply.toString('latin1', offset, offset + 4)).toBe('DONE');
  });

  it('sends a file as 64 KiB DATA chunks then DONE', async () => {
    const fs = new MemoryFileSystem();
    const data = Buffer.alloc(150 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = i & 0xff;
    fs.writeFile('/sdcard/big', data, 0o100644, 1);
    const reply = await session(fs, request('RECV', '/sdcard/big'));
    const parts: Buffer[] = [];
    let offset = 0;
    while (reply.toString('latin1', offset, offset + 4) === 'DATA') {
      const length = reply.readUInt32LE(offset + 4);
      expect(length).toBeLessThanOrEqual(64 * 1024);
      parts.push(reply.subarray(offset + 8, offset + 8 + length));
      offset += 8 + length;
    }
    expect(reply.toString('latin1', offset, offset + 4)).toBe('DONE');
    expect(Buffer.concat(parts).equals(data)).toBe(true);
  });

  it('fails RECV of a missing file with the message clients show', async () => {
    const reply = await session(new MemoryFileSystem(), request('RECV', '/missing'));
    expect(reply.toString('latin1', 0, 4)).toBe('FAIL');
    expect(reply.toString('utf8', 8)).toBe('No such file or directory');
  });

  it('fails a push onto a directory with the file system message', async () => {
    const fs = new MemoryFileSystem();
    const wire = Buffer.concat([request('SEND', '/sdcard,33188'), request('DATA', 'x'), request('DONE', 1)]);
    const reply = await session(fs, wire);
    expect(reply.toString('latin1', 0, 4)).toBe('FAIL');
    expect(reply.toString('utf8', 8)).toMatch(/Is a directory/);
  });

  it('refuses oversized paths and DATA chunks, and unknown commands', async () => {
    const fs = new MemoryFileSystem();
    const longPath = await session(fs, request('STAT', `/${'a'.repeat(2000)}`));
    expect(longPath.toString('utf8')).toMatch(/^FAIL.*path too long/s);
    const head = request('DATA', 0);
    head.writeUInt32LE(1024 * 1024, 4);
    const bigChunk = await session(fs, Buffer.concat([request('SEND', '/sdcard/f,33188'), head]));
    expect(bigChunk.toString('utf8')).toMatch(/^FAIL.*exceeds/s);
    const unknown = await session(fs, request('XXXX', 0));
    expect(unknown.toString('utf8')).toMatch(/^FAIL.*unknown sync command/s);
  });
});
