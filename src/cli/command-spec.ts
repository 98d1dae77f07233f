// The shape of a command's definition: plain data that the parser, the help and the shell completion all read,
// so a flag the parser accepts is always in the help and in the completion. Types only: nothing here runs.

/** What a value completes to: files, directories, the serials adb lists, toolset names, command names, or a fixed set. */
export type CompletionKind =
  | 'file'
  | 'directory'
  | 'device'
  | 'toolset'
  | 'command'
  | { readonly values: readonly string[] };

export interface FlagSpec {
  /** `boolean`: present or not; `string`: takes a value (`--flag VALUE` or `--flag=VALUE`). */
  readonly type: 'string' | 'boolean';
  /** One letter, for `-x`. */
  readonly short?: string;
  readonly description: string;
  /** The value's name in usage and help (`--project DIR`); string flags only. */
  readonly valueName?: string;
  readonly complete?: CompletionKind;
  /** May be given more than once; the values arrive as an array. */
  readonly multiple?: boolean;
  /** The parser refuses the command line without it. */
  readonly required?: boolean;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

export interface PositionalSpec {
  /** Upper case, as shown in usage: PATH, TRACE_FILE. */
  readonly name: string;
  readonly description: string;
  readonly optional?: boolean;
  /** Takes every remaining argument (always last). */
  readonly variadic?: boolean;
  readonly complete?: CompletionKind;
}

/** A command line to show and what it does. */
export type Example = readonly [commandLine: string, comment: string];

export interface CommandSpec {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The synopsis after `droidwright `, e.g. `trust [PATH] [--yes]`; the help's first line and the usage errors' only one. */
  readonly usage: string;
  /** Paragraphs for the help, separated by blank lines. */
  readonly description?: string;
  readonly flags?: FlagSpecs;
  readonly positionals?: readonly PositionalSpec[];
  /** A command with subcommands runs none itself: `events list`, `events verify`, … */
  readonly subcommands?: readonly CommandSpec[];
  readonly examples: readonly Example[];
  /** Started by droidwright itself, not by people: left out of the command list and the completion. */
  readonly hidden?: boolean;
}

/** The values of a command's flags, typed from its definition. */
export type FlagValues<F extends FlagSpecs> = {
  -readonly [K in keyof F]?: F[K] extends { readonly type: 'boolean' }
    ? boolean
    : F[K] extends { readonly multiple: true }
      ? string[]
      : string;
};

/** What a command's runner gets: its parsed flags and positionals (`--help` and `--home` are already handled). */
export interface CommandInput<F extends FlagSpecs = FlagSpecs> {
  readonly values: FlagValues<F>;
  readonly positionals: readonly string[];
}

// biome-ignore lint/suspicious/noExplicitAny: each runner types its own input from its flags; the table holds them all.
export type CommandRunner = (input: CommandInput<any>) => Promise<number>;
