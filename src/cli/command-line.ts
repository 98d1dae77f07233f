// Reads a command line against the command definitions (command-specs.ts): node:util parseArgs underneath, the help
// and usage lines rendered from the same definitions, and the conventions every command shares — `-h`/`--help` and
// `droidwright help <command>` on stdout with exit 0, usage errors on stderr with the one-line usage and exit 2,
// `--version` alone, `--home DIR` before or after the command, and `--store` on the commands that open the log.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { droidwrightVersion } from '../kernel/version.js';
import { STORE_ENV, normalizeStoreLocation } from '../kernel/store-location.js';
import { UsageError } from '../kernel/usage-error.js';
import type { CommandInput, CommandRunner, CommandSpec, FlagSpec, FlagSpecs } from './command-spec.js';
import { commandSpecs, findCommandSpec, globalFlags } from './command-specs.js';

export type CommandLoader = () => Promise<CommandRunner>;

export interface ParsedArguments {
  readonly input: CommandInput;
  /** `-h`/`--help` was given: show the help, run nothing. */
  readonly help: boolean;
  /** `--home DIR`, as given. */
  readonly home?: string;
}

/** The parseArgs options of a command: its own flags and the global ones. */
export function parserOptions(
  spec: CommandSpec,
): Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, flag] of Object.entries({ ...spec.flags, ...globalFlags } as FlagSpecs)) {
    options[name] = {
      type: flag.type,
      ...(flag.short ? { short: flag.short } : {}),
      ...(flag.multiple ? { multiple: true } : {}),
    };
  }
  return options;
}

function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '-h' || a === '--help');
}

/** Parses a command's arguments by its definition; a bad command line is a UsageError (exit 2). */
export function parseCommandArguments(spec: CommandSpec, argv: readonly string[]): ParsedArguments {
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: parserOptions(spec), allowPositionals: true, strict: true });
  } catch (error) {
    if (wantsHelp(argv)) return { input: { values: {}, positionals: [] }, help: true };
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
  const { help, home, ...values } = parsed.values;
  if (help === true) return { input: { values: {}, positionals: [] }, help: true };
  if (home !== undefined && String(home).trim() === '') throw new UsageError('--home needs a directory.');
  const positionals = parsed.positionals;
  const specs = spec.positionals ?? [];
  const variadic = specs.some((p) => p.variadic);
  if (!variadic && positionals.length > specs.length) {
    const extra = positionals.slice(specs.length).join(' ');
    throw new UsageError(
      specs.length === 0
        ? `${spec.name} takes no arguments (got ${extra}).`
        : `${spec.name} takes at most ${specs.length} argument${specs.length === 1 ? '' : 's'} (${specs.map((p) => p.name).join(' ')}); unexpected: ${extra}.`,
    );
  }
  const missing = specs.filter((p, i) => !p.optional && i >= positionals.length);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((p) => p.name).join(' ')}.`);
  for (const [name, flag] of Object.entries(spec.flags ?? {})) {
    if (flag.required && values[name] === undefined)
      throw new UsageError(`--${name}${flag.valueName ? ` ${flag.valueName}` : ''} is required.`);
  }
  return {
    input: { values: values as CommandInput['values'], positionals },
    help: false,
    ...(home !== undefined ? { home: String(home) } : {}),
  };
}

/** Columns to lay help out in: the terminal's width on a terminal (within reason), else 80. */
function helpWidth(): number {
  const columns = process.stdout.isTTY ? process.stdout.columns : undefined;
  return columns ? Math.max(50, Math.min(columns, 120)) : 80;
}

/** Words of `text` in lines of at most `width` columns, each after `indent` spaces (the first after `first`). */
export function wrap(text: string, width: number, indent = 0, first = indent): string {
  const lines: string[] = [];
  let line = '';
  let room = width - first;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
      room = width - indent;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i === 0 ? ' '.repeat(first) : ' '.repeat(indent)) + l).join('\n');
}

function flagLabel(name: string, flag: FlagSpec): string {
  const value = flag.type === 'string' ? ` ${flag.valueName ?? 'VALUE'}` : '';
  return `${flag.short ? `-${flag.short}, ` : '    '}--${name}${value}`;
}

/** Two columns: a label, then its text wrapped beside it (or on the next line when the label is long). */
function table(rows: readonly (readonly [string, string])[], width: number): string[] {
  const labelWidth = Math.min(30, Math.max(...rows.map(([label]) => label.length)));
  const column = 2 + labelWidth + 2;
  return rows.map(([label, text]) => {
    if (!text) return `  ${label}`;
    if (label.length > labelWidth) return `  ${label}\n${wrap(text, width, column)}`;
    return `  ${label.padEnd(labelWidth)}  ${wrap(text, width, column).slice(column)}`;
  });
}

function examples(spec: CommandSpec): string[] {
  if (spec.examples.length === 0) return [];
  const width = Math.max(...spec.examples.map(([line]) => line.length));
  return [
    '',
    'Examples:',
    ...spec.examples.map(([line, comment]) =>
      comment ? `  ${line.padEnd(Math.min(width, 60))}  # ${comment}` : `  ${line}`,
    ),
  ];
}

/** The help of a command (path: its names, `['events', 'verify']`), as `--help` and `droidwright help` print it. */
export function renderHelp(spec: CommandSpec, path: readonly string[]): string {
  const width = helpWidth();
  const out = [`Usage: droidwright ${spec.usage}`, '', wrap(`${spec.summary}.`, width)];
  for (const paragraph of (spec.description ?? '').split(/\n\n/).filter(Boolean)) out.push('', wrap(paragraph, width));
  if (spec.subcommands) {
    const shown = spec.subcommands.filter((s) => !s.hidden);
    out.push(
      '',
      'Commands:',
      ...table(
        shown.map((s) => [s.name, s.summary] as const),
        width,
      ),
    );
    out.push('', `Run \`droidwright ${path.join(' ')} <command> --help\` for the options of one.`);
  }
  if (spec.positionals?.length) {
    out.push(
      '',
      'Arguments:',
      ...table(
        spec.positionals.map((p) => [p.name, p.description] as const),
        width,
      ),
    );
  }
  const own = Object.entries(spec.flags ?? {});
  if (own.length > 0) {
    out.push(
      '',
      'Options:',
      ...table(
        own.map(
          ([name, flag]) =>
            [flagLabel(name, flag), `${flag.description}${flag.required ? ' (required)' : ''}`] as const,
        ),
        width,
      ),
    );
  }
  out.push(
    '',
    'Global options:',
    ...table(
      Object.entries(globalFlags as FlagSpecs).map(
        ([name, flag]) => [flagLabel(name, flag), flag.description] as const,
      ),
      width,
    ),
  );
  out.push(...examples(spec));
  return `${out.join('\n')}\n`;
}

const TOP_USAGE = '[--home DIR] <command> [options]';

/** `droidwright help`: every command people run, the global options and the conventions. */
export function renderTopHelp(): string {
  const width = helpWidth();
  const shown = commandSpecs.filter((c) => !c.hidden);
  return [
    wrap(
      `droidwright ${droidwrightVersion()} — the Android development loop for AI agents, with a tamper-evident record of every action.`,
      width,
    ),
    '',
    `Usage: droidwright ${TOP_USAGE}`,
    '',
    'Commands:',
    ...table(
      shown.map((c) => [c.name, c.summary] as const),
      width,
    ),
    '',
    'Global options (before or after the command):',
    ...table(
      [
        ...Object.entries(globalFlags as FlagSpecs).map(
          ([name, flag]) => [flagLabel(name, flag), flag.description] as const,
        ),
        ['    --version', 'Print the version'] as const,
      ],
      width,
    ),
    '',
    wrap(
      'Run `droidwright help <command>` or `droidwright <command> --help` for its options and examples. Commands that ' +
        'print data take --json. Colors only on a terminal; NO_COLOR and FORCE_COLOR are honoured.',
      width,
    ),
    'Exit codes: 0 ok, 1 failure, 2 usage error.',
    '',
    'Examples:',
    '  droidwright demo                           # a simulated phone and a scripted agent session',
    '  droidwright trust                          # let agents build the project around the working directory',
    '  droidwright events tail -f                 # follow what agents do',
    '  source <(droidwright completion bash)      # shell completion',
    '',
  ].join('\n');
}

function usageFailure(message: string, usage: string): number {
  process.stderr.write(`droidwright: ${message}\nUsage: droidwright ${usage}\n`);
  return 2;
}

/** One line on stderr and an exit code; a usage error adds the command's usage line; a stack only with DROIDWRIGHT_DEBUG=1. */
function reportFailure(error: unknown, spec: CommandSpec): number {
  const e = error as { name?: string; message?: string; stack?: string };
  const usage = e?.name === 'UsageError' || e?.name === 'ProjectSelectionError';
  const known =
    usage || e?.name === 'ToolError' || e?.name === 'StoreUnavailableError' || e?.name === 'ToolRegistryError';
  const message = e?.message ?? String(error);
  if (usage) usageFailure(message, spec.usage);
  else process.stderr.write(`droidwright: ${known ? '' : 'unexpected error: '}${message}\n`);
  if (process.env.DROIDWRIGHT_DEBUG && e?.stack) process.stderr.write(`${e.stack}\n`);
  return usage ? 2 : 1;
}

/** Global options in front of a command or subcommand name: returns the index of the first other word. */
function leadingGlobals(argv: readonly string[], from: number, state: { help: boolean; home?: string }): number {
  let i = from;
  while (i < argv.length) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') state.help = true;
    else if (arg === '--home') {
      if (argv[i + 1] === undefined) throw new UsageError('--home needs a directory.');
      state.home = argv[++i];
    } else if (arg.startsWith('--home=')) state.home = arg.slice('--home='.length);
    else break;
    i++;
  }
  return i;
}

function setHome(home: string | undefined): void {
  if (home === undefined) return;
  if (home.trim() === '') throw new UsageError('--home needs a directory.');
  // Children (build and logcat workers) inherit it; absolute, because they may start elsewhere.
  process.env.DROIDWRIGHT_HOME = resolve(home);
}

/**
 * `--store LOCATION` of a command that opens the event log becomes $DROIDWRIGHT_STORE for this process and
 * the workers it starts, as `--home` does: checked here (a usage error never repeats a URL, which may hold a
 * password), and a SQLite file made absolute.
 */
function setStore(spec: CommandSpec, values: CommandInput['values']): void {
  if (!spec.flags || !('store' in spec.flags)) return;
  const given = values.store;
  if (typeof given !== 'string') return;
  process.env[STORE_ENV] = normalizeStoreLocation(given, '--store');
}

function printHelp(spec: CommandSpec | undefined, path: readonly string[]): number {
  process.stdout.write(spec ? renderHelp(spec, path) : renderTopHelp());
  return 0;
}

/** `droidwright help [COMMAND [SUBCOMMAND]]`. */
function helpCommand(argv: readonly string[]): number {
  const helpSpec = findCommandSpec(['help'])!;
  let parsed: ParsedArguments;
  try {
    parsed = parseCommandArguments(helpSpec, argv);
  } catch (error) {
    return usageFailure((error as Error).message, helpSpec.usage);
  }
  if (parsed.help) return printHelp(helpSpec, ['help']);
  const { input } = parsed;
  const path = [...input.positionals];
  if (path.length === 0) return printHelp(undefined, []);
  const spec = findCommandSpec(path);
  if (!spec) return usageFailure(`no command "${path.join(' ')}".`, helpSpec.usage);
  return printHelp(spec, path);
}

/** Runs a droidwright command line; resolves with the exit code. */
export async function runCommandLine(
  argv: readonly string[],
  loaders: Readonly<Record<string, CommandLoader>>,
): Promise<number> {
  const state: { help: boolean; home?: string } = { help: false };
  let i: number;
  try {
    i = leadingGlobals(argv, 0, state);
    const first = argv[i];
    if (first === '--version' || first === '-v' || first === 'version') {
      process.stdout.write(`${droidwrightVersion()}\n`);
      return 0;
    }
    if (first === undefined) {
      if (state.help) return printHelp(undefined, []);
      process.stderr.write(renderTopHelp());
      return 2;
    }
    if (first.startsWith('-')) return usageFailure(`unknown option ${first}.`, TOP_USAGE);
    setHome(state.home);
    if (first === 'help') return helpCommand(argv.slice(i + 1));
    const found = findCommandSpec([first]);
    if (!found) return usageFailure(`unknown command "${first}". Run \`droidwright help\` for the list.`, TOP_USAGE);
    let spec: CommandSpec = found;
    const path = [first];
    i++;
    while (spec.subcommands) {
      i = leadingGlobals(argv, i, state);
      setHome(state.home);
      const name = argv[i];
      if (name === undefined || (name === 'help' && argv[i + 1] === undefined)) {
        if (state.help || name === 'help') return printHelp(spec, path);
        process.stderr.write(renderHelp(spec, path));
        return 2;
      }
      if (name === 'help') {
        const sub = spec.subcommands.find((s) => s.name === argv[i + 1]);
        if (!sub) return usageFailure(`no command "${path.join(' ')} ${argv[i + 1]}".`, spec.usage);
        return printHelp(sub, [...path, sub.name]);
      }
      const sub: CommandSpec | undefined = spec.subcommands.find((s) => s.name === name);
      if (!sub) {
        if (state.help) return printHelp(spec, path);
        if (name.startsWith('-')) return usageFailure(`unknown option ${name}; it goes after the command.`, spec.usage);
        const names = spec.subcommands.filter((s) => !s.hidden).map((s) => s.name);
        return usageFailure(
          `unknown ${path.join(' ')} command "${name}". Use one of: ${names.join(', ')}.`,
          spec.usage,
        );
      }
      spec = sub;
      path.push(name);
      i++;
    }
    if (state.help) return printHelp(spec, path);
    const leaf = spec;
    let parsed: ParsedArguments;
    try {
      parsed = parseCommandArguments(leaf, argv.slice(i));
    } catch (error) {
      return reportFailure(error, leaf);
    }
    if (parsed.help) return printHelp(leaf, path);
    setHome(parsed.home);
    try {
      setStore(leaf, parsed.input.values);
    } catch (error) {
      return reportFailure(error, leaf);
    }
    const load = loaders[path.join(' ')];
    if (!load) throw new Error(`no runner for droidwright ${path.join(' ')}`);
    try {
      const run = await load();
      return await run(parsed.input);
    } catch (error) {
      return reportFailure(error, leaf);
    }
  } catch (error) {
    if ((error as Error)?.name === 'UsageError') return usageFailure((error as Error).message, TOP_USAGE);
    throw error;
  }
}
