import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The emulator's text console on the even port next to its adb port. adb talks to it for
 * `adb emu …` (`adb emu kill`, `adb emu avd name`); it authenticates with the token the emulator
 * keeps in ~/.emulator_console_auth_token.
 */
export interface EmulatorConsoleOptions {
  readonly avdName: string;
  /** Called once for `kill`, after the goodbye line is sent. */
  readonly onKill: () => void;
  /** Where the auth token lives; defaults to `$HOME/.emulator_console_auth_token`. */
  readonly authTokenPath?: string;
}

const MAX_LINE = 4096;

export function defaultAuthTokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.HOME || homedir(), '.emulator_console_auth_token');
}

/**
 * Returns the console's auth token, creating the file like the emulator does when absent. An empty
 * file means no authentication, also like the emulator.
 */
export function readOrCreateAuthToken(path: string): string {
  if (!existsSync(path)) {
    const token = randomBytes(12)
      .toString('base64')
      .replace(/[^A-Za-z0-9]/g, 'x')
      .slice(0, 16);
    writeFileSync(path, token, { mode: 0o600 });
    return token;
  }
  return readFileSync(path, 'utf8').trim();
}

export class EmulatorConsole {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly tokenPath: string;
  private killed = false;

  constructor(private readonly options: EmulatorConsoleOptions) {
    this.tokenPath = options.authTokenPath ?? defaultAuthTokenPath();
    this.server = createServer((socket) => this.serve(socket));
  }

  listen(port: number, host: string): Promise<number> {
    // Create the token before anyone connects, so `adb emu` (which reads it first) finds it.
    readOrCreateAuthToken(this.tokenPath);
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

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    const token = readOrCreateAuthToken(this.tokenPath);
    let authenticated = token.length === 0;
    const send = (text: string) => {
      if (!socket.destroyed) socket.write(text);
    };
    if (authenticated) {
      send("Android Console: type 'help' for a list of commands\r\nOK\r\n");
    } else {
      send(
        'Android Console: Authentication required\r\n' +
          "Android Console: type 'auth <auth_token>' to authenticate\r\n" +
          'Android Console: you can find your <auth_token> in \r\n' +
          `'${this.tokenPath}'\r\nOK\r\n`,
      );
    }

    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      if (pending.length > MAX_LINE && !pending.includes('\n')) {
        send('KO: line too long\r\n');
        socket.destroy();
        return;
      }
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline).replace(/\r$/, '').trim();
        pending = pending.slice(newline + 1);
        if (socket.destroyed) return;
        const words = line.split(/\s+/).filter(Boolean);
        const [command = '', ...rest] = words;
        if (!command) continue;
        if (command === 'quit' || command === 'exit') {
          socket.end();
          return;
        }
        if (command === 'auth') {
          if (rest.join(' ') === readOrCreateAuthToken(this.tokenPath)) {
            authenticated = true;
            send("Android Console: type 'help' for a list of commands\r\nOK\r\n");
          } else if (rest.length === 0) {
            send('KO: missing authentication token\r\n');
          } else {
            send(`KO: authentication token does not match ${this.tokenPath}\r\n`);
          }
          continue;
        }
        if (command === 'help') {
          send(
            'Android console commands:\r\n\r\n' +
              '    help|h|?         print a list of commands\r\n' +
              '    ping             check if the emulator is alive\r\n' +
              '    avd              control virtual device execution\r\n' +
              '    kill             kill the emulator instance\r\n' +
              '    auth             user authentication for the emulator console\r\n' +
              '    quit|exit        quit control session\r\n\r\nOK\r\n',
          );
          continue;
        }
        if (!authenticated) {
          send("KO: unknown command, try 'help'\r\n");
          continue;
        }
        this.runCommand(command, rest, send, socket);
      }
    });
  }

  private runCommand(command: string, args: string[], send: (text: string) => void, socket: Socket): void {
    switch (command) {
      case 'ping':
        send('I am alive!\r\nOK\r\n');
        return;
      case 'avd':
        if (args[0] === 'name') send(`${this.options.avdName}\r\nOK\r\n`);
        else if (args[0] === 'status') send('virtual device is running\r\nOK\r\n');
        else send("KO: missing sub-command, try 'help avd'\r\n");
        return;
      case 'kill':
        send('OK: killing emulator, bye bye\r\n');
        socket.end();
        if (!this.killed) {
          this.killed = true;
          // Let the goodbye reach adb before the device's sockets go away.
          setImmediate(() => this.options.onKill());
        }
        return;
      default:
        send("KO: unknown command, try 'help'\r\n");
    }
  }
}
