import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { droidwrightVersion } from '../../kernel/version.js';
import type { ServerLaunch } from './agent-integration.js';

export interface ResolvedLaunch {
  readonly launch: ServerLaunch;
  /** The installed package (bin/, dist/, skills/). */
  readonly packageRoot: string;
  readonly kind: 'node' | 'npx';
  /** Why this form was chosen, for the output. */
  readonly reason: string;
}

/** The installed package this code runs from (the folder whose package.json is droidwright's), symlinks resolved. */
export function packageRoot(): string {
  let dir = dirname(realpathSync(fileURLToPath(import.meta.url)));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'droidwright') return dir;
    } catch {
      // Not here; keep walking up.
    }
    dir = dirname(dir);
  }
  throw new Error('cannot find the droidwright package this command runs from');
}

/**
 * The command line agents get. By default the absolute Node.js running setup and this installation's
 * dist/cli.js: it starts without npx's lookup (or a download), works in editors started outside a shell
 * (no PATH, no nvm), and is exactly the version that was set up. From npx's throw-away cache, or with
 * --npx, `npx -y droidwright@<version> mcp` instead, since that folder may be cleaned away.
 */
export function resolveLaunch(preferNpx: boolean): ResolvedLaunch {
  const root = packageRoot();
  const fromNpxCache = root.split(sep).includes('_npx');
  if (preferNpx || fromNpxCache) {
    return {
      launch: { command: 'npx', args: ['-y', `droidwright@${droidwrightVersion()}`, 'mcp'] },
      packageRoot: root,
      kind: 'npx',
      reason: preferNpx
        ? '--npx: agents start the published package through npx'
        : `running from npx's cache (${root}), which npm may clean: agents start the published package through npx`,
    };
  }
  const cli = join(root, 'dist', 'cli.js');
  return {
    launch: { command: process.execPath, args: [cli, 'mcp'] },
    packageRoot: root,
    kind: 'node',
    reason: `this Node.js and this installation's ${cli}; run setup again after moving or reinstalling droidwright`,
  };
}
