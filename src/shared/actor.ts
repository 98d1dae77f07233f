/** Who caused something: an agent's MCP session, the CLI, the TUI, or droidwright itself. */
export type ActorKind = 'agent' | 'cli' | 'tui' | 'system';

export interface Actor {
  readonly kind: ActorKind;
  /** MCP session id for agents; absent otherwise. */
  readonly session?: string;
  /** Client name from the MCP `initialize` request (e.g. "claude-code"). */
  readonly client?: string;
  readonly clientVersion?: string;
  readonly pid: number;
}

export function systemActor(): Actor {
  return { kind: 'system', pid: process.pid };
}

export function cliActor(): Actor {
  return { kind: 'cli', pid: process.pid };
}

/** Short human label, e.g. "agent claude-code#a1b2c3 (pid 42)". */
export function describeActor(actor: Actor): string {
  if (actor.kind === 'agent') {
    const who = actor.client ?? 'unknown-client';
    const session = actor.session ? `#${actor.session.slice(0, 8)}` : '';
    return `agent ${who}${session} (pid ${actor.pid})`;
  }
  return `${actor.kind} (pid ${actor.pid})`;
}
