import { runMcpServer } from '../mcp/run-mcp-server.js';
import { CONFIRM_MODES, type ConfirmMode } from '../kernel/runtime-options.js';
import { UsageError } from '../kernel/usage-error.js';
import { runtimeOptions } from './cli-support.js';
import type { CommandInput } from './command-spec.js';
import type { mcpFlags } from './command-specs.js';

export async function runMcpCommand({ values }: CommandInput<typeof mcpFlags>): Promise<number> {
  // A person typed this in a terminal: a JSON-RPC server would just sit there.
  if (process.stdin.isTTY) {
    throw new UsageError(
      'mcp speaks JSON-RPC on stdin and is started by an AI client, not by hand; register it in your client, e.g. `claude mcp add droidwright -- droidwright mcp` (droidwright help mcp).',
    );
  }
  const code = await runMcpServer(
    runtimeOptions({
      projectPath: values.project,
      toolsets: values.toolsets === undefined ? undefined : values.toolsets.split(','),
      readOnly: values['read-only'] === true,
      ...(values.confirm === undefined ? {} : { confirm: confirmMode(values.confirm) }),
    }),
  );
  // stdin may still be open after a signal; everything is recorded and flushed, so leave now.
  await new Promise<void>((resolve) =>
    process.stdout.writableLength > 0 ? process.stdout.once('drain', () => resolve()) : resolve(),
  );
  process.exit(code);
}

function confirmMode(value: string): ConfirmMode {
  if (!(CONFIRM_MODES as readonly string[]).includes(value))
    throw new UsageError(`--confirm takes ${CONFIRM_MODES.join(' or ')} (got ${JSON.stringify(value)}).`);
  return value as ConfirmMode;
}
