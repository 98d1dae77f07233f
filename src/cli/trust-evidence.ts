import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { TrustEvidence } from '../plugins/core/trust-service.js';

const AGENT_ENV_PATTERNS = [
  /^CLAUDECODE$/,
  /^CLAUDE_CODE_/,
  /^CODEX_/,
  /^CURSOR_/,
  /^GEMINI_CLI/,
  /^AIDER_/,
  /^COPILOT_/,
  /^GITHUB_COPILOT/,
  /^WINDSURF_/,
  /^CLINE_/,
];

export function agentEnvironmentMarkers(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => AGENT_ENV_PATTERNS.some((pattern) => pattern.test(name)))
    .sort()
    .slice(0, 20)
    .map((name) => name.slice(0, 100));
}

/**
 * The program that ran droidwright (e.g. `bash`, `node`, `script`): only its name, never its arguments,
 * which may hold secrets and would stay in an append-only log forever.
 */
export function parentCommand(ppid = process.ppid): string | null {
  try {
    const program = readFileSync(`/proc/${ppid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    const name = program.split('/').pop() ?? '';
    return name ? name.slice(0, 100) : null;
  } catch {
    return null;
  }
}

export function collectTrustEvidence(
  confirmed: TrustEvidence['confirmed'],
  env: NodeJS.ProcessEnv = process.env,
): TrustEvidence {
  return { confirmed, parent_command: parentCommand(), agent_env: agentEnvironmentMarkers(env) };
}

/** Asks on the terminal; true only for an explicit "yes". Ctrl-D or Ctrl-C count as no. */
export async function confirmOnTerminal(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string | null>((resolve) => {
      rl.once('close', () => resolve(null));
      rl.once('SIGINT', () => resolve(null));
      rl.question(question).then(resolve, () => resolve(null));
    });
    return answer !== null && /^yes$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
