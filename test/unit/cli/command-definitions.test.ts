import { parseCommandArguments, parserOptions, renderHelp } from '../../../src/cli/command-line.js';
import { commandLoaders } from '../../../src/cli/command-loaders.js';
import type { CommandSpec, FlagSpecs } from '../../../src/cli/command-spec.js';
import { commandSpecs, globalFlags } from '../../../src/cli/command-specs.js';
import { completionCandidates } from '../../../src/cli/completion-command.js';

/** Every command and subcommand with its path, hidden ones included. */
function walk(specs: readonly CommandSpec[], prefix: string[] = []): { path: string[]; spec: CommandSpec }[] {
  return specs.flatMap((spec) => [
    { path: [...prefix, spec.name], spec },
    ...walk(spec.subcommands ?? [], [...prefix, spec.name]),
  ]);
}

const all = walk(commandSpecs);
const leaves = all.filter(({ spec }) => !spec.subcommands && spec.name !== 'help');

describe('command definitions', () => {
  test('every command that runs has a runner, and every runner a command', () => {
    expect(Object.keys(commandLoaders).sort()).toEqual(leaves.map(({ path }) => path.join(' ')).sort());
  });

  test.each(all.map(({ path, spec }) => [path.join(' '), spec] as const))(
    '%s: the help names every flag the parser accepts, every argument, and has examples',
    (name, spec) => {
      const help = renderHelp(spec, name.split(' '));
      expect(help.startsWith(`Usage: droidwright ${spec.usage}\n`)).toBe(true);
      for (const [flag, option] of Object.entries(parserOptions(spec))) {
        expect(help).toContain(`--${flag}`);
        if (option.short) expect(help).toContain(`-${option.short}, --${flag}`);
      }
      for (const positional of spec.positionals ?? []) expect(help).toContain(`  ${positional.name}`);
      for (const sub of spec.subcommands ?? []) expect(help).toMatch(new RegExp(`^  ${sub.name} `, 'm'));
      expect(help).toContain('\nExamples:\n  ');
      expect(spec.examples.length).toBeGreaterThan(0);
    },
  );

  test.each(all.map(({ path, spec }) => [path.join(' '), spec] as const))(
    '%s: its usage line names only flags it has, and its examples parse',
    (name, spec) => {
      expect(spec.usage.startsWith(name)).toBe(true);
      const known = Object.keys(parserOptions(spec));
      for (const [, flag] of spec.usage.matchAll(/--([a-z][a-z-]*)/g)) expect(known).toContain(flag);
      if (spec.subcommands || spec.name === 'help') return;
      for (const [line] of spec.examples) {
        const words = line.split(' ');
        const at = words.indexOf(name.split(' ').at(-1)!);
        if (!words[at - 1]?.endsWith('droidwright') && words[at - 1] !== 'events') continue;
        // Shell syntax after the arguments (redirections, pipes) is not droidwright's.
        const args = words.slice(at + 1).filter((w, i, a) => !/^[>|<]/.test(w) && !/^[>|<]/.test(a[i - 1] ?? ''));
        expect(() =>
          parseCommandArguments(
            spec,
            args.map((w) => w.replace(/^"|"$/g, '')),
          ),
        ).not.toThrow();
      }
    },
  );

  test('every flag has a description, string flags a value name, short letters are unique per command', () => {
    for (const { spec } of all) {
      const flags: FlagSpecs = { ...spec.flags, ...globalFlags };
      const shorts = Object.values(flags).flatMap((f) => (f.short ? [f.short] : []));
      expect(new Set(shorts).size).toBe(shorts.length);
      for (const [name, flag] of Object.entries(flags)) {
        expect(name).toMatch(/^[a-z][a-z-]*$/);
        expect(flag.description.length).toBeGreaterThan(5);
        if (flag.type === 'string') expect(flag.valueName).toBeDefined();
      }
    }
  });

  test('the parser refuses what the definition does not allow, as usage errors', () => {
    const trust = commandSpecs.find((c) => c.name === 'trust')!;
    const retrace = commandSpecs.find((c) => c.name === 'retrace')!;
    for (const [spec, argv, message] of [
      [trust, ['--nope'], /Unknown option '--nope'/],
      [trust, ['a', 'b'], /at most 1 argument \(PATH\); unexpected: b/],
      [retrace, [], /--mapping FILE is required/],
      [trust, ['--home', ' '], /--home needs a directory/],
    ] as const) {
      expect(() => parseCommandArguments(spec, argv)).toThrow(message);
    }
    expect(parseCommandArguments(trust, ['--bogus', '--help']).help).toBe(true);
    expect(parseCommandArguments(trust, ['-y', 'dir', '--home', '/tmp/h'])).toEqual({
      input: { values: { yes: true }, positionals: ['dir'] },
      help: false,
      home: '/tmp/h',
    });
  });
});

describe('completion candidates', () => {
  test.each([
    [[''], ['mcp', 'events', 'trust']],
    [['ev'], ['events']],
    [['events', 'v'], ['verify']],
    [['events', 'list', '--ty'], ['--type']],
    [['--home', '/tmp', 'events', 'verify', '--dig'], ['--digest']],
    [['events', 'verify', '--digest', ''], [':file']],
    [['mcp', '--toolsets', 'core,b'], ['core,build']],
    [['mcp', '--project', ''], [':directory']],
    [
      ['logcat', '--min-level', ''],
      ['V', 'D', 'I', 'W', 'E', 'F'],
    ],
    [['trust', ''], [':directory']],
    [['retrace', '--mapping', 'm.txt', ''], [':file']],
    [
      ['completion', ''],
      ['bash', 'zsh', 'fish'],
    ],
    [
      ['help', 'events', 't'],
      ['tail', 'trace'],
    ],
    [
      ['events', 'trace', ''],
      ['install', 'build', 'session'],
    ],
    [['--ver'], ['--version']],
  ])('%j → %j', async (words, expected) => {
    const candidates = await completionCandidates(words);
    if (words.length === 1 && words[0] === '') expect(candidates).toEqual(expect.arrayContaining(expected));
    else expect(candidates).toEqual(expected);
  });

  test('hidden commands are not offered', async () => {
    const candidates = await completionCandidates(['']);
    for (const hidden of ['build-worker', 'logcat-worker', '__complete']) expect(candidates).not.toContain(hidden);
  });
});
