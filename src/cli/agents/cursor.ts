import { join } from 'node:path';
import type { AgentDescriptor } from './agent-integration.js';

/** Cursor has no CLI for MCP servers: its global `~/.cursor/mcp.json` (`mcpServers.<name>`) is edited. */
export const cursor: AgentDescriptor = {
  id: 'cursor',
  name: 'Cursor',
  configPath: (env) => join(env.home, '.cursor', 'mcp.json'),
  format: {
    kind: 'json',
    parent: 'mcpServers',
    entry: (launch) => ({ command: launch.command, args: [...launch.args] }),
  },
  installMarkers: (env) => [join(env.home, '.cursor'), ...(env.which('cursor') ? [env.which('cursor')!] : [])],
  skillsDir: (env) => join(env.home, '.cursor', 'skills'),
};
