import type { Socket } from 'node:net';
import { DeviceStream, type ServiceStream } from './device-stream.js';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  MAX_PAYLOAD,
  PacketFormatError,
  PacketReader,
  commandName,
  encodePacket,
  payloadString,
  type AdbPacket,
} from './packet.js';

/** Runs one service on its stream; the stream is closed when the promise settles. */
export type ServiceHandler = (stream: ServiceStream) => Promise<void>;
/** Finds the handler for an OPEN's service string, or null to refuse it (CLSE). */
export type ServiceRouter = (service: string) => ServiceHandler | null;

export interface AdbConnectionOptions {
  /** The CNXN payload, e.g. `device::ro.product.name=…;features=…`. */
  banner(): string;
  route: ServiceRouter;
  /** Receives one line per packet and per notable event when tracing. */
  trace?: (line: string) => void;
}

const COMMANDS = { OKAY: A_OKAY, WRTE: A_WRTE, CLSE: A_CLSE } as const;

/**
 * The device end of one adb transport (one TCP connection from an adb server). Answers the host's
 * CNXN with ours and no AUTH, so the device is online at once; then multiplexes streams.
 */
export class AdbConnection {
  private readonly reader = new PacketReader(MAX_PAYLOAD);
  private readonly streams = new Map<number, DeviceStream>();
  private nextLocalId = 1;
  private maxPayload = MAX_PAYLOAD;
  private online = false;
  private ended = false;

  constructor(
    private readonly socket: Socket,
    private readonly options: AdbConnectionOptions,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('close', () => this.onEnd('connection closed'));
    // 'close' follows every error; ECONNRESET from a killed adb server is routine.
    socket.on('error', (error) => this.trace(`socket error: ${error.message}`));
  }

  /** Drops the connection and aborts every running service. */
  destroy(): void {
    this.onEnd('device stopped');
    this.socket.destroy();
  }

  get openStreams(): number {
    return this.streams.size;
  }

  private onData(chunk: Buffer): void {
    let packets: AdbPacket[];
    try {
      packets = this.reader.push(chunk);
    } catch (error) {
      if (!(error instanceof PacketFormatError)) throw error;
      this.trace(`protocol error: ${error.message}; dropping the connection`);
      this.destroy();
      return;
    }
    for (const packet of packets) this.onPacket(packet);
  }

  private onPacket(packet: AdbPacket): void {
    if (this.options.trace) this.tracePacket('<', packet);
    switch (packet.command) {
      case A_CNXN:
        this.onConnect(packet);
        return;
      case A_AUTH:
        // We never ask for AUTH, so a host AUTH is stale; answering it would only confuse the host.
        return;
      case A_OPEN:
        this.onOpen(packet);
        return;
      case A_OKAY:
        this.streamFor(packet)?.onOkay();
        return;
      case A_WRTE:
        this.streamFor(packet)?.onWrite(packet.payload);
        return;
      case A_CLSE:
        this.streamFor(packet)?.onHostClose('closed by the host');
        return;
      default:
        this.trace(`ignoring unknown packet ${commandName(packet.command)}`);
    }
  }

  private onConnect(packet: AdbPacket): void {
    // A second CNXN means the host restarted the transport: its old streams are gone.
    if (this.online) this.closeAllStreams('transport reset by the host');
    this.maxPayload = Math.max(4096, Math.min(packet.arg1 || MAX_PAYLOAD, MAX_PAYLOAD));
    this.online = true;
    this.sendPacket(A_CNXN, A_VERSION, MAX_PAYLOAD, Buffer.from(this.options.banner(), 'utf8'));
  }

  private onOpen(packet: AdbPacket): void {
    const remoteId = packet.arg0;
    if (!this.online || remoteId === 0) return;
    const service = payloadString(packet.payload);
    const handler = this.options.route(service);
    if (!handler) {
      this.trace(`refusing service ${JSON.stringify(service)}`);
      this.sendPacket(A_CLSE, 0, remoteId);
      return;
    }
    const localId = this.nextLocalId++;
    if (this.nextLocalId > 0x7fffffff) this.nextLocalId = 1;
    const stream = new DeviceStream(
      localId,
      remoteId,
      this.maxPayload,
      (command, arg0, arg1, payload) => this.sendPacket(COMMANDS[command], arg0, arg1, payload),
      (closed) => this.streams.delete(closed.localId),
    );
    this.streams.set(localId, stream);
    this.sendPacket(A_OKAY, localId, remoteId);
    void this.runService(service, handler, stream);
  }

  private async runService(service: string, handler: ServiceHandler, stream: DeviceStream): Promise<void> {
    try {
      await handler(stream);
    } catch (error) {
      // A service that fails after the host closed is just being told to stop; anything else is a bug worth tracing.
      if (!stream.isClosed) this.trace(`service ${JSON.stringify(service)} failed: ${(error as Error).stack ?? error}`);
    }
    await stream.close();
  }

  private streamFor(packet: AdbPacket): DeviceStream | undefined {
    const stream = this.streams.get(packet.arg1);
    // arg0 is the host's id for the stream; a mismatch is a packet for a stream we already recycled.
    if (!stream || (packet.arg0 !== 0 && stream.remoteId !== packet.arg0)) return undefined;
    return stream;
  }

  private onEnd(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.closeAllStreams(reason);
  }

  private closeAllStreams(reason: string): void {
    for (const stream of [...this.streams.values()]) stream.onHostClose(reason);
  }

  private sendPacket(command: number, arg0: number, arg1: number, payload?: Buffer): void {
    if (this.ended || this.socket.destroyed) return;
    const packet = encodePacket(command, arg0, arg1, payload);
    if (this.options.trace) this.tracePacket('>', { command, arg0, arg1, payload: payload ?? Buffer.alloc(0) });
    this.socket.write(packet);
  }

  private tracePacket(direction: '<' | '>', packet: AdbPacket): void {
    const preview = packet.payload
      .subarray(0, 48)
      .toString('latin1')
      .replace(/[^\x20-\x7e]/g, '.');
    this.trace(
      `${direction} ${commandName(packet.command)} ${packet.arg0} ${packet.arg1} len=${packet.payload.length}` +
        (packet.payload.length ? ` "${preview}"` : ''),
    );
  }

  private trace(line: string): void {
    this.options.trace?.(line);
  }
}
