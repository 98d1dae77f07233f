import { connect as netConnect } from 'node:net';
import { createReadStream } from 'node:fs';
import { inject, injectable } from 'inversify';
import type { Client } from '@devicefarmer/adbkit';
import { loadAdbKit } from './adbkit-loader.js';
import { ToolError } from '../kernel/errors.js';
import { ProcessRunner, type RunResult } from '../kernel/process-runner.js';
import { SelectedProject } from '../kernel/project-selection.js';
import { RuntimeOptions } from '../kernel/runtime-options.js';
import { Settings } from '../kernel/settings.js';
import { validateSerial } from '../kernel/validation.js';
import { sh, type DeviceCommand } from './device-command.js';
import { parseGetprop } from './parsers/getprop.js';
import { adbServerPort, locateAdb, type LocatedTool } from './sdk-locator.js';

/** What adbkit is told to run when no adb is installed: an absolute path nobody but root could create. */
const NO_ADB_BINARY = '/droidwright-found-no-adb';

export type AdbDeviceState =
  | 'device'
  | 'offline'
  | 'unauthorized'
  | 'authorizing'
  | 'connecting'
  | 'recovery'
  | 'bootloader'
  | 'sideload'
  | 'host'
  | 'no permissions'
  | string;

export interface AdbDeviceEntry {
  readonly serial: string;
  readonly state: AdbDeviceState;
}

export interface ShellOptions {
  /** Default 30 s, like every adb input command. */
  readonly timeoutMs?: number;
  /** Bytes of output kept (the head). Default 1 MiB. */
  readonly maxOutputBytes?: number;
  readonly signal?: AbortSignal;
}

export interface ShellResult {
  /** stdout and stderr interleaved (the legacy shell service merges them), sentinel removed. */
  readonly output: string;
  /** The command's exit status; null when the stream ended before it was reported (killed, timed out, truncated). */
  readonly exitCode: number | null;
  readonly truncated: boolean;
  readonly durationMs: number;
}

/** Appended to every shell command so the legacy shell service, which has no exit status, still reports one. */
export const EXIT_SENTINEL = '__DW_EXIT__';
const SENTINEL_TAIL = new RegExp(`${EXIT_SENTINEL}(\\d+)\\r?\\n?$`);
const DEFAULT_SHELL_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT = 1024 * 1024;
const SERVER_START_TIMEOUT_MS = 20_000;

/** What adb's FAIL replies mean for the caller. */
export function mapAdbError(error: unknown, serial?: string): ToolError {
  if (error instanceof ToolError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const who = serial ? `Device ${serial}` : 'The device';
  if (/device (.*)?not found|device '.*' not found/i.test(message)) {
    return new ToolError(
      'DEVICE_NOT_FOUND',
      `${who} is not listed by adb (${message}). Call list_devices and pass one of the serials it shows.`,
    );
  }
  if (/offline/i.test(message))
    return new ToolError(
      'DEVICE_OFFLINE',
      `${who} is offline (${message}). Reconnect it, or restart the emulator, then retry.`,
    );
  if (/unauthorized/i.test(message)) {
    return new ToolError(
      'DEVICE_UNAUTHORIZED',
      `${who} has not authorized this computer. Accept the USB debugging prompt on the device, then retry.`,
    );
  }
  if (/ECONNREFUSED|ECONNRESET|EPIPE|closed/i.test(message)) {
    return new ToolError(
      'ADB_UNAVAILABLE',
      `The adb server stopped answering (${message}). Retry; if it persists, restart it with \`adb kill-server\`.`,
    );
  }
  return new ToolError(
    'COMMAND_FAILED',
    `adb failed: ${message.slice(0, 300)}. Check the device with list_devices and retry.`,
  );
}

function portAccepts(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolveReady) => {
    const socket = netConnect({ host: '127.0.0.1', port });
    const done = (ok: boolean): void => {
      socket.removeAllListeners();
      socket.destroy();
      resolveReady(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The one door to adb: finds the binary, starts the server on its port when it is down (bounded),
 * runs device shell commands with a timeout, bounded output and a real exit status, and runs the
 * adb CLI for the few things only the client binary does (emulator console, start-server).
 */
@injectable()
export class AdbService {
  private clientPromise: Promise<Client> | undefined;

  constructor(
    @inject(Settings) private readonly settings: Settings,
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
    @inject(SelectedProject) private readonly project: SelectedProject,
  ) {}

  get port(): number {
    return adbServerPort(this.options.env);
  }

  /** The adb binary, or null when none is installed. */
  locate(): LocatedTool | null {
    const settings = this.settings.get();
    return locateAdb({
      adbPath: settings.adbPath,
      androidSdk: settings.androidSdk,
      env: this.options.env,
      projectRoot: this.project.root,
    });
  }

  requireBinary(): string {
    const found = this.locate();
    if (!found) {
      throw new ToolError(
        'ADB_UNAVAILABLE',
        'adb was not found (looked at settings.json adbPath, $ANDROID_HOME/platform-tools, $ANDROID_SDK_ROOT/platform-tools, PATH, ~/Android/Sdk and /usr/lib/android-sdk). Install Android SDK Platform-Tools or set "adbPath" in settings.json.',
      );
    }
    return found.path;
  }

  /** An adbkit client whose server is known to be up. */
  client(): Promise<Client> {
    this.clientPromise ??= this.connectClient().catch((error: unknown) => {
      this.clientPromise = undefined;
      throw error;
    });
    return this.clientPromise;
  }

  private async connectClient(): Promise<Client> {
    const port = this.port;
    const bin = this.locate()?.path;
    if (!(await portAccepts(port))) {
      if (!bin) this.requireBinary();
      const started = await this.runner.run(bin!, ['-P', String(port), 'start-server'], {
        timeoutMs: SERVER_START_TIMEOUT_MS,
        env: { ANDROID_ADB_SERVER_PORT: String(port) },
        maxOutputBytes: 64 * 1024,
      });
      if (started.exitCode !== 0 || !(await portAccepts(port))) {
        const why = started.timedOut
          ? 'timed out'
          : (started.stderr || started.stdout).trim().split('\n').slice(-2).join(' ').slice(0, 300);
        throw new ToolError(
          'ADB_UNAVAILABLE',
          `The adb server on port ${port} is not running and \`adb -P ${port} start-server\` failed (${why || `exit ${started.exitCode}`}). Start it yourself with \`adb start-server\`, or check ANDROID_ADB_SERVER_PORT.`,
        );
      }
    }
    // adbkit starts a server itself when a connection is refused, running `bin` (default: a bare `adb`
    // looked up from PATH and the cwd). Give it the adb we located, or a path that cannot exist.
    return (await loadAdbKit()).createClient({ host: '127.0.0.1', port, bin: bin ?? NO_ADB_BINARY });
  }

  /** Every serial adb lists, with its state (`device` means online). */
  async listDevices(): Promise<AdbDeviceEntry[]> {
    const client = await this.client();
    try {
      const devices: { id: string; type: string }[] = await client.listDevices();
      return devices.map((d) => ({ serial: d.id, state: d.type }));
    } catch (error) {
      this.clientPromise = undefined;
      throw mapAdbError(error);
    }
  }

  /**
   * Runs one device command through the shell service. The command must come from the `sh` tag, so every
   * value in it is quoted. The exit status comes from a sentinel echoed after the command.
   */
  async shell(serial: string, command: DeviceCommand, options: ShellOptions = {}): Promise<ShellResult> {
    validateSerial(serial);
    const timeoutMs = options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
    const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    const started = Date.now();
    if (options.signal?.aborted)
      throw new ToolError('CANCELLED', 'The request was cancelled before the device command ran.');
    const client = await this.client();
    let stream: NodeJS.ReadableStream & { destroy(): void };
    try {
      stream = (await client
        .getDevice(serial)
        .shell(`${command.text}; echo ${EXIT_SENTINEL}$?`)) as unknown as typeof stream;
    } catch (error) {
      throw mapAdbError(error, serial);
    }
    return new Promise<ShellResult>((resolveResult, rejectResult) => {
      const head: Buffer[] = [];
      let headBytes = 0;
      let tail = Buffer.alloc(0);
      let truncated = false;
      let settled = false;
      const finish = (outcome: 'end' | 'timeout' | 'cancel' | Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (outcome !== 'end') stream.destroy();
        if (outcome === 'timeout') {
          rejectResult(commandTimedOut(serial, timeoutMs));
          return;
        }
        if (outcome === 'cancel') {
          rejectResult(commandCancelled());
          return;
        }
        if (outcome instanceof Error) {
          rejectResult(mapAdbError(outcome, serial));
          return;
        }
        let output = Buffer.concat(head).toString('utf8');
        const tailText = tail.toString('utf8');
        const match = SENTINEL_TAIL.exec(truncated ? tailText : output);
        let exitCode: number | null = null;
        if (match) {
          exitCode = Number(match[1]);
          if (!truncated) output = output.slice(0, match.index);
        }
        resolveResult({ output: output.replace(/\r\n/g, '\n'), exitCode, truncated, durationMs: Date.now() - started });
      };
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      const onAbort = (): void => finish('cancel');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      stream.on('data', (chunk: Buffer) => {
        if (headBytes < maxBytes) {
          const room = maxBytes - headBytes;
          head.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          headBytes += Math.min(room, chunk.length);
          if (chunk.length > room) truncated = true;
        } else {
          truncated = true;
        }
        // Only the last bytes can hold the sentinel; keep just those.
        tail = Buffer.concat([tail, chunk]);
        if (tail.length > 64) tail = tail.subarray(tail.length - 64);
      });
      stream.on('end', () => finish('end'));
      stream.on('close', () => finish('end'));
      stream.on('error', (error: Error) => finish(error));
    });
  }

  /**
   * Runs one device command through the `exec:` service (what `adb exec-out` uses): stdout only, byte for
   * byte (no pty, no CRLF translation, no exit status), for binary output such as `screencap -p` and for
   * `uiautomator dump /dev/tty` in one round trip. Output past `maxOutputBytes` stops the stream and is
   * reported as `truncated`.
   */
  async execOut(
    serial: string,
    command: DeviceCommand,
    options: ShellOptions = {},
  ): Promise<{ output: Buffer; truncated: boolean; durationMs: number }> {
    validateSerial(serial);
    const timeoutMs = options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
    const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    const started = Date.now();
    if (options.signal?.aborted)
      throw new ToolError('CANCELLED', 'The request was cancelled before the device command ran.');
    const client = await this.client();
    let stream: NodeJS.ReadableStream & { destroy(): void };
    try {
      // A service name with a colon is sent as it is: `exec:<command>`.
      stream = (await client.getDevice(serial).openLocal(`exec:${command.text}`)) as unknown as typeof stream;
    } catch (error) {
      throw mapAdbError(error, serial);
    }
    return new Promise((resolveResult, rejectResult) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let truncated = false;
      let settled = false;
      const finish = (outcome: 'end' | 'timeout' | 'cancel' | 'full' | Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (outcome !== 'end') stream.destroy();
        if (outcome === 'timeout') {
          rejectResult(commandTimedOut(serial, timeoutMs));
        } else if (outcome === 'cancel') {
          rejectResult(commandCancelled());
        } else if (outcome instanceof Error) {
          rejectResult(mapAdbError(outcome, serial));
        } else {
          resolveResult({ output: Buffer.concat(chunks), truncated, durationMs: Date.now() - started });
        }
      };
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      const onAbort = (): void => finish('cancel');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      stream.on('data', (chunk: Buffer) => {
        const room = maxBytes - bytes;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          bytes = maxBytes;
          truncated = true;
          finish('full');
          return;
        }
        chunks.push(chunk);
        bytes += chunk.length;
      });
      stream.on('end', () => finish('end'));
      stream.on('close', () => finish('end'));
      stream.on('error', (error: Error) => finish(error));
    });
  }

  /**
   * Opens a long-running device command through the `exec:` service (no pty, no CR/LF translation, so binary
   * output such as `logcat -B` arrives byte for byte) and returns its raw output stream. The caller ends it with
   * `destroy()`; the stream ends on its own when the command exits or the device goes away.
   */
  async openExecStream(serial: string, command: DeviceCommand): Promise<NodeJS.ReadableStream & { destroy(): void }> {
    validateSerial(serial);
    const client = await this.client();
    try {
      const connection = await client.getDevice(serial).transport();
      const service = `exec:${command.text}`;
      connection.write(Buffer.from(`${Buffer.byteLength(service).toString(16).padStart(4, '0')}${service}`));
      const reply = await connection.parser.readAscii(4);
      if (reply !== 'OKAY') {
        const why =
          reply === 'FAIL' ? await connection.parser.readError().catch((error: Error) => error.message) : reply;
        connection.end();
        throw new ToolError('COMMAND_FAILED', `${serial} refused \`${command.text}\`: ${String(why)}`);
      }
      return connection.parser.raw() as unknown as NodeJS.ReadableStream & { destroy(): void };
    } catch (error) {
      if (error instanceof ToolError) throw error;
      this.clientPromise = undefined;
      throw mapAdbError(error, serial);
    }
  }

  /** `getprop` parsed into a map. */
  async properties(serial: string, options: ShellOptions = {}): Promise<Record<string, string>> {
    const result = await this.shell(serial, sh`getprop`, { timeoutMs: 15_000, maxOutputBytes: 512 * 1024, ...options });
    return parseGetprop(result.output);
  }

  /** Copies a host file to the device through the sync service (adbkit needs a path or stream, not a Buffer). */
  async push(
    serial: string,
    localPath: string,
    remotePath: string,
    options: { timeoutMs?: number; mode?: number } = {},
  ): Promise<void> {
    validateSerial(serial);
    const client = await this.client();
    const timeoutMs = options.timeoutMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const transfer = await client
        .getDevice(serial)
        .push(createReadStream(localPath), remotePath, options.mode ?? 0o644);
      await new Promise<void>((resolveDone, rejectDone) => {
        timer = setTimeout(() => {
          transfer.cancel();
          rejectDone(
            new ToolError(
              'TIMEOUT',
              `Copying ${localPath} to ${serial} did not finish within ${Math.round(timeoutMs / 1000)} s. Check the connection and retry.`,
            ),
          );
        }, timeoutMs);
        transfer.once('end', () => resolveDone());
        transfer.once('error', (error: Error) => rejectDone(error));
      });
    } catch (error) {
      throw mapAdbError(error, serial);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** Runs the adb client binary against this server's port (for `emu` console commands and `start-server`). */
  async runCli(
    args: readonly string[],
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<RunResult> {
    const bin = this.requireBinary();
    return this.runner.run(bin, ['-P', String(this.port), ...args], {
      timeoutMs: options.timeoutMs ?? 30_000,
      signal: options.signal,
      env: { ANDROID_ADB_SERVER_PORT: String(this.port) },
      maxOutputBytes: 256 * 1024,
    });
  }
}

/** A device command past its deadline (shell and exec-out alike). */
function commandTimedOut(serial: string, timeoutMs: number): ToolError {
  return new ToolError(
    'TIMEOUT',
    `The device command did not finish within ${Math.round(timeoutMs / 1000)} s on ${serial}. The device may be busy or hung; check it with get_device_info and retry.`,
  );
}

function commandCancelled(): ToolError {
  return new ToolError('CANCELLED', 'The request was cancelled; the device command was stopped.');
}
