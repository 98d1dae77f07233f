import { createServer, type Server, type Socket } from 'node:net';
import type { SimulatedAndroid } from '../simulated-android.js';
import { AdbConnection } from './adb-connection.js';
import { createServiceRouter } from './service-router.js';

export interface AdbDeviceServerOptions {
  readonly android: SimulatedAndroid;
  /** One line per packet, for debugging a client's conversation with the device. */
  readonly trace?: (line: string) => void;
}

/** The TCP endpoint adb servers connect to (`adb connect host:port`, or the emulator port scan). */
export class AdbDeviceServer {
  private readonly server: Server;
  private readonly connections = new Set<AdbConnection>();
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: AdbDeviceServerOptions) {
    const route = createServiceRouter(options.android);
    this.server = createServer((socket) => {
      this.options.trace?.(`adb server connected from ${socket.remoteAddress}:${socket.remotePort}`);
      const connection = new AdbConnection(socket, {
        banner: () => options.android.banner(),
        route,
        trace: options.trace,
      });
      this.connections.add(connection);
      this.sockets.add(socket);
      socket.on('close', () => {
        this.connections.delete(connection);
        this.sockets.delete(socket);
        this.options.trace?.('adb server disconnected');
      });
    });
  }

  /** Resolves with the bound port (useful when asked for port 0). */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.server.once('error', onError);
      this.server.listen({ port, host, exclusive: true }, () => {
        this.server.off('error', onError);
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Stops listening and drops every adb server connection, aborting running commands. */
  close(): Promise<void> {
    for (const connection of this.connections) connection.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
