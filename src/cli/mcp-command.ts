import { runMcpServer } from '../mcp/run-mcp-server.js';
import { CONFIRM_MODES, type ConfirmMode } from '../kernel/runtime-options.js';
import { UsageError } from '../kernel/usage-error.js';
import { parseCommandLine, runtimeOptions } from './cli-support.js';

export const MCP_HELP = `Usage: droidwright mcp [--project PATH] [--toolsets a,b] [--read-only] [--confirm MODE]

Serves the Model Context Protocol on stdin/stdout. AI clients start this command themselves;
register it in your client, e.g.:  claude mcp add droidwright -- droidwright mcp

  --project PATH   The Gradle project (default: nearest settings.gradle[.kts] above the working directory)
  --toolsets a,b   Serve only these toolsets (default: all)
  --read-only      Serve only tools that change nothing
  --confirm MODE   Ask the person through the client (MCP elicitation) before a call runs:
                   destructive = D and O tools, all-writes = W, D and O tools. A client that
                   cannot ask gets the call refused, never run unconfirmed`;

export async function runMcpCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      project: { type: 'string' },
      toolsets: { type: 'string' },
      'read-only': { type: 'boolean' },
      confirm: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    false,
  );
  if (values.help) {
    process.stderr.write(`${MCP_HELP}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`mcp takes no arguments (got ${positionals.join(' ')}).`);
  if (values.confirm !== undefined && !(CONFIRM_MODES as readonly string[]).includes(values.confirm))
    throw new UsageError(`--confirm takes ${CONFIRM_MODES.join(' or ')} (got ${JSON.stringify(values.confirm)}).`);
  // A person typed this in a terminal: a JSON-RPC server would just sit there.
  if (process.stdin.isTTY) {
    process.stderr.write(
      `droidwright mcp speaks JSON-RPC on stdin and is started by an AI client, not by hand.\n\n${MCP_HELP}\n`,
    );
    return 2;
  }
  const code = await runMcpServer(
    runtimeOptions({
      projectPath: values.project,
      toolsets: values.toolsets === undefined ? undefined : values.toolsets.split(','),
      readOnly: values['read-only'] === true,
      confirm: values.confirm as ConfirmMode | undefined,
    }),
  );
  // stdin may still be open after a signal; everything is recorded and flushed, so leave now.
  await new Promise<void>((resolve) =>
    process.stdout.writableLength > 0 ? process.stdout.once('drain', () => resolve()) : resolve(),
  );
  process.exit(code);
}
