import { hostname } from 'node:os';

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
  /**
   * The machine the process ran on (`DROIDWRIGHT_HOST`, else the OS host name). A pid means something only
   * on its own host, and a team's shared log has many. Absent on events recorded before hosts were named.
   * Claimed by the writer, not proven (docs/team-store.md).
   */
  readonly host?: string;
}

/** Longest host name accepted: DNS names are at most 253 characters. */
export const MAX_HOST_LENGTH = 253;

// Control characters (C0, DEL, C1) would rewrite a terminal line or hide in an audit listing.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/g;

/** Printable, no whitespace at the ends, bounded: a host name goes into terminal output, SQL keys and events. */
export function hostNameProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'must be a non-empty string';
  if (value.length > MAX_HOST_LENGTH) return `must be at most ${MAX_HOST_LENGTH} characters`;
  if (value.search(CONTROL_CHARACTER) !== -1) return 'must not contain control characters';
  if (value.trim() !== value) return 'must not start or end with whitespace';
  return null;
}

let osHost: string | undefined;

/**
 * This machine's name as droidwright records it. `DROIDWRIGHT_HOST` overrides the OS host name (a CI runner
 * whose container name changes every job, or tests playing two machines); it is read on every call so a
 * test can switch it. A bad override is refused, naming the variable; a bad OS name is made printable.
 */
export function thisHost(): string {
  const override = process.env.DROIDWRIGHT_HOST;
  if (override !== undefined && override !== '') {
    const problem = hostNameProblem(override);
    if (problem) throw new Error(`DROIDWRIGHT_HOST ${problem} (got ${JSON.stringify(override.slice(0, 80))}).`);
    return override;
  }
  if (osHost === undefined) {
    const cleaned = hostname().replace(CONTROL_CHARACTER, '?').trim().slice(0, MAX_HOST_LENGTH);
    osHost = cleaned.length > 0 ? cleaned : 'localhost';
  }
  return osHost;
}

export function systemActor(): Actor {
  return { kind: 'system', pid: process.pid, host: thisHost() };
}

export function cliActor(): Actor {
  return { kind: 'cli', pid: process.pid, host: thisHost() };
}

/**
 * Short human label, e.g. "agent claude-code#a1b2c3 (pid 42 on laptop-a)". A pure function of the actor (the
 * build history projection stores it, and a rebuild on another machine must give the same text), so the host
 * is shown whenever the actor has one, unless the caller names its own host in `localHost` (listings for the
 * person at this machine, where only other machines are worth naming).
 */
export function describeActor(actor: Actor, localHost?: string): string {
  const where = actor.host !== undefined && actor.host !== localHost ? ` on ${actor.host}` : '';
  if (actor.kind === 'agent') {
    const who = actor.client ?? 'unknown-client';
    const session = actor.session ? `#${actor.session.slice(0, 8)}` : '';
    return `agent ${who}${session} (pid ${actor.pid}${where})`;
  }
  return `${actor.kind} (pid ${actor.pid}${where})`;
}
