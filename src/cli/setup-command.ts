import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolveHostExecutable } from '../kernel/host-executable.js';
import { UsageError } from '../kernel/usage-error.js';
import {
  type AgentEnvironment,
  type AgentState,
  type McpAgent,
  readText,
  type SetupStep,
} from './agents/agent-integration.js';
import { agents } from './agents/index.js';
import { packageRoot, resolveLaunch } from './agents/server-launch.js';
import { unifiedDiff } from './agents/text-diff.js';
import { writeOut } from './cli-support.js';
import type { CommandInput } from './command-spec.js';
import type { setupFlags } from './command-specs.js';

/** `droidwright setup`'s options, in one place (the CLI framework of the `cli` branch takes them from here). */
/** A CLI step gets this long: `claude mcp add` only edits a file. */
const CLI_TIMEOUT_MS = 60_000;

export const BACKUP_SUFFIX = '.droidwright-backup';

export function agentEnvironment(env: NodeJS.ProcessEnv = process.env): AgentEnvironment {
  return {
    home: env.HOME?.trim() || homedir(),
    env,
    platform: process.platform,
    which: (name) => resolveHostExecutable(name, { env }),
  };
}

/** The agent skill shipped in the package (skills/droidwright/SKILL.md). */
export function shippedSkill(): string {
  const path = join(packageRoot(), 'skills', 'droidwright', 'SKILL.md');
  const text = readText(path);
  if (text === null) throw new Error(`the package has no ${path}; reinstall droidwright`);
  return text;
}

interface StepReport {
  kind: SetupStep['kind'];
  why: string;
  argv?: readonly string[];
  path?: string;
  action?: 'create' | 'edit' | 'delete';
  backup?: string;
  diff?: string;
  ok: boolean;
  error?: string;
}

interface AgentReport {
  id: string;
  name: string;
  installed: boolean;
  evidence: string[];
  method: AgentState['method'];
  config: string;
  registration: AgentState['registration'];
  skill: { path: string; state: AgentState['skill'] };
  result: 'changed' | 'unchanged' | 'failed' | 'skipped' | 'not-installed';
  steps: StepReport[];
  problem?: string;
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function tildify(path: string, home: string): string {
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function removeEmptyDir(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // Not there or not empty: leave it.
  }
}

/** Runs or writes one step; a config file gets a backup of what it was before. */
function perform(step: SetupStep, env: AgentEnvironment): StepReport {
  if (step.kind === 'run') {
    const report: StepReport = { kind: 'run', why: step.why, argv: step.argv, ok: false };
    const file = env.which(step.argv[0]!);
    if (!file) return { ...report, error: `${step.argv[0]} is no longer on PATH` };
    const result = spawnSync(file, step.argv.slice(1), {
      env: env.env,
      encoding: 'utf8',
      timeout: CLI_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (result.error) return { ...report, error: result.error.message };
    if (result.status !== 0) {
      const output = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().slice(-500);
      return {
        ...report,
        error: `exited with ${result.status ?? result.signal}${output ? `: ${output}` : ''}`,
      };
    }
    return { ...report, ok: true };
  }
  const action = step.after === null ? 'delete' : step.before === null ? 'create' : 'edit';
  const report: StepReport = { kind: 'write', why: step.why, path: step.path, action, ok: false };
  if (step.config) report.diff = unifiedDiff(step.path, step.before ?? '', step.after ?? '');
  try {
    if (step.config && step.before !== null) {
      report.backup = step.path + BACKUP_SUFFIX;
      copyFileSync(step.path, report.backup);
    }
    if (step.after === null) {
      unlinkSync(step.path);
      removeEmptyDir(dirname(step.path));
    } else {
      mkdirSync(dirname(step.path), { recursive: true });
      // In place (not a new file renamed over it), so a config file that is a symlink, as dotfile managers
      // keep them, stays one.
      writeFileSync(step.path, step.after);
    }
    return { ...report, ok: true };
  } catch (error) {
    return { ...report, error: (error as Error).message };
  }
}

function planned(step: SetupStep): StepReport {
  if (step.kind === 'run') return { kind: 'run', why: step.why, argv: step.argv, ok: true };
  const action = step.after === null ? 'delete' : step.before === null ? 'create' : 'edit';
  return {
    kind: 'write',
    why: step.why,
    path: step.path,
    action,
    ...(step.config ? { diff: unifiedDiff(step.path, step.before ?? '', step.after ?? '') } : {}),
    ok: true,
  };
}

function selectAgents(names: readonly string[] | undefined): readonly McpAgent[] {
  if (!names || names.length === 0) return agents;
  const wanted = names
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = wanted.filter((n) => !agents.some((a) => a.id === n));
  if (unknown.length > 0)
    throw new UsageError(`Unknown agent ${unknown.join(', ')}. Use one of: ${agents.map((a) => a.id).join(', ')}.`);
  return agents.filter((a) => wanted.includes(a.id));
}

function renderHuman(
  reports: AgentReport[],
  header: string,
  options: { dryRun: boolean; remove: boolean; home: string; commandLine: string },
): string {
  const out: string[] = [header, ''];
  const t = (p: string) => tildify(p, options.home);
  for (const r of reports.filter((r) => r.result !== 'not-installed')) {
    out.push(`${r.name}  (${r.evidence.map(t).join(', ')})`);
    if (r.problem) out.push(`  ✗ ${r.problem}; fix the file, then run setup again`);
    if (r.result === 'unchanged')
      out.push(options.remove ? '  = nothing to remove' : '  = already registered, skill up to date');
    for (const s of r.steps) {
      const mark = options.dryRun ? '→' : s.ok ? '✓' : '✗';
      const verb = options.dryRun ? 'would ' : '';
      if (s.kind === 'run') out.push(`  ${mark} ${verb}run: ${s.argv!.map(quote).join(' ')}`);
      else
        out.push(`  ${mark} ${verb}${s.action} ${t(s.path!)} (${s.why})${s.backup ? `; backup: ${t(s.backup)}` : ''}`);
      if (s.error) out.push(`    ${s.error}`);
      if (s.diff) out.push(...s.diff.split('\n').map((l) => `      ${l}`));
    }
  }
  const missing = reports.filter((r) => r.result === 'not-installed');
  if (missing.length > 0) out.push(`Not found: ${missing.map((r) => r.name).join(', ')}.`);
  const changed = reports.some((r) => r.result === 'changed' || r.result === 'failed');
  const failed = reports.some((r) => r.result === 'failed');
  out.push('');
  if (reports.every((r) => r.result === 'not-installed'))
    out.push(
      `No supported agent found (looked for the claude, codex and gemini CLIs on PATH and for ~/.claude.json, ~/.codex, ~/.gemini, VS Code's user folder and ~/.cursor). Any other stdio MCP client: register the command \`${options.commandLine}\`.`,
    );
  else if (failed) out.push('Some steps failed (see ✗ above); fix them and run setup again.');
  else if (!changed)
    out.push(options.remove ? 'Nothing to remove.' : 'Nothing changed: everything was already set up.');
  else if (options.dryRun) out.push('Dry run: nothing was changed.');
  else if (!options.remove)
    out.push(
      'Done. Restart the agent (or reload its MCP servers) to start droidwright; check with `droidwright doctor`.',
    );
  else out.push('Done: droidwright is no longer registered with these agents.');
  return `${out.join('\n')}\n`;
}

export async function runSetupCommand({ values }: CommandInput<typeof setupFlags>): Promise<number> {
  const dryRun = values['dry-run'] === true;
  const remove = values.remove === true;
  if (remove && values.npx)
    throw new UsageError('--npx chooses the command to register; it has no meaning with --remove.');
  const selected = selectAgents(values.agent);
  const env = agentEnvironment();
  const resolved = resolveLaunch(values.npx === true);
  const { launch } = resolved;
  const skillText = shippedSkill();
  const commandLine = [launch.command, ...launch.args].map(quote).join(' ');

  const reports: AgentReport[] = [];
  for (const agent of selected) {
    const state = agent.state(env, launch, skillText);
    const base = {
      id: agent.id,
      name: agent.name,
      installed: state.installed,
      evidence: state.evidence,
      method: state.method,
      config: state.configPath,
      registration: state.registration,
      skill: { path: state.skillPath, state: state.skill },
    };
    if (!state.installed) {
      reports.push({ ...base, result: 'not-installed', steps: [] });
      continue;
    }
    if (state.problem) {
      reports.push({ ...base, result: 'failed', steps: [], problem: state.problem });
      continue;
    }
    const steps = remove ? agent.removeSteps(state) : agent.registerSteps(state, launch, skillText);
    if (steps.length === 0) {
      reports.push({ ...base, result: 'unchanged', steps: [] });
      continue;
    }
    if (dryRun) {
      reports.push({ ...base, result: 'changed', steps: steps.map(planned) });
      continue;
    }
    const done: StepReport[] = [];
    for (const step of steps) {
      const report = perform(step, env);
      done.push(report);
      if (!report.ok) break;
    }
    let result: AgentReport['result'] = done.every((s) => s.ok) ? 'changed' : 'failed';
    // The agent's CLI said yes; its config must now say the same, or the CLI did something else.
    const after = agent.state(env, launch, skillText);
    const expected = remove ? after.registration === 'absent' : after.registration === 'registered';
    let problem: string | undefined;
    if (result === 'changed' && !expected) {
      result = 'failed';
      problem = `after the steps ${after.configPath} ${remove ? 'still registers droidwright' : 'does not register this command line'}`;
    }
    reports.push({ ...base, result, steps: done, ...(problem ? { problem } : {}) });
  }

  const ok = reports.every((r) => r.result !== 'failed');
  const anyInstalled = reports.some((r) => r.result !== 'not-installed');
  if (values.json) {
    await writeOut(
      `${JSON.stringify({
        ok,
        dry_run: dryRun,
        remove,
        launch: { command: launch.command, args: launch.args, kind: resolved.kind, reason: resolved.reason },
        changed: reports.some((r) => r.result === 'changed'),
        agents: reports,
      })}\n`,
    );
  } else {
    const header = remove
      ? `${dryRun ? 'Dry run: would remove' : 'Removing'} droidwright from the agents found.`
      : `${dryRun ? 'Dry run: would register' : 'Registering'} \`${commandLine}\` as the MCP server "droidwright"\n  (${resolved.reason}).`;
    await writeOut(renderHuman(reports, header, { dryRun, remove, home: env.home, commandLine }));
  }
  if (!anyInstalled) return 1;
  return ok ? 0 : 1;
}
