/*
 * What `droidwright setup` knows about one coding agent: how to tell it is installed, where it keeps its MCP
 * servers, how to register one (its own CLI when it has one, else an edit of its config file) and where it
 * reads skills. Each agent is one descriptor in its own module; McpAgent does the work for all of them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEntry, removeEntry, setEntry } from './jsonc-document.js';
import { readTomlServer, removeTomlServer, setTomlServer } from './toml-servers.js';

/** The name droidwright is registered under, in every agent. */
export const SERVER_NAME = 'droidwright';

/** The command line an agent starts the server with. */
export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
}

export interface AgentEnvironment {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  /** An executable on PATH (absolute entries only), or null. */
  which(name: string): string | null;
}

export type ConfigFormat =
  /** A JSON (with comments) file: the server is `<parent>.droidwright`. */
  | { readonly kind: 'json'; readonly parent: string; entry(launch: ServerLaunch): Record<string, unknown> }
  /** A TOML file: the server is the table `[mcp_servers.droidwright]`. */
  | { readonly kind: 'toml' };

export interface AgentDescriptor {
  readonly id: string;
  readonly name: string;
  /** The agent's own CLI, when it can add and remove MCP servers. */
  readonly cli?: {
    readonly command: string;
    add(launch: ServerLaunch): string[];
    remove(): string[];
  };
  /** The file the registration lives in (read to know the current state, edited without the CLI). */
  configPath(env: AgentEnvironment): string;
  readonly format: ConfigFormat;
  /** Files or folders whose presence means the agent is installed. */
  installMarkers(env: AgentEnvironment): string[];
  /** The folder the agent reads user skills from (`<dir>/<name>/SKILL.md`). */
  skillsDir(env: AgentEnvironment): string;
}

/** One thing setup does: run the agent's CLI, or write (or delete, `after: null`) a file. */
export type SetupStep =
  | { readonly kind: 'run'; readonly argv: readonly string[]; readonly why: string }
  | {
      readonly kind: 'write';
      readonly path: string;
      readonly before: string | null;
      readonly after: string | null;
      readonly why: string;
      /** Config files are backed up and their change shown as a diff; the skill file is ours. */
      readonly config: boolean;
    };

export type RegistrationState = 'registered' | 'different' | 'absent';

export interface AgentState {
  readonly installed: boolean;
  /** Why we think it is installed: its CLI's path, its config folder. */
  readonly evidence: string[];
  readonly configPath: string;
  /** How setup changes it: through the agent's CLI, or by editing the config file. */
  readonly method: 'cli' | 'config';
  readonly registration: RegistrationState;
  /** What is registered now under our name, when anything is. */
  readonly registered: ServerLaunch | null;
  readonly skillPath: string;
  readonly skill: 'installed' | 'different' | 'absent';
  /** A config file setup cannot read (invalid JSON): nothing is changed in it. */
  readonly problem: string | null;
}

export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export function sameLaunch(a: ServerLaunch | null, b: ServerLaunch): boolean {
  return (
    a !== null && a.command === b.command && a.args.length === b.args.length && a.args.every((x, i) => x === b.args[i])
  );
}

function asLaunch(value: unknown): ServerLaunch | null {
  if (value === null || typeof value !== 'object') return null;
  const { command, args } = value as { command?: unknown; args?: unknown };
  if (typeof command !== 'string') return null;
  return { command, args: Array.isArray(args) ? args.map(String) : [] };
}

export class McpAgent {
  constructor(readonly descriptor: AgentDescriptor) {}

  get id(): string {
    return this.descriptor.id;
  }
  get name(): string {
    return this.descriptor.name;
  }

  skillPath(env: AgentEnvironment): string {
    return join(this.descriptor.skillsDir(env), SERVER_NAME, 'SKILL.md');
  }

  /** The registration under our name: undefined when absent, null when present but not a command line. */
  private read(text: string): ServerLaunch | null | undefined {
    const { format } = this.descriptor;
    if (format.kind === 'toml') return readTomlServer(text, SERVER_NAME);
    const entry = readEntry(text, format.parent, SERVER_NAME);
    return entry === undefined ? undefined : asLaunch(entry);
  }

  state(env: AgentEnvironment, launch: ServerLaunch, skillText: string): AgentState {
    const { descriptor } = this;
    const cliPath = descriptor.cli ? env.which(descriptor.cli.command) : null;
    const evidence = [
      ...(cliPath ? [cliPath] : []),
      ...descriptor.installMarkers(env).filter((marker) => existsSync(marker)),
    ];
    const configPath = descriptor.configPath(env);
    let registered: ServerLaunch | null | undefined;
    let problem: string | null = null;
    try {
      const text = readText(configPath);
      registered = text === null ? undefined : this.read(text);
    } catch (error) {
      problem = `cannot read ${configPath}: ${(error as Error).message}`;
    }
    const skillPath = this.skillPath(env);
    const skillNow = readText(skillPath);
    return {
      installed: evidence.length > 0,
      evidence,
      configPath,
      method: cliPath ? 'cli' : 'config',
      registration: registered === undefined ? 'absent' : sameLaunch(registered, launch) ? 'registered' : 'different',
      registered: registered ?? null,
      skillPath,
      skill: skillNow === null ? 'absent' : skillNow === skillText ? 'installed' : 'different',
      problem,
    };
  }

  /** Nothing when the same command line is already registered and the skill is current. */
  registerSteps(state: AgentState, launch: ServerLaunch, skillText: string): SetupStep[] {
    const steps: SetupStep[] = [];
    const { cli, format } = this.descriptor;
    if (state.registration !== 'registered') {
      const why =
        state.registration === 'different'
          ? `replace the droidwright server registered as \`${[state.registered?.command, ...(state.registered?.args ?? [])].join(' ')}\``
          : 'register droidwright mcp';
      if (state.method === 'cli' && cli) {
        if (state.registration === 'different') steps.push({ kind: 'run', argv: [cli.command, ...cli.remove()], why });
        steps.push({ kind: 'run', argv: [cli.command, ...cli.add(launch)], why: 'register droidwright mcp' });
      } else {
        const before = readText(state.configPath);
        const after =
          format.kind === 'toml'
            ? setTomlServer(before ?? '', SERVER_NAME, launch)
            : setEntry(before ?? '', format.parent, SERVER_NAME, format.entry(launch));
        steps.push({ kind: 'write', path: state.configPath, before, after, why, config: true });
      }
    }
    if (state.skill !== 'installed')
      steps.push({
        kind: 'write',
        path: state.skillPath,
        before: readText(state.skillPath),
        after: skillText,
        why: state.skill === 'different' ? 'update the droidwright skill' : 'install the droidwright skill',
        config: false,
      });
    return steps;
  }

  removeSteps(state: AgentState): SetupStep[] {
    const steps: SetupStep[] = [];
    const { cli, format } = this.descriptor;
    if (state.registration !== 'absent') {
      const why = 'remove the droidwright server';
      if (state.method === 'cli' && cli) steps.push({ kind: 'run', argv: [cli.command, ...cli.remove()], why });
      else {
        const before = readText(state.configPath) ?? '';
        const after =
          format.kind === 'toml'
            ? removeTomlServer(before, SERVER_NAME)
            : removeEntry(before, format.parent, SERVER_NAME);
        steps.push({ kind: 'write', path: state.configPath, before, after, why, config: true });
      }
    }
    if (state.skill !== 'absent')
      steps.push({
        kind: 'write',
        path: state.skillPath,
        before: readText(state.skillPath),
        after: null,
        why: 'remove the droidwright skill',
        config: false,
      });
    return steps;
  }
}
