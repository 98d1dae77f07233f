// Entry point of the `droidwright` command. Kept tiny on purpose: the command definitions are plain data
// (cli/command-specs.ts) and each command's runner is loaded with a dynamic import (cli/command-loaders.ts), so
// esbuild splits it into its own chunk and `droidwright mcp` never loads what only other commands need.
import nodeModule from 'node:module';
import { commandLoaders } from './cli/command-loaders.js';
import { runCommandLine } from './cli/command-line.js';

// Node 22.1+ can keep V8's compiled code between runs, which is most of what a cold `droidwright mcp`
// spends before its first reply; on Node 20 the call does not exist and start-up just compiles again.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

process.exitCode = await runCommandLine(process.argv.slice(2), commandLoaders);
