import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { TrustEvidence } from '../kernel/trust-service.js';

const AGENT_ENV_PATTERNS = [/^CLAUDECODE$/, /^CLAUDE_CODE_/, /^CODEX_/, /^CURSOR_/, /^GEMINI_CLI/, /^AIDER_/, /^COPILOT_/, /^GITHUB_COPILOT/, /^WINDSURF_/, /^CLINE_/];

export function agentEnvironmentMarkers(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => AGENT_ENV_PATTERNS.some((pattern) => pattern.test(name)))
    .sort()
    .slice(0, 20);
}

export function parentCommand(ppid = process.ppid): string | null {
  try {
    const raw = readFileSync(`/proc/${ppid}/cmdline`, 'utf8');
    const text = raw.split('\0').filter(Boolean).join(' ');
    return text ? text.slice(0, 200) : null;
  } catch {
    return null;
  }
}

export function collectTrustEvidence(confirmed: TrustEvidence['confirmed'], env: NodeJS.ProcessEnv = process.env): TrustEvidence {
  return { confirmed, parent_command: parentCommand(), agent_env: agentEnvironmentMarkers(env) };
}

/** Asks on the terminal; true only for an explicit yes. */
export async function confirmOnTerminal(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question);
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
