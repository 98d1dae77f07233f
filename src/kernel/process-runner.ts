import { spawn } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { injectable } from 'inversify';
import { ToolError } from './errors.js';
import { hostChildPath, isBareCommandName, resolveHostExecutable } from './host-executable.js';

export interface RunOptions {
  readonly cwd?: string;
  /** Overrides on top of this process's environment; `undefined` removes a variable. */
  readonly env?: Record<string, string | undefined>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Per stream; the tail is kept. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  readonly onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  readonly input?: string | Buffer;
  /** Time between SIGTERM and SIGKILL. Default 5000. */
  readonly killGraceMs?: number;
  /** Start the child in its own process group and signal the whole group (build tools fork workers). */
  readonly processGroup?: boolean;
  /** Called with the child's pid once it is spawned (with processGroup, also its process group id). */
  readonly onSpawn?: (pid: number) => void;
}

export interface RunResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when either stream exceeded maxOutputBytes and only its tail was kept. */
  readonly truncated: boolean;
  readonly durationMs: number;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly command: string[];
}

export interface SpawnDetachedOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  /** Where stdout and stderr go; discarded when absent. */
  readonly logFd?: number;
}

const DEFAULT_MAX_OUTPUT = 1024 * 1024;
const DEFAULT_GRACE_MS = 5000;
/**
 * After the direct child exited (or was SIGKILLed), how long its output may still arrive. A process it
 * left behind in another session (`setsid sleep 120 &`) can hold the pipes open for ever: waiting for
 * them to close would hang the caller past any timeout or cancellation.
 */
export const OUTPUT_DRAIN_MS = 2000;
/** A line longer than this is delivered in pieces so one runaway line cannot grow memory. */
const MAX_LINE_CHARS = 64 * 1024;

/** Keeps the last `max` bytes of a stream and splits it into lines as it arrives. */
class StreamTail {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  private readonly decoder = new TextDecoder('utf-8');
  private carry = '';

  constructor(
    private readonly max: number,
    private readonly onLine?: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.max && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
      this.truncated = true;
    }
    if (this.size > this.max) {
      const only = this.chunks[0]!;
      this.chunks[0] = only.subarray(only.length - this.max);
      this.size = this.max;
      this.truncated = true;
    }
    if (this.onLine) this.splitLines(this.decoder.decode(chunk, { stream: true }));
  }

  private splitLines(text: string): void {
    this.carry += text;
    let newline: number;
    while ((newline = this.carry.indexOf('\n')) !== -1) {
      this.emit(this.carry.slice(0, newline).replace(/\r$/, ''));
      this.carry = this.carry.slice(newline + 1);
    }
    while (this.carry.length > MAX_LINE_CHARS) {
      this.emit(this.carry.slice(0, MAX_LINE_CHARS));
      this.carry = this.carry.slice(MAX_LINE_CHARS);
    }
  }

  private emit(line: string): void {
    try {
      this.onLine!(line);
    } catch {
      // A consumer's bug must not break the process it is watching.
    }
  }

  finish(): string {
    if (this.onLine) {
      this.splitLines(this.decoder.decode());
      if (this.carry.length > 0) this.emit(this.carry.replace(/\r$/, ''));
      this.carry = '';
    }
    let buffer = Buffer.concat(this.chunks);
    // A cut tail may begin inside a multi-byte character: drop the orphaned continuation bytes.
    if (this.truncated) {
      let start = 0;
      while (start < buffer.length && start < 4 && (buffer[start]! & 0xc0) === 0x80) start++;
      buffer = buffer.subarray(start);
    }
    return buffer.toString('utf8');
  }
}

function mergedEnv(overrides?: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, ...overrides };
  env.PATH = hostChildPath(env.PATH);
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env as Record<string, string>;
}

/**
 * The absolute program to start: an absolute path as given, a bare name from the absolute PATH entries
 * (never `.` or a relative entry, which the working directory, often the project, would answer).
 * A relative path is a caller's bug: nothing droidwright runs is addressed relative to the cwd.
 */
function executableFor(file: string, env: Record<string, string>): string {
  if (isAbsolute(file)) return file;
  if (!isBareCommandName(file)) throw new TypeError(`ProcessRunner runs absolute paths or command names, not ${file}`);
  const found = resolveHostExecutable(file, { env });
  if (found) return found;
  throw new ToolError(
    'NOT_FOUND',
    `Could not run ${file}: it is not in any absolute PATH directory (relative PATH entries such as "." are never searched). Install it, or put its directory on PATH as an absolute path.`,
    { command: file, code: 'ENOENT' },
  );
}

function signalChild(pid: number | undefined, signal: NodeJS.Signals, group: boolean): void {
  if (pid === undefined) return;
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * The one way droidwright runs host programs: an argument vector (never a shell string), bounded
 * output, a timeout and cancellation that escalate from SIGTERM to SIGKILL. A non-zero exit is data,
 * not an exception; only a missing executable rejects.
 */
@injectable()
export class ProcessRunner {
  async run(file: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const env = mergedEnv(options.env);
    const executable = executableFor(file, env);
    const command = [executable, ...args];
    const started = Date.now();
    const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    const grace = options.killGraceMs ?? DEFAULT_GRACE_MS;
    const group = options.processGroup === true;

    if (options.signal?.aborted) {
      return {
        exitCode: null,
        signal: null,
        stdout: '',
        stderr: '',
        truncated: false,
        durationMs: 0,
        timedOut: false,
        cancelled: true,
        command,
      };
    }

    const onLine = options.onLine;
    const out = new StreamTail(maxBytes, onLine && ((line) => onLine(line, 'stdout')));
    const err = new StreamTail(maxBytes, onLine && ((line) => onLine(line, 'stderr')));

    // execa is ~130 modules; `droidwright mcp` loads it on the first process it runs, not at start-up.
    const { execa } = await import('execa');
    const child = execa(executable, args, {
      cwd: options.cwd,
      env,
      extendEnv: false,
      reject: false,
      buffer: false,
      stripFinalNewline: false,
      // Never let a child read our stdin: in `droidwright mcp` that is the JSON-RPC channel.
      ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
      detached: group,
      windowsHide: true,
    });
    if (child.pid !== undefined && options.onSpawn) {
      try {
        options.onSpawn(child.pid);
      } catch {
        // A consumer's bug must not break the process it is watching.
      }
    }
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));

    let timedOut = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let finished = false;
    let exited: { code: number | null; signal: string | null } | null = null;
    let drainTimer: NodeJS.Timeout | undefined;
    let drained!: () => void;
    const drainedOut = new Promise<'drained'>((resolve) => {
      drained = () => resolve('drained');
    });
    const startDrain = (): void => {
      if (!drainTimer) drainTimer = setTimeout(drained, OUTPUT_DRAIN_MS);
    };
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      exited = { code, signal };
      startDrain();
    });
    const terminate = (): void => {
      if (finished || killTimer) return;
      signalChild(child.pid, 'SIGTERM', group);
      killTimer = setTimeout(() => {
        signalChild(child.pid, 'SIGKILL', group);
        startDrain();
      }, grace);
    };
    const timeoutTimer =
      options.timeoutMs !== undefined && options.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            terminate();
          }, options.timeoutMs)
        : undefined;
    const onAbort = (): void => {
      cancelled = true;
      terminate();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    try {
      const settled = await Promise.race([child, drainedOut]);
      finished = true;
      if (settled === 'drained') {
        // Stop reading pipes someone else still holds; what arrived so far is the output.
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.catch(() => undefined);
        const ended = exited as { code: number | null; signal: string | null } | null;
        return {
          exitCode: ended?.code ?? null,
          signal: ended ? ended.signal : 'SIGKILL',
          stdout: out.finish(),
          stderr: err.finish(),
          truncated: out.truncated || err.truncated,
          durationMs: Date.now() - started,
          timedOut,
          cancelled: cancelled && !timedOut,
          command,
        };
      }
      const result = settled;
      if (result.failed && !result.isTerminated && result.exitCode === undefined) {
        const code = (result as { code?: string }).code;
        if (code === 'ENOENT' || code === 'EACCES') {
          throw new ToolError(
            'NOT_FOUND',
            `Could not run ${file}: ${code === 'ENOENT' ? 'the executable or working directory does not exist' : 'permission denied'}. Check that it is installed and on PATH, or configure its path in settings.json.`,
            { command: file, code },
          );
        }
      }
      return {
        exitCode: result.exitCode ?? null,
        signal: result.signal ?? null,
        stdout: out.finish(),
        stderr: err.finish(),
        truncated: out.truncated || err.truncated,
        durationMs: Date.now() - started,
        timedOut,
        cancelled: cancelled && !timedOut,
        command,
      };
    } finally {
      finished = true;
      if (timeoutTimer) clearTimeout(timeoutTimer);
      if (drainTimer) clearTimeout(drainTimer);
      // The group may outlive its leader (forked workers holding no pipe): finish the job we started.
      if (killTimer) {
        clearTimeout(killTimer);
        if (group) signalChild(child.pid, 'SIGKILL', true);
      }
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Starts a long-lived child (an emulator) that outlives this call and this process: own process
   * group, no pipes back to us. Resolves with its pid once it has started.
   */
  spawnDetached(file: string, args: readonly string[], options: SpawnDetachedOptions = {}): Promise<number> {
    const env = mergedEnv(options.env);
    let executable: string;
    try {
      executable = executableFor(file, env);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolvePid, rejectSpawn) => {
      const output = options.logFd ?? 'ignore';
      const child = spawn(executable, [...args], {
        cwd: options.cwd,
        env,
        detached: true,
        stdio: ['ignore', output, output],
        windowsHide: true,
      });
      child.once('error', (error: NodeJS.ErrnoException) => {
        rejectSpawn(
          new ToolError(
            'NOT_FOUND',
            `Could not start ${file}: ${error.code ?? error.message}. Check that it is installed and on PATH.`,
            {
              command: file,
              code: error.code,
            },
          ),
        );
      });
      child.once('spawn', () => {
        child.unref();
        resolvePid(child.pid!);
      });
    });
  }
}
