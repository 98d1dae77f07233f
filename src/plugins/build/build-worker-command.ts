import { statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { systemActor } from '../../shared/actor.js';
import { createContainer, disposeContainer } from '../../kernel/composition-root.js';
import { buildLogsDir, resolveHome } from '../../kernel/paths.js';
import { storeOption } from '../../kernel/store-location.js';
import { UsageError } from '../../kernel/usage-error.js';
import type { CommandInput } from '../../cli/command-spec.js';
import { pluginModules } from '../index.js';
import { BuildWorker } from './services/build-worker.js';

/**
 * `droidwright build-worker <build-id>` (hidden): started detached by `droidwright mcp` for each build.
 * Runs the build it was handed and exits; anything it prints goes to build-logs/<id>.worker.log.
 */
export async function runBuildWorkerCommand({ positionals }: CommandInput): Promise<number> {
  const [buildId] = positionals as [string];
  if (!/^[0-9a-f]{12}$/.test(buildId)) {
    throw new UsageError(
      'build-worker <build-id> is started by `droidwright mcp` for each build; it is not meant to be run by hand.',
    );
  }
  const home = resolveHome(process.env);
  const container = createContainer(
    { home, ...storeOption(process.env), cwd: process.cwd(), readOnly: false, env: process.env },
    pluginModules,
  );
  let code = 1;
  try {
    const worker = container.get(BuildWorker);
    // Stopped from outside (system shutdown, a person's kill): stop Gradle and record that, then exit.
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
      process.on(signal, () => worker.stopAll(systemActor(), 'shutdown'));
    const record = await worker.run(buildId);
    code = record ? 0 : 1;
    if (!record)
      process.stderr.write(
        `droidwright build-worker: build ${buildId} was not handed to this worker (or already ended); nothing ran.\n`,
      );
    if (record) removeIfEmpty(join(buildLogsDir(home), `${buildId}.worker.log`));
  } finally {
    disposeContainer(container);
  }
  // Nothing this process started may keep it alive after the record is written.
  process.exit(code);
}

/** A worker that had nothing to say leaves no file behind. */
function removeIfEmpty(path: string): void {
  try {
    if (statSync(path).size === 0) unlinkSync(path);
  } catch {
    // Not there, or not ours to remove.
  }
}
