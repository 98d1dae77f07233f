import { join } from 'node:path';
import type { AgentDescriptor, AgentEnvironment } from './agent-integration.js';

/** VS Code's user folder (default profile), where its user-level `mcp.json` lives. */
function userDir(env: AgentEnvironment): string {
  if (env.platform === 'darwin') return join(env.home, 'Library', 'Application Support', 'Code', 'User');
  if (env.platform === 'win32')
    return join(env.env.APPDATA?.trim() || join(env.home, 'AppData', 'Roaming'), 'Code', 'User');
  return join(env.env.XDG_CONFIG_HOME?.trim() || join(env.home, '.config'), 'Code', 'User');
}

/**
 * VS Code with GitHub Copilot: the user `mcp.json` (`servers.<name>`, `type: "stdio"`), edited directly —
 * `code --add-mcp` can add a server but not remove one, and setup must be able to undo what it did.
 * Copilot reads user skills from `~/.copilot/skills`.
 */
export const vscode: AgentDescriptor = {
  id: 'vscode',
  name: 'VS Code (Copilot)',
  configPath: (env) => join(userDir(env), 'mcp.json'),
  format: {
    kind: 'json',
    parent: 'servers',
    entry: (launch) => ({ type: 'stdio', command: launch.command, args: [...launch.args] }),
  },
  installMarkers: (env) => [userDir(env), ...(env.which('code') ? [env.which('code')!] : [])],
  skillsDir: (env) => join(env.home, '.copilot', 'skills'),
};
