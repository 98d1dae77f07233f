// Entry point of the `droidwright` command. Kept tiny on purpose: each subcommand is loaded with a
// dynamic import, so esbuild splits it into its own chunk and `droidwright mcp` never loads what only
// other commands need (Ink/React, the simulator, sharp).
import nodeModule from 'node:module';
import { droidwrightVersion } from './kernel/version.js';

// Node 22.1+ can keep V8's compiled code between runs, which is most of what a cold `droidwright mcp`
// spends before its first reply; on Node 20 the call does not exist and start-up just compiles again.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

type CommandRunner = (argv: string[]) => Promise<number>;

interface Command {
  readonly summary: string;
  /** Started by droidwright itself, not by people: left out of the help. */
  readonly hidden?: boolean;
  load(): Promise<CommandRunner>;
}

const commands: Record<string, Command> = {
  mcp: {
    summary:
      'Serve MCP over stdio for an AI client: mcp [--project P] [--toolsets a,b] [--read-only] [--confirm destructive|all-writes]',
    load: async () => (await import('./cli/mcp-command.js')).runMcpCommand,
  },
  events: {
    summary: 'Read, trace and check the event log: events list|tail|trace|verify|digest|export|stats|rebuild',
    load: async () => (await import('./cli/events-command.js')).runEventsCommand,
  },
  trust: {
    summary: "Allow a project's Gradle build to run: trust [path] (default: the project here); trust --list",
    load: async () => (await import('./cli/trust-command.js')).runTrustCommand,
  },
  untrust: {
    summary: 'Revoke trust in a project: untrust [path]',
    load: async () => (await import('./cli/trust-command.js')).runUntrustCommand,
  },
  sessions: {
    summary: 'Debug sessions, one per install: sessions list|show <id>|export <id>|verify <bundle>',
    load: async () => (await import('./cli/sessions-command.js')).runSessionsCommand,
  },
  runconfig: {
    summary:
      "List a project's run configurations, or approve its shared file: runconfig list|approve [--project P] [--json] [--yes]",
    load: async () => (await import('./cli/runconfig-command.js')).runRunconfigCommand,
  },
  tui: {
    summary:
      "Live dashboard of agents' tool calls, builds, devices and crashes; trust, cancel a build: tui [--project P]",
    load: async () => (await import('./tui/tui-command.js')).runTuiCommand,
  },
  docs: {
    summary: 'Print the tool reference (Markdown) generated from the tool registry',
    load: async () => (await import('./cli/docs-command.js')).runDocsCommand,
  },
  retrace: {
    summary: 'Deobfuscate an R8 stack trace with its mapping: retrace --mapping FILE [TRACE_FILE] (stdin when none)',
    load: async () => (await import('./cli/retrace-command.js')).runRetraceCommand,
  },
  sim: {
    summary:
      'Run a simulated Android device for adb: sim [--port P | --emulator-port P] [--avd NAME] [--scenario FILE] …',
    load: async () => (await import('./sim/sim-command.js')).runSimCommand,
  },
  demo: {
    summary: 'Start a simulated device and drive droidwright mcp through a scripted agent session: demo [--no-wait]',
    load: async () => (await import('./demo/demo-command.js')).runDemoCommand,
  },
  logcat: {
    summary:
      'Print the stored device log, pidcat-style: logcat [--device S] [--package mine|APP_ID] [--min-level L] [-f] [--json]',
    load: async () => (await import('./plugins/logcat/logcat-command.js')).runLogcatCommand,
  },
  'build-worker': {
    summary: 'Run one build handed over by droidwright mcp: build-worker <build-id>',
    hidden: true,
    load: async () => (await import('./plugins/build/build-worker-command.js')).runBuildWorkerCommand,
  },
  'logcat-worker': {
    summary: "Stream one device's log into the line store: logcat-worker <serial>",
    hidden: true,
    load: async () => (await import('./plugins/logcat/logcat-worker-command.js')).runLogcatWorkerCommand,
  },
};

export function helpText(): string {
  const listed = Object.entries(commands).filter(([, command]) => !command.hidden);
  const width = Math.max(...listed.map(([name]) => name.length));
  const lines = listed.map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    `droidwright ${droidwrightVersion()} — the Android development loop for AI agents, with a tamper-evident record of every action.`,
    '',
    'Usage: droidwright <command> [options]',
    '',
    'Commands:',
    ...lines,
    `  ${'help'.padEnd(width)}  Show this help`,
    '',
    'Options: --version, --help. Data lives in $DROIDWRIGHT_HOME (default ~/.droidwright).',
    'Exit codes: 0 ok, 1 failure, 2 usage error.',
  ].join('\n');
}

/** One line on stderr and an exit code; a stack trace only with DROIDWRIGHT_DEBUG=1. */
function reportFailure(error: unknown): number {
  const e = error as { name?: string; message?: string; code?: string; stack?: string };
  const usage = e?.name === 'UsageError' || e?.name === 'ProjectSelectionError';
  const known =
    usage || e?.name === 'ToolError' || e?.name === 'StoreUnavailableError' || e?.name === 'ToolRegistryError';
  const message = e?.message ?? String(error);
  process.stderr.write(`droidwright: ${known ? '' : 'unexpected error: '}${message}\n`);
  if (process.env.DROIDWRIGHT_DEBUG && e?.stack) process.stderr.write(`${e.stack}\n`);
  return usage ? 2 : 1;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stderr.write(`${helpText()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`${droidwrightVersion()}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`droidwright: unknown command "${name}".\n\n${helpText()}\n`);
    return 2;
  }
  try {
    const run = await command.load();
    return await run(rest);
  } catch (error) {
    return reportFailure(error);
  }
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
