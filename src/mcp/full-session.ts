import type { Readable } from 'node:stream';
import type { Container } from 'inversify';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createContainer, disposeContainer } from '../kernel/composition-root.js';
import { SelectedProject } from '../kernel/project-selection.js';
import type { RuntimeOptions } from '../kernel/runtime-options.js';
import type { Logger } from '../kernel/tool-definition.js';
import { pluginModules } from '../plugins/index.js';
import { McpSession } from './mcp-session.js';
import type { ToolCatalog } from './tool-catalog.js';

export interface FullSession {
  readonly session: McpSession;
  readonly container: Container;
  readonly transport: StdioServerTransport;
  dispose(): void;
}

/**
 * The whole server: every plugin's container, the SDK's Server, the policies and the recorder. Loaded by
 * `droidwright mcp` (with a dynamic import, so none of it is evaluated before the client has its tool list)
 * when the session needs more than the catalog answers. It reads `input`, which starts with `replay` (what
 * the start-up front consumed); the reply to the replayed initialize, `dropReplyTo`, is not sent again.
 */
export async function startFullSession(
  options: RuntimeOptions,
  logger: Logger,
  catalog: ToolCatalog | undefined,
  input: Readable,
  onClose: () => void,
  dropReplyTo?: string,
): Promise<FullSession> {
  const container = createContainer(options, pluginModules);
  try {
    container.get<SelectedProject>(SelectedProject);
    const session = new McpSession(container, {
      toolsets: options.toolsets,
      readOnly: options.readOnly,
      confirm: options.confirm,
      logger,
      ...(catalog ? { catalog } : {}),
    });
    const transport = new StdioServerTransport(input, process.stdout);
    if (dropReplyTo !== undefined) {
      const send = transport.send.bind(transport);
      transport.send = async (message) => {
        if ('id' in message && message.id === dropReplyTo && !('method' in message)) return;
        return send(message);
      };
    }
    transport.onclose = onClose;
    await session.connect(transport);
    // Let the replay already in `input` reach the session first, so a close that follows at once (stdin ended
    // right after the handshake) finds the session started and records its start and end.
    await new Promise((resolve) => setImmediate(resolve));
    return { session, container, transport, dispose: () => disposeContainer(container) };
  } catch (error) {
    disposeContainer(container);
    throw error;
  }
}
