import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { inject, injectable } from 'inversify';
import { describeActor, type Actor } from './actor.js';
import { EventStoreProvider } from './event-store-provider.js';
import { ProjectTrusted, ProjectUntrusted } from '../plugins/core/core.events.js';

export interface TrustedProject {
  readonly root: string;
  readonly trustedAt: number;
  readonly by: string;
}

/** Canonical form used as the trust key, so a symlinked path and its target are one project. */
export function canonicalProjectRoot(root: string): string {
  const absolute = resolve(root);
  return existsSync(absolute) ? realpathSync(absolute) : absolute;
}

/**
 * How a trust grant was confirmed, recorded with it. An agent with a shell tool can run
 * `droidwright trust --yes` itself; the evidence lets an auditor (and `get_project_info`) tell that
 * apart from a person answering the prompt in a terminal.
 */
export interface TrustEvidence {
  /**
   * `prompt`: "yes" was typed at a terminal (a tool can fake a terminal with `script`, so this is evidence,
   * not proof); `flag`: --yes; `demo`: droidwright demo's own project.
   */
  readonly confirmed: 'prompt' | 'flag' | 'demo';
  /** The name of the program that ran droidwright (Linux /proc), never its arguments. */
  readonly parent_command: string | null;
  /** Names (never values) of environment variables that AI coding tools set in the shells they run. */
  readonly agent_env: readonly string[];
}

/**
 * Whether the user allowed a project's build code to run. Granted only by a human (CLI, TUI): no MCP
 * tool calls trust(). Backed by `project.trusted` / `project.untrusted` events and the
 * `trusted_projects` read model, so every process sees a grant or revocation at once.
 */
@injectable()
export class TrustService {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  /** False when the log cannot be read: an unreadable record never grants trust. */
  isTrusted(root: string): boolean {
    try {
      const row = this.store()
        .db.prepare('SELECT 1 FROM trusted_projects WHERE root = ?')
        .get(canonicalProjectRoot(root));
      return row !== undefined;
    } catch {
      return false;
    }
  }

  /** Records the grant. Returns false (and records nothing) when the project was already trusted. */
  trust(root: string, actor: Actor, evidence?: TrustEvidence): boolean {
    const canonical = canonicalProjectRoot(root);
    if (this.isTrusted(canonical)) return false;
    this.store().append(
      ProjectTrusted,
      { root: canonical, by: describeActor(actor), ...evidence },
      { stream: `project:${canonical}`, actor },
    );
    return true;
  }

  /** Records the revocation. Returns false when the project was not trusted. */
  untrust(root: string, actor: Actor): boolean {
    const canonical = canonicalProjectRoot(root);
    if (!this.isTrusted(canonical)) return false;
    this.store().append(
      ProjectUntrusted,
      { root: canonical, by: describeActor(actor) },
      { stream: `project:${canonical}`, actor },
    );
    return true;
  }

  list(): TrustedProject[] {
    const rows = this.store().db.prepare('SELECT root, trusted_at, by FROM trusted_projects ORDER BY root').all() as {
      root: string;
      trusted_at: number;
      by: string;
    }[];
    return rows.map((row) => ({ root: row.root, trustedAt: row.trusted_at, by: row.by }));
  }
}
