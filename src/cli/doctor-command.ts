import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { droidwrightVersion } from '../kernel/version.js';
import {
  HealthChecker,
  type HealthFinding,
  type HealthReport,
  healthFindings,
} from '../plugins/core/services/health-checker.js';
import type { AgentEnvironment, ServerLaunch } from './agents/agent-integration.js';
import { agents } from './agents/index.js';
import { resolveLaunch } from './agents/server-launch.js';
import { runtimeOptions, withContainer, writeOut } from './cli-support.js';
import type { CommandInput } from './command-spec.js';
import type { doctorFlags } from './command-specs.js';
import { agentEnvironment, shippedSkill } from './setup-command.js';

/** `droidwright doctor`'s options, in one place (the CLI framework of the `cli` branch takes them from here). */
interface AgentRegistration {
  id: string;
  name: string;
  registration: 'registered' | 'different' | 'absent';
  registered: ServerLaunch | null;
  config: string;
  skill: 'installed' | 'different' | 'absent';
}

/** An absolute command or script in a registration that no longer exists (droidwright moved or was removed). */
function missingFile(launch: ServerLaunch): string | null {
  return [launch.command, ...launch.args].find((part) => isAbsolute(part) && !existsSync(part)) ?? null;
}

/** With each agent found: is droidwright registered, with a command line that still works, and is the skill there. */
function registrationFindings(env: AgentEnvironment): { findings: HealthFinding[]; agents: AgentRegistration[] } {
  const { launch } = resolveLaunch(false);
  const skill = shippedSkill();
  const findings: HealthFinding[] = [];
  const found: AgentRegistration[] = [];
  for (const agent of agents) {
    const state = agent.state(env, launch, skill);
    if (!state.installed) continue;
    found.push({
      id: agent.id,
      name: agent.name,
      registration: state.registration,
      registered: state.registered,
      config: state.configPath,
      skill: state.skill,
    });
    const check = `agent ${agent.id}`;
    if (state.problem) {
      findings.push({ check, status: 'warning', summary: `${agent.name}: ${state.problem}`, fix: 'Fix the file.' });
      continue;
    }
    const registered = state.registered;
    const commandLine = registered ? [registered.command, ...registered.args].join(' ') : '';
    const missing = registered ? missingFile(registered) : null;
    if (state.registration === 'absent' || (state.registration === 'different' && registered === null))
      findings.push({
        check,
        status: 'warning',
        summary: `${agent.name} is installed but droidwright is not registered with it`,
        fix: 'Run `droidwright setup`.',
      });
    else if (missing)
      findings.push({
        check,
        status: 'warning',
        summary: `${agent.name} starts droidwright as \`${commandLine}\`, but ${missing} no longer exists`,
        fix: 'Run `droidwright setup` to register this installation.',
      });
    else
      findings.push({
        check,
        status: 'ok',
        summary: `${agent.name}: registered as \`${commandLine}\`${state.skill === 'installed' ? ', skill installed' : ''}`,
        fix: null,
      });
    if (state.skill !== 'installed' && !missing && state.registration !== 'absent')
      findings.push({
        check: `skill ${agent.id}`,
        status: 'warning',
        summary: `${agent.name}: the droidwright skill is ${state.skill === 'absent' ? 'not installed' : 'out of date'} (${state.skillPath})`,
        fix: 'Run `droidwright setup`.',
      });
  }
  return { findings, agents: found };
}

const MARK: Record<HealthFinding['status'], string> = { ok: '✓', warning: '!', error: '✗' };

function renderHuman(findings: HealthFinding[]): string {
  const lines = [`droidwright doctor ${droidwrightVersion()}`, ''];
  for (const f of findings) {
    lines.push(`${MARK[f.status]} ${f.summary}`);
    if (f.fix) lines.push(`    fix: ${f.fix}`);
  }
  const errors = findings.filter((f) => f.status === 'error').length;
  const warnings = findings.filter((f) => f.status === 'warning').length;
  lines.push('');
  lines.push(
    errors > 0
      ? `✗ ${errors} problem(s) block work${warnings > 0 ? `, ${warnings} warning(s)` : ''}.`
      : warnings > 0
        ? `✓ Nothing blocks work; ${warnings} warning(s).`
        : '✓ Everything is ready.',
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The health check for a person: the same HealthChecker as run_health_check (plus the event log's chain and
 * the agents' registrations), each finding with its fix. Exit 1 when something blocks work.
 */
export async function runDoctorCommand({ values }: CommandInput<typeof doctorFlags>): Promise<number> {
  const env = agentEnvironment();
  return withContainer(runtimeOptions({ projectPath: values.project }), async (container) => {
    const report: HealthReport = await container.get(HealthChecker).run(undefined, { verifyEventLog: true });
    const registrations = registrationFindings(env);
    const findings = [...healthFindings(report), ...registrations.findings];
    const ok = !findings.some((f) => f.status === 'error');
    if (values.json)
      await writeOut(
        `${JSON.stringify({ ok, version: droidwrightVersion(), findings, report, agents: registrations.agents })}\n`,
      );
    else await writeOut(renderHuman(findings));
    return ok ? 0 : 1;
  });
}
