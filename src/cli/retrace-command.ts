import { readFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { RetraceEngine } from '../android/retrace/retrace-engine.js';
import { locateRetrace } from '../android/sdk-locator.js';
import { ProcessRunner } from '../kernel/process-runner.js';
import { Settings } from '../kernel/settings.js';
import { UsageError } from '../kernel/usage-error.js';
import { runtimeOptions, writeOut } from './cli-support.js';
import type { CommandInput } from './command-spec.js';
import type { retraceFlags } from './command-specs.js';

/** Stack traces pasted from a store console are small; this bounds what stdin may hold. */
const MAX_TRACE_BYTES = 64 * 1024 * 1024;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_TRACE_BYTES) throw new UsageError(`stdin holds more than ${MAX_TRACE_BYTES} bytes; pass a file.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `droidwright retrace --mapping FILE [TRACE_FILE]`: the crash tools' retrace engine, for traces from anywhere. */
export async function runRetraceCommand({ values, positionals }: CommandInput<typeof retraceFlags>): Promise<number> {
  if (!values.mapping) throw new UsageError('--mapping FILE is required.');
  let text: string;
  if (positionals[0] !== undefined) {
    try {
      text = await readFile(positionals[0], 'utf8');
    } catch (error) {
      throw new UsageError(
        `Cannot read ${positionals[0]} (${(error as NodeJS.ErrnoException).code ?? 'error'}). Pass a stack trace file, or pipe the trace on stdin.`,
      );
    }
  } else {
    text = await readStdin();
  }
  const options = runtimeOptions();
  let sdkRetrace: string | null = null;
  if (!values.builtin) {
    const sdk = [new Settings(options).get().androidSdk, options.env.ANDROID_HOME, options.env.ANDROID_SDK_ROOT].find(
      (dir) => dir !== undefined && isAbsolute(dir),
    );
    sdkRetrace = locateRetrace(sdk ?? null);
  }
  const engine = new RetraceEngine(sdkRetrace, new ProcessRunner());
  // A trailing newline is the file's, not a line of the trace: keep it as it came.
  const trailing = text.endsWith('\n');
  const body = trailing ? text.slice(0, -1) : text;
  const out = await engine.retrace(values.mapping, body);
  await writeOut(trailing || out.length > 0 ? `${out}\n` : out);
  return 0;
}
