import { inject, injectable } from 'inversify';
import { describeActor, type Actor } from '../../shared/actor.js';
import { EventStoreProvider } from '../../kernel/event-store-provider.js';
import { canonicalProjectRoot, type ProjectTrust } from '../../kernel/project-trust.js';
import { ProjectTrusted, ProjectUntrusted } from './core.events.js';

export interface TrustedProject {
  readonly root: string;
  readonly trustedAt: number;
  readonly by: string;
}

/**
 * How a trust grant was confirmed, recorded with it. An agent with a shell tool can run
 * `droidwright trust --yes` itself; the evidence lets an auditor (and `get_project_info`) tell that
 * apart from a person answering the prompt in a terminal.
 */
export interface TrustEvidence {
  /**
   * `prompt`: "yes" was typed at a terminal (a tool can fake a terminal with `script`, so this is evidence,
   * not proof); `flag`: --yes; `demo`: droidwright demo's own project; `tui`: confirmed in droidwright tui.
   */
  readonly confirmed: 'prompt' | 'flag' | 'demo' | 'tui';
  /** The name of the program that ran droidwright (Linux /proc), never its arguments. */
  readonly parent_command: string | null;
  /** Names (never values) of environment variables that AI coding tools set in the shells they run. */
  readonly agent_env: readonly string[];
}

/**
 * Whether the user allowed a project's build code to run. Granted only by a human (CLI, TUI): no MCP
 * tool calls trust(). Backed by `project.trusted` / `project.untrusted` events, so every process sees a
 * grant or revocation at once; the `trusted_projects` read model only serves listings.
 */
@injectable()
export class TrustService implements ProjectTrust {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  /**
   * Decided by the newest grant or revocation in the project's own stream (an indexed read of the log),
   * not by a `trusted_projects` row: a row inserted by hand grants nothing. False when the log cannot be
   * read: an unreadable record never grants trust.
   */
  isTrusted(root: string): boolean {
    try {
      return this.trustedInLog(canonicalProjectRoot(root));
    } catch {
      return false;
    }
  }

  /** Records the grant. Returns false (and records nothing) when the project was already trusted. */
  trust(root: string, actor: Actor, evidence?: TrustEvidence): boolean {
    const canonical = canonicalProjectRoot(root);
    if (this.trustedInLog(canonical)) return false;
    this.store().append(
      ProjectTrusted,
      { root: canonical, by: describeActor(actor), ...evidence },
      { stream: trustStream(canonical), actor },
    );
    return true;
  }

  /**
   * Records the revocation. Returns false when the project was not trusted. A log that cannot be read throws
   * (STORE_UNAVAILABLE) rather than answer "not trusted": a revocation must never seem done when it was not.
   */
  untrust(root: string, actor: Actor): boolean {
    const canonical = canonicalProjectRoot(root);
    if (!this.trustedInLog(canonical)) return false;
    this.store().append(
      ProjectUntrusted,
      { root: canonical, by: describeActor(actor) },
      { stream: trustStream(canonical), actor },
    );
    return true;
  }

  /** The newest grant or revocation of the project's stream; throws when the log cannot be read. */
  private trustedInLog(canonical: string): boolean {
    const [latest] = this.store().query({
      stream: trustStream(canonical),
      types: [ProjectTrusted.type, ProjectUntrusted.type],
      order: 'desc',
      limit: 1,
    });
    return latest?.type === ProjectTrusted.type && (latest.data as { root?: unknown }).root === canonical;
  }

  list(): TrustedProject[] {
    const rows = this.store().prepareRead('SELECT root, trusted_at, by FROM trusted_projects ORDER BY root').all() as {
      root: string;
      trusted_at: number;
      by: string;
    }[];
    return rows.map((row) => ({ root: row.root, trustedAt: row.trusted_at, by: row.by }));
  }
}

/** The stream holding a project's trust history. */
function trustStream(canonicalRoot: string): string {
  return `project:${canonicalRoot}`;
}
