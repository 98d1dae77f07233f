import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { CLI, type CliEnv, REPO_ROOT, runCli } from '../../support/mcp-client.js';
import { createTempHome } from '../../support/temp-home.js';

/*
 * `droidwright setup` against fake home directories. claude, codex and gemini are stub CLIs on a PATH of
 * their own: each records its argv and, like the real one, writes the registration to its config file,
 * which is how setup sees on its next run that nothing is left to do.
 */
const STUB = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const name = path.basename(process.argv[1]);
const args = process.argv.slice(2);
fs.appendFileSync(process.env.STUB_LOG, JSON.stringify([name, ...args]) + '\\n');
const home = process.env.HOME;
const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});
const writeJson = (file, doc) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
};
if (args[0] !== 'mcp') process.exit(2);
if (name === 'codex') {
  const file = path.join(home, '.codex', 'config.toml');
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  text = text.replace(new RegExp('\\\\n?\\\\[mcp_servers\\\\.' + args[2] + '\\\\][^\\\\[]*'), '\\n');
  if (args[1] === 'add') {
    const [command, ...rest] = args.slice(args.indexOf('--') + 1);
    text += '\\n[mcp_servers.' + args[2] + ']\\ncommand = ' + JSON.stringify(command) + '\\nargs = ' + JSON.stringify(rest) + '\\n';
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  process.exit(0);
}
// claude and gemini: mcp add|remove --scope user <name> …
const file = name === 'claude' ? path.join(home, '.claude.json') : path.join(home, '.gemini', 'settings.json');
const doc = readJson(file);
doc.mcpServers ??= {};
const server = args[4];
if (args[1] === 'remove') delete doc.mcpServers[server];
else {
  const [command, ...rest] = name === 'claude' ? args.slice(args.indexOf('--') + 1) : args.slice(5);
  doc.mcpServers[server] = name === 'claude' ? { type: 'stdio', command, args: rest, env: {} } : { command, args: rest };
}
writeJson(file, doc);
`;

const SKILL = readFileSync(join(REPO_ROOT, 'skills', 'droidwright', 'SKILL.md'), 'utf8');
const LAUNCH = [process.execPath, CLI, 'mcp'];

const VSCODE_BEFORE = `{
  // Servers I added by hand.
  "servers": {
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" }, // keep me
  },
  "inputs": []
}
`;
const CODEX_BEFORE = 'model = "o3"\n\n[mcp_servers.other]\ncommand = "other-server"\n';

interface SetupJson {
  ok: boolean;
  changed: boolean;
  dry_run: boolean;
  launch: { command: string; args: string[]; kind: string };
  agents: {
    id: string;
    installed: boolean;
    method: string;
    result: string;
    steps: { kind: string; argv?: string[]; path?: string; action?: string; backup?: string; diff?: string }[];
  }[];
}

describe('droidwright setup', () => {
  const temp = createTempHome('e2e-setup');
  let counter = 0;

  /** A fake HOME with every agent installed: three by their stub CLI, VS Code and Cursor by their folders. */
  function fakeHome(options: { stubs?: boolean } = {}) {
    const home = join(temp.home, `home-${++counter}`);
    const bin = join(home, 'bin');
    mkdirSync(bin, { recursive: true });
    mkdirSync(join(home, '.config', 'Code', 'User'), { recursive: true });
    mkdirSync(join(home, '.cursor'), { recursive: true });
    mkdirSync(join(home, '.codex'), { recursive: true });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.config', 'Code', 'User', 'mcp.json'), VSCODE_BEFORE);
    writeFileSync(join(home, '.codex', 'config.toml'), CODEX_BEFORE);
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ numStartups: 3, mcpServers: {} }));
    if (options.stubs !== false)
      for (const name of ['claude', 'codex', 'gemini']) {
        writeFileSync(join(bin, name), STUB);
        chmodSync(join(bin, name), 0o755);
      }
    const log = join(home, 'stub-argv.log');
    const env: CliEnv = {
      home: join(home, '.droidwright'),
      adbPort: 0,
      extra: { HOME: home, PATH: [bin, dirname(process.execPath)].join(delimiter), STUB_LOG: log, XDG_CONFIG_HOME: '' },
    };
    const calls = (): string[][] =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as string[])
        : [];
    return { home, env, calls };
  }

  async function setup(env: CliEnv, args: string[] = []) {
    const result = await runCli(env, ['setup', '--json', ...args]);
    return { code: result.code, stderr: result.stderr, json: JSON.parse(result.stdout) as SetupJson };
  }

  afterAll(() => temp.cleanup());

  test('registers with every agent found, through its CLI or its config file, and installs the skill', async () => {
    const { home, env, calls } = fakeHome();
    const { code, stderr, json } = await setup(env);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(json.launch).toMatchObject({ command: process.execPath, args: [CLI, 'mcp'], kind: 'node' });
    expect(json.agents.map((a) => [a.id, a.method, a.result])).toEqual([
      ['claude-code', 'cli', 'changed'],
      ['codex', 'cli', 'changed'],
      ['gemini-cli', 'cli', 'changed'],
      ['vscode', 'config', 'changed'],
      ['cursor', 'config', 'changed'],
    ]);
    expect(calls()).toEqual([
      ['claude', 'mcp', 'add', '--scope', 'user', 'droidwright', '--', ...LAUNCH],
      ['codex', 'mcp', 'add', 'droidwright', '--', ...LAUNCH],
      ['gemini', 'mcp', 'add', '--scope', 'user', 'droidwright', ...LAUNCH],
    ]);

    // VS Code: our entry added, the comments, the other server and its trailing comma kept; a backup and a diff.
    const vscodeFile = join(home, '.config', 'Code', 'User', 'mcp.json');
    const vscodeText = readFileSync(vscodeFile, 'utf8');
    expect(vscodeText).toContain('// Servers I added by hand.');
    expect(vscodeText).toContain(
      '"github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" }, // keep me',
    );
    expect(vscodeText).toContain('"inputs": []');
    expect(readFileSync(`${vscodeFile}.droidwright-backup`, 'utf8')).toBe(VSCODE_BEFORE);
    const vscodeStep = json.agents.find((a) => a.id === 'vscode')!.steps[0]!;
    expect(vscodeStep).toMatchObject({ kind: 'write', action: 'edit', backup: `${vscodeFile}.droidwright-backup` });
    expect(vscodeStep.diff).toContain('+    "droidwright": {');
    const cursorDoc = JSON.parse(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8'));
    expect(cursorDoc).toEqual({ mcpServers: { droidwright: { command: process.execPath, args: [CLI, 'mcp'] } } });

    for (const skill of [
      join(home, '.claude', 'skills'),
      join(home, '.agents', 'skills'),
      join(home, '.gemini', 'skills'),
      join(home, '.copilot', 'skills'),
      join(home, '.cursor', 'skills'),
    ])
      expect(readFileSync(join(skill, 'droidwright', 'SKILL.md'), 'utf8')).toBe(SKILL);

    // A second run finds everything in place: no CLI runs, no file changes, and it says so.
    const again = await setup(env);
    expect(again.code).toBe(0);
    expect(again.json.changed).toBe(false);
    expect(again.json.agents.every((a) => a.result === 'unchanged')).toBe(true);
    expect(calls()).toHaveLength(3);
    expect(readFileSync(vscodeFile, 'utf8')).toBe(vscodeText);
    const human = await runCli(env, ['setup']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Nothing changed: everything was already set up.');

    // --remove undoes it: the CLIs' remove, the config files as they were, the skills gone; then nothing to remove.
    const removed = await setup(env, ['--remove']);
    expect(removed.code).toBe(0);
    expect(calls().slice(3)).toEqual([
      ['claude', 'mcp', 'remove', '--scope', 'user', 'droidwright'],
      ['codex', 'mcp', 'remove', 'droidwright'],
      ['gemini', 'mcp', 'remove', '--scope', 'user', 'droidwright'],
    ]);
    expect(readFileSync(vscodeFile, 'utf8')).toBe(VSCODE_BEFORE);
    expect(existsSync(join(home, '.claude', 'skills', 'droidwright'))).toBe(false);
    expect(existsSync(join(home, '.cursor', 'skills', 'droidwright'))).toBe(false);
    const twice = await setup(env, ['--remove']);
    expect(twice.json.agents.every((a) => a.result === 'unchanged')).toBe(true);
    expect(calls()).toHaveLength(6);
  });

  test('--dry-run shows every step and its diff and changes nothing', async () => {
    const { home, env, calls } = fakeHome();
    const { code, json } = await setup(env, ['--dry-run']);
    expect(code).toBe(0);
    expect(json.dry_run).toBe(true);
    expect(json.changed).toBe(true);
    expect(json.agents.find((a) => a.id === 'claude-code')!.steps[0]!.argv).toEqual([
      'claude',
      'mcp',
      'add',
      '--scope',
      'user',
      'droidwright',
      '--',
      ...LAUNCH,
    ]);
    expect(json.agents.find((a) => a.id === 'cursor')!.steps[0]).toMatchObject({ action: 'create' });
    expect(calls()).toEqual([]);
    expect(readFileSync(join(home, '.config', 'Code', 'User', 'mcp.json'), 'utf8')).toBe(VSCODE_BEFORE);
    expect(existsSync(join(home, '.cursor', 'mcp.json'))).toBe(false);
    expect(existsSync(join(home, '.claude', 'skills'))).toBe(false);

    const human = await runCli(env, ['setup', '--dry-run']);
    expect(human.stdout).toContain('→ would run: claude mcp add --scope user droidwright --');
    expect(human.stdout).toContain('Dry run: nothing was changed.');
  });

  test('without the CLIs, edits the TOML and JSON configs directly; an outdated registration is replaced', async () => {
    const { home, env, calls } = fakeHome({ stubs: false });
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ numStartups: 3, mcpServers: { droidwright: { command: 'npx', args: ['droidwright', 'mcp'] } } }),
    );
    const { code, json } = await setup(env);
    expect(code).toBe(0);
    expect(json.agents.map((a) => a.method)).toEqual(['config', 'config', 'config', 'config', 'config']);
    expect(calls()).toEqual([]);
    const claude = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
    expect(claude.numStartups).toBe(3);
    expect(claude.mcpServers.droidwright).toMatchObject({ command: process.execPath, args: [CLI, 'mcp'] });
    const toml = readFileSync(join(home, '.codex', 'config.toml'), 'utf8');
    expect(toml.startsWith(CODEX_BEFORE)).toBe(true);
    expect(toml).toContain(`[mcp_servers.droidwright]\ncommand = ${JSON.stringify(process.execPath)}\n`);

    const removed = await setup(env, ['--remove']);
    expect(removed.code).toBe(0);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toBe(CODEX_BEFORE);
  });

  test('a config file it cannot parse is left alone and fails the run; no agent at all exits 1', async () => {
    const { home, env } = fakeHome({ stubs: false });
    writeFileSync(join(home, '.cursor', 'mcp.json'), '{ "mcpServers": { oops } }');
    const { code, json } = await setup(env, ['--agent', 'cursor']);
    expect(code).toBe(1);
    expect(json.agents).toHaveLength(1);
    expect(json.agents[0]).toMatchObject({ id: 'cursor', result: 'failed' });
    expect(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8')).toBe('{ "mcpServers": { oops } }');

    const empty = join(temp.home, 'empty-home');
    mkdirSync(empty);
    const none = await runCli({ ...env, extra: { ...env.extra, HOME: empty } }, ['setup']);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('No supported agent found');
    const usage = await runCli(env, ['setup', '--agent', 'emacs']);
    expect(usage.code).toBe(2);
  });
});
