import { McpAgent } from './agent-integration.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { cursor } from './cursor.js';
import { geminiCli } from './gemini-cli.js';
import { vscode } from './vscode.js';

/** Every agent setup and doctor know, in the order they are reported. */
export const agents: readonly McpAgent[] = [claudeCode, codex, geminiCli, vscode, cursor].map((d) => new McpAgent(d));
