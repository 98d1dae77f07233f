import { relative } from 'node:path';
import { inject, injectable } from 'inversify';
import { describeActor, type Actor } from '../../shared/actor.js';
import { ToolError } from '../../kernel/errors.js';
import { EventStoreProvider } from '../../kernel/event-store-provider.js';
import { canonicalProjectRoot } from '../../kernel/project-trust.js';
import {
  readSharedRunConfigurations,
  SHARED_FILE,
  type SharedRunConfigurations,
} from './shared-run-configurations-file.js';
import { RunConfigurationsApproved, runConfigurationStream } from './run-configurations.events.js';

export interface RecordedApproval {
  readonly sha256: string;
  /** UTC epoch milliseconds. */
  readonly at: number;
  readonly by: string;
}

/**
 * Where the shared file stands: `none` (no file), `approved` (its current bytes were approved), `not_approved`
 * (never approved), `stale` (approved, then edited), `invalid` (the file breaks its schema; `error` says how).
 */
export type SharedFileStatus = 'none' | 'approved' | 'not_approved' | 'stale' | 'invalid';

export interface SharedFileState {
  readonly status: SharedFileStatus;
  readonly path: string;
  readonly file: SharedRunConfigurations | null;
  /** The newest approval recorded for this project, whatever content it was for. */
  readonly approval: RecordedApproval | null;
  readonly error: ToolError | null;
}

/** The command that approves, as the user types it. */
export function approveCommand(projectRoot: string): string {
  return `droidwright runconfig approve --project ${projectRoot}`;
}

/**
 * The user's approval of a project's shared run configurations. The file comes with the repository, so
 * whoever can push to it could otherwise choose what an agent launches and where: a shared configuration
 * runs only while the file's SHA-256 is the one the newest `run_configurations.approved` event of the
 * project recorded. Approving is a person's act (the `runconfig approve` command, the TUI); no MCP tool
 * calls `approve`. The decision is read from the log itself, never from a read model.
 */
@injectable()
export class RunConfigurationApprovals {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  /** The newest approval recorded for the project, or null. */
  latestApproval(projectRoot: string): RecordedApproval | null {
    const root = canonicalProjectRoot(projectRoot);
    const [latest] = this.store().query({
      stream: runConfigurationStream(root),
      types: [RunConfigurationsApproved.type],
      order: 'desc',
      limit: 1,
    });
    if (!latest) return null;
    const data = latest.data as { sha256: string; by: string; project_root: string };
    if (data.project_root !== root) return null;
    return { sha256: data.sha256, at: latest.at, by: data.by };
  }

  /** Reads the file and compares it with the newest approval. */
  state(projectRoot: string): SharedFileState {
    const root = canonicalProjectRoot(projectRoot);
    const path = `${root}/${SHARED_FILE}`;
    let file: SharedRunConfigurations | null;
    try {
      file = readSharedRunConfigurations(root);
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      return { status: 'invalid', path, file: null, approval: this.latestApproval(root), error };
    }
    if (!file) return { status: 'none', path, file: null, approval: null, error: null };
    const approval = this.latestApproval(root);
    const status = !approval ? 'not_approved' : approval.sha256 === file.sha256 ? 'approved' : 'stale';
    return { status, path, file, approval, error: null };
  }

  /**
   * Records `actor`'s approval of the file's current content. Returns the file and whether anything was
   * recorded (false when exactly this content was already approved). An invalid or missing file is refused:
   * there is nothing well-formed to approve. With `expectedSha256` (the content the person reviewed), a file
   * that changed since is refused instead of approved unseen.
   */
  approve(
    projectRoot: string,
    actor: Actor,
    expectedSha256?: string,
  ): { file: SharedRunConfigurations; recorded: boolean } {
    const root = canonicalProjectRoot(projectRoot);
    const state = this.state(root);
    if (state.error) throw state.error;
    if (!state.file)
      throw new ToolError(
        'NOT_FOUND',
        `${state.path} does not exist, so there is nothing to approve. Derived run configurations (one per application module and variant) need no approval.`,
      );
    if (expectedSha256 !== undefined && state.file.sha256 !== expectedSha256)
      throw new ToolError(
        'CONFIGURATION_NOT_APPROVED',
        `${state.path} changed while it was being reviewed (SHA-256 ${expectedSha256.slice(0, 12)}… then, ${state.file.sha256.slice(0, 12)}… now); nothing was approved. Review it again and approve.`,
      );
    if (state.status === 'approved') return { file: state.file, recorded: false };
    this.store().append(
      RunConfigurationsApproved,
      {
        project_root: root,
        file: relative(root, state.file.path) || SHARED_FILE,
        sha256: state.file.sha256,
        configurations: state.file.configurations.map((c) => c.name),
        by: describeActor(actor),
      },
      { stream: runConfigurationStream(root), actor },
    );
    return { file: state.file, recorded: true };
  }

  /**
   * Throws CONFIGURATION_NOT_APPROVED unless the file's current content is approved, with the reason
   * (never approved, or edited since) and the command the user runs.
   */
  requireApproved(projectRoot: string, configuration: string): SharedRunConfigurations {
    const root = canonicalProjectRoot(projectRoot);
    const state = this.state(root);
    if (state.error) throw state.error;
    if (state.status === 'approved' && state.file) return state.file;
    throw notApprovedError(root, configuration, state);
  }
}

/** Why a shared configuration may not run now, and what the user does about it. */
export function notApprovedError(root: string, configuration: string, state: SharedFileState): ToolError {
  const why =
    state.status === 'stale' && state.approval
      ? `${state.path} changed since ${state.approval.by} approved it on ${new Date(state.approval.at).toISOString()} (approved SHA-256 ${state.approval.sha256.slice(0, 12)}…, now ${state.file?.sha256.slice(0, 12)}…)`
      : `the user has not approved ${state.path}`;
  return new ToolError(
    'CONFIGURATION_NOT_APPROVED',
    `Run configuration "${configuration}" comes from the project's shared file and ${why}. A shared configuration runs only after the user reviews the file and runs \`${approveCommand(root)}\` in their own terminal; ask the user to do that (an agent must not approve it), or run a derived configuration meanwhile.`,
    { status: state.status, file: state.path },
  );
}
