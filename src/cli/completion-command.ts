// `droidwright completion bash|zsh|fish` prints a script that asks `droidwright __complete -- WORD...` for the
// candidates of the word being typed, so every shell completes from the same command definitions the parser uses.
import { adbHostRequest } from '../android/adb-server-process.js';
import { TOOLSET_NAMES } from '../kernel/tool-definition.js';
import { UsageError } from '../kernel/usage-error.js';
import { writeOut } from './cli-support.js';
import type { CommandInput, CommandSpec, CompletionKind, FlagSpec, FlagSpecs } from './command-spec.js';
import { commandSpecs, findCommandSpec, globalFlags, SHELLS } from './command-specs.js';

/** What `droidwright __complete` prints to have the shell complete paths itself. */
const FILE_DIRECTIVE = ':file';
const DIRECTORY_DIRECTIVE = ':directory';

/** A completion must not keep a shell waiting on an adb server that does not answer. */
const ADB_TIMEOUT_MS = 1500;

const BASH = `# droidwright completion for bash. Load it with: source <(droidwright completion bash)
_droidwright() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" IFS=$'\\n' out
  out=($("\${COMP_WORDS[0]}" __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [[ \${#out[@]} -eq 1 && \${out[0]} == "${FILE_DIRECTIVE}" ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  elif [[ \${#out[@]} -eq 1 && \${out[0]} == "${DIRECTORY_DIRECTIVE}" ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -d -- "$cur"))
  else
    COMPREPLY=("\${out[@]}")
  fi
}
complete -F _droidwright droidwright
`;

const ZSH = `#compdef droidwright
# droidwright completion for zsh. Load it with: source <(droidwright completion zsh)
# or save it as _droidwright in a directory of your $fpath.
_droidwright() {
  local -a out
  out=("\${(@f)$("\${words[1]}" __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  out=(\${out:#})
  if [[ \${#out} -eq 1 && \${out[1]} == "${FILE_DIRECTIVE}" ]]; then
    _files
  elif [[ \${#out} -eq 1 && \${out[1]} == "${DIRECTORY_DIRECTIVE}" ]]; then
    _files -/
  else
    compadd -- \${out[@]}
  fi
}
if [[ "\${funcstack[1]}" == "_droidwright" ]]; then
  _droidwright "$@"
else
  compdef _droidwright droidwright
fi
`;

const FISH = `# droidwright completion for fish. Load it with: droidwright completion fish | source
# or save it as ~/.config/fish/completions/droidwright.fish
function __droidwright_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l out (command $words[1] __complete -- $words[2..-1] "$cur" 2>/dev/null)
    if test (count $out) -eq 1; and test "$out[1]" = "${FILE_DIRECTIVE}"
        __fish_complete_path "$cur"
    else if test (count $out) -eq 1; and test "$out[1]" = "${DIRECTORY_DIRECTIVE}"
        __fish_complete_directories "$cur"
    else
        printf '%s\\n' $out
    end
end
complete -c droidwright -f -a '(__droidwright_complete)'
`;

const SCRIPTS: Record<(typeof SHELLS)[number], string> = { bash: BASH, zsh: ZSH, fish: FISH };

export async function runCompletionCommand({ positionals }: CommandInput): Promise<number> {
  const shell = positionals[0]!;
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`no completion for "${shell}": use bash, zsh or fish.`);
  }
  await writeOut(SCRIPTS[shell as (typeof SHELLS)[number]]);
  return 0;
}

export async function runCompleteCommand({ positionals }: CommandInput): Promise<number> {
  const candidates = await completionCandidates(positionals);
  if (candidates.length > 0) await writeOut(`${candidates.join('\n')}\n`);
  return 0;
}

/** The serials of the devices the adb server lists ($ANDROID_ADB_SERVER_PORT, else 5037); none when it is not up. */
async function adbSerials(): Promise<string[]> {
  const port = Number(process.env.ANDROID_ADB_SERVER_PORT) || 5037;
  try {
    const listing = await adbHostRequest(port, 'host:devices', ADB_TIMEOUT_MS);
    return listing
      .split('\n')
      .map((line) => line.split('\t')[0]!.trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}

async function valuesOf(kind: CompletionKind | undefined, current: string, path: readonly string[]): Promise<string[]> {
  if (kind === undefined) return [];
  if (kind === 'file') return [FILE_DIRECTIVE];
  if (kind === 'directory') return [DIRECTORY_DIRECTIVE];
  if (kind === 'device') return matching(await adbSerials(), current);
  if (kind === 'toolset') {
    // A comma-separated list: complete the name after the last comma, keeping the ones before.
    const cut = current.lastIndexOf(',') + 1;
    const chosen = current.slice(0, cut).split(',');
    return matching(
      TOOLSET_NAMES.filter((name) => !chosen.includes(name)).map((name) => current.slice(0, cut) + name),
      current,
    );
  }
  if (kind === 'command') {
    const list = path.length === 0 ? commandSpecs : (findCommandSpec(path)?.subcommands ?? []);
    return matching(
      list.filter((c) => !c.hidden).map((c) => c.name),
      current,
    );
  }
  return matching([...kind.values], current);
}

function matching(candidates: readonly string[], current: string): string[] {
  return candidates.filter((c) => c.startsWith(current));
}

function flagNamed(word: string, flags: FlagSpecs): FlagSpec | undefined {
  if (word.startsWith('--')) return flags[word.slice(2)];
  if (/^-[a-zA-Z]$/.test(word)) return Object.values(flags).find((f) => f.short === word.slice(1));
  return undefined;
}

/**
 * The candidates for the last of `words` (the command line after `droidwright`, the word being typed last),
 * read from the command definitions: command and subcommand names, flags, and the values a flag or argument takes.
 */
export async function completionCandidates(words: readonly string[]): Promise<string[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  let spec: CommandSpec | undefined;
  const path: string[] = [];
  const positionals: string[] = [];
  let flags: FlagSpecs = globalFlags;
  for (let i = 0; i < before.length; i++) {
    const word = before[i]!;
    if (word.startsWith('-') && word !== '-') {
      const flag = flagNamed(word, flags);
      if (flag?.type === 'string' && !word.includes('=')) i++;
      continue;
    }
    const list: readonly CommandSpec[] | undefined = spec ? spec.subcommands : commandSpecs;
    const next = list?.find((c) => c.name === word);
    if (next && positionals.length === 0) {
      spec = next;
      path.push(word);
      flags = { ...spec.flags, ...globalFlags };
    } else positionals.push(word);
  }
  const previous = before.at(-1);
  if (previous !== undefined) {
    const flag = flagNamed(previous, flags);
    if (flag?.type === 'string') return valuesOf(flag.complete, current, []);
  }
  if (current.startsWith('-')) {
    const names = Object.entries(flags).flatMap(([name, flag]) => [
      `--${name}`,
      ...(flag.short ? [`-${flag.short}`] : []),
    ]);
    if (!spec) names.push('--version');
    return matching(names, current);
  }
  if (!spec) return valuesOf('command', current, []);
  if (spec.subcommands) return valuesOf('command', current, path);
  // `help events ve…`: the subcommands of the command named first.
  if (spec.name === 'help') return valuesOf('command', current, positionals);
  const specs = spec.positionals ?? [];
  const positional = specs[positionals.length] ?? (specs.at(-1)?.variadic ? specs.at(-1) : undefined);
  return valuesOf(positional?.complete, current, []);
}
