import type { SimulatedDevice } from '../simulated-device.js';

/** The streams one command of a pipeline sees, after redirections. */
export interface CommandIO {
  readonly stdin: AsyncIterable<Buffer>;
  stdout(data: Buffer | string): Promise<void>;
  stderr(data: Buffer | string): Promise<void>;
  /** Aborted when the host closes the stream, or the reader of this command's pipe is gone. */
  readonly signal: AbortSignal;
}

export interface CommandContext {
  /** argv[0] is the command name as resolved (basename for /system/bin paths). */
  readonly argv: readonly string[];
  readonly io: CommandIO;
  readonly env: ReadonlyMap<string, string>;
  readonly cwd: string;
  readonly device: SimulatedDevice;
  /** Runs a nested command line (sh -c, monkey scripts) through the same shell and command log. */
  runNested(commandLine: string, io: CommandIO): Promise<number>;
}

export type CommandHandler = (ctx: CommandContext) => Promise<number>;

/** One simple command as the device shell executed it. */
export interface ExecutedCommand {
  readonly argv: readonly string[];
  /** The full command line this command came from (as exec() received it, or the substitution's inner text). */
  readonly commandLine: string;
  readonly assignments: Readonly<Record<string, string>>;
  readonly at: number;
}

/** Writes lines with a trailing newline each. */
export async function writeLines(write: (data: string) => Promise<void>, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  await write(`${lines.join('\n')}\n`);
}
