import { format } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createContainer, disposeContainer } from '../kernel/composition-root.js';
import { createStderrLogger } from '../kernel/logger.js';
import { SelectedProject } from '../kernel/project-selection.js';
import type { RuntimeOptions } from '../kernel/runtime-options.js';
import { pluginModules } from '../plugins/index.js';
import { McpSession } from './mcp-session.js';

/** How long `droidwright mcp` may take to stop once its client goes away or it gets a signal. */
const SHUTDOWN_LIMIT_MS = 1500;

/** Stdout carries only JSON-RPC: anything a dependency prints goes to stderr instead. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

/**
 * `droidwright mcp`: serves one MCP session on stdin/stdout until stdin closes or a signal arrives.
 * Resolves with the exit code. Bad flags (unknown toolset, missing --project) throw before the
 * transport starts, so the caller can exit 2 without a half-started server.
 */
export async function runMcpServer(options: RuntimeOptions): Promise<number> {
  guardStdout();
  const logger = createStderrLogger('mcp', options.env);
  const container = createContainer(options, pluginModules);
  container.get<SelectedProject>(SelectedProject);
  const session = new McpSession(container, {
    toolsets: options.toolsets,
    readOnly: options.readOnly,
    confirm: options.confirm,
    logger,
  });

  const transport = new StdioServerTransport();
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));
  let ending: Promise<void> | undefined;
  const end = (reason: string): void => {
    // A second stop (the client's SIGTERM after it closed stdin) must not wait behind the first.
    if (ending) return;
    ending = session
      .close(reason)
      .catch((error: unknown) => logger.error(`closing the session failed: ${(error as Error).message}`))
      .finally(() => {
        disposeContainer(container);
        finish(0);
      });
    // Clients SIGKILL a server that lingers (the SDK after 2 s + 2 s): leave well before that.
    setTimeout(() => {
      disposeContainer(container);
      finish(0);
    }, SHUTDOWN_LIMIT_MS).unref();
  };
  transport.onclose = () => end('transport closed');
  process.stdin.once('end', () => end('stdin closed'));
  process.stdin.once('close', () => end('stdin closed'));
  process.stdout.on('error', (error: NodeJS.ErrnoException) => end(`stdout ${error.code ?? 'error'}`));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => end(signal));

  await session.connect(transport);
  return done;
}
