import { join } from 'node:path';
import { type AgentDescriptor, type AgentEnvironment, SERVER_NAME } from './agent-integration.js';

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`: skills live there; user-scope MCP servers in `.claude.json`. */
function claudeDir(env: AgentEnvironment): string {
  return env.env.CLAUDE_CONFIG_DIR?.trim() || join(env.home, '.claude');
}

/**
 * Claude Code: `claude mcp add --scope user` (user scope: every project). It stores user servers under
 * `mcpServers` in `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set), read here to know the state.
 */
export const claudeCode: AgentDescriptor = {
  id: 'claude-code',
  name: 'Claude Code',
  cli: {
    command: 'claude',
    add: (launch) => ['mcp', 'add', '--scope', 'user', SERVER_NAME, '--', launch.command, ...launch.args],
    remove: () => ['mcp', 'remove', '--scope', 'user', SERVER_NAME],
  },
  configPath: (env) =>
    env.env.CLAUDE_CONFIG_DIR?.trim() ? join(claudeDir(env), '.claude.json') : join(env.home, '.claude.json'),
  format: {
    kind: 'json',
    parent: 'mcpServers',
    entry: (launch) => ({ type: 'stdio', command: launch.command, args: [...launch.args], env: {} }),
  },
  installMarkers: (env) => [join(env.home, '.claude.json'), claudeDir(env)],
  skillsDir: (env) => join(claudeDir(env), 'skills'),
};
