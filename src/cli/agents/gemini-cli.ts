import { join } from 'node:path';
import { type AgentDescriptor, SERVER_NAME } from './agent-integration.js';

/**
 * Gemini CLI: `gemini mcp add --scope user <name> <command> <args…>` writes `mcpServers.<name>` to
 * `~/.gemini/settings.json`; user skills live in `~/.gemini/skills`.
 */
export const geminiCli: AgentDescriptor = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  cli: {
    command: 'gemini',
    add: (launch) => ['mcp', 'add', '--scope', 'user', SERVER_NAME, launch.command, ...launch.args],
    remove: () => ['mcp', 'remove', '--scope', 'user', SERVER_NAME],
  },
  configPath: (env) => join(env.home, '.gemini', 'settings.json'),
  format: {
    kind: 'json',
    parent: 'mcpServers',
    entry: (launch) => ({ command: launch.command, args: [...launch.args] }),
  },
  installMarkers: (env) => [join(env.home, '.gemini')],
  skillsDir: (env) => join(env.home, '.gemini', 'skills'),
};
