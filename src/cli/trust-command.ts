import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { cliActor } from '../shared/actor.js';
import { EventStoreProvider } from '../kernel/event-store-provider.js';
import { isGradleRoot, selectProject } from '../kernel/project-selection.js';
import { canonicalProjectRoot } from '../kernel/project-trust.js';
import { TrustService } from '../plugins/core/trust-service.js';
import { UsageError } from '../kernel/usage-error.js';
import { runtimeOptions, withContainer, writeOut } from './cli-support.js';
import type { CommandInput } from './command-spec.js';
import type { trustFlags, untrustFlags } from './command-specs.js';
import { agentEnvironmentMarkers, collectTrustEvidence, confirmOnTerminal } from './trust-evidence.js';

/** The project a trust command is about: the given path, or the project around the working directory. */
function targetProject(positionals: readonly string[], verb: string, mustExist = true): string {
  const cwd = process.cwd();
  if (positionals.length === 0) {
    const selected = selectProject({ cwd });
    if (!selected.root)
      throw new UsageError(
        `No Gradle project here (no settings.gradle[.kts] in ${cwd} or above). Pass the project path: droidwright ${verb} <path>.`,
      );
    return selected.root;
  }
  const path = resolve(cwd, positionals[0]!);
  // A deleted project can still be untrusted.
  if (!mustExist) return canonicalProjectRoot(path);
  try {
    if (!statSync(path).isDirectory()) throw new UsageError(`${path} is not a directory.`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path} does not exist.`);
  }
  return canonicalProjectRoot(path);
}

/** The result of a trust change, as --json prints it. */
function changeJson(root: string, trusted: boolean, changed: boolean): string {
  return `${JSON.stringify({ root, trusted, changed })}\n`;
}

export async function runTrustCommand({ values, positionals }: CommandInput<typeof trustFlags>): Promise<number> {
  return withContainer(runtimeOptions(), async (container) => {
    const trust = container.get(TrustService);
    if (values.list) {
      const projects = trust.list();
      if (values.json) await writeOut(`${JSON.stringify(projects)}\n`);
      else if (projects.length === 0) await writeOut('No trusted projects.\n');
      else
        await writeOut(
          projects.map((p) => `${p.root}  (trusted ${new Date(p.trustedAt).toISOString()} by ${p.by})`).join('\n') +
            '\n',
        );
      return 0;
    }
    const root = targetProject(positionals, 'trust');
    if (!isGradleRoot(root)) {
      process.stderr.write(
        `droidwright: ${root} is not a Gradle project (no settings.gradle or settings.gradle.kts).\n`,
      );
      return 1;
    }
    // An unreadable log fails here, before anyone is asked to confirm a grant that could not be recorded.
    container.get<EventStoreProvider>(EventStoreProvider)();
    if (trust.isTrusted(root)) {
      await writeOut(values.json ? changeJson(root, true, false) : `${root} is already trusted.\n`);
      return 0;
    }
    // Trust is a person's decision: asked for on a terminal. Without one, only an explicit --yes (a script the
    // user wrote) proceeds, and the grant records how it was confirmed and who ran it.
    // An AI coding tool's own shell (it sets markers such as CLAUDECODE) is the one place trust must not come from.
    const markers = agentEnvironmentMarkers(process.env);
    if (markers.length > 0) {
      throw new UsageError(
        `droidwright trust is running inside an AI coding tool's shell (${markers.join(', ')} set). Trust is the user's decision: run \`droidwright trust ${root}\` yourself in a terminal of your own.`,
      );
    }
    let confirmed: 'prompt' | 'flag';
    if (values.yes) confirmed = 'flag';
    else if (process.stdin.isTTY && process.stderr.isTTY) {
      const ok = await confirmOnTerminal(
        `Trust ${root}?\nAgents using droidwright will be able to run its Gradle build, which executes the project's build scripts with your permissions. Type "yes" to trust: `,
      );
      if (!ok) {
        process.stderr.write('Not trusted.\n');
        return 1;
      }
      confirmed = 'prompt';
    } else {
      throw new UsageError(
        `droidwright trust asks for confirmation on a terminal, and none is attached. Run \`droidwright trust ${root}\` yourself in a terminal, or add --yes in a script you wrote. (An AI agent must not trust a project on the user's behalf.)`,
      );
    }
    const changed = trust.trust(root, cliActor(), collectTrustEvidence(confirmed));
    if (values.json) {
      await writeOut(changeJson(root, true, changed));
      return 0;
    }
    await writeOut(
      changed
        ? `Trusted ${root}.\nAgents using droidwright may now run its Gradle build, which executes the project's build scripts with your permissions.\nRevoke with: droidwright untrust ${root}\n`
        : `${root} is already trusted.\n`,
    );
    return 0;
  });
}

export async function runUntrustCommand({ values, positionals }: CommandInput<typeof untrustFlags>): Promise<number> {
  return withContainer(runtimeOptions(), async (container) => {
    const root = targetProject(positionals, 'untrust', false);
    const changed = container.get(TrustService).untrust(root, cliActor());
    if (values.json) {
      await writeOut(changeJson(root, false, changed));
      return 0;
    }
    await writeOut(changed ? `Revoked trust in ${root}.\n` : `${root} was not trusted.\n`);
    return 0;
  });
}
