import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmMode } from '../kernel/runtime-options.js';
import { ToolError } from '../kernel/errors.js';
import type { AnyToolDefinition, ToolKind } from '../kernel/tool-definition.js';
import type { ConfirmationAnswer } from '../plugins/core/core.events.js';
import { redactArguments, truncateUtf8 } from './redaction.js';

/** How long a person has to answer before the call is refused as unanswered. */
export const CONFIRMATION_TIMEOUT_MS = 10 * 60 * 1000;
/** The question is shown to a person and recorded: kept short. */
const MAX_QUESTION_BYTES = 2048;
const MAX_SHOWN_ARGUMENT_BYTES = 160;

const KIND_MEANING: Record<ToolKind, string> = {
  R: 'reads only',
  W: 'changes state',
  D: 'destroys or replaces state',
  O: "runs the project's own code",
};

/** Whether `--confirm <mode>` asks the person before a call of this kind. */
export function needsConfirmation(mode: ConfirmMode | undefined, kind: ToolKind): boolean {
  if (mode === undefined || kind === 'R') return false;
  return mode === 'all-writes' || kind === 'D' || kind === 'O';
}

/**
 * Whether the client can show a form elicitation. An empty `elicitation: {}` means form mode (the
 * capability as first specified); a client that declares only `url` cannot show a plain question.
 */
export function clientCanConfirm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/**
 * What the person is asked: the tool and what kind of act it is, where it acts (device, project), and
 * its arguments as recorded in the audit log (sensitive ones redacted, long ones cut). Pure.
 */
export function confirmationQuestion(
  def: Pick<AnyToolDefinition, 'name' | 'title' | 'kind' | 'sensitive' | 'input'>,
  args: Record<string, unknown>,
  projectRoot: string | null,
): string {
  const shown = redactArguments(args, def.sensitive);
  const lines = [`An AI agent wants droidwright to run ${def.title} (${def.name}), which ${KIND_MEANING[def.kind]}.`];
  if (typeof args.device_serial === 'string') lines.push(`Device: ${args.device_serial}.`);
  else if ('device_serial' in def.input.shape) lines.push('Device: the only online device (none named).');
  lines.push(`Project: ${projectRoot ?? 'none selected'}.`);
  const entries = Object.entries(shown);
  if (entries.length > 0) {
    lines.push('With:');
    for (const [key, value] of entries.slice(0, 20))
      lines.push(
        `  ${key}: ${truncateUtf8(typeof value === 'string' ? value : JSON.stringify(value), MAX_SHOWN_ARGUMENT_BYTES)}`,
      );
  }
  lines.push('Accept to run it; decline to refuse it.');
  return truncateUtf8(lines.join('\n'), MAX_QUESTION_BYTES);
}

export interface ConfirmationOutcome {
  readonly answer: ConfirmationAnswer;
  /** Why there was no answer (client error, timeout, cancelled request). */
  readonly detail: string | null;
  readonly waitedMs: number;
}

/** Sends `elicitation/create` and waits for the person; never throws (no answer is "cancelled"). */
export async function askPerson(
  elicit: (message: string, signal: AbortSignal, timeoutMs: number) => Promise<{ action: string }>,
  question: string,
  signal: AbortSignal,
  timeoutMs = CONFIRMATION_TIMEOUT_MS,
): Promise<ConfirmationOutcome> {
  const started = performance.now();
  const waited = () => Math.max(0, Math.round(performance.now() - started));
  try {
    const result = await elicit(question, signal, timeoutMs);
    const answer: ConfirmationAnswer =
      result.action === 'accept' ? 'accepted' : result.action === 'decline' ? 'declined' : 'cancelled';
    return { answer, detail: null, waitedMs: waited() };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === -32601)
      return {
        answer: 'unsupported',
        detail: 'the client answered that it does not handle elicitation/create',
        waitedMs: waited(),
      };
    const detail = signal.aborted
      ? 'the tool call was cancelled while waiting for the answer'
      : code === -32001
        ? `no answer within ${Math.round(timeoutMs / 1000)} s`
        : `the client failed to ask: ${truncateUtf8((error as Error)?.message ?? String(error), 300)}`;
    return { answer: 'cancelled', detail, waitedMs: waited() };
  }
}

/** The refusal a call gets when the person did not accept it; nothing has run. */
export function confirmationRefusal(
  def: Pick<AnyToolDefinition, 'name'>,
  mode: ConfirmMode,
  outcome: ConfirmationOutcome,
): ToolError {
  const flag = `--confirm ${mode}`;
  switch (outcome.answer) {
    case 'unsupported':
      return new ToolError(
        'CONFIRMATION_UNAVAILABLE',
        `${def.name} did not run: this droidwright server runs with ${flag}, so the user must confirm it, but this MCP client cannot ask them (it does not support elicitation${outcome.detail ? `: ${outcome.detail}` : ''}). Nothing was changed. Ask the user to run it themselves, to use a client that supports elicitation, or to restart droidwright without ${flag}.`,
        { mode },
      );
    case 'declined':
      return new ToolError(
        'CONFIRMATION_DECLINED',
        `${def.name} did not run: the user declined it (this server runs with ${flag}). Nothing was changed. Do not retry it; ask the user what they want instead.`,
        { mode, answer: outcome.answer },
      );
    default:
      return new ToolError(
        'CONFIRMATION_DECLINED',
        `${def.name} did not run: the user did not confirm it (${outcome.detail ?? 'they dismissed the question'}; this server runs with ${flag}). Nothing was changed. Ask the user before trying again.`,
        { mode, answer: outcome.answer },
      );
  }
}
