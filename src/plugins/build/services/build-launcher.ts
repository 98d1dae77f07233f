import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { inject, injectable } from 'inversify';
import { ToolError } from '../../../kernel/errors.js';
import { droidwrightPackage } from '../../../kernel/package-root.js';
import { buildLogsDir } from '../../../kernel/paths.js';
import { ProcessRunner } from '../../../kernel/process-runner.js';
import { RuntimeOptions } from '../../../kernel/runtime-options.js';
import { storeEnv } from '../../../kernel/store-location.js';
import { currentProcess, identityOf, type ProcessIdentity } from '../../../kernel/process-identity.js';
import { BuildWorker } from './build-worker.js';

/** Starts the process that runs a build once `droidwright mcp` hands it the build's lock. */
export const BuildLauncher = Symbol.for('droidwright.BuildLauncher');
export interface BuildLauncher {
  /** Starts a worker for `buildId` in `root` and returns its identity; it waits for the lock before running anything. */
  launch(buildId: string, root: string): Promise<ProcessIdentity>;
}

/** The bundled CLI (dist/cli.js) of this package: the worker must be the same droidwright as the server. */
export function cliEntry(): string {
  const pkg = droidwrightPackage();
  const entry = pkg ? join(pkg.root, 'dist', 'cli.js') : null;
  if (!entry || !existsSync(entry)) {
    throw new ToolError(
      'NOT_FOUND',
      `Cannot find droidwright's bundled CLI (${entry ?? 'no droidwright package directory'}) to start the build worker. Reinstall droidwright, or run \`npm run build\` in a checkout.`,
    );
  }
  return entry;
}

/**
 * `droidwright build-worker <id>` as a detached process: its own session and process group, stdin
 * closed, output to `build-logs/<id>.worker.log`, not waited for. Nothing that happens to the MCP
 * process or its client (stdin closed, SIGTERM, SIGKILL) reaches it.
 */
@injectable()
export class DetachedBuildLauncher implements BuildLauncher {
  constructor(
    @inject(RuntimeOptions) private readonly options: RuntimeOptions,
    @inject(ProcessRunner) private readonly runner: ProcessRunner,
  ) {}

  async launch(buildId: string, root: string): Promise<ProcessIdentity> {
    const entry = cliEntry();
    const dir = buildLogsDir(this.options.home);
    mkdirSync(dir, { recursive: true });
    const logFd = openSync(join(dir, `${buildId}.worker.log`), 'a', 0o600);
    try {
      const pid = await this.runner.spawnDetached(process.execPath, [entry, 'build-worker', buildId], {
        cwd: root,
        // The worker writes the same log as this process, whatever its own environment says.
        env: storeEnv(this.options.env, this.options),
        logFd,
      });
      return identityOf(pid);
    } finally {
      closeSync(logFd);
    }
  }
}

/**
 * Runs the worker inside this process. For unit and integration tests only, which run the sources
 * (there is no bundle to spawn); the end-to-end tests cover the detached worker. The protocol is the
 * same: lock hand-over, build.started read back, cancel requests as events.
 */
@injectable()
export class InProcessBuildLauncher implements BuildLauncher {
  private readonly runs = new Set<Promise<unknown>>();

  constructor(@inject(BuildWorker) private readonly worker: BuildWorker) {}

  async launch(buildId: string): Promise<ProcessIdentity> {
    const me = currentProcess();
    const run: Promise<unknown> = this.worker
      .run(buildId, me)
      .catch((error: unknown) =>
        process.stderr.write(`droidwright: in-process build ${buildId} failed: ${(error as Error).message}\n`),
      )
      .finally(() => this.runs.delete(run));
    this.runs.add(run);
    return me;
  }

  /** Resolves once every build started through this launcher has been recorded. */
  async whenIdle(): Promise<void> {
    while (this.runs.size > 0) await Promise.allSettled([...this.runs]);
  }
}
