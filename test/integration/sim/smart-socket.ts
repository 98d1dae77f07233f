/** Opens a device service through an adb server's smart socket, as adbkit does, for tests that need the raw stream. */
import { connect, type Socket } from 'node:net';

export interface RawDeviceStream {
  readAtLeast(bytes: number, timeoutMs?: number): Promise<Buffer>;
  pause(): void;
  close(): void;
  readonly socket: Socket;
}

function request(socket: Socket, service: string): void {
  socket.write(service.length.toString(16).padStart(4, '0') + service);
}

export function openDeviceService(adbPort: number, serial: string, service: string): Promise<RawDeviceStream> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: adbPort, host: '127.0.0.1' });
    let buffered = Buffer.alloc(0);
    let stage: 'transport' | 'service' | 'open' = 'transport';
    let waiter: (() => void) | null = null;
    socket.on('error', reject);
    socket.on('connect', () => request(socket, `host:transport:${serial}`));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (stage !== 'open' && buffered.length >= 4) {
        const status = buffered.toString('latin1', 0, 4);
        if (status !== 'OKAY') {
          socket.destroy();
          reject(new Error(`${stage} refused: ${buffered.toString('latin1')}`));
          return;
        }
        buffered = buffered.subarray(4);
        if (stage === 'transport') {
          stage = 'service';
          request(socket, service);
        } else {
          stage = 'open';
          resolve(stream);
        }
      }
      waiter?.();
    });
    const stream: RawDeviceStream = {
      socket,
      async readAtLeast(bytes, timeoutMs = 10000) {
        const until = Date.now() + timeoutMs;
        while (buffered.length < bytes) {
          if (Date.now() > until) throw new Error(`only ${buffered.length} of ${bytes} bytes arrived`);
          await new Promise<void>((wake) => {
            waiter = wake;
            setTimeout(wake, 100);
          });
        }
        const out = buffered;
        buffered = Buffer.alloc(0);
        return out;
      },
      pause: () => socket.pause(),
      close: () => socket.destroy(),
    };
  });
}
