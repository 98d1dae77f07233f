import { join } from 'node:path';
import { type AgentDescriptor, type AgentEnvironment, SERVER_NAME } from './agent-integration.js';

function codexHome(env: AgentEnvironment): string {
  return env.env.CODEX_HOME?.trim() || join(env.home, '.codex');
}

/**
 * OpenAI Codex CLI: `codex mcp add <name> -- <command> <args…>` writes `[mcp_servers.<name>]` to
 * `$CODEX_HOME/config.toml` (default `~/.codex`). It reads user skills from `~/.agents/skills`.
 */
export const codex: AgentDescriptor = {
  id: 'codex',
  name: 'Codex',
  cli: {
    command: 'codex',
    add: (launch) => ['mcp', 'add', SERVER_NAME, '--', launch.command, ...launch.args],
    remove: () => ['mcp', 'remove', SERVER_NAME],
  },
  configPath: (env) => join(codexHome(env), 'config.toml'),
  format: { kind: 'toml' },
  installMarkers: (env) => [codexHome(env)],
  skillsDir: (env) => join(env.home, '.agents', 'skills'),
};
