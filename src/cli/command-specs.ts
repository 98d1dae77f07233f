// Every droidwright command, as data: the parser, `--help`, `droidwright help` and the shell completion read these
// definitions and nothing else, so they cannot disagree. Loaded at every start (`droidwright mcp` included), so this
// module stays plain data: each command's runner is imported in src/cli.ts only when that command runs.
import type { CommandSpec, FlagSpecs } from './command-spec.js';

/** Accepted by every command, before or after its name. */
export const globalFlags = {
  home: {
    type: 'string',
    valueName: 'DIR',
    complete: 'directory',
    description:
      'The data directory (the event log, build logs, settings); same as $DROIDWRIGHT_HOME, default ~/.droidwright',
  },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const satisfies FlagSpecs;

const projectFlag = {
  type: 'string',
  valueName: 'DIR',
  complete: 'directory',
  description: 'The Gradle project (default: the nearest settings.gradle[.kts] at or above the working directory)',
} as const;

/**
 * On every command that opens the event log. The CLI makes it $DROIDWRIGHT_STORE for the process and its workers,
 * so one choice covers the server, its builds and its logcat streams.
 */
const storeFlag = {
  type: 'string',
  valueName: 'URL',
  complete: 'file',
  description:
    'The event log: a postgres://user@host:port/database URL (password from PGPASSWORD or ~/.pgpass, never ' +
    'printed; TLS options such as ?sslmode=verify-full pass through) or a SQLite file; same as $DROIDWRIGHT_STORE, ' +
    'default events.db in the data directory',
} as const;

export const mcpFlags = {
  project: projectFlag,
  toolsets: {
    type: 'string',
    valueName: 'a,b',
    complete: 'toolset',
    description: 'Serve only these toolsets, comma-separated (default: all); an unknown name exits 2',
  },
  'read-only': { type: 'boolean', description: 'Serve only tools that change nothing' },
  confirm: {
    type: 'string',
    valueName: 'MODE',
    complete: { values: ['destructive', 'all-writes'] },
    description:
      'Ask the person through the client (MCP elicitation) before a call runs: destructive = D and O tools, ' +
      'all-writes = W, D and O; a client that cannot ask gets the call refused, never run unconfirmed',
  },
  store: storeFlag,
} as const satisfies FlagSpecs;

const mcp: CommandSpec = {
  name: 'mcp',
  summary: 'Serve MCP over stdio for an AI client (started by the client, not by hand)',
  usage: 'mcp [--project DIR] [--toolsets a,b] [--read-only] [--confirm destructive|all-writes]',
  description:
    'Serves the Model Context Protocol on stdin/stdout. AI clients start this command themselves; register it ' +
    'in your client. Run by hand in a terminal, it explains that and exits 2.',
  flags: mcpFlags,
  examples: [
    ['claude mcp add droidwright -- npx droidwright mcp', 'register with Claude Code'],
    ['codex mcp add droidwright -- npx droidwright mcp --toolsets core,build', 'only the core and build tools'],
    ['claude mcp add droidwright -- npx droidwright mcp --confirm destructive', 'you approve every D and O call'],
  ],
};

const filterFlags = {
  type: {
    type: 'string',
    multiple: true,
    valueName: 'GLOB',
    description: 'Event type, * globs, repeatable or comma-separated (build.*)',
  },
  since: { type: 'string', valueName: 'T', description: 'From this time: ISO time, epoch ms, or 15m/2h/1d ago' },
  until: { type: 'string', valueName: 'T', description: 'Before this time (same forms as --since)' },
  device: { type: 'string', valueName: 'SERIAL', complete: 'device', description: 'Events about this device' },
  package: { type: 'string', valueName: 'ID', description: 'Events about this application id' },
  session: {
    type: 'string',
    valueName: 'ID',
    description: 'Events of this MCP session (or its first characters, as listed: #1a2b3c4d)',
  },
  client: { type: 'string', valueName: 'NAME', description: 'Events of this MCP client (* globs)' },
  tool: { type: 'string', valueName: 'NAME', description: 'Calls of this tool (* globs)' },
  correlation: { type: 'string', valueName: 'ID', description: 'Events with this correlation id' },
} as const satisfies FlagSpecs;

const jsonFlag = { type: 'boolean', description: 'Print JSON instead of text' } as const;

export const eventsListFlags = {
  ...filterFlags,
  limit: { type: 'string', valueName: 'N', description: 'At most N events, the newest (1-10000)' },
  follow: { type: 'boolean', short: 'f', description: 'Then follow new events from every process until Ctrl-C' },
  json: { type: 'boolean', description: 'One JSON array; with -f, one event per line (JSON Lines)' },
  store: storeFlag,
} as const satisfies FlagSpecs;

export const eventsTraceFlags = { json: jsonFlag, store: storeFlag } as const satisfies FlagSpecs;

export const eventsVerifyFlags = {
  projections: { type: 'boolean', description: 'Also replay the log in memory and compare every read model' },
  full: { type: 'boolean', description: "Run SQLite's integrity_check (slower) instead of its quick_check" },
  digest: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'Check the log still extends a digest from `events digest`',
  },
  'allowed-signers': {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'With --digest: check its SSH signature against this allowed_signers file',
  },
  witness: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'The witness file to check (default: witness.jsonl beside the log)',
  },
  'no-witness': { type: 'boolean', description: 'Do not check a witness file' },
  file: {
    type: 'string',
    valueName: 'EXPORT',
    complete: 'file',
    description: 'Verify an export (`events export`) offline, with no database',
  },
  json: { type: 'boolean', description: 'Print the result as JSON' },
  store: storeFlag,
} as const satisfies FlagSpecs;

export const eventsDigestFlags = {
  sign: { type: 'boolean', description: 'Sign it with your SSH key (ssh-keygen -Y sign, namespace droidwright)' },
  key: { type: 'string', valueName: 'FILE', complete: 'file', description: 'With --sign: the private key to use' },
  json: { type: 'boolean', description: 'The digest is printed as JSON either way' },
  store: storeFlag,
} as const satisfies FlagSpecs;

export const eventsExportFlags = {
  ...filterFlags,
  out: { type: 'string', short: 'o', valueName: 'FILE', complete: 'file', description: 'Write to FILE, not stdout' },
  json: { type: 'boolean', description: 'The export is JSON Lines either way' },
  store: storeFlag,
} as const satisfies FlagSpecs;

const locationFlag = (side: string) =>
  ({
    type: 'string',
    valueName: 'LOCATION',
    complete: 'file',
    description: `${side}: a postgres://… URL or a SQLite file (default: the current store, see --store)`,
  }) as const;

export const eventsMigrateFlags = {
  to: locationFlag('Copy into this log'),
  from: locationFlag('Copy from this log'),
  json: { type: 'boolean', description: 'Print the result as JSON' },
  store: storeFlag,
} as const satisfies FlagSpecs;

export const eventsStatsFlags = { json: jsonFlag, store: storeFlag } as const satisfies FlagSpecs;
export const eventsRebuildFlags = { json: jsonFlag, store: storeFlag } as const satisfies FlagSpecs;

const events: CommandSpec = {
  name: 'events',
  summary: 'Read, trace and check the event log: list, tail, trace, verify, digest, export, migrate, stats, rebuild',
  usage: 'events <command> [options]',
  description:
    'Everything droidwright does is an event in a hash-chained log: a SQLite file in the data directory, or a ' +
    'PostgreSQL database chosen with --store or $DROIDWRIGHT_STORE. The hash format and what the witness does and ' +
    'does not prove: docs/event-log.md.',
  subcommands: [
    {
      name: 'list',
      summary: 'Recent events, oldest first',
      usage: 'events list [filters] [--limit N] [-f] [--json]',
      flags: eventsListFlags,
      examples: [
        ["droidwright events list --type 'build.*' --limit 20", 'the last 20 build events'],
        ['droidwright events list --client claude-code --tool install_apk', "an MCP client's calls of one tool"],
        ["droidwright events list --session '#1a2b3c4d' --json", 'a session by the short id the lists print'],
      ],
    },
    {
      name: 'tail',
      summary: 'The last events, then follow new ones with -f',
      usage: 'events tail [filters] [--limit N] [-f] [--json]',
      flags: eventsListFlags,
      examples: [
        ['droidwright events tail -f', "follow every process's events live"],
        ["droidwright events tail -f --json --type 'app.*'", 'JSON Lines, one event a line'],
      ],
    },
    {
      name: 'trace',
      summary: 'Who did it, on which device, from which sources: one install, build or MCP session',
      usage: 'events trace install|build|session ID [--json]',
      positionals: [
        {
          name: 'KIND',
          description: 'install, build or session',
          complete: { values: ['install', 'build', 'session'] },
        },
        {
          name: 'ID',
          description: 'install: a seq, event id or package; build: a build id; session: an id prefix',
        },
      ],
      flags: eventsTraceFlags,
      examples: [
        ['droidwright events trace install com.example.app', 'who installed which build, from which sources'],
        ['droidwright events trace build 3f2a9c1b7d4e', 'who started it, its commit and dirty files, outcome'],
        ['droidwright events trace session 1a2b3c4d --json', 'the client and its calls with their outcomes'],
      ],
    },
    {
      name: 'verify',
      summary: 'Check the log (chain, canonical rows, witness); exit 1 naming the first bad seq',
      usage:
        'events verify [--projections] [--full] [--digest FILE [--allowed-signers FILE]] [--witness FILE | --no-witness] [--file EXPORT] [--json]',
      flags: eventsVerifyFlags,
      examples: [
        ['droidwright events verify', 'the chain, every row canonical, the witness'],
        ['droidwright events verify --projections', 'also compare every read model with a replay'],
        ['droidwright events verify --digest digest.json --allowed-signers ~/.ssh/allowed_signers', ''],
        ['droidwright events verify --file log.jsonl', 'an export, offline'],
      ],
    },
    {
      name: 'digest',
      summary: 'Print {seq, hash, at} of the newest event, to keep elsewhere',
      usage: 'events digest [--sign [--key FILE]]',
      flags: eventsDigestFlags,
      examples: [
        ['droidwright events digest > digest.json', ''],
        ['droidwright events digest --sign > digest.json', 'signed with your SSH key'],
      ],
    },
    {
      name: 'export',
      summary: 'Write events as JSON Lines, oldest first',
      usage: 'events export [filters] [--out FILE]',
      flags: eventsExportFlags,
      examples: [
        ['droidwright events export > log.jsonl', 'the whole log'],
        ["droidwright events export --type 'build.*' -o builds.jsonl", ''],
      ],
    },
    {
      name: 'migrate',
      summary: 'Copy the log to or from another store (PostgreSQL or SQLite), seq and hashes as they are',
      usage: 'events migrate --to LOCATION | --from LOCATION [--json]',
      description:
        'Copies every event exactly as stored (seq, id, time, actor, data, hashes), 1000 per transaction, so the ' +
        'copy verifies byte for byte on either store; then verifies both sides and prints their counts and heads. ' +
        'The side not given is the current store (--store, $DROIDWRIGHT_STORE, else events.db in the data directory).\n\n' +
        'Run it again to resume an interrupted copy or to bring over events written since: a destination that holds ' +
        'the start of the same chain continues from its head. A destination holding another log (its head is not in ' +
        'the source) is refused and left untouched, as is a source that does not verify. Exit 1 on either.',
      flags: eventsMigrateFlags,
      examples: [
        [
          'droidwright events migrate --to postgres://alice@db.example.com/droidwright',
          'your log into the team database',
        ],
        ['droidwright events migrate --from ~/old-home/events.db', 'an older log into the current store'],
        ['PGPASSWORD=… droidwright events migrate --to postgres://ci@db/droidwright --json', 'for scripts'],
      ],
    },
    {
      name: 'stats',
      summary: 'Counts by type, size, time span',
      usage: 'events stats [--json]',
      flags: eventsStatsFlags,
      examples: [['droidwright events stats', '']],
    },
    {
      name: 'rebuild',
      summary: 'Rebuild read models from the log',
      usage: 'events rebuild [PROJECTION...] [--json]',
      positionals: [
        { name: 'PROJECTION', description: 'Read models to rebuild (default: all)', optional: true, variadic: true },
      ],
      flags: eventsRebuildFlags,
      examples: [
        ['droidwright events rebuild', 'every read model'],
        ['droidwright events rebuild builds devices', ''],
      ],
    },
  ],
  examples: [
    ['droidwright events list --limit 30', ''],
    ['droidwright events tail -f', ''],
    ['droidwright events verify', ''],
    ['droidwright help events verify', 'the options of one subcommand'],
  ],
};

export const trustFlags = {
  yes: {
    type: 'boolean',
    short: 'y',
    description: "Trust without asking (a script you wrote, with no terminal); refused in an AI coding tool's shell",
  },
  list: { type: 'boolean', description: 'List the trusted projects' },
  json: { type: 'boolean', description: 'Print JSON instead of text' },
  store: storeFlag,
} as const satisfies FlagSpecs;

const trust: CommandSpec = {
  name: 'trust',
  summary: "Allow a project's Gradle build to run (asks you to confirm); trust --list",
  usage: 'trust [PATH] [--yes] [--json] | trust --list [--json]',
  description:
    "Running Gradle executes the project's own build scripts with your permissions, so build tools refuse a " +
    'project until you trust it from a terminal. The grant is recorded in the event log with how it was confirmed.',
  positionals: [
    {
      name: 'PATH',
      description: 'The project (default: the one around the working directory)',
      optional: true,
      complete: 'directory',
    },
  ],
  flags: trustFlags,
  examples: [
    ['droidwright trust', 'the project around the working directory; type "yes" to confirm'],
    ['droidwright trust ~/src/my-app --yes', 'from a script you wrote'],
    ['droidwright trust --list --json', ''],
  ],
};

export const untrustFlags = { json: jsonFlag, store: storeFlag } as const satisfies FlagSpecs;

const untrust: CommandSpec = {
  name: 'untrust',
  summary: 'Revoke trust in a project',
  usage: 'untrust [PATH] [--json]',
  positionals: [
    {
      name: 'PATH',
      description: 'The project (default: the one around the working directory); it need not exist any more',
      optional: true,
      complete: 'directory',
    },
  ],
  flags: untrustFlags,
  examples: [['droidwright untrust ~/src/my-app', '']],
};

export const tuiFlags = { project: projectFlag, store: storeFlag } as const satisfies FlagSpecs;

const tui: CommandSpec = {
  name: 'tui',
  summary: "Live dashboard of agents' tool calls, builds, devices and crashes",
  usage: 'tui [--project DIR]',
  description:
    'A live dashboard of what agents do through droidwright: tool calls, builds, devices, crashes, sessions. ' +
    'You can trust or untrust the project, cancel a build and start or stop logcat there; each is recorded in ' +
    'the event log with you as the actor. Needs a terminal.\n\n' +
    'Keys: Tab/1-6 panels, arrows or j/k, Enter, Esc, / filter, ? help, q quit.',
  flags: tuiFlags,
  examples: [['droidwright tui', 'in a terminal beside your agent']],
};

const docs: CommandSpec = {
  name: 'docs',
  summary: 'Print the tool reference (Markdown) generated from the tool registry',
  usage: 'docs',
  examples: [['droidwright docs > tools.md', '']],
};

export const retraceFlags = {
  mapping: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    required: true,
    description: "The build's R8/ProGuard mapping.txt",
  },
  builtin: { type: 'boolean', description: "Use droidwright's built-in engine even when the SDK's retrace is there" },
} as const satisfies FlagSpecs;

const retrace: CommandSpec = {
  name: 'retrace',
  summary: 'Deobfuscate an R8 stack trace with its mapping',
  usage: 'retrace --mapping FILE [TRACE_FILE] [--builtin]',
  description:
    "Deobfuscates an R8/ProGuard stack trace (from TRACE_FILE, or stdin) with the build's mapping.txt, using the " +
    "Android SDK's retrace when it is installed, else droidwright's built-in engine.",
  positionals: [
    { name: 'TRACE_FILE', description: 'The stack trace (default: stdin)', optional: true, complete: 'file' },
  ],
  flags: retraceFlags,
  examples: [
    ['droidwright retrace --mapping app/build/outputs/mapping/release/mapping.txt crash.txt', ''],
    ['pbpaste | droidwright retrace --mapping mapping.txt', 'a trace from the clipboard'],
  ],
};

export const simFlags = {
  'emulator-port': {
    type: 'string',
    valueName: 'N',
    description:
      "Emulator mode, like the emulator's -port: the even console port N (serial emulator-N, adb on N+1); an odd N is the adb port (console on N-1)",
  },
  port: {
    type: 'string',
    valueName: 'N',
    description: 'TCP mode: listen on port N (default: a free port) and `adb connect` to it',
  },
  'adb-server': {
    type: 'boolean',
    description: 'Start a private adb server on a free port for the device and print its export line',
  },
  'adb-port': {
    type: 'string',
    valueName: 'N',
    description: 'The adb server to announce the device to (default $ANDROID_ADB_SERVER_PORT or 5037)',
  },
  'no-connect': { type: 'boolean', description: 'Do not announce the device to an adb server' },
  avd: { type: 'string', valueName: 'NAME', description: 'The AVD name the emulator console reports' },
  model: { type: 'string', valueName: 'NAME', description: 'ro.product.model (default Pixel 7)' },
  api: { type: 'string', valueName: 'N', description: 'Android API level (21-40)' },
  scenario: {
    type: 'string',
    valueName: 'S',
    complete: 'file',
    description:
      "A scenario name from scenarios/ (notes-app, large-feed) or a JSON file: the app's screens, logs, crashes",
  },
  screen: {
    type: 'string',
    valueName: 'FILE.xml',
    complete: 'file',
    description:
      'Show a captured UI Automator dump in the foreground: uiautomator dump answers it as captured, screencap draws it, taps and typing act on its nodes',
  },
  locked: { type: 'boolean', description: 'Start with the keyguard up' },
  'screen-off': { type: 'boolean', description: 'Start with the display off' },
  seed: { type: 'string', valueName: 'N', description: 'Seed for reproducible pids, timings and log traffic' },
  'log-rate': {
    type: 'string',
    valueName: 'N',
    description:
      'Flood for benchmarks: N lines a second from com.droidwright.logflood (tag LogFlood), each message starting seq=<n>',
  },
  'logcat-replay': {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description:
      'Load a captured log (threadtime, brief, time, long or Android Studio formats) into the buffers and run a process for every pid it names',
  },
  trace: { type: 'boolean', description: 'Log every adb packet to stderr' },
  host: { type: 'string', valueName: 'ADDR', description: 'The interface to listen on (default 127.0.0.1)' },
  json: {
    type: 'boolean',
    description: 'When the device is up, print one JSON line (serial, ports, pids); messages go to stderr',
  },
} as const satisfies FlagSpecs;

const sim: CommandSpec = {
  name: 'sim',
  summary: 'Run a simulated Android device that adb and every droidwright tool can use like a phone',
  usage: 'sim [--emulator-port N | --port N] [--adb-server | --adb-port N | --no-connect] [device options] [--json]',
  description:
    'Emulator mode (--emulator-port) looks to adb like a running emulator, where every device-admin tool works. ' +
    'TCP mode (the default) looks like wireless adb, so Wi-Fi and airplane-mode toggles are refused there. ' +
    'Stays up until Ctrl-C or `adb -s SERIAL emu kill`.',
  flags: simFlags,
  examples: [
    [
      'droidwright sim --emulator-port 5570 --adb-server',
      'emulator-5570 behind a private adb server; prints the export line',
    ],
    ['droidwright sim --emulator-port 5554', 'emulator-5554 on the adb server on 5037, no `adb connect` needed'],
    ['droidwright sim --avd Pixel_7_API_34', 'TCP mode: a free port, `adb connect`ed'],
    ['droidwright sim --screen window_dump.xml', 'your own screen, captured with uiautomator dump'],
  ],
};

export const demoFlags = {
  'no-wait': { type: 'boolean', description: 'Stop the device and the adb server when the session ends' },
  'adb-port': {
    type: 'string',
    valueName: 'PORT',
    description: 'Use the adb server on PORT (default: start one on a free port for the demo)',
  },
  store: storeFlag,
} as const satisfies FlagSpecs;

const demo: CommandSpec = {
  name: 'demo',
  summary: 'Start a simulated device and drive droidwright mcp through a scripted agent session',
  usage: 'demo [--no-wait] [--adb-port PORT]',
  description:
    'Starts an adb server on a free port (or uses the one on --adb-port), a simulated emulator, and a copy of the ' +
    'bundled demo project, then drives `droidwright mcp` through a real MCP client and prints every call. ' +
    'Afterwards the device stays up for you to try with your own agent, until Ctrl-C.',
  flags: demoFlags,
  examples: [
    ['droidwright demo', ''],
    ['droidwright demo --no-wait', 'stop when the scripted session ends'],
  ],
};

export const logcatFlags = {
  device: {
    type: 'string',
    short: 's',
    valueName: 'SERIAL',
    complete: 'device',
    description: 'The device (default: the only one with a stored log)',
  },
  package: {
    type: 'string',
    short: 'p',
    valueName: 'APP_ID',
    description: "Only this app's lines; `mine` is the project's own packages",
  },
  'min-level': {
    type: 'string',
    valueName: 'LEVEL',
    complete: { values: ['V', 'D', 'I', 'W', 'E', 'F'] },
    description: 'The lowest level shown: V D I W E F',
  },
  count: {
    type: 'string',
    short: 'n',
    valueName: 'COUNT',
    description: 'The newest COUNT lines (default 200, at most 100000)',
  },
  follow: { type: 'boolean', short: 'f', description: 'Then follow new lines until Ctrl-C' },
  json: { type: 'boolean', description: 'One JSON object a line (JSON Lines)' },
} as const satisfies FlagSpecs;

const logcat: CommandSpec = {
  name: 'logcat',
  summary: 'Print the stored device log, pidcat-style',
  usage: 'logcat [--device SERIAL] [--package mine|APP_ID] [--min-level LEVEL] [-n COUNT] [-f] [--json]',
  description:
    'The device log droidwright streamed (start_logcat) into its line store: a tag column and colored levels on a ' +
    'terminal, plain text when piped or NO_COLOR is set.',
  flags: logcatFlags,
  examples: [
    ['droidwright logcat --package mine --min-level W -f', "your app's warnings and errors, live"],
    ['droidwright logcat -s emulator-5554 -n 50 --json', ''],
  ],
};

const buildWorker: CommandSpec = {
  name: 'build-worker',
  summary: 'Run one build handed over by droidwright mcp',
  usage: 'build-worker BUILD_ID',
  description: 'Started by `droidwright mcp` for each build; not meant to be run by hand.',
  positionals: [{ name: 'BUILD_ID', description: 'The build to run' }],
  hidden: true,
  examples: [['droidwright build-worker 3f2a9c1b7d4e', 'as droidwright mcp starts it']],
};

const logcatWorker: CommandSpec = {
  name: 'logcat-worker',
  summary: "Stream one device's log into the line store",
  usage: 'logcat-worker SERIAL',
  description: 'Started by droidwright for each streamed device; not meant to be run by hand.',
  positionals: [{ name: 'SERIAL', description: 'The device', complete: 'device' }],
  hidden: true,
  examples: [['droidwright logcat-worker emulator-5554', 'as start_logcat starts it']],
};

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

const completion: CommandSpec = {
  name: 'completion',
  summary: 'Print a shell completion script: completion bash|zsh|fish',
  usage: 'completion bash|zsh|fish',
  description:
    'Completes commands, subcommands, flags, toolset names, files and, for --device, the serials the adb server ' +
    'lists ($ANDROID_ADB_SERVER_PORT, else 5037).',
  positionals: [{ name: 'SHELL', description: 'bash, zsh or fish', complete: { values: SHELLS } }],
  examples: [
    ['source <(droidwright completion bash)', 'in ~/.bashrc'],
    ['droidwright completion zsh > ~/.zfunc/_droidwright', 'with ~/.zfunc in your $fpath'],
    ['droidwright completion fish > ~/.config/fish/completions/droidwright.fish', ''],
  ],
};

const complete: CommandSpec = {
  name: '__complete',
  summary: 'Candidates for the word being completed (used by the completion scripts)',
  usage: '__complete -- WORD...',
  description:
    'Prints one candidate a line for the last WORD, given the words before it; a line `:file` or `:directory` asks the shell to complete paths.',
  positionals: [
    { name: 'WORD', description: 'The command line so far, after `droidwright`', optional: true, variadic: true },
  ],
  hidden: true,
  examples: [['droidwright __complete -- logcat --device ""', 'the serials adb lists']],
};

const help: CommandSpec = {
  name: 'help',
  summary: 'Show the help of droidwright or of a command',
  usage: 'help [COMMAND [SUBCOMMAND]]',
  positionals: [
    { name: 'COMMAND', description: 'A command', optional: true, complete: 'command' },
    { name: 'SUBCOMMAND', description: 'One of its subcommands', optional: true, complete: 'command' },
  ],
  examples: [
    ['droidwright help events', ''],
    ['droidwright help events verify', ''],
  ],
};

/** In the order `droidwright help` lists them. */
export const sessionsListFlags = {
  package: { type: 'string', valueName: 'ID', description: 'Only sessions of this application id' },
  device: { type: 'string', short: 's', valueName: 'SERIAL', complete: 'device', description: 'Only this device' },
  state: {
    type: 'string',
    valueName: 'STATE',
    complete: { values: ['open', 'idle', 'superseded', 'ended'] },
    description: 'Only sessions in this state',
  },
  crashing: { type: 'boolean', description: 'Only sessions with a crash, ANR or native crash' },
  limit: { type: 'string', valueName: 'N', description: 'At most N sessions, newest first (1-1000, default 20)' },
  json: jsonFlag,
  store: storeFlag,
} as const satisfies FlagSpecs;
export const sessionsShowFlags = {
  events: {
    type: 'string',
    valueName: 'N',
    description: 'Timeline entries to show, newest first (1-5000, default 50)',
  },
  json: jsonFlag,
  store: storeFlag,
} as const satisfies FlagSpecs;
export const sessionsExportFlags = {
  out: {
    type: 'string',
    short: 'o',
    valueName: 'FILE',
    complete: 'file',
    description: 'Write the bundle to FILE (default: <id>.json)',
  },
  store: storeFlag,
} as const satisfies FlagSpecs;
export const sessionsVerifyFlags = { json: jsonFlag, store: storeFlag } as const satisfies FlagSpecs;

const sessions: CommandSpec = {
  name: 'sessions',
  summary: 'Debug sessions, one per install: list, show, export a bundle, verify a bundle',
  usage: 'sessions <command> [options]',
  description:
    'A debug session is one install of a package on a device and everything that happened to it until the next ' +
    'install there: launches, crashes, UI actions, tool calls. Sessions are a read model of the event log.',
  subcommands: [
    {
      name: 'list',
      summary: 'Debug sessions, newest first',
      usage: 'sessions list [--package ID] [--device SERIAL] [--state STATE] [--crashing] [--limit N] [--json]',
      flags: sessionsListFlags,
      examples: [
        ['droidwright sessions list --crashing', 'sessions that crashed'],
        ['droidwright sessions list --package com.example.app --json', ''],
      ],
    },
    {
      name: 'show',
      summary: 'One session: build, crashes, timeline',
      usage: 'sessions show ID [--events N] [--json]',
      positionals: [{ name: 'ID', description: 'A session id (ds-<seq>), as the list prints it' }],
      flags: sessionsShowFlags,
      examples: [['droidwright sessions show ds-42', '']],
    },
    {
      name: 'export',
      summary: 'Write a bundle an auditor can verify against the log',
      usage: 'sessions export ID [--out FILE]',
      positionals: [{ name: 'ID', description: 'A session id (ds-<seq>)' }],
      flags: sessionsExportFlags,
      examples: [['droidwright sessions export ds-42 -o ds-42.json', '']],
    },
    {
      name: 'verify',
      summary: 'Check a bundle against the log; exit 1 naming what does not hold',
      usage: 'sessions verify FILE [--json]',
      positionals: [{ name: 'FILE', description: 'A bundle written by sessions export', complete: 'file' }],
      flags: sessionsVerifyFlags,
      examples: [['droidwright sessions verify ds-42.json', 'hashes, chain head, the session re-derived']],
    },
  ],
  examples: [
    ['droidwright sessions list', ''],
    ['droidwright help sessions export', 'the options of one subcommand'],
  ],
};

export const runconfigListFlags = {
  project: projectFlag,
  json: jsonFlag,
  store: storeFlag,
} as const satisfies FlagSpecs;
export const runconfigApproveFlags = {
  project: projectFlag,
  yes: {
    type: 'boolean',
    short: 'y',
    description: "Approve without asking (for scripts; refused inside an AI tool's shell like the prompt is)",
  },
  store: storeFlag,
} as const satisfies FlagSpecs;

const runconfig: CommandSpec = {
  name: 'runconfig',
  summary: "The project's run configurations; approve the shared .droidwright/run-configurations.json",
  usage: 'runconfig <command> [options]',
  description:
    'A run configuration is a named recipe (module, variant, launch, target, logcat filter) that the ' +
    'run_run_configuration tool builds, installs and launches in one call. One is derived per application module ' +
    'and variant; a project may share more in .droidwright/run-configurations.json, which runs only after you ' +
    'approved its current content.',
  subcommands: [
    {
      name: 'list',
      summary: "The configurations and the shared file's status",
      usage: 'runconfig list [--project DIR] [--json]',
      flags: runconfigListFlags,
      examples: [['droidwright runconfig list', '']],
    },
    {
      name: 'approve',
      summary: 'Review the shared file and approve its current content (recorded with its SHA-256)',
      usage: 'runconfig approve [--project DIR] [--yes]',
      flags: runconfigApproveFlags,
      examples: [['droidwright runconfig approve --project ~/src/app', 'shows the configurations, then asks']],
    },
  ],
  examples: [['droidwright runconfig list --json', '']],
};

export const setupFlags = {
  'dry-run': { type: 'boolean', description: 'Print what it would do and change nothing' },
  json: { type: 'boolean', description: 'Print the result as JSON' },
  remove: { type: 'boolean', description: 'Undo it: unregister droidwright and remove the skill it installed' },
  npx: {
    type: 'boolean',
    description: "Register `npx -y droidwright@<version> mcp` instead of this install's node + dist/cli.js",
  },
  agent: {
    type: 'string',
    multiple: true,
    valueName: 'ID',
    complete: { values: ['claude-code', 'codex', 'gemini-cli', 'vscode', 'cursor'] },
    description: 'Only this agent (repeat or comma-separate): claude-code, codex, gemini-cli, vscode, cursor',
  },
} as const satisfies FlagSpecs;

const setup: CommandSpec = {
  name: 'setup',
  summary: 'Register droidwright mcp with the AI agents installed here and install the agent skill',
  usage: 'setup [--agent ID]... [--dry-run] [--remove] [--npx] [--json]',
  description:
    'Finds Claude Code, Codex, Gemini CLI, VS Code (Copilot) and Cursor by their CLIs or config files and ' +
    "registers `droidwright mcp` with each: through the agent's own CLI where it has one, else by editing its " +
    'config (a backup is kept and the diff shown). Running it again changes nothing; --remove undoes it.',
  flags: setupFlags,
  examples: [
    ['droidwright setup --dry-run', 'what it would change'],
    ['droidwright setup --agent claude-code', 'only Claude Code'],
    ['droidwright setup --remove', 'unregister everywhere'],
  ],
};

export const doctorFlags = { project: projectFlag, json: jsonFlag, store: storeFlag } as const satisfies FlagSpecs;

const doctor: CommandSpec = {
  name: 'doctor',
  summary: 'Check Node, adb, devices, the SDK, the JDK, the project, trust, the event log and registrations',
  usage: 'doctor [--project DIR] [--json]',
  description:
    'Each check with a concrete fix; exit 1 when something blocks work. The same checks as the run_health_check ' +
    "tool, plus the event log's chain and the agents' registrations.",
  flags: doctorFlags,
  examples: [
    ['droidwright doctor', ''],
    ['droidwright doctor --json', 'for scripts'],
  ],
};

export const commandSpecs: readonly CommandSpec[] = [
  setup,
  doctor,
  mcp,
  events,
  trust,
  untrust,
  sessions,
  runconfig,
  tui,
  logcat,
  retrace,
  sim,
  demo,
  docs,
  completion,
  help,
  buildWorker,
  logcatWorker,
  complete,
];

/** The definition at `path` (`['events', 'list']`), or undefined. */
export function findCommandSpec(path: readonly string[]): CommandSpec | undefined {
  let list: readonly CommandSpec[] | undefined = commandSpecs;
  let found: CommandSpec | undefined;
  for (const name of path) {
    found = list?.find((c) => c.name === name);
    if (!found) return undefined;
    list = found.subcommands;
  }
  return found;
}
