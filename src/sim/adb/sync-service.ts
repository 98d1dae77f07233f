import type { SimDirEntry, SimFileStat, SimFileSystem } from '../simulated-android.js';
import { ByteReader } from './byte-queue.js';
import type { ServiceStream } from './device-stream.js';

/**
 * The `sync:` service behind `adb push/pull/ls` and adbkit's sync client. Requests are
 * `[id 4 bytes][length u32 LE][payload]`; the framing runs inside the stream's bytes, not WRTE boundaries.
 */

/** adb's own limits: paths up to 1024 bytes, DATA chunks up to 64 KiB. */
export const SYNC_MAX_PATH = 1024;
export const SYNC_DATA_MAX = 64 * 1024;
/** The simulated file system lives in memory; refuse pushes that would exhaust it. */
export const SYNC_MAX_FILE = 512 * 1024 * 1024;

const ENOENT = 2;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
/** Android's shell user and group, which own what `adb push` writes. */
const SHELL_UID = 2000;

class SyncFailure extends Error {}

export async function runSyncService(stream: ServiceStream, fs: SimFileSystem): Promise<void> {
  const reader = new ByteReader(stream.input);
  const session = new SyncSession(stream, fs, reader);
  try {
    await session.run();
  } catch (error) {
    if (!(error instanceof SyncFailure) || stream.signal.aborted) throw error;
    // adbd answers a failed request with FAIL and ends the session; so do we.
    await stream.write(status('FAIL', Buffer.from(error.message, 'utf8'))).catch(() => undefined);
  }
}

class SyncSession {
  constructor(
    private readonly stream: ServiceStream,
    private readonly fs: SimFileSystem,
    private readonly reader: ByteReader,
  ) {}

  async run(): Promise<void> {
    for (;;) {
      const header = await this.reader.read(8);
      if (!header) return; // adbkit just closes the stream instead of sending QUIT
      const id = header.toString('latin1', 0, 4);
      const length = header.readUInt32LE(4);
      if (id === 'QUIT') return;
      if (!['STAT', 'STA2', 'LST2', 'LIST', 'LIS2', 'SEND', 'RECV'].includes(id)) {
        throw new SyncFailure(`unknown sync command ${JSON.stringify(id)}`);
      }
      if (length > SYNC_MAX_PATH)
        throw new SyncFailure(`path too long: ${length} bytes (the limit is ${SYNC_MAX_PATH})`);
      const arg = await this.reader.read(length);
      if (!arg) return;
      const path = arg.toString('utf8');
      switch (id) {
        case 'STAT':
          await this.stream.write(statV1(this.fs.stat(path)));
          break;
        case 'STA2':
        case 'LST2':
          await this.stream.write(statV2(id, this.fs.stat(path)));
          break;
        case 'LIST':
        case 'LIS2':
          await this.list(path, id === 'LIS2');
          break;
        case 'SEND':
          await this.receiveFile(path);
          break;
        case 'RECV':
          await this.sendFile(path);
          break;
      }
    }
  }

  private async list(path: string, v2: boolean): Promise<void> {
    const self = this.fs.stat(path);
    const isDirectory = self !== null && (self.mode & S_IFMT) === S_IFDIR;
    // adbd lists what readdir returns, `.` and `..` included; clients skip them. A missing directory lists nothing.
    const all: SimDirEntry[] = isDirectory
      ? [{ ...self, name: '.' }, { ...self, name: '..' }, ...(this.fs.list(path) ?? [])]
      : [];
    let batch: Buffer[] = [];
    let batchBytes = 0;
    for (const entry of all) {
      const encoded = v2 ? dentV2(entry) : dentV1(entry);
      if (batchBytes + encoded.length > this.stream.maxPayload && batch.length) {
        await this.stream.write(Buffer.concat(batch));
        batch = [];
        batchBytes = 0;
      }
      batch.push(encoded);
      batchBytes += encoded.length;
    }
    batch.push(v2 ? doneV2() : doneV1());
    await this.stream.write(Buffer.concat(batch));
  }

  private async sendFile(path: string): Promise<void> {
    const stat = this.fs.stat(path);
    if (stat && (stat.mode & S_IFMT) === S_IFDIR) throw new SyncFailure('Is a directory');
    const data = this.fs.readFile(path);
    if (!data) throw new SyncFailure('No such file or directory');
    // Several 64 KiB DATA chunks per WRTE: fewer round trips, same bytes on the wire for the client.
    let batch: Buffer[] = [];
    let batchBytes = 0;
    for (let offset = 0; offset < data.length; offset += SYNC_DATA_MAX) {
      const chunk = data.subarray(offset, Math.min(data.length, offset + SYNC_DATA_MAX));
      if (batchBytes + 8 + chunk.length > this.stream.maxPayload && batch.length) {
        await this.stream.write(Buffer.concat(batch));
        batch = [];
        batchBytes = 0;
      }
      batch.push(status('DATA', chunk));
      batchBytes += 8 + chunk.length;
    }
    batch.push(header('DONE', 0));
    await this.stream.write(Buffer.concat(batch));
  }

  private async receiveFile(spec: string): Promise<void> {
    const comma = spec.lastIndexOf(',');
    const path = comma >= 0 ? spec.slice(0, comma) : spec;
    const parsedMode = comma >= 0 ? Number.parseInt(spec.slice(comma + 1), 10) : 0o644;
    let mode = Number.isFinite(parsedMode) ? parsedMode : 0o644;
    if ((mode & S_IFMT) === 0) mode |= S_IFREG;
    if (!path.startsWith('/')) throw new SyncFailure(`remote path must be absolute: ${path}`);

    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const head = await this.reader.read(8);
      if (!head) return; // the host gave up mid-transfer: nothing is written, as with a real interrupted push
      const id = head.toString('latin1', 0, 4);
      const value = head.readUInt32LE(4);
      if (id === 'DATA') {
        if (value > SYNC_DATA_MAX) throw new SyncFailure(`DATA chunk of ${value} bytes exceeds ${SYNC_DATA_MAX}`);
        const data = await this.reader.read(value);
        if (!data) return;
        total += data.length;
        if (total > SYNC_MAX_FILE)
          throw new SyncFailure(`file too large for the simulated device (limit ${SYNC_MAX_FILE} bytes)`);
        chunks.push(Buffer.from(data)); // copy: the reader's buffer may be a view over a larger WRTE payload
      } else if (id === 'DONE') {
        try {
          this.fs.writeFile(path, Buffer.concat(chunks, total), mode, value);
        } catch (error) {
          throw new SyncFailure((error as Error).message);
        }
        await this.stream.write(header('OKAY', 0));
        return;
      } else {
        throw new SyncFailure(`expected DATA or DONE during SEND, got ${JSON.stringify(id)}`);
      }
    }
  }
}

function header(id: string, value: number): Buffer {
  const out = Buffer.alloc(8);
  out.write(id, 0, 'latin1');
  out.writeUInt32LE(value >>> 0, 4);
  return out;
}

function status(id: string, data: Buffer): Buffer {
  return Buffer.concat([header(id, data.length), data]);
}

function statV1(stat: SimFileStat | null): Buffer {
  const out = Buffer.alloc(16);
  out.write('STAT', 0, 'latin1');
  if (stat) {
    out.writeUInt32LE(stat.mode >>> 0, 4);
    out.writeUInt32LE(Math.min(stat.size, 0xffffffff), 8);
    out.writeUInt32LE(stat.mtimeSec >>> 0, 12);
  }
  return out;
}

/** struct stat_v2: id, error, dev u64, ino u64, mode, nlink, uid, gid, size u64, atime, mtime, ctime (i64). */
function statV2(id: string, stat: SimFileStat | null): Buffer {
  const out = Buffer.alloc(72);
  out.write(id, 0, 'latin1');
  if (!stat) {
    out.writeUInt32LE(ENOENT, 4);
    return out;
  }
  writeStatV2Body(out, 8, stat);
  return out;
}

function writeStatV2Body(out: Buffer, at: number, stat: SimFileStat): void {
  out.writeBigUInt64LE(0n, at); // dev
  out.writeBigUInt64LE(0n, at + 8); // ino
  out.writeUInt32LE(stat.mode >>> 0, at + 16);
  out.writeUInt32LE(1, at + 20); // nlink
  out.writeUInt32LE(SHELL_UID, at + 24);
  out.writeUInt32LE(SHELL_UID, at + 28);
  out.writeBigUInt64LE(BigInt(Math.max(0, Math.floor(stat.size))), at + 32);
  const time = BigInt(Math.floor(stat.mtimeSec));
  out.writeBigInt64LE(time, at + 40);
  out.writeBigInt64LE(time, at + 48);
  out.writeBigInt64LE(time, at + 56);
}

function dentV1(entry: SimDirEntry): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  const out = Buffer.alloc(20 + name.length);
  out.write('DENT', 0, 'latin1');
  out.writeUInt32LE(entry.mode >>> 0, 4);
  out.writeUInt32LE(Math.min(entry.size, 0xffffffff), 8);
  out.writeUInt32LE(entry.mtimeSec >>> 0, 12);
  out.writeUInt32LE(name.length, 16);
  name.copy(out, 20);
  return out;
}

function doneV1(): Buffer {
  const out = Buffer.alloc(20);
  out.write('DONE', 0, 'latin1');
  return out;
}

/** struct dent_v2: the stat_v2 fields, then namelen u32 and the name. */
function dentV2(entry: SimDirEntry): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  const out = Buffer.alloc(76 + name.length);
  out.write('DNT2', 0, 'latin1');
  writeStatV2Body(out, 8, entry);
  out.writeUInt32LE(name.length, 72);
  name.copy(out, 76);
  return out;
}

function doneV2(): Buffer {
  const out = Buffer.alloc(76);
  out.write('DONE', 0, 'latin1');
  return out;
}
