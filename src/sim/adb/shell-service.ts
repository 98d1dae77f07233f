import type { ShellIO, ShellMode, SimulatedAndroid } from '../simulated-android.js';
import { ByteQueue } from './byte-queue.js';
import type { ServiceStream } from './device-stream.js';
import { ShellPacketDecoder, ShellPacketId, encodeShellPacket, encodeShellPackets } from './shell-v2-codec.js';

/** What an OPEN for `shell…:` or `exec:` asks for. */
export interface ShellRequest {
  readonly mode: ShellMode;
  /** A pseudo-terminal: output line endings become `\r\n`, as a tty's ONLCR would make them. */
  readonly pty: boolean;
  /** Empty for an interactive shell. */
  readonly command: string;
}

/**
 * Parses `shell:cmd`, `shell,v2,raw:cmd`, `shell,v2,TERM=xterm-256color,pty:cmd` and `exec:cmd`.
 * Returns null for anything else.
 */
export function parseShellService(service: string): ShellRequest | null {
  if (service.startsWith('exec:')) return { mode: 'exec', pty: false, command: service.slice(5) };
  const colon = service.indexOf(':');
  if (colon < 0) return null;
  const head = service.slice(0, colon);
  const command = service.slice(colon + 1);
  if (head !== 'shell' && !head.startsWith('shell,')) return null;
  const args = head.split(',').slice(1);
  const v2 = args.includes('v2');
  // adbd's defaults: an interactive shell gets a pty, a command runs raw, unless the client said otherwise.
  const pty = args.includes('pty') ? true : args.includes('raw') ? false : command.length === 0;
  return { mode: v2 ? 'shell_v2' : 'legacy', pty, command };
}

const toBuffer = (data: Buffer | string): Buffer => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

function ttyNewlines(data: Buffer): Buffer {
  if (!data.includes(0x0a)) return data;
  return Buffer.from(data.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
}

/** Runs a shell or exec service: routes the stream's bytes to the Android's command runner and back. */
export async function runShellService(
  stream: ServiceStream,
  android: SimulatedAndroid,
  request: ShellRequest,
): Promise<void> {
  const io = request.mode === 'shell_v2' ? shellV2IO(stream, request.pty) : rawIO(stream, request.pty);
  const exitCode = request.command.trim().length
    ? await runCommand(android, request.command, io, request.mode)
    : await interactiveShell(android, io, request);
  if (request.mode === 'shell_v2' && !stream.signal.aborted) {
    await stream.write(encodeShellPacket(ShellPacketId.exit, Buffer.from([exitCode & 0xff]))).catch(() => undefined);
  }
}

async function runCommand(android: SimulatedAndroid, command: string, io: ShellIO, mode: ShellMode): Promise<number> {
  try {
    return await android.exec(command, io, mode);
  } catch (error) {
    if (io.signal.aborted) return 130;
    // A failing command implementation must not look like a dead device: report it the way sh reports a crash.
    await io.stderr(`sh: ${(error as Error).message}\n`).catch(() => undefined);
    return 255;
  }
}

function shellV2IO(stream: ServiceStream, pty: boolean): ShellIO {
  const stdin = new ByteQueue();
  void (async () => {
    const decoder = new ShellPacketDecoder();
    try {
      for await (const chunk of stream.input) {
        for (const packet of decoder.push(chunk)) {
          if (packet.id === ShellPacketId.stdin) stdin.push(packet.data);
          else if (packet.id === ShellPacketId.closeStdin) stdin.end();
          // Window-size changes only matter to a real terminal emulator.
        }
      }
    } catch {
      // A corrupt stdin frame ends stdin; the command still gets to finish.
    }
    stdin.end();
  })();
  const out = (id: number) => (data: Buffer | string) => {
    let bytes = toBuffer(data);
    if (bytes.length === 0) return Promise.resolve();
    if (pty) bytes = ttyNewlines(bytes);
    return stream.write(encodeShellPackets(id, bytes, stream.maxPayload));
  };
  return { stdin, stdout: out(ShellPacketId.stdout), stderr: out(ShellPacketId.stderr), signal: stream.signal };
}

function rawIO(stream: ServiceStream, pty: boolean): ShellIO {
  // Without the shell protocol adbd gives the command one socket for stdout and stderr alike.
  const out = (data: Buffer | string) => stream.write(pty ? ttyNewlines(toBuffer(data)) : toBuffer(data));
  return { stdin: stream.input, stdout: out, stderr: out, signal: stream.signal };
}

/**
 * A minimal interactive shell: a prompt, one command line per input line, `exit` to leave.
 * Enough for `adb shell` typed by a person; scripts should pass a command.
 */
async function interactiveShell(android: SimulatedAndroid, io: ShellIO, request: ShellRequest): Promise<number> {
  const device = /ro\.product\.device=([^;]*)/.exec(android.banner())?.[1] || 'generic';
  const prompt = `${device}:/ $ `;
  let lastExit = 0;
  let pending = '';
  const lines = new ByteQueue();
  const commandIO: ShellIO = { ...io, stdin: lines };
  lines.end(); // commands run from the prompt get an empty stdin; the typed lines are the shell's own input
  try {
    await io.stdout(prompt);
    for await (const chunk of io.stdin) {
      const text = chunk.toString('utf8');
      if (request.pty) await io.stdout(text.replace(/\r/g, '\n'));
      pending += text.replace(/\r\n?/g, '\n');
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (line === 'exit' || line.startsWith('exit ')) {
          const code = Number.parseInt(line.slice(5), 10);
          return Number.isFinite(code) ? code : lastExit;
        }
        if (line) lastExit = await runCommand(android, line, commandIO, request.mode);
        await io.stdout(prompt);
      }
      if (pending.length > 64 * 1024) pending = ''; // a line this long is not typed input
    }
  } catch {
    // The host went away mid-session.
  }
  return lastExit;
}
